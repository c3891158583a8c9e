/* Print page: start the PDF as a background job, show its progress, then download it.
   Without this script the form still works: it asks for the PDF directly and the browser waits. */
(function () {
  "use strict";
  const form = document.getElementById("print-form");
  if (!form || !window.fetch) return;
  const box = document.getElementById("print-progress");
  const bar = document.getElementById("print-bar");
  const status = document.getElementById("print-status");
  const submit = document.getElementById("print-submit");

  function token() {
    const meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.getAttribute("content") : "";
  }

  function show(job) {
    const stage = job.stage === "pages" ? Workbench.t("Laying out sheets") : Workbench.t("Drawing card faces");
    if (job.total > 0) {
      bar.max = job.total;
      bar.value = job.done;
      status.textContent = Workbench.t("%(stage)s: %(done)s of %(total)s", { stage: stage, done: job.done, total: job.total });
    } else {
      bar.removeAttribute("value");
      status.textContent = Workbench.t("%(stage)s…", { stage: stage });
    }
  }

  async function poll(url) {
    for (;;) {
      const response = await fetch(url, { credentials: "same-origin", headers: { "Accept": "application/json" } });
      const job = await response.json();
      if (!response.ok) throw new Error(job.error_text || job.error || Workbench.t("status %(code)s", { code: response.status }));
      if (job.state === "error") throw new Error(job.message_text || job.message);
      if (job.state === "done") return job;
      show(job);
      await new Promise(function (resolve) { setTimeout(resolve, 400); });
    }
  }

  // The first sheet as it will print: rendered by the server from the form's current options,
  // again whenever an option changes (debounced), and on demand from the button.
  const previewButton = document.getElementById("preview-button");
  const preview = document.getElementById("print-preview");
  const previewPages = document.getElementById("preview-pages");
  const previewStatus = document.getElementById("preview-status");
  let previewTimer = null;
  let previewSeq = 0;

  async function showPreview() {
    const seq = ++previewSeq;
    preview.hidden = false;
    previewStatus.textContent = Workbench.t("Rendering the first sheet…");
    try {
      const response = await fetch(previewButton.dataset.url, {
        method: "POST", credentials: "same-origin",
        headers: { "X-CSRF-Token": token(), "Accept": "application/json" },
        body: new FormData(form),
      });
      const data = await response.json();
      if (seq !== previewSeq) return;  // a newer preview is on its way
      if (!response.ok) throw new Error(data.error_text || data.error || Workbench.t("status %(code)s", { code: response.status }));
      previewPages.replaceChildren();
      data.pages.forEach(function (page) {
        const figure = document.createElement("figure");
        const img = document.createElement("img");
        const caption = document.createElement("figcaption");
        const label = page.side === "fronts" ? Workbench.t("Fronts") : Workbench.t("Backs");
        img.src = page.src;
        img.width = page.width;
        img.height = page.height;
        img.alt = Workbench.tn("%(side)s of sheet 1: %(n)s card on %(paper)s", "%(side)s of sheet 1: %(n)s cards on %(paper)s",
                               data.cards_on_sheet, { side: label, n: data.cards_on_sheet, paper: data.paper.toUpperCase() }) +
          (data.crop_marks ? Workbench.t(", with crop marks") : Workbench.t(", no crop marks")) +
          (data.bleed_mm ? Workbench.t(", %(mm)s mm bleed", { mm: data.bleed_mm }) : "");
        caption.textContent = label;
        figure.append(img, caption);
        previewPages.append(figure);
      });
      const counts = { sheets: data.sheets, n: data.cards_on_sheet, per: data.per_page };
      previewStatus.textContent = data.pages.length > 1
        ? Workbench.t("Sheet 1 of %(sheets)s: %(n)s of up to %(per)s cards per sheet, fronts and backs.", counts)
        : Workbench.t("Sheet 1 of %(sheets)s: %(n)s of up to %(per)s cards per sheet, fronts only.", counts);
    } catch (error) {
      if (seq !== previewSeq) return;
      previewPages.replaceChildren();
      previewStatus.textContent = Workbench.t("No preview: %(error)s", { error: error.message });
    }
  }

  if (previewButton) {
    previewButton.hidden = false;
    previewButton.addEventListener("click", showPreview);
    form.addEventListener("change", function () {
      if (preview.hidden) return;  // only follow changes once the designer asked for a preview
      clearTimeout(previewTimer);
      previewTimer = setTimeout(showPreview, 400);
    });
  }

  form.addEventListener("submit", async function (event) {
    event.preventDefault();
    submit.disabled = true;
    box.hidden = false;
    bar.removeAttribute("value");
    status.textContent = Workbench.t("Starting…");
    try {
      const response = await fetch(form.dataset.jobs, {
        method: "POST", credentials: "same-origin",
        headers: { "X-CSRF-Token": token(), "Accept": "application/json" },
        body: new FormData(form),
      });
      const job = await response.json();
      if (!response.ok) throw new Error(job.error_text || job.error || Workbench.t("status %(code)s", { code: response.status }));
      const done = await poll(job.status_url);
      bar.max = 1; bar.value = 1;
      status.textContent = Workbench.t("Ready in %(s)s s. Downloading…", { s: done.seconds });
      window.location.assign(done.download_url);
    } catch (error) {
      status.textContent = Workbench.t("Could not make the PDF: %(error)s", { error: error.message });
      bar.value = 0;
    } finally {
      submit.disabled = false;
    }
  });
})();

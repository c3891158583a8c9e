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
    const stage = job.stage === "pages" ? "Laying out sheets" : "Drawing card faces";
    if (job.total > 0) {
      bar.max = job.total;
      bar.value = job.done;
      status.textContent = stage + ": " + job.done + " of " + job.total;
    } else {
      bar.removeAttribute("value");
      status.textContent = stage + "…";
    }
  }

  async function poll(url) {
    for (;;) {
      const response = await fetch(url, { credentials: "same-origin", headers: { "Accept": "application/json" } });
      const job = await response.json();
      if (!response.ok) throw new Error(job.error || ("status " + response.status));
      if (job.state === "error") throw new Error(job.message);
      if (job.state === "done") return job;
      show(job);
      await new Promise(function (resolve) { setTimeout(resolve, 400); });
    }
  }

  form.addEventListener("submit", async function (event) {
    event.preventDefault();
    submit.disabled = true;
    box.hidden = false;
    bar.removeAttribute("value");
    status.textContent = "Starting…";
    try {
      const response = await fetch(form.dataset.jobs, {
        method: "POST", credentials: "same-origin",
        headers: { "X-CSRF-Token": token(), "Accept": "application/json" },
        body: new FormData(form),
      });
      const job = await response.json();
      if (!response.ok) throw new Error(job.error || ("status " + response.status));
      const done = await poll(job.status_url);
      bar.max = 1; bar.value = 1;
      status.textContent = "Ready in " + done.seconds + " s. Downloading…";
      window.location.assign(done.download_url);
    } catch (error) {
      status.textContent = "Could not make the PDF: " + error.message;
      bar.value = 0;
    } finally {
      submit.disabled = false;
    }
  });
})();

// Playtest pages: live progress, sortable card table, step-by-step replay. No inline scripts (CSP).
(function () {
  "use strict";
  var t = Workbench.t;

  function csrfToken() {
    var meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.getAttribute("content") : "";
  }

  // ------------------------------------------------------------ progress
  function initProgress(box) {
    var bar = document.getElementById("pt-bar");
    var status = document.getElementById("pt-status");
    var error = document.getElementById("pt-error");
    var cancel = document.getElementById("pt-cancel");
    var url = box.getAttribute("data-progress-url");

    function fmtSeconds(s) {
      if (s === null || s === undefined) return "";
      if (s < 60) return t("%(s)s s", { s: Math.round(s) });
      return t("%(min)s min %(s)s s", { min: Math.floor(s / 60), s: Math.round(s % 60) });
    }

    function poll() {
      fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
        .then(function (r) { return r.json(); })
        .then(function (p) {
          bar.max = p.total || 1;
          bar.value = p.done || 0;
          var text = t("%(done)s of %(total)s games", { done: p.done, total: p.total });
          if (p.games_per_s) text += " · " + t("%(rate)s games/s", { rate: p.games_per_s });
          if (p.eta_s !== null && p.eta_s !== undefined) text += " · " + t("about %(time)s left", { time: fmtSeconds(p.eta_s) });
          status.textContent = text;
          if (p.status === "done" || p.status === "interrupted") {
            // done: the report; interrupted (its server process stopped): the page with Resume
            status.textContent = p.status === "done" ? t("Done — loading the report…") : t("Interrupted");
            window.location.reload();
          } else if (p.status === "error" || p.status === "cancelled") {
            error.hidden = false;
            error.textContent = p.status === "error" ? t("The run failed: %(error)s", { error: p.error_text || p.error }) : t("The run was cancelled.");
            cancel.hidden = true;
          } else {
            window.setTimeout(poll, 500);
          }
        })
        .catch(function () { window.setTimeout(poll, 2000); });
    }

    cancel.addEventListener("click", function () {
      fetch(box.getAttribute("data-cancel-url"), {
        method: "POST", credentials: "same-origin", headers: { "X-CSRF-Token": csrfToken() }
      });
      cancel.disabled = true;
    });
    poll();
  }

  // ------------------------------------------------------------ sortable tables
  function initSortable(table) {
    var buttons = table.querySelectorAll("th button[data-sort]");
    buttons.forEach(function (button, column) {
      var th = button.parentElement;
      var index = Array.prototype.indexOf.call(th.parentElement.children, th);
      button.addEventListener("click", function () {
        var numeric = button.getAttribute("data-sort") === "num";
        var ascending = th.getAttribute("aria-sort") !== "ascending";
        if (numeric && !th.hasAttribute("aria-sort")) ascending = false; // numbers: biggest first
        table.querySelectorAll("th").forEach(function (h) { h.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = a.cells[index].getAttribute("data-value");
          var y = b.cells[index].getAttribute("data-value");
          var order;
          if (numeric) {
            // Empty values (no data) always sort last.
            if (x === "" && y === "") return 0;
            if (x === "") return 1;
            if (y === "") return -1;
            order = parseFloat(x) - parseFloat(y);
          } else {
            order = x.localeCompare(y);
          }
          return ascending ? order : -order;
        });
        rows.forEach(function (row) { body.appendChild(row); });
      });
      void column;
    });
  }

  // ------------------------------------------------------------ replay
  function initReplay(log) {
    var lines = log.querySelectorAll("li");
    if (lines.length < 2) return;
    var shown = 1;
    var count = document.getElementById("step-count");
    var controls = ["step-first", "step-back", "step-next", "step-last"].map(function (id) {
      var el = document.getElementById(id);
      el.hidden = false;
      return el;
    });

    function render() {
      lines.forEach(function (line, i) {
        line.hidden = i >= shown;
        line.classList.toggle("pt-current", i === shown - 1);
      });
      count.textContent = t("Step %(n)s of %(total)s", { n: shown, total: lines.length });
      controls[0].disabled = controls[1].disabled = shown <= 1;
      controls[2].disabled = controls[3].disabled = shown >= lines.length;
      var current = lines[shown - 1];
      if (current && current.scrollIntoView) current.scrollIntoView({ block: "nearest" });
    }

    controls[0].addEventListener("click", function () { shown = 1; render(); });
    controls[1].addEventListener("click", function () { shown = Math.max(1, shown - 1); render(); });
    controls[2].addEventListener("click", function () { shown = Math.min(lines.length, shown + 1); render(); });
    controls[3].addEventListener("click", function () { shown = lines.length; render(); });
    document.addEventListener("keydown", function (event) {
      if (event.target && /INPUT|TEXTAREA|SELECT/.test(event.target.tagName)) return;
      if (event.key === "ArrowRight") controls[2].click();
      if (event.key === "ArrowLeft") controls[1].click();
    });
    render();
  }

  document.addEventListener("DOMContentLoaded", function () {
    var box = document.getElementById("playtest-progress");
    if (box) initProgress(box);
    document.querySelectorAll("table.pt-sortable").forEach(initSortable);
    var log = document.getElementById("replay-log");
    if (log) initReplay(log);
    // Filling a variant field ticks "Compare with this variant": what is typed is never ignored.
    var compare = document.getElementById("compare");
    document.querySelectorAll("[data-variant-field]").forEach(function (field) {
      field.addEventListener("input", function () { if (compare && field.value.trim()) compare.checked = true; });
    });
  });
})();

/* Gallery: apply a filter as soon as it changes (the Apply button stays for keyboard users). */
"use strict";
(function () {
  const form = document.getElementById("gallery-filters");
  if (!form) return;
  form.querySelectorAll("select").forEach(function (select) {
    select.addEventListener("change", function () { form.requestSubmit(); });
  });
  form.addEventListener("submit", function () {
    /* Keep URLs short: drop empty fields from the query string. */
    form.querySelectorAll("input, select").forEach(function (input) {
      if (input.name && input.value === "") input.disabled = true;
    });
  });
})();

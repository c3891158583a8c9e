/* Gallery: apply a filter as soon as it is picked with the mouse. Keyboard users step through a
   closed select with the arrow keys, which fires "change" on every step, so for them the filter
   waits for Enter or the Apply button instead of reloading the page at each step. */
"use strict";
(function () {
  const form = document.getElementById("gallery-filters");
  if (!form) return;
  form.querySelectorAll("select").forEach(function (select) {
    let byKeyboard = false;
    select.addEventListener("keydown", function (event) {
      if (event.key === "Enter") {
        event.preventDefault();
        form.requestSubmit();
        return;
      }
      byKeyboard = true;
    });
    select.addEventListener("mousedown", function () { byKeyboard = false; });
    select.addEventListener("change", function () {
      if (!byKeyboard) form.requestSubmit();
    });
  });
  form.addEventListener("submit", function () {
    /* Keep URLs short: drop empty fields from the query string. */
    form.querySelectorAll("input, select").forEach(function (input) {
      if (input.name && input.value === "") input.disabled = true;
    });
  });
})();

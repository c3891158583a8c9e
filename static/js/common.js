/* Shared helpers: JSON fetch with the CSRF header, element builder, unsaved-changes guard. */
"use strict";

window.Workbench = (function () {
  function csrfToken() {
    const meta = document.querySelector('meta[name="csrf-token"]');
    return meta ? meta.getAttribute("content") : "";
  }

  /* fetch JSON; state-changing requests carry X-CSRF-Token. Resolves {status, ok, body, headers}. */
  async function api(method, url, body, headers) {
    const init = { method: method, headers: Object.assign({ "Accept": "application/json" }, headers || {}),
                   credentials: "same-origin" };
    if (method !== "GET" && method !== "HEAD") init.headers["X-CSRF-Token"] = csrfToken();
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const response = await fetch(url, init);
    let data = null;
    const type = response.headers.get("Content-Type") || "";
    if (type.indexOf("application/json") !== -1) {
      try { data = await response.json(); } catch (e) { data = null; }
    }
    return { status: response.status, ok: response.ok, body: data, headers: response.headers };
  }

  /* el("div", {class: "x", text: "…"}, [children]) — text always set as text, never as HTML. */
  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    Object.entries(attrs || {}).forEach(function ([key, value]) {
      if (value === null || value === undefined || value === false) return;
      if (key === "text") node.textContent = String(value);
      else if (key === "class") node.className = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else if (value === true) node.setAttribute(key, "");
      else node.setAttribute(key, String(value));
    });
    (children || []).forEach(function (child) {
      if (child === null || child === undefined) return;
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return node;
  }

  function debounce(fn, ms) {
    let timer = null;
    return function () {
      const args = arguments;
      clearTimeout(timer);
      timer = setTimeout(function () { fn.apply(null, args); }, ms);
    };
  }

  function readJSON(id) {
    const node = document.getElementById(id);
    return node ? JSON.parse(node.textContent) : null;
  }

  /* Ask before leaving while isDirty() is true. */
  function guardUnsaved(isDirty) {
    window.addEventListener("beforeunload", function (event) {
      if (isDirty()) {
        event.preventDefault();
        event.returnValue = "";
        return "";
      }
      return undefined;
    });
  }

  function fold(text) {
    return String(text).normalize("NFKC").toLowerCase();
  }

  return { api: api, el: el, debounce: debounce, readJSON: readJSON, guardUnsaved: guardUnsaved,
           csrfToken: csrfToken, fold: fold };
})();

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
    // a refusal in the reader's language (the server adds error_text beside the English error)
    if (data && typeof data.error_text === "string") data.error = data.error_text;
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

  /* The page's language: t(message, {name: "x"}) is the message from the page's
     catalogue (the JSON block #i18n, absent in English) with its %(name)s places filled; a message the
     catalogue lacks stays as written. The messages are listed in workbench/web/js_messages.py. */
  let catalogue = null;
  function t(message, params) {
    if (catalogue === null) catalogue = readJSON("i18n") || {};
    const text = Object.prototype.hasOwnProperty.call(catalogue, message) ? catalogue[message] : message;
    if (!params) return text;
    return text.replace(/%\((\w+)\)s/g, function (whole, key) {
      return Object.prototype.hasOwnProperty.call(params, key) ? String(params[key]) : whole;
    });
  }

  /* t() of the singular or the plural message by n (English's rule; Chinese has one form). */
  function tn(singular, plural, n, params) {
    return t(n === 1 ? singular : plural, params);
  }

  function fold(text) {
    return String(text).normalize("NFKC").toLowerCase();
  }

  return { api: api, el: el, debounce: debounce, readJSON: readJSON, guardUnsaved: guardUnsaved,
           csrfToken: csrfToken, fold: fold, t: t, tn: tn };
})();

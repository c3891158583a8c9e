/* Card editor: builds the form from the game definition, validates and previews as you type,
   saves with If-Match and, when the card changed elsewhere, shows both versions to choose from. */
"use strict";
(function () {
  const W = window.Workbench;
  const el = W.el;
  const data = W.readJSON("editor-data");
  if (!data) return;
  const schema = data.schema;
  const urls = data.urls;
  let cardId = data.card_id;
  let version = data.version;
  let original = Object.assign({}, data.card || {});
  let values = Object.assign({}, original);
  let dirty = false;
  let saving = false;
  let validateSeq = 0;
  let previewSeq = 0;
  let localProblems = {};
  let controls = {};
  const effectControls = [];  /* the effects editors, told the rules text after each check */
  function textLanguages() { return (data.effects && data.effects.text_languages) || ["en"]; }

  const form = document.getElementById("card-form");
  // Viewers may try changes (problems, preview) but never save them: no save, no unsaved-changes prompt.
  const readOnly = form.dataset.readOnly === "true";
  const nameInput = document.getElementById("field-name");
  const idInput = document.getElementById("field-id");
  const kindSelect = document.getElementById("field-kind");
  const container = document.getElementById("kind-fields");
  const statusLine = document.getElementById("save-status");
  const title = document.getElementById("editor-title");
  const panel = document.getElementById("conflict-panel");
  const preview = document.getElementById("preview");
  const previewImg = document.getElementById("preview-img");
  const previewNote = document.getElementById("preview-note");

  const knownFields = new Set(["name", "kind"]);
  Object.values(schema.kinds).forEach(function (k) { k.fields.forEach(function (f) { knownFields.add(f.name); }); });

  function cardUrl(id) { return urls.card.replace("__ID__", encodeURIComponent(id)); }
  function editUrl(id) { return urls.edit.replace("__ID__", encodeURIComponent(id)); }
  function setStatus(text, kind) {
    if (readOnly && kind === "dirty") text = W.t("Trying changes: viewers cannot save");
    statusLine.textContent = text;
    statusLine.className = "save-status" + (kind ? " status-" + kind : "");
  }
  function show(value) {
    if (value === undefined || value === null || value === "") return "—";
    if (typeof value === "object") return JSON.stringify(value, null, 1);
    if (value === true) return "yes";
    if (value === false) return "no";
    return String(value);
  }
  function same(a, b) { return JSON.stringify(a === undefined ? null : a) === JSON.stringify(b === undefined ? null : b); }

  /* ------------------------------------------------------------ controls */

  function hints(meta) {
    const parts = [];
    if (meta.minimum !== null && meta.minimum !== undefined && meta.maximum !== null && meta.maximum !== undefined) {
      parts.push(meta.minimum + "–" + meta.maximum);
    } else if (meta.minimum !== null && meta.minimum !== undefined) {
      parts.push(W.t("at least %(n)s", { n: meta.minimum }));
    } else if (meta.maximum !== null && meta.maximum !== undefined) {
      parts.push(W.t("at most %(n)s", { n: meta.maximum }));
    }
    if (meta.also_allowed && meta.also_allowed.length) parts.push(W.t("or %(values)s", { values: meta.also_allowed.join(", ") }));
    if (meta.step_hint) parts.push(W.t("steps of %(n)s", { n: meta.step_hint }));
    if (meta.max_length) parts.push(W.t("up to %(n)s characters", { n: meta.max_length }));
    if (meta.min_items || meta.max_items) {
      parts.push(W.t("choose %(n)s", { n: (meta.min_items || 0) + (meta.max_items ? "–" + meta.max_items : "+") }));
    }
    if (meta.required_when) parts.push(W.t("required when %(condition)s", { condition: conditionText(meta.required_when) }));
    if (meta.forbidden_when) parts.push(W.t("left empty when %(condition)s", { condition: conditionText(meta.forbidden_when) }));
    if (meta.rule) parts.push(meta.rule);
    return parts.join(" · ");
  }

  /* {subtype: ["artifact_creature"]} -> "类型 Subtype is 神器生物 Artifact creature" */
  function conditionText(condition) {
    const fields = (schema.kinds[kindSelect.value] || { fields: [] }).fields;
    return Object.keys(condition).map(function (name) {
      const meta = fields.find(function (f) { return f.name === name; });
      const values = [].concat(condition[name]).map(function (v) {
        const choice = meta && meta.choices ? meta.choices.find(function (c) { return String(c.value) === String(v); }) : null;
        return choice ? choice.label : String(v);
      });
      return W.t("%(field)s is %(values)s", { field: meta ? meta.label : name, values: values.join(W.t(" or ")) });
    }).join(W.t(" and "));
  }

  function wrap(meta, control, useFieldset) {
    const helpId = "help-" + meta.name;
    const problemsId = "problems-" + meta.name;
    const helpText = [meta.help, hints(meta)].filter(Boolean).join(" — ");
    const label = useFieldset
      ? el("legend", {}, [meta.label, meta.required ? el("span", { class: "req", "aria-hidden": "true", text: " *" }) : null])
      : el("label", { for: "field-" + meta.name }, [meta.label, meta.required ? el("span", { class: "req", "aria-hidden": "true", text: " *" }) : null]);
    const help = helpText ? el("p", { class: "help", id: helpId, text: helpText }) : null;
    const problems = el("ul", { class: "field-problems", id: problemsId, "aria-live": "polite" });
    const box = el(useFieldset ? "fieldset" : "div", { class: "field field-" + meta.type, "data-field": meta.name },
                   [label, control, help, problems]);
    if (useFieldset) {
      box.setAttribute("aria-describedby", [help ? helpId : "", problemsId].filter(Boolean).join(" "));
    } else {
      control.setAttribute("aria-describedby", [help ? helpId : "", problemsId].filter(Boolean).join(" "));
    }
    return box;
  }

  function makeControl(meta) {
    const id = "field-" + meta.name;
    const choices = meta.choices || null;
    if (meta.type === "list" && choices) {
      const group = el("div", { class: "check-group", role: "group" });
      let boxes = [];
      function addBox(choice, unknown) {
        const i = boxes.length;
        const input = el("input", { type: "checkbox", id: id + "-" + i, name: meta.name, value: String(choice.value) });
        const label = unknown ? [input, " " + choice.label + " ", el("span", { class: "unknown-value", text: W.t("(not an allowed value)") })]
          : [input, " " + choice.label];
        const box = { input: input, choice: choice, unknown: unknown, node: el("label", { class: "check" + (unknown ? " check-unknown" : ""), for: id + "-" + i }, label) };
        boxes.push(box);
        group.appendChild(box.node);
        return box;
      }
      choices.forEach(function (choice) { addBox(choice, false); });
      return {
        node: wrap(meta, group, true),
        focus: boxes.length ? boxes[0].input : null,
        get: function () {
          const picked = boxes.filter(function (b) { return b.input.checked; }).map(function (b) { return b.choice.value; });
          return picked.length ? picked : undefined;
        },
        set: function (value) {
          /* Values outside the allowed list are shown (ticked, marked) and kept, never dropped. */
          boxes.filter(function (b) { return b.unknown; }).forEach(function (b) { b.node.remove(); });
          boxes = boxes.filter(function (b) { return !b.unknown; });
          const list = Array.isArray(value) ? value : (value === undefined || value === null || value === "" ? [] : [value]);
          list.forEach(function (item) {
            if (!boxes.some(function (b) { return String(b.choice.value) === String(item); })) {
              addBox({ value: item, label: typeof item === "object" ? JSON.stringify(item) : String(item) }, true);
            }
          });
          const shown = list.map(String);
          boxes.forEach(function (b) { b.input.checked = shown.indexOf(String(b.choice.value)) !== -1; });
        },
      };
    }
    if (choices) {
      const select = el("select", { id: id, name: meta.name }, [el("option", { value: "", text: "—" })].concat(
        choices.map(function (choice, i) { return el("option", { value: String(i), text: choice.label }); })));
      let unknown = null;  /* {value, option}: a value outside the allowed list, shown and kept */
      return {
        node: wrap(meta, select), focus: select,
        get: function () {
          if (select.value === "") return undefined;
          if (select.value === "unknown") return unknown ? unknown.value : undefined;
          return choices[Number(select.value)].value;
        },
        set: function (value) {
          if (unknown) { unknown.option.remove(); unknown = null; }
          const i = choices.findIndex(function (c) { return String(c.value) === String(value); });
          if (i === -1 && value !== undefined && value !== null && value !== "") {
            const text = (typeof value === "object" ? JSON.stringify(value) : String(value)) + " " + W.t("(not an allowed value)");
            unknown = { value: value, option: el("option", { value: "unknown", text: text, class: "unknown-value" }) };
            select.appendChild(unknown.option);
            select.value = "unknown";
            return;
          }
          select.value = i === -1 ? "" : String(i);
        },
      };
    }
    if (meta.type === "boolean") {
      const input = el("input", { type: "checkbox", id: id, name: meta.name });
      const node = wrap(meta, input);
      node.classList.add("field-check");
      return {
        node: node, focus: input,
        get: function () { return input.checked ? true : (values[meta.name] !== undefined || meta.default !== null ? false : undefined); },
        set: function (value) { input.checked = value === true; },
      };
    }
    if (meta.type === "integer" || meta.type === "number") {
      const loose = meta.also_allowed && meta.also_allowed.length;
      const input = el("input", loose
        ? { type: "text", id: id, name: meta.name, inputmode: "numeric", autocomplete: "off", class: "narrow" }
        : { type: "number", id: id, name: meta.name, class: "narrow", step: meta.type === "integer" ? (meta.step_hint || 1) : "any",
            min: meta.minimum, max: meta.maximum });
      return {
        node: wrap(meta, input), focus: input,
        get: function () {
          const raw = input.value.trim();
          if (raw === "") return undefined;
          if (/^-?\d+$/.test(raw)) return parseInt(raw, 10);
          if (meta.type === "number" && !isNaN(Number(raw))) return Number(raw);
          return raw;
        },
        set: function (value) { input.value = value === undefined || value === null ? "" : String(value); },
      };
    }
    if (meta.type === "list") {
      const input = el("input", { type: "text", id: id, name: meta.name, autocomplete: "off", placeholder: W.t("comma, separated") });
      return {
        node: wrap(meta, input), focus: input,
        get: function () {
          const items = input.value.split(",").map(function (s) { return s.trim(); }).filter(Boolean);
          return items.length ? items : undefined;
        },
        set: function (value) { input.value = Array.isArray(value) ? value.join(", ") : (value ? String(value) : ""); },
      };
    }
    if (meta.type === "materials") {
      /* One material a line: a card name, or a JSON mapping such as {"filter": {"attribute": "fire"}, "count": 2}. */
      const area = el("textarea", { id: id, name: meta.name, rows: 3, lang: "zh" });
      return {
        node: wrap(meta, area), focus: area,
        get: function () {
          const lines = area.value.split("\n").map(function (s) { return s.trim(); }).filter(Boolean);
          if (!lines.length) return undefined;
          return lines.map(function (line) {
            if (line.charAt(0) !== "{") return line;
            try { return JSON.parse(line); } catch (e) { return line; }
          });
        },
        set: function (value) {
          const list = Array.isArray(value) ? value : (value ? [value] : []);
          area.value = list.map(function (m) { return typeof m === "string" ? m : JSON.stringify(m); }).join("\n");
        },
      };
    }
    if (meta.type === "effects") {
      /* Rows of labelled controls built from the effect schema, with an "Edit as YAML" view (effects_editor.js). */
      const effects = window.WorkbenchEffects.create({
        meta: meta, schema: data.effects.schema, docs: data.effects.docs, textLanguages: data.effects.text_languages,
        onChange: function () { changed(); },
        /* "Use as card text": the rules text the effects read as goes into the card's text (fusion: the
           Chinese into the text, the English into its English gloss when the game has one). */
        useText: function (value, lang) {
          const name = lang === "en" && controls.text_en && textLanguages()[0] !== "en" ? "text_en" : "text";
          const target = controls[name];
          if (!target) return;
          target.set(value);
          touched.add(name);
          changed();
          target.focus.focus();
        },
      });
      effectControls.push(effects);
      return {
        node: wrap(meta, effects.node, true), focus: effects.focus,
        get: function () {
          const value = effects.get();
          const problem = effects.localProblem();
          if (problem) localProblems[meta.name] = problem;
          return value;
        },
        set: effects.set,
        placeProblem: effects.placeProblem,
      };
    }
    const multi = meta.type === "text";
    const input = multi
      ? el("textarea", { id: id, name: meta.name, rows: 3 })
      : el("input", { type: "text", id: id, name: meta.name, autocomplete: "off" });
    if (/[\u3000-\u9fff]/.test(meta.label)) input.setAttribute("lang", "zh");
    return {
      node: wrap(meta, input), focus: input,
      get: function () { return input.value === "" ? undefined : input.value; },
      set: function (value) { input.value = value === undefined || value === null ? "" : String(value); },
    };
  }

  function buildFields(kind) {
    const kindDef = schema.kinds[kind];
    container.textContent = "";
    controls = {};
    if (!kindDef) {
      container.appendChild(el("p", { class: "help", text: W.t("Choose a kind to see its fields.") }));
      return;
    }
    kindDef.fields.forEach(function (meta) {
      const control = makeControl(meta);
      control.meta = meta;
      let value = values[meta.name];
      if (value === undefined && meta.default !== null && meta.default !== undefined && !cardId) value = meta.default;
      control.set(value);
      /* What the control gives back untouched; while it still gives that, the field's value is
         saved exactly as loaded (its type and unknown values included): a save never changes a
         field the designer did not touch. */
      control.initial = value;
      control.untouched = JSON.stringify(control.get() === undefined ? null : control.get());
      controls[meta.name] = control;
      container.appendChild(control.node);
    });
    preview.className = "preview-card kind-" + kind;
  }

  function current(control) {
    const value = control.get();
    return JSON.stringify(value === undefined ? null : value) === control.untouched ? control.initial : value;
  }

  function remember() {
    Object.keys(controls).forEach(function (name) { values[name] = current(controls[name]); });
  }

  function collect() {
    localProblems = {};
    /* An untouched name or kind is saved as it was loaded (a number stays a number). */
    const name = "name" in original && nameInput.value === String(original.name) ? original.name : nameInput.value;
    const kind = kindSelect.value === UNKNOWN_KIND ? original.kind : kindSelect.value;
    const card = { name: name, kind: kind };
    Object.keys(controls).forEach(function (name) {
      const value = current(controls[name]);
      if (value !== undefined) card[name] = value;
    });
    /* Keys no kind of this game knows are kept as they were (the file may hold notes of other
       tools); while the kind is unchanged, so are fields of other kinds the form does not show. */
    const sameKind = same(kind, original.kind);
    Object.keys(original).forEach(function (key) {
      if (key !== "id" && !(key in card) && !(key in controls) && (!knownFields.has(key) || sameKind)) card[key] = original[key];
    });
    return card;
  }

  /* A kind this game does not define is shown as its own choice and kept until another is picked. */
  const UNKNOWN_KIND = "\u0000unknown-kind";
  function showKind(kind) {
    const old = kindSelect.querySelector("option.unknown-value");
    if (old) old.remove();
    if (kind === undefined || kind === null || kind === "") return;
    if (schema.kinds[kind]) { kindSelect.value = kind; return; }
    const option = el("option", { value: UNKNOWN_KIND, class: "unknown-value",
                                  text: String(typeof kind === "object" ? JSON.stringify(kind) : kind) + " " + W.t("(not a kind of this game)") });
    kindSelect.appendChild(option);
    kindSelect.value = UNKNOWN_KIND;
  }

  function loadCard(card) {
    original = Object.assign({}, card);
    values = Object.assign({}, card);
    nameInput.value = card.name === undefined || card.name === null ? "" : String(card.name);
    showKind(card.kind);
    buildFields(kindSelect.value);
    title.textContent = card.name || cardId || W.t("New card");
  }

  /* ------------------------------------------------------------ problems */

  function fieldLabel(name) {
    if (name === "name") return W.t("Name");
    if (name === "kind") return W.t("Kind");
    const control = controls[name];
    return control ? control.meta.label : name;
  }

  /* A new card starts with its required fields empty: those show as quiet hints, not errors,
     until the designer edits that field or tries to save. */
  const touched = new Set();
  let triedSave = Boolean(cardId);
  function asHint(p) {
    return !triedSave && p.code === "card.required" && p.field && !touched.has(p.field);
  }

  function renderProblems(problems) {
    document.querySelectorAll(".field-problems").forEach(function (list) { list.textContent = ""; });
    document.querySelectorAll("[aria-invalid]").forEach(function (node) { node.removeAttribute("aria-invalid"); });
    document.querySelectorAll(".field.invalid, .field.warned").forEach(function (node) { node.classList.remove("invalid", "warned"); });
    const all = problems.slice();
    Object.keys(localProblems).forEach(function (name) {
      all.unshift({ severity: "error", field: name, message: localProblems[name], code: "editor.json" });
    });
    const general = document.getElementById("problem-list");
    general.textContent = "";
    let errors = 0;
    let warnings = 0;
    let hints = 0;
    all.forEach(function (p) {
      if (asHint(p)) {
        hints += 1;
        const list = document.getElementById("problems-" + p.field);
        if (list) list.appendChild(el("li", { class: "problem problem-hint", text: W.t("Required: fill it in before saving.") }));
        return;
      }
      if (p.severity === "error") errors += 1; else warnings += 1;
      /* A control may place its own problems (the effects rows: by the problem's path, next to its entry's row). */
      const control = p.field ? controls[p.field] : null;
      const placed = control && control.placeProblem ? control.placeProblem(p) : null;
      const target = placed ? placed.list : (p.field ? document.getElementById("problems-" + p.field) : null);
      if (target) {
        target.appendChild(el("li", { class: "problem problem-" + p.severity, text: p.text || p.message }));
        const box = target.closest(".field");
        if (box) {
          box.classList.add(p.severity === "error" ? "invalid" : "warned");
          const input = placed && placed.input ? placed.input : box.querySelector("input, select, textarea");
          if (input && p.severity === "error") input.setAttribute("aria-invalid", "true");
        }
      }
      general.appendChild(el("li", { class: "problem problem-" + p.severity }, [
        p.field ? el("strong", { text: fieldLabel(p.field) + W.t(": ") }) : null, p.text || p.message]));
    });
    const summary = document.getElementById("problem-summary");
    if (!errors && !warnings && hints) {
      summary.textContent = W.tn("%(n)s required field to fill", "%(n)s required fields to fill", hints, { n: hints });
      summary.className = "problem-summary";
    } else if (!errors && !warnings) {
      summary.textContent = W.t("No problems");
      summary.className = "problem-summary ok";
    } else {
      summary.textContent = W.tn("%(n)s error", "%(n)s errors", errors, { n: errors }) + W.t(", ") + W.tn("%(n)s warning", "%(n)s warnings", warnings, { n: warnings });
      summary.className = "problem-summary " + (errors ? "bad" : "warn");
    }
  }

  async function validate() {
    const card = collect();
    const seq = ++validateSeq;
    const answer = await W.api("POST", urls.validate, { card: card, id: cardId || undefined });
    if (seq !== validateSeq) return; /* a newer keystroke already asked */
    if (answer.ok && answer.body) {
      renderProblems(answer.body.problems || []);
      effectControls.forEach(function (control) { control.checked(answer.body); });
    }
    else if (answer.body && answer.body.error) renderProblems([{ severity: "error", message: answer.body.error }]);
  }

  /* ------------------------------------------------------------ preview */

  function htmlPreview(card) {
    preview.className = "preview-card kind-" + card.kind;
    preview.querySelector(".pc-name").textContent = card.name || "(no name)";
    const cost = card.cost !== undefined ? card.cost : (card.power !== undefined ? card.power : card.degree);
    preview.querySelector(".pc-cost").textContent = cost === undefined ? "" : String(cost);
    const kindDef = schema.kinds[card.kind];
    const extra = ["subtype", "race", "element", "attribute", "class"].filter(function (k) { return card[k] !== undefined; })
      .map(function (k) {
        const control = controls[k];
        const choice = control && control.meta.choices ? control.meta.choices.find(function (c) { return String(c.value) === String(card[k]); }) : null;
        return choice ? choice.label : String(card[k]);
      });
    preview.querySelector(".pc-type").textContent = [kindDef ? kindDef.label : card.kind].concat(extra).join(" · ");
    preview.querySelector(".pc-text").textContent = card.text || "";
    preview.querySelector(".pc-flavor").textContent = card.flavor || "";
    const stats = preview.querySelector(".pc-stats");
    stats.textContent = "";
    Object.keys(controls).forEach(function (name) {
      const meta = controls[name].meta;
      if (meta.stat && card[name] !== undefined) stats.appendChild(el("span", { class: "pc-stat" }, [el("b", { text: meta.label }), " " + card[name]]));
    });
  }

  async function pngPreview(card) {
    const seq = ++previewSeq;
    try {
      const response = await fetch(urls.preview, {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": W.csrfToken(), "Accept": "image/png" },
        body: JSON.stringify({ card: card, id: cardId || undefined }),
      });
      if (seq !== previewSeq) return;
      if (!response.ok || (response.headers.get("Content-Type") || "").indexOf("image/") !== 0) throw new Error(String(response.status));
      const blob = await response.blob();
      const old = previewImg.src;
      previewImg.src = URL.createObjectURL(blob);
      if (old && old.startsWith("blob:")) URL.revokeObjectURL(old);
      previewImg.hidden = false;
      preview.hidden = true;
      previewNote.textContent = W.t("Rendered as it will print.");
    } catch (e) {
      previewImg.hidden = true;
      preview.hidden = false;
      previewNote.textContent = W.t("Rendered preview unavailable; showing a simple preview.");
    }
  }

  const refreshPreview = W.debounce(function () { if (urls.preview) pngPreview(collect()); }, 450);
  const refreshChecks = W.debounce(validate, 220);

  function changed() {
    dirty = true;
    title.textContent = nameInput.value || (cardId ? cardId : W.t("New card"));
    setStatus(W.t("Unsaved changes"), "dirty");
    htmlPreview(collect());
    refreshChecks();
    refreshPreview();
  }

  /* ------------------------------------------------------------ saving and conflicts */

  async function save() {
    if (saving || readOnly) return;
    if (!triedSave) { triedSave = true; validate(); }  // every required field now counts as an error
    const card = collect();
    if (Object.keys(localProblems).length) {
      renderProblems([]);
      setStatus(W.t("Fix the marked field before saving."), "error");
      return;
    }
    saving = true;
    setStatus(W.t("Saving…"), "busy");
    try {
      let answer;
      if (!cardId) {
        const body = Object.assign({}, card);
        if (idInput && idInput.value.trim()) body.id = idInput.value.trim();
        answer = await W.api("POST", urls.cards, body);
        if (answer.status === 201) {
          dirty = false;
          setStatus(W.t("Created"), "ok");
          window.location.assign(editUrl(answer.body.id));
          return;
        }
      } else {
        answer = await W.api("PUT", cardUrl(cardId), card, { "If-Match": '"' + version + '"' });
        if (answer.ok) {
          version = answer.body.version;
          const undoCurrent = document.getElementById("undo-current");
          if (undoCurrent) undoCurrent.value = version;  // "Undo last change" now undoes this save
          original = Object.assign({}, answer.body.card);
          dirty = false;
          renderProblems(answer.body.problems || []);
          setStatus(W.t("Saved %(time)s", { time: new Date().toLocaleTimeString() }), "ok");
          return;
        }
        if (answer.status === 412 || answer.status === 404) {
          setStatus(W.t("Not saved: the card changed elsewhere"), "error");
          await showConflict(card);
          return;
        }
      }
      const message = answer.body && answer.body.error ? answer.body.error : W.t("Save failed (HTTP %(code)s)", { code: answer.status });
      if (answer.status === 409 || answer.status === 400) {
        const target = document.getElementById(answer.status === 409 || /id/.test(message) ? "problems-id" : "problems-name");
        if (target) { target.textContent = ""; target.appendChild(el("li", { class: "problem problem-error", text: message })); }
      }
      setStatus(message, "error");
    } catch (e) {
      setStatus(W.t("Save failed: %(error)s. Your edits are still here.", { error: e.message }), "error");
    } finally {
      saving = false;
    }
  }

  async function showConflict(mine) {
    const answer = await W.api("GET", cardUrl(cardId));
    const theirs = answer.ok ? answer.body.card : null;
    const theirsVersion = answer.ok ? answer.body.version : null;
    panel.textContent = "";
    panel.hidden = false;
    panel.appendChild(el("h2", { id: "conflict-title", text: theirs
      ? W.t("This card was changed in another tab or by someone else")
      : W.t("This card was deleted in another tab or by someone else") }));
    panel.appendChild(el("p", { text: W.t("Your save was refused, so nothing was overwritten and your edits are still in the form.") + " " +
      (theirs ? W.t("Compare the saved version with yours, then keep either or pick field by field and finish the merge by hand.")
              : W.t("Save yours again as a new card, or discard it.")) }));
    const buttons = el("div", { class: "conflict-actions" });
    if (theirs) {
      const keys = [];
      ["name", "kind"].concat(Object.keys(theirs), Object.keys(mine)).forEach(function (k) { if (keys.indexOf(k) === -1) keys.push(k); });
      const differing = keys.filter(function (k) { return !same(theirs[k], mine[k]); });
      const rows = differing.map(function (k) {
        const pickTheirs = el("input", { type: "radio", name: "pick-" + k, value: "theirs", id: "pick-" + k + "-theirs" });
        const pickMine = el("input", { type: "radio", name: "pick-" + k, value: "mine", id: "pick-" + k + "-mine", checked: true });
        return el("tr", { "data-field": k }, [
          el("th", { scope: "row", text: fieldLabel(k) }),
          el("td", { class: "theirs" }, [el("pre", { text: show(theirs[k]) })]),
          el("td", { class: "mine" }, [el("pre", { text: show(mine[k]) })]),
          el("td", { class: "pick" }, [
            el("label", { for: "pick-" + k + "-theirs" }, [pickTheirs, " " + W.t("saved")]),
            el("label", { for: "pick-" + k + "-mine" }, [pickMine, " " + W.t("mine")]),
          ]),
        ]);
      });
      panel.appendChild(el("table", { class: "data-table conflict-table" }, [
        el("caption", { text: W.tn("%(n)s field differ", "%(n)s fields differ", differing.length, { n: differing.length }) }),
        el("thead", {}, [el("tr", {}, [el("th", { scope: "col", text: W.t("Field") }), el("th", { scope: "col", text: W.t("Saved version (theirs)") }),
          el("th", { scope: "col", text: W.t("Your version") }), el("th", { scope: "col", text: W.t("Use") })])]),
        el("tbody", {}, rows),
      ]));
      buttons.appendChild(el("button", { type: "button", class: "button button-primary", id: "conflict-merge", text: W.t("Merge the chosen fields into the editor"),
        onclick: function () {
          const merged = Object.assign({}, theirs);
          differing.forEach(function (k) {
            const picked = panel.querySelector('input[name="pick-' + k + '"]:checked');
            if (picked && picked.value === "mine") {
              if (mine[k] === undefined) delete merged[k]; else merged[k] = mine[k];
            }
          });
          version = theirsVersion;
          loadCard(merged);
          closeConflict(W.t("Merged into the editor: check it, edit by hand if needed, then save."));
          dirty = true;
          changed();
        } }));
      buttons.appendChild(el("button", { type: "button", class: "button", id: "conflict-keep-mine", text: W.t("Keep mine (replace the saved version)"),
        onclick: function () { version = theirsVersion; closeConflict(W.t("Saving your version…")); save(); } }));
      buttons.appendChild(el("button", { type: "button", class: "button", id: "conflict-keep-theirs", text: W.t("Keep theirs (drop my edits)"),
        onclick: function () {
          version = theirsVersion;
          loadCard(theirs);
          dirty = false;
          closeConflict(W.t("Showing the saved version; your edits were dropped."));
          validate();
          htmlPreview(collect());
        } }));
    } else {
      buttons.appendChild(el("button", { type: "button", class: "button button-primary", id: "conflict-recreate", text: W.t("Save mine as a new card"),
        onclick: async function () {
          const body = Object.assign({}, mine, { id: cardId });
          const created = await W.api("POST", urls.cards, body);
          if (created.status === 201) { dirty = false; window.location.assign(editUrl(created.body.id)); }
          else setStatus(created.body && created.body.error ? created.body.error : W.t("Could not save"), "error");
        } }));
      buttons.appendChild(el("a", { class: "button", href: urls.gallery, text: W.t("Discard mine") }));
    }
    panel.appendChild(buttons);
    panel.focus();
    panel.scrollIntoView({ block: "start" });
  }

  function closeConflict(message) {
    panel.hidden = true;
    panel.textContent = "";
    setStatus(message, "info");
  }

  /* ------------------------------------------------------------ wiring */

  kindSelect.addEventListener("change", function () {
    remember();
    buildFields(kindSelect.value);
    changed();
  });
  function touch(event) {
    const box = event.target.closest ? event.target.closest("[data-field]") : null;
    if (box && box.dataset.field) touched.add(box.dataset.field);
  }
  form.addEventListener("input", function (event) { touch(event); changed(); });
  form.addEventListener("change", function (event) { touch(event); if (event.target !== kindSelect) changed(); });
  form.addEventListener("submit", function (event) { event.preventDefault(); save(); });
  document.addEventListener("keydown", function (event) {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "s") {
      event.preventDefault();
      save();
    }
  });
  W.guardUnsaved(function () { return dirty && !readOnly; });
  window.WorkbenchEditor = { isDirty: function () { return dirty; } };

  /* On a narrow screen the preview sits below the form; a button floats it over the page so it
     stays in view while the designer edits (and follows every keystroke like the wide layout). */
  const previewToggle = document.getElementById("preview-toggle");
  const previewPanel = document.getElementById("preview-panel");
  if (previewToggle && previewPanel) {
    previewToggle.hidden = false;
    previewToggle.addEventListener("click", function () {
      const open = !previewPanel.classList.contains("floating");
      previewPanel.classList.toggle("floating", open);
      previewToggle.setAttribute("aria-expanded", open ? "true" : "false");
      previewToggle.textContent = open ? Workbench.t("Hide preview") : Workbench.t("Show preview");
    });
  }

  showKind(original.kind);
  buildFields(kindSelect.value);
  htmlPreview(collect());
  validate();
  if (urls.preview) pngPreview(collect());
})();

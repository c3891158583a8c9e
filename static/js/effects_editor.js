/* The structured effects editor: a card's `effects` list as rows of labelled controls, built from the
   schema the server emits (workbench/domain/effects/schema.py, from the vocabulary): this script knows
   no trigger, action or key by name, so a new verb of the vocabulary appears here without any change.
   Nested values (a filter, a condition, a cost, the modes of "choose one") are nested controls; a value
   the schema cannot show as controls stays as YAML text, saved unchanged until it is edited.
   editor.js creates it for fields of type `effects` through window.WorkbenchEffects.create(). */
"use strict";
(function () {
  const W = window.Workbench;
  const el = W.el;
  const t = W.t;
  /* Keys written first, in the bundled cards' order; the rest follow the vocabulary's key order, then
     unknown keys as they were (the page's JSON has sorted keys, so an entry's own order is not known). */
  const FIRST_KEYS = ["trigger", "cost", "speed", "once_per_turn", "action", "target", "from", "to"];
  /* Which key a problem code concerns, so its control is marked aria-invalid. */
  const CODE_KEY = {
    "effect.unknown_action": "action", "effect.missing_action": "action", "effect.unknown_trigger": "trigger",
    "effect.missing_trigger": "trigger", "effect.unknown_target": "target", "effect.unknown_duration": "duration",
    "effect.missing_amount": "amount", "effect.bad_amount": "amount", "effect.amount_x": "amount",
    "effect.missing_stats": "stats", "effect.bad_stats": "stats", "effect.unknown_stat": "stats",
    "effect.bad_cost": "cost", "effect.bad_speed": "speed", "effect.bad_once_per_turn": "once_per_turn",
    "effect.unknown_filter": "filter", "effect.bad_filter": "filter", "effect.bad_random": "random",
    "effect.bad_count": "count", "effect.unknown_condition": "if", "effect.bad_condition": "if",
    "effect.missing_counter": "counter", "effect.unknown_side": "side", "effect.unknown_pick": "pick",
    "effect.bad_look": "look", "effect.missing_zone": "to", "effect.unknown_zone": "to", "effect.bad_zone": "from",
  };

  function isMapping(value) { return value !== null && typeof value === "object" && !Array.isArray(value); }
  function has(obj, key) { return Object.prototype.hasOwnProperty.call(obj, key); }
  function text(value) { return value === undefined || value === null ? "" : String(value); }
  function isWhole(value) { return typeof value === "number" && Number.isInteger(value); }

  function toYaml(value) {
    if (value === undefined) return "";
    if (window.jsyaml) return window.jsyaml.dump(value, { lineWidth: 100, noRefs: true });
    return JSON.stringify(value, null, 2);
  }
  function fromYaml(raw) {
    if (raw.trim() === "") return undefined;
    if (window.jsyaml) return window.jsyaml.load(raw);
    return JSON.parse(raw);
  }

  /* A typed box's value: whole numbers become numbers; what the card had stays exactly as it was while
     the box still shows it (so 1.5 or "two" survive a round trip for the validator to report). */
  function loose(raw, before, allowX) {
    const trimmed = raw.trim();
    if (trimmed === "") return undefined;
    if (before !== undefined && trimmed === text(before)) return before;
    if (/^-?\d+$/.test(trimmed)) return parseInt(trimmed, 10);
    if (allowX && /^x$/i.test(trimmed)) return "X";
    return trimmed;
  }

  function create(options) {
    const meta = options.meta;
    const schema = options.schema;
    const parts = schema.parts;
    const keyInfo = schema.keys;
    const onChange = options.onChange;
    const docsUrl = options.docs || "";
    const textLanguages = options.textLanguages || ["en"];
    const base = "field-" + meta.name;
    let rows = [];           /* the entries themselves: the controls edit them in place */
    let rawOverride;         /* a value rows cannot show: kept as it is until the YAML is fixed */
    let yamlProblem = null;  /* a YAML text box does not parse */
    const yamlProblems = {}; /* per key box: id -> message */
    let lastGood;
    let rulesText = null;    /* the server's rules text of the list (see checked) */
    let disagree = null;     /* the effect.text_differs warning, when the card's text and effects disagree */
    const stashes = new WeakMap(); /* entry -> keys set aside when its action changed */
    let rowNodes = [];

    const list = el("div", { class: "effect-rows", id: base + "-rows" });
    const note = el("p", { class: "help effect-note", id: base + "-note", hidden: true });
    const addButton = el("button", { type: "button", class: "button", id: base + "-add", text: t("Add effect"),
      onclick: function () { addRow(); } });
    const area = el("textarea", { id: base + "-yaml", rows: 10, class: "code", spellcheck: "false",
      "aria-describedby": base + "-yaml-help" });
    const yamlBox = el("div", { class: "effect-json", id: base + "-yaml-box", hidden: true }, [
      el("label", { for: base + "-yaml", text: t("Effects as YAML") }), area,
      el("p", { class: "help", id: base + "-yaml-help",
        text: t("The effects list as it is saved in the card file; the rows follow as you type.") }),
    ]);
    const toggle = el("button", { type: "button", class: "button button-quiet", id: base + "-toggle",
      "aria-pressed": "false", "aria-controls": yamlBox.id, text: t("Edit as YAML"),
      onclick: function () { showYaml(yamlBox.hidden); } });
    const readsBox = el("div", { class: "effect-reads", id: base + "-reads", hidden: true });
    const node = el("div", { class: "effects-editor" }, [
      list, note, el("div", { class: "effect-tools" }, [addButton, toggle]), readsBox, yamlBox]);

    area.addEventListener("input", function () { fromYamlArea(); });

    /* ------------------------------------------------ the schema */

    function partList(part) { return (part && parts[part]) || []; }
    function partItem(part, name) { return partList(part).find(function (item) { return item.name === name; }); }
    function keyLabel(name) { return keyInfo[name] ? keyInfo[name].label : name; }
    function actionOf(entry) { return isMapping(entry) ? partItem("actions", entry.action) : undefined; }

    /* Does `value` fit `shape` (so controls can show it)? */
    function fits(shape, value) {
      if (value === undefined) return true;
      switch (shape.type) {
        case "choice": return typeof value !== "object" || value === null;
        case "int": return isWhole(value) || typeof value === "string";
        case "amount": return isWhole(value) || typeof value === "string";
        case "bool": return typeof value === "boolean";
        case "true": return value === true;
        case "text": return typeof value === "string" || typeof value === "number";
        case "map": return isMapping(value) && Object.keys(value).every(function (k) {
          const f = shape.fields.find(function (x) { return x.name === k; });
          return f && fits(f.shape, value[k]);
        });
        case "one_of": return isMapping(value) && Object.keys(value).length === 1 && shape.fields.some(function (f) {
          return has(value, f.name) && fits(f.shape, value[f.name]);
        });
        case "dict": return isMapping(value) && Object.keys(value).every(function (k) { return fits(shape.value, value[k]); });
        case "union": return optionOf(shape, value) >= 0;
        case "list": return Array.isArray(value) && value.every(function (item) { return fits(shape.item, item); });
        case "entry": return isMapping(value);
        case "entries": return Array.isArray(value) && value.every(entryFits);
        default: return true; /* yaml */
      }
    }
    function optionOf(shape, value) {
      for (let i = 0; i < shape.options.length; i += 1) {
        const o = shape.options[i].shape;
        const typed = (o.type === "list" || o.type === "entries") ? Array.isArray(value)
          : (o.type === "map" || o.type === "dict" || o.type === "entry") ? isMapping(value)
          : o.type === "bool" ? typeof value === "boolean"
          : o.type === "int" ? isWhole(value)
          : o.type === "text" ? (typeof value === "string" || isWhole(value)) : true;
        if (typed && fits(o, value)) return i;
      }
      return -1;
    }
    function entryFits(entry) { return isMapping(entry); }

    function fallback(shape) {
      switch (shape.type) {
        case "choice": { const first = shape.values ? shape.values[0] : (partList(shape.part)[0] || {}).name; return first; }
        case "int": return shape.min !== undefined && shape.min !== null ? Math.max(shape.min, 1) : 1;
        case "amount": return 1;
        case "bool": case "true": return true;
        case "text": return "";
        case "map": {
          const out = Object.assign({}, shape.start || {});
          (shape.required || []).forEach(function (name) {
            const f = shape.fields.find(function (x) { return x.name === name; });
            if (f) out[name] = fallback(f.shape);
          });
          return out;
        }
        case "one_of": { const f = shape.fields[0]; const out = {}; out[f.name] = fallback(f.shape); return out; }
        case "dict": case "entry": return {};
        case "union": return fallback(shape.options[0].shape);
        case "list": case "entries": return [];
        default: return null;
      }
    }

    /* ------------------------------------------------ small controls */

    function control(id, label, input, extra) {
      return el("div", { class: "effect-control" }, [el("label", { for: id, text: label }), input].concat(extra || []));
    }

    function removeButton(label, onclick) {
      return el("button", { type: "button", class: "button button-small button-quiet effect-remove", text: t("Remove"),
        "aria-label": t("Remove %(what)s", { what: label }), onclick: onclick });
    }

    /* A select of a part's names (or inline values): the label a designer reads; the internal name beside it. */
    function choiceControl(id, label, shape, current, set, blank) {
      const items = shape.values
        ? shape.values.map(function (value) { return { name: value, label: String(value), doc: "" }; })
        : partList(shape.part);
      const names = items.map(function (item) { return String(item.name); });
      const opts = [el("option", { value: "", text: blank || t("— choose —") })].concat(items.map(function (item) {
        return el("option", { value: String(item.name), text: item.label });
      }));
      const known = current === undefined || current === "" || names.indexOf(String(current)) !== -1;
      if (!known) {
        /* A name outside the vocabulary (a typo in the file) is shown, kept and reported, never dropped. */
        opts.push(el("option", { value: "__kept__", text: t("%(name)s (not in the vocabulary)", { name: JSON.stringify(current) }) }));
      }
      const select = el("select", { id: id, "data-choice": shape.part || "values" }, opts);
      select.value = current === undefined || current === "" ? "" : (known ? String(current) : "__kept__");
      const secondary = el("code", { class: "effect-name", id: id + "-name" });
      function showName() {
        secondary.textContent = select.value && select.value !== "__kept__" && shape.part ? select.value : "";
        secondary.hidden = !secondary.textContent;
      }
      showName();
      select.addEventListener("change", function () {
        showName();
        if (select.value === "__kept__") return set(current);
        if (select.value === "") return set(undefined);
        const picked = items.find(function (item) { return String(item.name) === select.value; });
        set(picked ? picked.name : select.value);
      });
      return { node: control(id, label, select, [secondary]), input: select };
    }

    function boxControl(id, label, shape, current, set) {
      /* Per game and language from the schema: only a game with X costs mentions X (warzone has no mana). */
      const help = shape.type === "amount" ? schema.hints.amount : "";
      const attrs = { type: "text", id: id, value: text(current), autocomplete: "off", class: shape.type === "text" ? "" : "narrow" };
      if (shape.type !== "text") attrs.inputmode = "numeric";
      if (help) attrs["aria-describedby"] = id + "-help";
      const input = el("input", attrs);
      const before = current;
      input.addEventListener("input", function () {
        /* Digits become a number (a filter's class: 2), the rest stays text; what the card had stays as it was. */
        set(loose(input.value, before, shape.type === "amount"));
      });
      return { node: control(id, label, input, help ? [el("span", { class: "help", id: id + "-help", text: help })] : []), input: input };
    }

    function boolControl(id, label, current, set) {
      const select = el("select", { id: id }, [
        el("option", { value: "true", text: schema.labels.yes }), el("option", { value: "false", text: schema.labels.no })]);
      select.value = current === false ? "false" : "true";
      select.addEventListener("change", function () { set(select.value === "true"); });
      return { node: control(id, label, select), input: select };
    }

    function yamlControl(id, label, current, set) {
      const box = el("textarea", { id: id, rows: 3, class: "code effect-yaml", spellcheck: "false", "aria-describedby": id + "-help" });
      box.value = toYaml(current);
      box.addEventListener("input", function () {
        try {
          set(fromYaml(box.value));
          delete yamlProblems[id];
          box.removeAttribute("aria-invalid");
        } catch (e) {
          yamlProblems[id] = t("%(what)s is not valid YAML: %(error)s", { what: label, error: e.message });
          box.setAttribute("aria-invalid", "true");
        }
      });
      return { node: control(id, label, box, [el("span", { class: "help", id: id + "-help", text: t("as YAML, kept as written") })]), input: box };
    }

    /* ------------------------------------------------ a value of any shape */

    /* build(shape, value, id, label, set, rerender) -> {node, input}: the controls of one value; `set` writes
       it back into its parent; a structural change calls rerender(idToFocus). */
    function build(shape, value, id, label, set, ctx) {
      if (!fits(shape, value)) return yamlControl(id, label, value, set);
      switch (shape.type) {
        case "choice": return choiceControl(id, label, shape, value, set);
        case "int": case "amount": case "text": return boxControl(id, label, shape, value, set);
        case "bool": return boolControl(id, label, value, set);
        case "true": return { node: el("div", { class: "effect-control effect-fixed", id: id }, [el("span", { text: label })]), input: null };
        case "map": return mapControl(shape, value || {}, id, label, set, ctx);
        case "one_of": return oneOfControl(shape, value, id, label, set, ctx);
        case "dict": return dictControl(shape, value || {}, id, label, set, ctx);
        case "union": return unionControl(shape, value, id, label, set, ctx);
        case "list": return listControl(shape, value || [], id, label, set, ctx);
        case "entries": return entriesControl(value || [], id, label, set, ctx, shape.exclude || []);
        case "entry": {
          const entry = value;
          const built = renderEntry(entry, id, label, { rerender: ctx.rerender, set: function () { set(entry); },
            nested: true, exclude: shape.exclude || [] });
          return { node: built.node, input: built.node.querySelector("select, input, textarea") };
        }
        default: return yamlControl(id, label, value, set);
      }
    }

    function group(id, label, children) {
      return el("fieldset", { class: "effect-group", id: id }, [el("legend", { text: label })].concat(children));
    }

    /* "Add …": a select of what may still be added and its Add button (so browsing the list with the
       arrow keys adds nothing); the new control then takes the focus. */
    function adder(id, label, choices, onPick) {
      if (!choices.length) return null;
      const select = el("select", { id: id, class: "effect-adder" },
        choices.map(function (c) { return el("option", { value: c.name, text: c.label }); }));
      const button = el("button", { type: "button", class: "button button-small", id: id + "-button", text: t("Add"),
        "aria-describedby": id + "-label", onclick: function () { if (select.value) onPick(select.value); } });
      return el("div", { class: "effect-control effect-adder-line" }, [
        el("label", { for: id, id: id + "-label", text: label }), el("div", { class: "effect-field" }, [select, button])]);
    }

    function mapControl(shape, value, id, label, set, ctx) {
      const obj = value;
      const children = [];
      let first = null;
      shape.fields.forEach(function (f) {
        if (!has(obj, f.name) && (shape.required || []).indexOf(f.name) === -1) return;
        const cid = id + "-" + f.name;
        const built = build(f.shape, obj[f.name], cid, f.label, function (nv) {
          if (nv === undefined) delete obj[f.name]; else obj[f.name] = nv;
          set(obj);
        }, ctx);
        if (!first) first = built.input;
        const line = el("div", { class: "effect-line effect-field", "data-key": f.name }, [built.node]);
        if ((shape.required || []).indexOf(f.name) === -1) {
          line.appendChild(removeButton(f.label, function () { delete obj[f.name]; set(obj); ctx.rerender(id + "-add"); }));
        }
        children.push(line);
      });
      const free = shape.fields.filter(function (f) { return !has(obj, f.name); });
      const add = adder(id + "-add", t("Add to %(what)s", { what: label }), free, function (name) {
        const f = shape.fields.find(function (x) { return x.name === name; });
        obj[name] = fallback(f.shape);
        set(obj);
        ctx.rerender(id + "-" + name);
      });
      if (add) children.push(add);
      const box = group(id, label, children);
      return { node: box, input: first || box.querySelector("select, input, textarea") };
    }

    function oneOfControl(shape, value, id, label, set, ctx) {
      const obj = isMapping(value) ? value : fallback(shape);
      const kind = Object.keys(obj)[0];
      const which = shape.fields.find(function (f) { return f.name === kind; }) || shape.fields[0];
      const kindSelect = el("select", { id: id + "-kind" }, shape.fields.map(function (f) {
        return el("option", { value: f.name, text: f.label });
      }));
      kindSelect.value = which.name;
      kindSelect.addEventListener("change", function () {
        const f = shape.fields.find(function (x) { return x.name === kindSelect.value; });
        const fresh = {};
        fresh[f.name] = fallback(f.shape);
        set(fresh);
        ctx.rerender(id + "-kind");
      });
      const children = [control(id + "-kind", t("Which"), kindSelect, [el("code", { class: "effect-name", text: which.name })])];
      if (which.doc) children.push(el("p", { class: "help effect-doc", text: which.doc }));
      if (which.shape.type !== "true") {
        const inner = build(which.shape, obj[which.name], id + "-" + which.name, which.label, function (nv) {
          obj[which.name] = nv;
          set(obj);
        }, ctx);
        children.push(inner.node);
      }
      return { node: group(id, label, children), input: kindSelect };
    }

    function dictControl(shape, value, id, label, set, ctx) {
      const obj = value;
      const lines = [];
      const names = shape.part ? partList(shape.part) : null;
      Object.keys(obj).forEach(function (key, i) {
        const lid = id + "-" + (i + 1);
        let keyNode;
        if (names) {
          const choice = choiceControl(lid + "-key", t("Which"), { type: "choice", part: shape.part }, key, function (nk) {
            if (nk === undefined || nk === key) return;
            const rebuilt = {};
            Object.keys(obj).forEach(function (k) { rebuilt[k === key ? nk : k] = obj[k]; });
            Object.keys(obj).forEach(function (k) { delete obj[k]; });
            Object.assign(obj, rebuilt);
            set(obj);
            ctx.rerender(lid + "-key");
          });
          keyNode = choice.node;
        } else {
          const box = el("input", { type: "text", id: lid + "-key", value: key, autocomplete: "off", class: "narrow" });
          box.addEventListener("change", function () {
            const nk = box.value.trim();
            if (!nk || nk === key || has(obj, nk)) { box.value = key; return; }
            const rebuilt = {};
            Object.keys(obj).forEach(function (k) { rebuilt[k === key ? nk : k] = obj[k]; });
            Object.keys(obj).forEach(function (k) { delete obj[k]; });
            Object.assign(obj, rebuilt);
            set(obj);
            ctx.rerender(lid + "-key");
          });
          keyNode = control(lid + "-key", t("Name"), box);
        }
        const item = names ? names.find(function (n) { return n.name === key; }) : null;
        const valueLabel = item ? item.label : key;
        const inner = build(shape.value, obj[key], lid + "-value", t("Value"), function (nv) {
          obj[key] = nv === undefined ? null : nv;
          set(obj);
        }, ctx);
        lines.push(el("div", { class: "effect-line effect-field", "data-key": key }, [keyNode, inner.node,
          removeButton(valueLabel, function () { delete obj[key]; set(obj); ctx.rerender(id + "-add"); })]));
      });
      const addBtn = el("button", { type: "button", class: "button button-small", id: id + "-add",
        text: t("Add to %(what)s", { what: label }),
        onclick: function () {
          const used = Object.keys(obj);
          let name;
          if (names) {
            const free = names.find(function (n) { return used.indexOf(n.name) === -1; });
            if (!free) return;
            name = free.name;
          } else {
            name = "counter";
            let n = 2;
            while (has(obj, name)) { name = "counter" + n; n += 1; }
          }
          obj[name] = fallback(shape.value);
          set(obj);
          ctx.rerender(id + "-" + (used.length + 1) + "-key");
        } });
      lines.push(addBtn);
      return { node: group(id, label, lines), input: lines[0].querySelector ? (lines[0].querySelector("select, input") || addBtn) : addBtn };
    }

    function unionControl(shape, value, id, label, set, ctx) {
      let index = value === undefined ? 0 : optionOf(shape, value);
      if (index < 0) index = 0;
      const form = el("select", { id: id + "-form" }, shape.options.map(function (o, i) {
        return el("option", { value: String(i), text: o.label });
      }));
      form.value = String(index);
      form.addEventListener("change", function () {
        set(fallback(shape.options[parseInt(form.value, 10)].shape));
        ctx.rerender(id + "-form");
      });
      const option = shape.options[index];
      const inner = build(option.shape, value === undefined ? fallback(option.shape) : value, id + "-v", label, set, ctx);
      const formNode = control(id + "-form", t("%(what)s as", { what: label }), form);
      if (option.shape.type === "map" || option.shape.type === "list" || option.shape.type === "dict") {
        return { node: el("div", { class: "effect-union", id: id }, [formNode, inner.node]), input: form };
      }
      return { node: el("div", { class: "effect-union effect-line", id: id }, [formNode, inner.node]), input: form };
    }

    function listControl(shape, value, id, label, set, ctx) {
      const arr = value;
      const lines = arr.map(function (item, i) {
        const lid = id + "-" + (i + 1);
        const inner = build(shape.item, item, lid, label + " " + (i + 1), function (nv) { arr[i] = nv; set(arr); }, ctx);
        return el("div", { class: "effect-line effect-field" }, [inner.node,
          removeButton(label + " " + (i + 1), function () { arr.splice(i, 1); set(arr); ctx.rerender(id + "-add"); })]);
      });
      const addBtn = el("button", { type: "button", class: "button button-small", id: id + "-add", text: t("Add to %(what)s", { what: label }),
        onclick: function () { arr.push(fallback(shape.item)); set(arr); ctx.rerender(id + "-" + arr.length); } });
      lines.push(addBtn);
      return { node: group(id, label, lines), input: lines.length > 1 ? lines[0].querySelector("select, input, textarea") : addBtn };
    }

    function entriesControl(value, id, label, set, ctx, exclude) {
      const arr = value;
      const nodes = arr.map(function (entry, i) {
        if (!isMapping(entry)) {
          return yamlControl(id + "-" + (i + 1), label + " " + (i + 1), entry, function (nv) { arr[i] = nv; set(arr); }).node;
        }
        return renderEntry(entry, id + "-" + (i + 1), label + " " + (i + 1), {
          rerender: ctx.rerender, set: function () { set(arr); },
          remove: function () { arr.splice(i, 1); set(arr); ctx.rerender(id + "-add"); },
          nested: true, problems: null, exclude: exclude,
        }).node;
      });
      const addBtn = el("button", { type: "button", class: "button button-small", id: id + "-add", text: t("Add to %(what)s", { what: label }),
        onclick: function () { arr.push({}); set(arr); ctx.rerender(id + "-" + arr.length + "-action"); } });
      nodes.push(addBtn);
      return { node: group(id, label, nodes), input: addBtn };
    }

    /* ------------------------------------------------ one entry */

    /* The keys an entry shows: its action's own, then the details it holds, then unknown keys (kept). */
    function renderEntry(entry, id, legend, ctx) {
      const box = el("fieldset", { class: ctx.nested ? "effect-row effect-nested" : "field effect-row", id: id });
      box.appendChild(el("legend", { text: legend }));
      const inputs = {};
      const spec = actionOf(entry);
      function setKey(key) {
        return function (nv) {
          if (nv === undefined || nv === "") delete entry[key]; else entry[key] = nv;
          ctx.set();
        };
      }
      function field(key, removable) {
        const info = keyInfo[key] || { label: key, shape: { type: "yaml" }, doc: "" };
        const cid = id + "-" + key;
        const shape = info.shape;
        let built;
        if (key === "target" && spec && shape.type === "choice") {
          const dflt = spec.default_target ? partItem("targets", spec.default_target) : null;
          built = choiceControl(cid, info.label, shape, entry[key], setKey(key),
            dflt ? t("— default: %(target)s —", { target: dflt.label }) : t("— none —"));
        } else if (key === "trigger" || key === "action") {
          built = choiceControl(cid, info.label, shape, entry[key], function (nv) {
            setKey(key)(nv);
            if (key === "action") actionChanged(entry);
            ctx.rerender(cid);
          }, key === "trigger" ? t("— choose when —") : t("— choose what —"));
        } else {
          built = build(shape, entry[key], cid, info.label, setKey(key), ctx);
        }
        inputs[key] = built.input;
        const line = el("div", { class: "effect-field", "data-key": key }, [built.node]);
        if (removable) line.appendChild(removeButton(info.label, function () { delete entry[key]; ctx.set(); ctx.rerender(id + "-add"); }));
        return line;
      }

      const exclude = ctx.exclude || [];
      const head = el("div", { class: "effect-line" }, [exclude.indexOf("trigger") === -1 ? field("trigger", false) : null,
        field("action", false)]);
      box.appendChild(head);
      const triggerItem = partItem("triggers", entry.trigger);
      if (triggerItem) box.appendChild(el("p", { class: "help effect-doc", id: id + "-trigger-doc", text: triggerItem.doc }));
      if (spec) {
        const doc = el("p", { class: "help effect-doc", id: id + "-action-doc" }, [t("What it does: %(doc)s.", { doc: spec.doc }) + " "]);
        if (docsUrl) {
          doc.appendChild(el("a", { href: docsUrl + "#" + spec.section, text: t("How %(action)s works", { action: spec.label }),
            target: "_blank", rel: "noopener" }));
        }
        box.appendChild(doc);
        if (inputs.action) inputs.action.setAttribute("aria-describedby", id + "-action-doc");
      }

      /* The trigger's own keys (on_phase: phase) first, then the action's. */
      const own = ((triggerItem && triggerItem.keys) || []).concat((spec ? spec.keys : []).filter(function (key) {
        return !triggerItem || (triggerItem.keys || []).indexOf(key) === -1;
      }));
      const optional = spec ? spec.optional : schema.key_order.filter(function (k) { return k !== "trigger" && k !== "action"; });
      const body = el("div", { class: "effect-line effect-body" });
      own.forEach(function (key) { body.appendChild(field(key, false)); });
      box.appendChild(body);
      const details = el("div", { class: "effect-details" });
      const shownKeys = ["trigger", "action"].concat(own);
      schema.key_order.forEach(function (key) {
        if (shownKeys.indexOf(key) !== -1 || !has(entry, key)) return;
        shownKeys.push(key);
        details.appendChild(field(key, true));
      });
      const unknown = Object.keys(entry).filter(function (key) { return shownKeys.indexOf(key) === -1; });
      if (unknown.length) {
        details.appendChild(el("p", { class: "help", text: t("Other keys, kept as they are (not in the vocabulary):") }));
        unknown.forEach(function (key) { details.appendChild(field(key, true)); });
      }
      if (details.childNodes.length) box.appendChild(details);
      const free = optional.filter(function (key) { return !has(entry, key) && keyInfo[key] && exclude.indexOf(key) === -1; })
        .map(function (key) { return { name: key, label: keyInfo[key].label }; });
      const add = adder(id + "-add", t("Add a detail"), free, function (key) {
        entry[key] = fallback(keyInfo[key].shape);
        ctx.set();
        ctx.rerender(id + "-" + key);
      });
      if (add) box.appendChild(el("div", { class: "effect-line" }, [add]));
      const reads = el("p", { class: "effect-reads-line", id: id + "-reads", hidden: true });
      box.appendChild(reads);
      if (ctx.buttons) box.appendChild(ctx.buttons);
      else if (ctx.remove) box.appendChild(el("div", { class: "effect-row-actions" }, [removeButton(legend, ctx.remove)]));
      if (ctx.problems) box.appendChild(el("ul", { class: "field-problems", id: ctx.problems, "aria-live": "polite" }));
      return { node: box, inputs: inputs, reads: reads };
    }

    /* A new action shows what it uses; keys it cannot use are set aside (and come back with an action that does). */
    function actionChanged(entry) {
      const spec = actionOf(entry);
      const stash = stashes.get(entry) || {};
      stashes.set(entry, stash);
      if (!spec) return;
      const trigger = partItem("triggers", entry.trigger);
      const usable = ["trigger", "action"].concat(spec.keys, spec.optional, (trigger && trigger.keys) || []);
      Object.keys(entry).forEach(function (key) {
        if (usable.indexOf(key) === -1 && keyInfo[key]) { stash[key] = entry[key]; delete entry[key]; }
      });
      Object.keys(stash).forEach(function (key) {
        if (usable.indexOf(key) !== -1 && !has(entry, key)) { entry[key] = stash[key]; delete stash[key]; }
      });
    }

    /* ------------------------------------------------ the list */

    function rerender(focusId) {
      render();
      syncYaml();
      onChange();
      const target = focusId ? document.getElementById(focusId) : null;
      const focusable = target && target.matches("select, input, textarea, button") ? target
        : (target ? target.querySelector("select, input, textarea, button") : null);
      if (focusable) focusable.focus();
    }

    function render() {
      list.textContent = "";
      rowNodes = [];
      const ctxBase = { rerender: rerender, set: function () { syncYaml(); onChange(); } };
      rows.forEach(function (entry, index) {
        const n = index + 1;
        const count = rows.length;
        const buttons = el("div", { class: "effect-row-actions" }, [
          el("button", { type: "button", class: "button button-small", text: t("Move up"), "aria-label": t("Move up: effect %(n)s", { n: n }),
            disabled: index === 0, "data-act": "up", onclick: function () { move(index, -1, "up"); } }),
          el("button", { type: "button", class: "button button-small", text: t("Move down"), "aria-label": t("Move down: effect %(n)s", { n: n }),
            disabled: index === count - 1, "data-act": "down", onclick: function () { move(index, 1, "down"); } }),
          el("button", { type: "button", class: "button button-small button-danger", text: t("Remove"), "aria-label": t("Remove: effect %(n)s", { n: n }),
            "data-act": "remove", onclick: function () { removeRow(index); } }),
        ]);
        const problemsId = "problems-" + meta.name + "-" + n;
        const built = renderEntry(entry, base + "-" + n, t("Effect %(n)s", { n: n }),
          Object.assign({ buttons: buttons, problems: problemsId }, ctxBase));
        built.node.setAttribute("data-effect", String(n));
        built.node.setAttribute("aria-describedby", problemsId);
        list.appendChild(built.node);
        rowNodes.push(built);
      });
      if (rawOverride !== undefined) {
        note.textContent = t("These effects cannot be shown as rows (%(why)s); edit them as YAML: they are saved as they are.", { why: notRows(rawOverride) });
        note.hidden = false;
        addButton.disabled = true;
      } else {
        note.hidden = !!rows.length;
        note.textContent = rows.length ? "" : t("No effects yet: the card plays without any (its text is for players).");
        addButton.disabled = false;
      }
      showReads();
    }

    function notRows(value) {
      if (value === undefined || value === null) return null;
      if (!Array.isArray(value)) return t("the effects are not a list");
      for (let i = 0; i < value.length; i += 1) {
        if (!isMapping(value[i])) return t("effect %(n)s is not a mapping of keys", { n: i + 1 });
      }
      return null;
    }

    function addRow() {
      rows.push({});
      rerender(base + "-" + rows.length + "-trigger");
    }

    function removeRow(index) {
      rows.splice(index, 1);
      rerender(rows.length ? base + "-" + (Math.min(index, rows.length - 1) + 1) + "-trigger" : addButton.id);
    }

    function move(index, step, act) {
      const other = index + step;
      if (other < 0 || other >= rows.length) return;
      const moved = rows[index];
      rows[index] = rows[other];
      rows[other] = moved;
      render();
      syncYaml();
      onChange();
      /* Keep the keyboard on the same button of the moved row (or its other move button at an end). */
      const row = rowNodes[other].node;
      const button = row.querySelector('[data-act="' + act + '"]');
      (button && !button.disabled ? button : row.querySelector('[data-act="' + (act === "up" ? "down" : "up") + '"]')).focus();
    }

    /* ------------------------------------------------ rules text (from the server's check) */

    function showReads() {
      const info = rulesText;
      rowNodes.forEach(function (built, i) {
        const entry = info && info.entries ? info.entries[i] : null;
        const words = entry ? textLanguages.map(function (lang) { return entry[lang]; }).filter(Boolean) : [];
        built.reads.textContent = words.length ? t("Reads: %(text)s", { text: words.join(" / ") }) : "";
        built.reads.hidden = !words.length;
      });
      readsBox.textContent = "";
      const whole = info ? textLanguages.map(function (lang) { return { lang: lang, text: info[lang] }; }).filter(function (x) { return x.text; }) : [];
      if (!whole.length || rawOverride !== undefined) { readsBox.hidden = true; return; }
      readsBox.hidden = false;
      readsBox.appendChild(el("h3", { class: "effect-reads-title", text: t("Rules text from these effects") }));
      whole.forEach(function (item) {
        const useId = base + "-use-" + item.lang;
        readsBox.appendChild(el("div", { class: "effect-reads-item" }, [
          el("p", { lang: item.lang, id: useId + "-text", text: item.text }),
          el("button", { type: "button", class: "button button-small", id: useId, "aria-describedby": useId + "-text",
            text: whole.length > 1 ? t("Use as card text (%(lang)s)", { lang: item.lang === "zh" ? "中文" : "English" }) : t("Use as card text"),
            onclick: function () { if (options.useText) options.useText(item.text, item.lang); } }),
        ]));
      });
      if (disagree) {
        readsBox.appendChild(el("p", { class: "effect-disagree", id: base + "-disagree", role: "note" },
          [el("strong", { text: t("The card's text and its effects disagree.") }), " " + disagree]));
      }
    }

    /* ------------------------------------------------ YAML view */

    function ordered(entry) {
      if (!isMapping(entry)) return entry;
      const out = {};
      FIRST_KEYS.concat(schema.key_order).forEach(function (key) { if (has(entry, key) && !has(out, key)) out[key] = orderedValue(key, entry[key]); });
      Object.keys(entry).forEach(function (key) { if (!has(out, key)) out[key] = entry[key]; });
      return out;
    }
    function orderedValue(key, value) {
      const shape = keyInfo[key] ? keyInfo[key].shape : null;
      if (shape && shape.type === "map" && isMapping(value)) {
        const out = {};
        shape.fields.forEach(function (f) { if (has(value, f.name)) out[f.name] = value[f.name]; });
        Object.keys(value).forEach(function (k) { if (!has(out, k)) out[k] = value[k]; });
        return out;
      }
      if (shape && shape.type === "entries" && Array.isArray(value)) return value.map(ordered);
      return value;
    }

    function current() {
      if (rawOverride !== undefined) return rawOverride;
      return rows.length ? rows.map(ordered) : undefined;
    }

    function syncYaml() {
      if (yamlBox.hidden || document.activeElement === area) return;
      area.value = toYaml(current());
      yamlProblem = null;
    }

    function fromYamlArea() {
      yamlProblem = null;
      let parsed;
      try { parsed = fromYaml(area.value); } catch (e) { yamlProblem = t("Effects are not valid YAML: %(error)s", { error: e.message }); return; }
      load(parsed);
      render();
    }

    function showYaml(open, quiet) {
      yamlBox.hidden = !open;
      if (open) syncYaml();
      toggle.setAttribute("aria-pressed", open ? "true" : "false");
      toggle.textContent = open ? t("Hide YAML") : t("Edit as YAML");
      if (open && !quiet) area.focus();
    }

    function load(value) {
      rawOverride = notRows(value) ? value : undefined;
      /* A copy: the controls edit it in place, the value the page was given stays as it was. */
      rows = rawOverride === undefined && Array.isArray(value) ? JSON.parse(JSON.stringify(value)) : [];
      lastGood = value;
    }

    node.addEventListener("input", function (event) { if (event.target !== area) syncYaml(); });
    /* The form's Save bar is sticky at the bottom of the window: a control focused behind it (Tab into a
       row near the bottom, a new row's first select) is scrolled up until it shows above the bar. The
       controls' scroll-margin-bottom (app.css) does the same for the browser's own scrolling. */
    function keepAboveBar(target) {
      const form = node.closest("form");
      const bar = form ? form.querySelector(".form-actions") : null;
      if (!bar || bar.hidden || !target || !node.contains(target)) return;
      const barTop = bar.getBoundingClientRect().top;
      const rect = target.getBoundingClientRect();
      if (barTop < window.innerHeight && rect.bottom > barTop - 8) window.scrollBy(0, rect.bottom - barTop + 8);
    }
    node.addEventListener("focusin", function (event) { keepAboveBar(event.target); });
    /* The live check's answer fills the rows' problem lists after a row was added and focused: rows above
       the focused control grow and push it down behind the bar again, so look again whenever they resize. */
    if (window.ResizeObserver) {
      new ResizeObserver(function () { keepAboveBar(document.activeElement); }).observe(node);
    }
    node.addEventListener("change", function (event) { if (event.target !== area) syncYaml(); });

    return {
      node: node,
      focus: addButton,
      /* The value to save, or the last good one while a YAML text does not parse (see localProblem). */
      get: function () {
        if (yamlProblem) return lastGood;
        const value = current();
        lastGood = value;
        return value;
      },
      set: function (value) {
        yamlProblem = null;
        load(value);
        render();
        if (rawOverride !== undefined) showYaml(true, true); else syncYaml();
      },
      localProblem: function () {
        if (yamlProblem) return yamlProblem;
        const open = Object.keys(yamlProblems).filter(function (id) { return document.getElementById(id); });
        return open.length ? yamlProblems[open[0]] : null;
      },
      /* The server's answer to a check: the rules text of the entries and whether the card's text agrees. */
      checked: function (body) {
        rulesText = body && body.rules_text ? body.rules_text[meta.name] || null : null;
        const differs = body && body.problems ? body.problems.find(function (p) { return p.code === "effect.text_differs"; }) : null;
        disagree = differs ? differs.text || differs.message : null;  /* text: in the reader's language */
        showReads();
      },
      /* Where a problem of this field goes: next to the row of its entry, its control marked. Read from
         the problem's structured data (path: [entry index, …], code), never from its message, so the
         message may be in any language. A step of a "choose" option (path [i, "options", k, n]) goes
         to its entry's row, the options control marked. */
      placeProblem: function (problem) {
        const path = Array.isArray(problem.path) ? problem.path : null;
        const index = path && isWhole(path[0]) ? path[0] : -1;
        const built = index >= 0 ? rowNodes[index] : null;
        if (!built) return null;
        /* The table above, else the code's own word (effect.bad_token: token), when it is a key. */
        const word = /^effect\.(?:bad|unknown|missing)_(\w+)$/.exec(problem.code || "");
        const nested = path.length > 1 && typeof path[1] === "string" ? path[1] : null;
        const key = nested || CODE_KEY[problem.code] || (word && keyInfo[word[1]] ? word[1] : null);
        const input = key && built.inputs[key] && !built.inputs[key].closest("[hidden]") ? built.inputs[key] : built.inputs.trigger;
        return { list: built.node.querySelector("#problems-" + meta.name + "-" + (index + 1)), input: input };
      },
    };
  }

  window.WorkbenchEffects = { create: create };
})();

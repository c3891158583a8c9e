/* The structured effects editor: a card's `effects` list as rows of labelled controls built from the
   effect vocabulary (workbench/domain/effects/vocabulary.py), with an "Edit as JSON" text area kept in sync.
   editor.js creates it for fields of type `effects` through window.WorkbenchEffects.create(). */
"use strict";
(function () {
  const W = window.Workbench;
  const el = W.el;
  /* Keys the rows edit, in the order they are written (the bundled cards' order: the page's JSON has
     sorted keys, so an entry's own order is not known here). Unknown keys follow, as they were. */
  const ROW_KEYS = ["trigger", "cost", "speed", "once_per_turn", "action", "target", "amount", "stats", "duration"];
  /* Which control a problem code concerns, so it is marked aria-invalid. */
  const CODE_KEY = {
    "effect.unknown_action": "action", "effect.unknown_trigger": "trigger", "effect.missing_trigger": "trigger",
    "effect.unknown_target": "target", "effect.unknown_duration": "duration", "effect.missing_amount": "amount",
    "effect.bad_amount": "amount", "effect.amount_x": "amount", "effect.missing_stats": "stats",
    "effect.bad_stats": "stats", "effect.unknown_stat": "stats", "effect.unused_key": "stats",
    "effect.bad_cost": "mana", "effect.bad_speed": "speed", "effect.bad_once_per_turn": "once_per_turn",
  };

  function isMapping(value) { return value !== null && typeof value === "object" && !Array.isArray(value); }
  function has(obj, key) { return Object.prototype.hasOwnProperty.call(obj, key); }
  function text(value) { return value === undefined || value === null ? "" : String(value); }

  /* A typed box's value: whole numbers become numbers; what the card had stays exactly as it was
     when the box still shows it (so 1.5 or "two" survive a round trip for the validator to report). */
  function loose(raw, before) {
    const trimmed = raw.trim();
    if (trimmed === "") return undefined;
    if (before !== undefined && trimmed === text(before)) return before;
    if (/^-?\d+$/.test(trimmed)) return parseInt(trimmed, 10);
    return trimmed;
  }

  /* Why a value cannot be shown as rows (then only the JSON text area edits it), or null. */
  function notRows(value) {
    if (value === undefined || value === null) return null;
    if (!Array.isArray(value)) return "the effects are not a list";
    for (let i = 0; i < value.length; i += 1) {
      const entry = value[i];
      if (!isMapping(entry)) return "effect " + (i + 1) + " is not a mapping of keys";
      if (entry.cost !== undefined && !isMapping(entry.cost)) return "the cost of effect " + (i + 1) + " is not a mapping";
      if (entry.stats !== undefined && !isMapping(entry.stats)) return "the stats of effect " + (i + 1) + " are not a mapping";
    }
    return null;
  }

  function create(options) {
    const meta = options.meta;
    const vocab = options.vocabulary;
    const stats = options.stats || [];
    const order = options.order || {};
    const onChange = options.onChange;
    const base = "field-" + meta.name;
    let rows = [];          /* one state per effect (see rowState) */
    let rawOverride;        /* a value rows cannot show: kept as it is until the JSON is fixed */
    let jsonProblem = null; /* the JSON text area does not parse */
    let lastGood;

    const list = el("div", { class: "effect-rows", id: base + "-rows" });
    const note = el("p", { class: "help effect-note", id: base + "-note", hidden: true });
    const addButton = el("button", { type: "button", class: "button", id: base + "-add", text: "Add effect",
      onclick: function () { addRow(); } });
    const area = el("textarea", { id: base + "-json", rows: 8, class: "code", spellcheck: "false",
      "aria-describedby": base + "-json-help" });
    const jsonBox = el("div", { class: "effect-json", id: base + "-json-box", hidden: true }, [
      el("label", { for: base + "-json", text: "Effects as JSON" }), area,
      el("p", { class: "help", id: base + "-json-help",
        text: "A JSON list of effects (see Help → Card effects); the rows follow as you type." }),
    ]);
    const toggle = el("button", { type: "button", class: "button button-quiet", id: base + "-toggle",
      "aria-pressed": "false", "aria-controls": jsonBox.id, text: "Edit as JSON",
      onclick: function () { showJson(jsonBox.hidden); } });
    const node = el("div", { class: "effects-editor" }, [
      list, note, el("div", { class: "effect-tools" }, [addButton, toggle]), jsonBox]);

    area.addEventListener("input", function () { fromJson(); });

    /* ------------------------------------------------ row state */

    function rowState(entry) {
      const state = { extra: {}, before: entry, values: {}, shown: {}, costExtra: {} };
      Object.keys(entry).forEach(function (key) { if (ROW_KEYS.indexOf(key) === -1) state.extra[key] = entry[key]; });
      ["trigger", "action", "target", "duration"].forEach(function (key) { state.values[key] = entry[key]; });
      state.values.amount = text(entry.amount);
      state.values.stats = isMapping(entry.stats)
        ? Object.keys(entry.stats).map(function (name) { return { name: name, raw: text(entry.stats[name]), before: entry.stats[name] }; })
        : [];
      const cost = isMapping(entry.cost) ? entry.cost : {};
      state.values.mana = text(cost.mana);
      state.values.tap = cost.tap;
      Object.keys(cost).forEach(function (key) { if (key !== "mana" && key !== "tap") state.costExtra[key] = cost[key]; });
      state.values.speed = entry.speed;
      state.values.once_per_turn = entry.once_per_turn;
      /* What the card already holds stays visible (and saved) even where the action does not use it. */
      const needs = needed(entry.action);
      state.shown = {
        target: needs.target || has(entry, "target"),
        amount: needs.amount || has(entry, "amount"),
        stats: needs.stats || has(entry, "stats"),
        duration: needs.stats || has(entry, "duration"),
      };
      return state;
    }

    function needed(action) {
      const spec = vocab.actions[action];
      if (!spec) return { target: true, amount: action !== undefined && action !== "", stats: false };
      return { target: spec.takes_target, amount: spec.needs_amount, stats: spec.needs_stats };
    }

    function entryOf(state) {
      const v = state.values;
      const out = {};
      const shown = state.shown;
      ["trigger", "action"].forEach(function (key) { if (v[key] !== undefined && v[key] !== "") out[key] = v[key]; });
      if (shown.target && v.target !== undefined && v.target !== "") out.target = v.target;
      if (shown.amount) {
        const amount = loose(v.amount, state.before.amount);
        if (amount !== undefined) out.amount = amount === "x" ? "X" : amount;
      }
      if (shown.stats && v.stats.length) {
        const mapping = {};
        v.stats.forEach(function (line) {
          const change = loose(line.raw, line.before);
          if (line.name) mapping[line.name] = change === undefined ? null : change;
        });
        out.stats = mapping;
      }
      if (shown.duration && v.duration !== undefined && v.duration !== "") out.duration = v.duration;
      const cost = Object.assign({}, state.costExtra);
      const mana = loose(v.mana, isMapping(state.before.cost) ? state.before.cost.mana : undefined);
      if (mana !== undefined) cost.mana = mana === "x" ? "X" : mana;
      if (v.tap !== undefined) cost.tap = v.tap;
      if (Object.keys(cost).length) out.cost = cost;
      if (v.speed !== undefined && v.speed !== "") out.speed = v.speed;
      if (v.once_per_turn !== undefined) out.once_per_turn = v.once_per_turn;
      const result = {};
      ROW_KEYS.forEach(function (key) { if (has(out, key)) result[key] = out[key]; });
      Object.keys(state.extra).forEach(function (key) { result[key] = state.extra[key]; });
      return result;
    }

    /* ------------------------------------------------ controls of one row */

    function choiceSelect(id, label, table, current, blank, describe, part) {
      const names = (part && order[part]) || Object.keys(table);
      /* Triggers and targets read as a designer says them ("When this is destroyed"), the name after. */
      const labels = (vocab.labels && part && vocab.labels[part]) || {};
      const opts = [el("option", { value: "", text: blank })].concat(names.map(function (name) {
        const text = has(labels, name) ? labels[name] + " (" + name + ")"
          : (describe ? name + " — " + describe(table[name]) : name);
        return el("option", { value: name, text: text });
      }));
      if (current !== undefined && current !== "" && names.indexOf(String(current)) === -1) {
        /* A name outside the vocabulary (a typo in the file) is shown, kept and reported, never dropped. */
        opts.push(el("option", { value: "__kept__", text: JSON.stringify(current) + " (not in the vocabulary)" }));
      }
      const select = el("select", { id: id }, opts);
      select.value = current === undefined || current === "" ? "" : (names.indexOf(String(current)) === -1 ? "__kept__" : String(current));
      return { node: el("div", { class: "effect-control" }, [el("label", { for: id, text: label }), select]), input: select,
        read: function () { return select.value === "__kept__" ? current : (select.value === "" ? undefined : select.value); } };
    }

    function textBox(id, label, value, extra) {
      const input = el("input", Object.assign({ type: "text", id: id, value: value, autocomplete: "off", class: "narrow" }, extra || {}));
      return { node: el("div", { class: "effect-control" }, [el("label", { for: id, text: label }), input]), input: input };
    }

    function renderRow(state, index) {
      const n = index + 1;
      const id = base + "-" + n;
      const v = state.values;
      const inputs = {};
      const problemsId = "problems-" + meta.name + "-" + n;
      const fieldset = el("fieldset", { class: "field effect-row", id: id, "data-effect": String(n), "aria-describedby": problemsId });
      fieldset.appendChild(el("legend", { text: "Effect " + n }));

      const trigger = choiceSelect(id + "-trigger", "Trigger", vocab.triggers, v.trigger, "— choose when —", function (d) { return d; }, "triggers");
      trigger.input.addEventListener("change", function () { v.trigger = trigger.read(); });
      const action = choiceSelect(id + "-action", "Action", vocab.actions, v.action, "— choose what —", function (d) { return d.description; }, "actions");
      /* The chosen action's doc line (docs/effects.md's table), under the row: what it does. */
      const actionDoc = el("p", { class: "help effect-doc", id: id + "-action-doc" });
      action.input.setAttribute("aria-describedby", id + "-action-doc");
      function showActionDoc() {
        const spec = v.action !== undefined && has(vocab.actions, String(v.action)) ? vocab.actions[v.action] : null;
        actionDoc.textContent = spec ? "What it does: " + spec.description + "." : "";
        actionDoc.hidden = !spec;
      }
      action.input.addEventListener("change", function () {
        v.action = action.read();
        showActionDoc();
        /* A new action shows what it uses; boxes it does not use hide and leave the entry (their text stays, should it come back). */
        const needs = needed(v.action);
        state.shown = { target: needs.target, amount: needs.amount, stats: needs.stats, duration: needs.stats };
        if (needs.stats && !v.stats.length && stats.length) {
          v.stats.push({ name: stats[0].name, raw: "", before: undefined });
          drawStats();
        }
        applyShown();
      });
      const target = choiceSelect(id + "-target", "Target", vocab.targets, v.target, "— none —", function (d) { return d; }, "targets");
      target.input.addEventListener("change", function () { v.target = target.read(); });
      const amount = textBox(id + "-amount", "Amount", v.amount, { inputmode: "numeric", "aria-describedby": id + "-amount-help" });
      amount.node.appendChild(el("span", { class: "help", id: id + "-amount-help", text: "a whole number, or X with an X mana cost" }));
      amount.input.addEventListener("input", function () { v.amount = amount.input.value; });
      inputs.trigger = trigger.input; inputs.action = action.input; inputs.target = target.input; inputs.amount = amount.input;
      fieldset.appendChild(el("div", { class: "effect-line" }, [trigger.node, action.node, target.node, amount.node]));
      fieldset.appendChild(actionDoc);
      showActionDoc();

      /* stats and duration (modify_stats) */
      const statLines = el("div", { class: "effect-stat-lines" });
      const statBox = el("fieldset", { class: "effect-stats" }, [el("legend", { text: "Stat changes" }), statLines]);
      const addStat = el("button", { type: "button", class: "button button-small", id: id + "-add-stat", text: "Add stat",
        "aria-label": "Add a stat change to effect " + n,
        onclick: function () {
          const used = v.stats.map(function (line) { return line.name; });
          const free = stats.find(function (s) { return used.indexOf(s.name) === -1; });
          v.stats.push({ name: free ? free.name : (stats[0] ? stats[0].name : ""), raw: "", before: undefined });
          drawStats();
          const boxes = statLines.querySelectorAll("input");
          if (boxes.length) boxes[boxes.length - 1].focus();
          syncJson();
          onChange();
        } });
      statBox.appendChild(addStat);
      function drawStats() {
        statLines.textContent = "";
        v.stats.forEach(function (line, i) {
          const sid = id + "-stat-" + (i + 1);
          const names = stats.map(function (s) { return s.name; });
          const opts = stats.map(function (s) { return el("option", { value: s.name, text: s.label === s.name ? s.name : s.label + " (" + s.name + ")" }); });
          if (names.indexOf(line.name) === -1) opts.push(el("option", { value: line.name, text: line.name + " (not a stat of this game)" }));
          const select = el("select", { id: sid + "-name" }, opts);
          select.value = line.name;
          select.addEventListener("change", function () { line.name = select.value; });
          const change = el("input", { type: "text", id: sid + "-change", value: line.raw, inputmode: "numeric", autocomplete: "off", class: "narrow" });
          change.addEventListener("input", function () { line.raw = change.value; });
          const remove = el("button", { type: "button", class: "button button-small", text: "Remove",
            "aria-label": "Remove stat change " + (i + 1) + " of effect " + n,
            onclick: function () {
              v.stats.splice(i, 1);
              drawStats();
              addStat.focus();
              syncJson();
              onChange();
            } });
          statLines.appendChild(el("div", { class: "effect-stat-line" }, [
            el("div", { class: "effect-control" }, [el("label", { for: sid + "-name", text: "Stat" }), select]),
            el("div", { class: "effect-control" }, [el("label", { for: sid + "-change", text: "Change" }), change]),
            remove]));
          if (i === 0) inputs.stats = change;
        });
        if (!v.stats.length) inputs.stats = addStat;
      }
      drawStats();
      const duration = choiceSelect(id + "-duration", "Duration", vocab.durations, v.duration, "— not set —", function (d) { return d; }, "durations");
      duration.input.addEventListener("change", function () { v.duration = duration.read(); });
      inputs.duration = duration.input;
      const statsArea = el("div", { class: "effect-line" }, [statBox, duration.node]);
      fieldset.appendChild(statsArea);

      /* optional: cost, speed, once per turn (activated effects, fusion chains) */
      const mana = textBox(id + "-mana", "Mana cost", v.mana, { inputmode: "numeric", "aria-describedby": id + "-optional-help" });
      mana.input.addEventListener("input", function () { v.mana = mana.input.value; });
      const tap = el("input", { type: "checkbox", id: id + "-tap", checked: v.tap === true });
      tap.addEventListener("change", function () {
        /* An explicit "tap: false" in the file stays false; unticking otherwise removes the key. */
        v.tap = tap.checked ? true : (state.before.cost && state.before.cost.tap === false ? false : undefined);
      });
      const speedTable = {};
      for (let s = vocab.speed[0]; s <= vocab.speed[1]; s += 1) speedTable[s] = s;
      const speedSelect = choiceSelect(id + "-speed", "Speed", speedTable, v.speed, "— default —", null);
      speedSelect.input.addEventListener("change", function () {
        const picked = speedSelect.input.value;
        v.speed = picked === "__kept__" ? speedSelect.read() : (picked === "" ? undefined : parseInt(picked, 10));
      });
      /* true/false as written in the file; anything else (a string "yes") is kept and shown as not allowed. */
      const once = choiceSelect(id + "-once", "Once per turn", { "true": true, "false": false }, v.once_per_turn, "— default —", null);
      once.input.addEventListener("change", function () {
        const picked = once.input.value;
        v.once_per_turn = picked === "true" ? true : (picked === "false" ? false : once.read());
      });
      inputs.mana = mana.input; inputs.speed = speedSelect.input; inputs.once_per_turn = once.input;
      fieldset.appendChild(el("div", { class: "effect-line effect-optional" }, [
        mana.node,
        el("div", { class: "effect-control effect-check" }, [tap, el("label", { for: id + "-tap", text: "Tap to use" })]),
        speedSelect.node, once.node,
        el("p", { class: "help", id: id + "-optional-help",
          text: "Optional, for activated effects and chains: mana (a number or X), tapping, chain speed " +
                vocab.speed[0] + "–" + vocab.speed[1] + ", once per turn." }),
      ]));

      const keys = Object.keys(state.extra);
      if (keys.length) {
        fieldset.appendChild(el("div", { class: "effect-other" }, [
          el("p", { class: "help", text: "Other keys (kept as they are; change them with Edit as JSON):" }),
          el("dl", { class: "effect-other-keys" }, [].concat.apply([], keys.map(function (key) {
            return [el("dt", {}, [el("code", { text: key })]), el("dd", {}, [el("code", { text: JSON.stringify(state.extra[key]) })])];
          }))),
        ]));
      }

      const count = rows.length;
      const buttons = el("div", { class: "effect-row-actions" }, [
        el("button", { type: "button", class: "button button-small", text: "Move up", "aria-label": "Move effect " + n + " up",
          disabled: index === 0, "data-act": "up", onclick: function () { move(index, -1, "up"); } }),
        el("button", { type: "button", class: "button button-small", text: "Move down", "aria-label": "Move effect " + n + " down",
          disabled: index === count - 1, "data-act": "down", onclick: function () { move(index, 1, "down"); } }),
        el("button", { type: "button", class: "button button-small button-danger", text: "Remove", "aria-label": "Remove effect " + n,
          "data-act": "remove", onclick: function () { removeRow(index); } }),
      ]);
      fieldset.appendChild(buttons);
      fieldset.appendChild(el("ul", { class: "field-problems", id: problemsId, "aria-live": "polite" }));

      function applyShown() {
        target.node.hidden = !state.shown.target;
        amount.node.hidden = !state.shown.amount;
        statBox.hidden = !state.shown.stats;
        duration.node.hidden = !state.shown.duration;
        statsArea.hidden = !state.shown.stats && !state.shown.duration;
      }
      applyShown();
      state.inputs = inputs;
      state.node = fieldset;
      return fieldset;
    }

    function render() {
      list.textContent = "";
      rows.forEach(function (state, i) { list.appendChild(renderRow(state, i)); });
      if (rawOverride !== undefined) {
        note.textContent = "These effects cannot be shown as rows (" + notRows(rawOverride) + "); edit them as JSON.";
        note.hidden = false;
        addButton.disabled = true;
      } else {
        note.hidden = !!rows.length;
        note.textContent = rows.length ? "" : "No effects yet: the card plays without any (its text is for players).";
        addButton.disabled = false;
      }
    }

    /* ------------------------------------------------ row buttons */

    function changedRows() {
      render();
      syncJson();
      onChange();
    }

    function addRow() {
      rows.push(rowState({}));
      changedRows();
      rows[rows.length - 1].inputs.trigger.focus();
    }

    function removeRow(index) {
      rows.splice(index, 1);
      changedRows();
      const next = rows[Math.min(index, rows.length - 1)];
      (next ? next.inputs.trigger : addButton).focus();
    }

    function move(index, step, act) {
      const other = index + step;
      if (other < 0 || other >= rows.length) return;
      const moved = rows[index];
      rows[index] = rows[other];
      rows[other] = moved;
      changedRows();
      /* Keep the keyboard on the same button of the moved row (or its other move button at an end). */
      const button = moved.node.querySelector('[data-act="' + act + '"]');
      (button && !button.disabled ? button : moved.node.querySelector('[data-act="' + (act === "up" ? "down" : "up") + '"]')).focus();
    }

    /* ------------------------------------------------ JSON view */

    function current() {
      if (rawOverride !== undefined) return rawOverride;
      return rows.length ? rows.map(entryOf) : undefined;
    }

    function syncJson() {
      if (jsonBox.hidden || document.activeElement === area) return;
      const value = current();
      area.value = value === undefined ? "" : JSON.stringify(value, null, 2);
      jsonProblem = null;
    }

    function fromJson() {
      const raw = area.value.trim();
      jsonProblem = null;
      let parsed;
      if (raw === "") parsed = undefined;
      else {
        try { parsed = JSON.parse(raw); } catch (e) { jsonProblem = "Effects are not valid JSON: " + e.message; return; }
      }
      load(parsed);
      render();
    }

    function showJson(open, quiet) {
      if (open) {
        jsonBox.hidden = false;
        syncJson();
      } else {
        jsonBox.hidden = true;
      }
      toggle.setAttribute("aria-pressed", open ? "true" : "false");
      toggle.textContent = open ? "Hide JSON" : "Edit as JSON";
      if (open && !quiet) area.focus();
    }

    function load(value) {
      rawOverride = notRows(value) ? value : undefined;
      rows = rawOverride === undefined && Array.isArray(value) ? value.map(rowState) : [];
      lastGood = value;
    }

    /* Rows edited by hand update the JSON text as they change. */
    node.addEventListener("input", function (event) { if (event.target !== area) syncJson(); });
    node.addEventListener("change", function (event) { if (event.target !== area) syncJson(); });

    return {
      node: node,
      focus: addButton,
      /* The value to save, or the last good one while the JSON does not parse (see localProblem). */
      get: function () {
        if (jsonProblem) return lastGood;
        const value = current();
        lastGood = value;
        return value;
      },
      set: function (value) {
        jsonProblem = null;
        load(value);
        render();
        if (rawOverride !== undefined) showJson(true, true); else syncJson();
      },
      localProblem: function () { return jsonProblem; },
      /* Where a problem of this field goes: "effect N: …" next to row N, its control marked. */
      placeProblem: function (problem) {
        const match = /^effect (\d+):/.exec(problem.message || "");
        const state = match ? rows[parseInt(match[1], 10) - 1] : null;
        if (!state || !state.node) return null;
        const key = CODE_KEY[problem.code];
        const input = key && state.inputs[key] && !state.inputs[key].closest("[hidden]") ? state.inputs[key] : state.inputs.trigger;
        return { list: state.node.querySelector("#problems-" + meta.name + "-" + match[1]), input: input };
      },
    };
  }

  window.WorkbenchEffects = { create: create };
})();

/* Deck builder: search and add cards to zones, live legality (validate API), statistics
   (server-rendered SVG), save with If-Match and a conflict panel when the deck changed elsewhere. */
"use strict";
(function () {
  const W = window.Workbench;
  const el = W.el;
  const data = W.readJSON("deck-data");
  if (!data) return;
  const urls = data.urls;
  const zones = data.zones;
  const byId = {};
  data.cards.forEach(function (card) { byId[card.id] = card; });
  let deckId = data.deck_id;
  let version = data.version;
  let dirty = false;
  let saving = false;
  let checkSeq = 0;
  let statsSeq = 0;

  const deck = normalise(data.deck || {});
  const form = document.getElementById("deck-form");
  // Viewers may try changes (legality, statistics) but never save them.
  const readOnly = form.dataset.readOnly === "true";
  const nameInput = document.getElementById("deck-name");
  const formatSelect = document.getElementById("deck-format");
  const notesInput = document.getElementById("deck-notes");
  const idInput = document.getElementById("deck-id");
  const search = document.getElementById("card-search");
  const kindFilter = document.getElementById("card-kind");
  const results = document.getElementById("card-results");
  const resultNote = document.getElementById("result-note");
  const statusLine = document.getElementById("save-status");
  const title = document.getElementById("deck-title");
  const panel = document.getElementById("conflict-panel");
  const oddsTarget = document.getElementById("odds-target");
  const oddsK = document.getElementById("odds-k");
  const oddsTurns = document.getElementById("odds-turns");
  const MAX_RESULTS = 60;

  function normalise(raw) {
    const out = { zones: {} };
    Object.keys(raw).forEach(function (k) { if (k !== "zones") out[k] = raw[k]; });
    zones.forEach(function (z) { out.zones[z.id] = {}; });
    const given = raw.zones && typeof raw.zones === "object" ? raw.zones : {};
    Object.keys(given).forEach(function (zid) {
      const content = given[zid] && typeof given[zid] === "object" ? given[zid] : {};
      out.zones[zid] = Object.assign({}, content);
    });
    return out;
  }

  function setStatus(text, kind) {
    if (readOnly && kind === "dirty") text = W.t("Trying changes: viewers cannot save");
    statusLine.textContent = text;
    statusLine.className = "save-status" + (kind ? " status-" + kind : "");
  }
  function deckUrl(id) { return urls.deck.replace("__ID__", encodeURIComponent(id)); }
  function zoneLabel(zid) { const z = zones.find(function (x) { return x.id === zid; }); return z ? z.label : zid; }
  function cardName(cid) { return byId[cid] ? byId[cid].name : cid; }
  // The most copies of one card the deck's format allows in a zone (none: no "N×" button).
  function limitFor(zid) {
    const limits = data.copy_limits || {};
    const fmt = formatSelect ? formatSelect.value : "";
    const table = Object.prototype.hasOwnProperty.call(limits, fmt) ? limits[fmt] : (fmt ? {} : (limits[""] || {}));
    return table[zid] || 0;
  }
  // Re-rendering replaces the rows; keep keyboard focus on the control the designer used.
  function focusKey() {
    const active = document.activeElement;
    return active && active.dataset ? active.dataset.focus || null : null;
  }
  function restoreFocus(key) {
    if (!key) return;
    const target = document.querySelector('[data-focus="' + CSS.escape(key) + '"]');
    if (target) { target.focus(); return; }
    const parts = key.split("|");
    if (parts[0] === "zone") {  // the row is gone (its last copy removed): its zone's heading
      const heading = document.getElementById("zone-" + parts[1] + "-title");
      if (heading) heading.focus();
    }
  }

  function current() {
    const out = {};
    Object.keys(deck).forEach(function (k) { if (k !== "zones") out[k] = deck[k]; });
    out.name = nameInput.value;
    if (formatSelect) out.format = formatSelect.value;
    if (notesInput.value.trim()) out.notes = notesInput.value; else delete out.notes;
    out.zones = {};
    Object.keys(deck.zones).forEach(function (zid) {
      const content = {};
      Object.keys(deck.zones[zid]).forEach(function (cid) { if (deck.zones[zid][cid] > 0) content[cid] = deck.zones[zid][cid]; });
      if (Object.keys(content).length || zones.some(function (z) { return z.id === zid; })) out.zones[zid] = content;
    });
    return out;
  }

  /* ------------------------------------------------------------ zones */

  function setCount(zid, cid, count) {
    if (!deck.zones[zid]) deck.zones[zid] = {};
    if (count > 0) deck.zones[zid][cid] = count; else delete deck.zones[zid][cid];
    changed();
  }

  function renderZones() {
    zones.forEach(function (zone) {
      const list = document.getElementById("zone-" + zone.id + "-list");
      const content = deck.zones[zone.id] || {};
      list.textContent = "";
      let total = 0;
      Object.keys(content).sort(function (a, b) { return cardName(a).localeCompare(cardName(b)); }).forEach(function (cid) {
        const count = content[cid];
        total += count;
        const card = byId[cid];
        const name = cardName(cid);
        const key = "zone|" + zone.id + "|" + cid + "|";
        const limit = limitFor(zone.id);
        const input = el("input", { type: "number", min: 0, max: 999, value: count, class: "count",
          "aria-label": W.t("Copies of %(card)s in %(zone)s", { card: name, zone: zone.label }), "data-focus": key + "count",
          onchange: function () { setCount(zone.id, cid, Math.max(0, parseInt(input.value || "0", 10) || 0)); } });
        list.appendChild(el("li", { class: "zone-row" + (card ? "" : " missing"), "data-card-id": cid }, [
          el("button", { type: "button", class: "icon-button", "aria-label": W.t("One fewer %(card)s", { card: name }), text: "−",
            "data-focus": key + "minus", onclick: function () { setCount(zone.id, cid, count - 1); } }),
          input,
          el("button", { type: "button", class: "icon-button", "aria-label": W.t("One more %(card)s", { card: name }), text: "+",
            "data-focus": key + "plus", onclick: function () { setCount(zone.id, cid, count + 1); } }),
          limit > 1 ? el("button", { type: "button", class: "icon-button wide", text: limit + "×",
            "aria-label": W.t("%(n)s copies of %(card)s (the most allowed)", { n: limit, card: name }), "data-focus": key + "max",
            onclick: function () { setCount(zone.id, cid, limit); } }) : null,
          el("span", { class: "zone-card" }, [
            card ? el("a", { href: urls.card.replace("__ID__", encodeURIComponent(cid)), text: name }) : el("span", { text: W.t("%(card)s (missing)", { card: name }) }),
            card ? el("span", { class: "muted", text: " " + card.kind_label }) : null,
          ]),
          el("button", { type: "button", class: "icon-button remove", "aria-label": W.t("Remove %(card)s from %(zone)s", { card: name, zone: zone.label }), text: "×",
            "data-focus": key + "remove", onclick: function () { setCount(zone.id, cid, 0); } }),
        ]));
      });
      document.getElementById("zone-" + zone.id + "-count").textContent = String(total);
      document.getElementById("zone-" + zone.id + "-empty").hidden = total > 0;
    });
  }

  /* ------------------------------------------------------------ search */

  function renderResults() {
    const words = W.fold(search.value).split(/\s+/).filter(Boolean);
    const kind = kindFilter.value;
    const matching = data.cards.filter(function (card) {
      if (kind && card.kind !== kind) return false;
      return words.every(function (w) { return card.search.indexOf(w) !== -1; });
    });
    results.textContent = "";
    matching.slice(0, MAX_RESULTS).forEach(function (card) {
      const targets = zones.filter(function (z) { return z.kinds.indexOf(card.kind) !== -1; });
      const inDeck = zones.map(function (z) { return (deck.zones[z.id] || {})[card.id] ? z.label + " ×" + deck.zones[z.id][card.id] : null; }).filter(Boolean);
      results.appendChild(el("li", { class: "result kind-" + card.kind, "data-card-id": card.id }, [
        el("div", { class: "result-head" }, [el("span", { class: "result-name", text: card.name }),
          el("span", { class: "muted", text: " " + card.kind_label })]),
        card.summary ? el("div", { class: "result-summary muted", text: card.summary }) : null,
        inDeck.length ? el("div", { class: "result-in-deck", text: W.t("In deck: %(zones)s", { zones: inDeck.join(", ") }) }) : null,
        el("div", { class: "result-actions" }, targets.reduce(function (buttons, z) {
          const have = (deck.zones[z.id] || {})[card.id] || 0;
          const limit = limitFor(z.id);
          buttons.push(el("button", { type: "button", class: "button small", "data-zone": z.id, "aria-label": W.t("Add %(card)s to %(zone)s", { card: card.name, zone: z.label }),
            "data-focus": "result|" + card.id + "|" + z.id + "|one",
            text: "+ " + z.label, onclick: function () { setCount(z.id, card.id, have + 1); } }));
          if (limit > 1) {
            buttons.push(el("button", { type: "button", class: "button small", "data-zone": z.id,
              "aria-label": W.t("%(n)s copies of %(card)s in %(zone)s (the most allowed)", { n: limit, card: card.name, zone: z.label }),
              "data-focus": "result|" + card.id + "|" + z.id + "|max",
              text: limit + "× " + z.label, onclick: function () { setCount(z.id, card.id, Math.max(have, limit)); } }));
          }
          return buttons;
        }, [])),
      ]));
    });
    results.dataset.query = search.value;  // the query these results answer (a typed query is debounced)
    resultNote.textContent = matching.length > MAX_RESULTS
      ? W.t("Showing %(shown)s of %(n)s matching cards; type more to narrow.", { shown: MAX_RESULTS, n: matching.length })
      : W.tn("%(n)s matching card", "%(n)s matching cards", matching.length, { n: matching.length });
  }

  /* ------------------------------------------------------------ legality and statistics */

  async function check() {
    const seq = ++checkSeq;
    const answer = await W.api("POST", urls.validate, { deck: current(), id: deckId || undefined });
    if (seq !== checkSeq || !answer.body) return;
    const status = document.getElementById("legal-status");
    const list = document.getElementById("legal-problems");
    list.textContent = "";
    if (!answer.ok) {
      status.textContent = answer.body.error || W.t("Cannot check this deck");
      status.className = "legal-status bad";
      return;
    }
    const problems = answer.body.problems || [];
    const errors = problems.filter(function (p) { return p.severity === "error"; }).length;
    status.textContent = answer.body.legal
      ? W.t("Legal") + (problems.length ? W.tn(" (%(n)s warning)", " (%(n)s warnings)", problems.length, { n: problems.length }) : "")
      : W.tn("Not legal: %(n)s error", "Not legal: %(n)s errors", errors, { n: errors });
    status.className = "legal-status " + (answer.body.legal ? "ok" : "bad");
    problems.forEach(function (p) {
      list.appendChild(el("li", { class: "problem problem-" + p.severity, text: p.text || p.message }));
    });
  }

  function rebuildTargets() {
    const previous = oddsTarget.value;
    const drawZone = zones.find(function (z) { return z.id === "main"; }) || zones[0];
    const content = deck.zones[drawZone.id] || {};
    oddsTarget.textContent = "";
    const kindGroup = el("optgroup", { label: W.t("A kind") });
    const seenKinds = [];
    Object.keys(content).forEach(function (cid) {
      const card = byId[cid];
      if (card && seenKinds.indexOf(card.kind) === -1) seenKinds.push(card.kind);
    });
    Object.keys(data.kinds).forEach(function (kid) {
      if (seenKinds.indexOf(kid) !== -1) kindGroup.appendChild(el("option", { value: "kind:" + kid, text: W.t("any %(kind)s", { kind: data.kinds[kid] }) }));
    });
    const cardGroup = el("optgroup", { label: W.t("A card") });
    Object.keys(content).sort(function (a, b) { return cardName(a).localeCompare(cardName(b)); }).forEach(function (cid) {
      if (byId[cid]) cardGroup.appendChild(el("option", { value: "card:" + cid, text: cardName(cid) + " (" + content[cid] + ")" }));
    });
    if (kindGroup.children.length) oddsTarget.appendChild(kindGroup);
    if (cardGroup.children.length) oddsTarget.appendChild(cardGroup);
    if (!oddsTarget.children.length) oddsTarget.appendChild(el("option", { value: "", text: W.t("(add cards first)") }));
    if (previous && oddsTarget.querySelector('option[value="' + CSS.escape(previous) + '"]')) oddsTarget.value = previous;
  }

  async function stats() {
    const seq = ++statsSeq;
    const body = { deck: current(), k: parseInt(oddsK.value || "1", 10) || 1, turns: parseInt(oddsTurns.value || "10", 10) || 10 };
    const target = oddsTarget.value;
    if (target.startsWith("kind:")) body.kind = target.slice(5);
    if (target.startsWith("card:")) body.card = target.slice(5);
    const answer = await W.api("POST", urls.stats, body);
    if (seq !== statsSeq) return;
    if (answer.ok && answer.body && typeof answer.body.html === "string") {
      /* Server-rendered with every card text escaped (Jinja autoescape, charts.py escape()). */
      document.getElementById("stats-body").innerHTML = answer.body.html;
    }
  }

  const refresh = W.debounce(function () { check(); stats(); }, 200);

  /* The statistics panel is redrawn on every change; a screen reader hears only what changed:
     the counts of the zones that moved (not the whole panel again). */
  let lastTotals = {};
  function announceTotals() {
    const said = [];
    zones.forEach(function (z) {
      const total = Object.values(deck.zones[z.id] || {}).reduce(function (a, b) { return a + b; }, 0);
      if (lastTotals[z.id] !== undefined && lastTotals[z.id] !== total) said.push(W.tn("%(zone)s: %(n)s card", "%(zone)s: %(n)s cards", total, { zone: z.label, n: total }));
      lastTotals[z.id] = total;
    });
    if (said.length) document.getElementById("stats-announce").textContent = said.join(", ");
  }

  function changed() {
    const key = focusKey();
    dirty = true;
    setStatus(W.t("Unsaved changes"), "dirty");
    renderZones();
    renderResults();
    rebuildTargets();
    restoreFocus(key);
    announceTotals();
    refresh();
  }

  /* ------------------------------------------------------------ paste or import a list */

  const listText = document.getElementById("list-text");
  const listFile = document.getElementById("list-file");
  const listReport = document.getElementById("list-report");
  const listActions = document.getElementById("list-actions");
  let listed = null;

  async function checkList() {
    let text = listText.value;
    let filename = "";
    if (listFile.files && listFile.files[0]) {
      text = await listFile.files[0].text();
      filename = listFile.files[0].name;
    }
    listReport.textContent = "";
    listActions.hidden = true;
    listed = null;
    if (!text.trim()) { listReport.textContent = W.t("Paste a list or choose a file first."); return; }
    const answer = await W.api("POST", urls.import_list, { text: text, filename: filename });
    if (!answer.ok || !answer.body) {
      listReport.textContent = (answer.body && answer.body.error) || W.t("Cannot read the list (HTTP %(code)s)", { code: answer.status });
      return;
    }
    listed = answer.body;
    const parts = Object.keys(listed.zones).map(function (zid) {
      const n = Object.values(listed.zones[zid]).reduce(function (a, b) { return a + b; }, 0);
      return W.t("%(n)s in %(zone)s", { n: n, zone: zoneLabel(zid) });
    });
    listReport.appendChild(el("p", { text: W.tn("%(n)s card found", "%(n)s cards found", listed.cards, { n: listed.cards }) +
      (parts.length ? W.t(": %(zones)s", { zones: parts.join(", ") }) : "") + W.t(". Nothing is changed until you add them.") }));
    if (listed.problems.length) {
      const texts = listed.problem_texts || listed.problems;  // the reader's language, the English as a fallback
      listReport.appendChild(el("ul", { class: "problem-list" }, listed.problems.map(function (p, i) {
        return el("li", { class: "problem problem-warning", text: texts[i] || p });
      })));
    }
    listActions.hidden = listed.cards === 0;
  }

  function applyList(replace) {
    if (!listed) return;
    if (replace) Object.keys(deck.zones).forEach(function (zid) { deck.zones[zid] = {}; });
    Object.keys(listed.zones).forEach(function (zid) {
      if (!deck.zones[zid]) deck.zones[zid] = {};
      Object.keys(listed.zones[zid]).forEach(function (cid) {
        deck.zones[zid][cid] = (replace ? 0 : (deck.zones[zid][cid] || 0)) + listed.zones[zid][cid];
      });
    });
    if (!nameInput.value.trim() && listed.name && listed.name !== "Imported deck") {
      nameInput.value = listed.name;
      title.textContent = listed.name;
    }
    listReport.textContent = replace ? W.t("The deck now holds the list's %(n)s cards.", { n: listed.cards })
      : W.t("Added the list's %(n)s cards.", { n: listed.cards });
    listActions.hidden = true;
    listed = null;
    changed();
    listText.focus();
  }

  document.getElementById("list-check").addEventListener("click", checkList);
  document.getElementById("list-add").addEventListener("click", function () { applyList(false); });
  document.getElementById("list-replace").addEventListener("click", function () { applyList(true); });

  const duplicate = document.getElementById("duplicate-deck");
  if (duplicate) {
    duplicate.addEventListener("click", async function () {
      const copy = Object.assign({}, current(), { name: W.t("%(name)s (copy)", { name: nameInput.value || deckId }) });
      const created = await W.api("POST", urls.decks, copy);
      if (created.status === 201) {
        dirty = false;
        window.location.assign(urls.edit.replace("__ID__", encodeURIComponent(created.body.id)));
      } else {
        setStatus((created.body && created.body.error) || W.t("Could not duplicate (HTTP %(code)s)", { code: created.status }), "error");
      }
    });
  }

  /* ------------------------------------------------------------ save and conflicts */

  async function save() {
    if (saving || readOnly) return;
    saving = true;
    setStatus(W.t("Saving…"), "busy");
    const body = current();
    try {
      let answer;
      if (!deckId) {
        if (idInput && idInput.value.trim()) body.id = idInput.value.trim();
        answer = await W.api("POST", urls.decks, body);
        if (answer.status === 201) {
          dirty = false;
          window.location.assign(urls.edit.replace("__ID__", encodeURIComponent(answer.body.id)));
          return;
        }
      } else {
        answer = await W.api("PUT", deckUrl(deckId), body, { "If-Match": '"' + version + '"' });
        if (answer.ok) {
          version = answer.body.version;
          dirty = false;
          setStatus(W.t("Saved %(time)s", { time: new Date().toLocaleTimeString() }) + (answer.body.legal ? W.t(" · legal") : W.t(" · not legal yet")), "ok");
          return;
        }
        if (answer.status === 412 || answer.status === 404) {
          setStatus(W.t("Not saved: the deck changed elsewhere"), "error");
          await showConflict(body);
          return;
        }
      }
      setStatus(answer.body && answer.body.error ? answer.body.error : W.t("Save failed (HTTP %(code)s)", { code: answer.status }), "error");
    } catch (e) {
      setStatus(W.t("Save failed: %(error)s. Your deck is still here.", { error: e.message }), "error");
    } finally {
      saving = false;
    }
  }

  async function showConflict(mine) {
    const answer = await W.api("GET", deckUrl(deckId));
    const theirs = answer.ok ? answer.body.deck : null;
    const theirsVersion = answer.ok ? answer.body.version : null;
    panel.textContent = "";
    panel.hidden = false;
    panel.appendChild(el("h2", { id: "conflict-title", text: theirs ? W.t("This deck was changed elsewhere") : W.t("This deck was deleted elsewhere") }));
    panel.appendChild(el("p", { text: W.t("Your save was refused, so nothing was overwritten; your deck is still in the builder.") }));
    if (theirs) {
      const rows = [];
      if ((theirs.name || "") !== (mine.name || "")) rows.push([W.t("Name"), theirs.name || "—", mine.name || "—"]);
      if ((theirs.format || "") !== (mine.format || "")) rows.push([W.t("Format"), theirs.format || "—", mine.format || "—"]);
      const zoneIds = Object.keys(Object.assign({}, theirs.zones || {}, mine.zones || {}));
      zoneIds.forEach(function (zid) {
        const a = (theirs.zones || {})[zid] || {};
        const b = (mine.zones || {})[zid] || {};
        Object.keys(Object.assign({}, a, b)).forEach(function (cid) {
          if ((a[cid] || 0) !== (b[cid] || 0)) rows.push([zoneLabel(zid) + ": " + cardName(cid), String(a[cid] || 0), String(b[cid] || 0)]);
        });
      });
      panel.appendChild(el("table", { class: "data-table conflict-table" }, [
        el("caption", { text: W.tn("%(n)s difference", "%(n)s differences", rows.length, { n: rows.length }) }),
        el("thead", {}, [el("tr", {}, [el("th", { scope: "col", text: W.t("What") }), el("th", { scope: "col", text: W.t("Saved version") }), el("th", { scope: "col", text: W.t("Yours") })])]),
        el("tbody", {}, rows.map(function (r) { return el("tr", {}, [el("th", { scope: "row", text: r[0] }), el("td", { text: r[1] }), el("td", { text: r[2] })]); })),
      ]));
    }
    const buttons = el("div", { class: "conflict-actions" });
    if (theirs) {
      buttons.appendChild(el("button", { type: "button", class: "button button-primary", text: W.t("Keep mine (replace the saved deck)"),
        onclick: function () { version = theirsVersion; panel.hidden = true; save(); } }));
      buttons.appendChild(el("button", { type: "button", class: "button", text: W.t("Keep theirs (drop my changes)"),
        onclick: function () {
          version = theirsVersion;
          const fresh = normalise(theirs);
          Object.keys(deck).forEach(function (k) { delete deck[k]; });
          Object.assign(deck, fresh);
          nameInput.value = theirs.name || "";
          if (formatSelect && theirs.format) formatSelect.value = theirs.format;
          notesInput.value = theirs.notes || "";
          panel.hidden = true;
          changed();
          dirty = false;
          setStatus(W.t("Showing the saved deck."), "info");
        } }));
    } else {
      buttons.appendChild(el("button", { type: "button", class: "button button-primary", text: W.t("Save mine as a new deck"),
        onclick: async function () {
          const created = await W.api("POST", urls.decks, Object.assign({}, mine, { id: deckId }));
          if (created.status === 201) { dirty = false; window.location.assign(urls.edit.replace("__ID__", encodeURIComponent(created.body.id))); }
        } }));
    }
    panel.appendChild(buttons);
    panel.focus();
  }

  /* ------------------------------------------------------------ wiring */

  search.addEventListener("input", W.debounce(renderResults, 80));
  kindFilter.addEventListener("change", renderResults);
  nameInput.addEventListener("input", function () { title.textContent = nameInput.value || "New deck"; dirty = true; setStatus(W.t("Unsaved changes"), "dirty"); });
  notesInput.addEventListener("input", function () { dirty = true; setStatus(W.t("Unsaved changes"), "dirty"); });
  if (formatSelect) formatSelect.addEventListener("change", changed);
  [oddsTarget, oddsK, oddsTurns].forEach(function (input) { input.addEventListener("change", stats); });
  document.getElementById("odds-form").addEventListener("submit", function (event) { event.preventDefault(); stats(); });
  form.addEventListener("submit", function (event) { event.preventDefault(); save(); });
  document.addEventListener("keydown", function (event) {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "s") { event.preventDefault(); save(); }
  });
  W.guardUnsaved(function () { return dirty && !readOnly; });

  renderZones();
  renderResults();
  rebuildTargets();
  announceTotals();  // remembers the starting counts; nothing is said yet
  check();
})();

/* The game table: render the server's view of one seat, send moves, let the AI move with a visible
   delay, hot-seat "pass the screen", undo/restart, and the replay step controls.
   The server decides everything (legal moves, what a seat may see); this only shows and sends. */
"use strict";

(function () {
  const root = document.getElementById("play");
  if (!root) return;
  const W = window.Workbench;
  const el = W.el;
  const kind = root.dataset.kind;
  const hotSeat = root.dataset.hotSeat === "true";
  const board = document.getElementById("pt-board");
  const statusEl = document.getElementById("pt-status");
  const movesEl = document.getElementById("pt-moves");
  const cardMovesEl = document.getElementById("pt-card-moves");
  const logEl = document.getElementById("pt-log");
  const announceEl = document.getElementById("pt-announce");
  const passEl = document.getElementById("pt-pass");
  const large = document.getElementById("pt-large");
  const largeName = document.getElementById("pt-large-name");
  const speedEl = document.getElementById("pt-speed");
  const undoSel = document.getElementById("pt-undo-to");

  let view = W.readJSON("pt-initial");
  let shownSeat = view.seat;
  let busy = false;
  let aiTimer = null;
  let selected = null; // instance of the card whose moves are open

  if (speedEl) {
    const kept = window.localStorage && localStorage.getItem("workbench.play.speed");
    if (kept !== null && kept !== undefined && speedEl.querySelector(`option[value="${kept}"]`)) speedEl.value = kept;
    speedEl.addEventListener("change", function () {
      try { localStorage.setItem("workbench.play.speed", speedEl.value); } catch (e) { /* private mode */ }
    });
  }

  function delay() { return speedEl ? Number(speedEl.value) : 600; }

  function focusKey() {
    const a = document.activeElement;
    if (!a || a === document.body) return null;
    if (a.dataset && a.dataset.inst) return { inst: a.dataset.inst };
    if (a.dataset && a.dataset.move !== undefined) return { move: a.dataset.move };
    if (a.id) return { id: a.id };
    return null;
  }

  function restoreFocus(key) {
    let target = null;
    if (actedOn && key && key.move !== undefined) {
      const card = board.querySelector(`[data-inst="${CSS.escape(actedOn)}"]`);
      if (card && card.dataset.moves) target = card;
    }
    actedOn = null;
    if (key && key.inst) target = board.querySelector(`[data-inst="${CSS.escape(key.inst)}"]`);
    if (!target && key && key.id) target = document.getElementById(key.id);
    if (!target && key && (key.inst || key.move !== undefined)) {
      target = movesEl ? movesEl.querySelector("button") : null;
      if (!target) target = statusEl;
    }
    if (target && target !== document.activeElement) {
      if (target === statusEl) statusEl.setAttribute("tabindex", "-1");
      target.focus({ preventScroll: true });
    }
  }

  function moveButton(m) {
    return el("button", { type: "button", class: "button pt-move", "data-move": m.index, "data-kind": m.kind,
                          text: m.text, onclick: function () { sendMove(m); } });
  }

  function renderMoves() {
    if (!movesEl) return;
    movesEl.replaceChildren();
    (view.moves || []).forEach(function (m) { movesEl.appendChild(el("li", {}, [moveButton(m)])); });
    if (!(view.moves || []).length) movesEl.appendChild(el("li", { class: "muted", text: view.over ? W.t("The game is over.") : W.t("No moves for you now.") }));
    closeCardMoves();
  }

  function openCardMoves(card) {
    if (!cardMovesEl) return;
    const indices = (card.dataset.moves || "").split(",").filter(Boolean).map(Number);
    selected = card.dataset.inst;
    board.querySelectorAll(".pt-card.is-selected").forEach(function (c) { c.classList.remove("is-selected"); });
    card.classList.add("is-selected");
    const moves = (view.moves || []).filter(function (m) { return indices.indexOf(m.index) !== -1; });
    cardMovesEl.replaceChildren(
      el("p", { class: "pt-card-moves-title", text: moves.length ? W.tn("%(card)s: %(n)s move", "%(card)s: %(n)s moves", moves.length, { card: card.dataset.name, n: moves.length }) : W.t("%(card)s: no moves now", { card: card.dataset.name }) }),
      el("ul", { class: "pt-move-list" }, moves.map(function (m) { return el("li", {}, [moveButton(m)]); })),
      el("button", { type: "button", class: "button button-quiet small", text: W.t("Close"), onclick: function () { closeCardMoves(); card.focus(); } })
    );
    cardMovesEl.hidden = false;
    const first = cardMovesEl.querySelector("button.pt-move");
    if (first) first.focus();
  }

  function closeCardMoves() {
    if (!cardMovesEl) return;
    cardMovesEl.hidden = true;
    cardMovesEl.replaceChildren();
    selected = null;
    board.querySelectorAll(".pt-card.is-selected").forEach(function (c) { c.classList.remove("is-selected"); });
  }

  function renderLog(previous) {
    logEl.replaceChildren();
    (view.log || []).forEach(function (line, i) {
      logEl.appendChild(el("li", { class: i >= previous ? "is-new" : null, text: line }));
    });
    logEl.scrollTop = logEl.scrollHeight;
  }

  function renderUndo() {
    if (!undoSel) return;
    undoSel.replaceChildren();
    (view.undo || []).forEach(function (u) {
      const turn = u.turn !== null && u.turn !== undefined ? W.t("%(label)s %(turn)s", { label: view.turn_label, turn: u.turn }) + W.t(": ") : "";
      undoSel.appendChild(el("option", { value: u.step, text: `${turn}${u.who} — ${u.text}` }));
    });
    const none = !(view.undo || []).length;
    document.getElementById("pt-undo").disabled = none;
    undoSel.disabled = none;
  }

  function render(next, opts) {
    const key = focusKey();
    const previousLog = view && view.id === next.id && next.log.length >= view.log.length ? view.log.length : next.log.length;
    const before = view;
    view = next;
    const opened = Array.from(board.querySelectorAll("details[open][data-zone]")).map(function (d) {
      const side = d.closest(".pt-side");
      return `${side && side.classList.contains("pt-you") ? "you" : "them"}:${d.dataset.zone}`;
    });
    board.innerHTML = view.board_html; // rendered by the server from escaped templates
    opened.forEach(function (key) {
      const [side, zone] = key.split(":");
      const d = board.querySelector(`.pt-${side} details[data-zone="${CSS.escape(zone)}"]`);
      if (d) d.open = true;
    });
    statusEl.textContent = view.status;
    statusEl.classList.remove("is-error");
    document.getElementById("pt-turn").textContent = view.turn !== null && view.turn !== undefined ? W.t("%(label)s %(turn)s", { label: view.turn_label, turn: view.turn }) : "";
    document.getElementById("pt-phase").textContent = view.phase || "";
    document.getElementById("pt-step").textContent = view.step;
    root.dataset.step = view.step;
    root.dataset.over = view.over ? "true" : "false";
    root.dataset.seat = view.seat === null ? "" : view.seat;
    renderMoves();
    renderLog(opts && opts.fresh ? view.log.length : previousLog);
    renderUndo();
    if (kind === "replay") renderReplay();
    const added = view.log.slice(previousLog);
    let spoken = added.slice(-3).join(". ");
    if (view.moves && view.moves.length && !(before && before.moves && before.moves.length && before.step === view.step)) {
      spoken += (spoken ? ". " : "") + view.status + " " + W.tn("%(n)s legal move.", "%(n)s legal moves.", view.moves.length, { n: view.moves.length });
    } else if (view.over) {
      spoken += (spoken ? ". " : "") + view.status;
    }
    if (spoken) announceEl.textContent = spoken;
    if (!(opts && opts.noFocus)) restoreFocus(key);
    schedule();
  }

  function showError(message) {
    statusEl.textContent = message;
    statusEl.classList.add("is-error");
    announceEl.textContent = message;
  }

  async function post(url, body) {
    if (busy) return null;
    busy = true;
    root.setAttribute("aria-busy", "true");
    try {
      const answer = await W.api("POST", url, Object.assign({ expect: view.decisions, seat: view.seat }, body || {}));
      if (answer.body && answer.body.board_html) render(answer.body);
      if (!answer.ok) showError((answer.body && answer.body.error) || W.t("The server answered %(status)s.", { status: answer.status }));
      return answer;
    } catch (e) {
      showError(W.t("The server cannot be reached; try again."));
      return null;
    } finally {
      busy = false;
      root.removeAttribute("aria-busy");
      schedule();
    }
  }

  let actedOn = null; // the card a move was chosen from: focus goes back to it afterwards
  function sendMove(m) {
    actedOn = selected;
    post(root.dataset.moveUrl, { index: m.index, kind: m.kind });
  }

  /* The AI moves on its own, one decision at a time, after the chosen delay. */
  function schedule() {
    clearTimeout(aiTimer);
    if (kind === "replay" || busy || view.over) return;
    const waiting = view.waiting_for || [];
    const aiOnly = waiting.length && waiting.every(function (p) { return view.players_kind[p] !== "human"; });
    if (aiOnly) {
      aiTimer = setTimeout(function () { post(root.dataset.advanceUrl, {}); }, delay());
      return;
    }
    if (hotSeat && view.next_human !== null && view.next_human !== undefined && view.next_human !== shownSeat) {
      showPass(view.next_human);
    }
  }

  function showPass(seat) {
    // Nothing of the previous player's view stays on screen: board, card preview, log, undo list.
    root.classList.add("is-passing");
    large.hidden = true;
    large.removeAttribute("src");
    largeName.textContent = "";
    logEl.replaceChildren();
    if (undoSel) undoSel.replaceChildren();
    closeCardMoves();
    board.hidden = true;
    if (movesEl) movesEl.hidden = true;
    passEl.hidden = false;
    const handOver = W.t("Hand the screen to %(player)s. Only they should look at it now.", { player: view.labels[seat] });
    document.getElementById("pt-pass-text").textContent = handOver;
    // The status line above the cover said the previous player's "Your move (…)" or "waiting for …".
    statusEl.textContent = handOver;
    statusEl.classList.remove("is-error");
    const ready = document.getElementById("pt-pass-ready");
    ready.textContent = W.t("I am %(player)s: show my hand", { player: view.labels[seat] });
    ready.dataset.seat = seat;
    ready.focus();
  }

  document.getElementById("pt-pass-ready").addEventListener("click", async function () {
    const seat = Number(this.dataset.seat);
    const answer = await W.api("GET", `${root.dataset.stateUrl}?seat=${seat}`);
    if (!answer.ok || !answer.body) { showError(W.t("The table could not be loaded; try again.")); return; }
    shownSeat = seat;
    root.classList.remove("is-passing");
    passEl.hidden = true;
    board.hidden = false;
    if (movesEl) movesEl.hidden = false;
    render(answer.body, { fresh: true, noFocus: true });
    const first = movesEl && movesEl.querySelector("button");
    (first || statusEl).focus();
  });

  /* A free damage split (seth): amounts per target and kind, checked by the server. */
  board.addEventListener("submit", function (event) {
    const form = event.target.closest("#pt-split");
    if (!form) return;
    event.preventDefault();
    const parts = [];
    form.querySelectorAll("input[data-target]").forEach(function (input) {
      const amount = Number(input.value || 0);
      if (amount > 0) parts.push([input.dataset.target, input.dataset.element, Math.floor(amount)]);
    });
    post(root.dataset.moveUrl, { kind: "split", args: parts });
  });

  /* Cards: click or Enter opens the card's moves; hover or focus shows it large. */
  board.addEventListener("click", function (event) {
    const card = event.target.closest(".pt-card[data-inst]");
    if (!card || kind === "replay") return;
    if (selected === card.dataset.inst) { closeCardMoves(); return; }
    openCardMoves(card);
  });

  function showLarge(card) {
    if (!card) return;
    largeName.textContent = card.getAttribute("aria-label") || card.dataset.name;
    if (card.dataset.face) {
      large.src = card.dataset.face;
      large.alt = card.dataset.name;
      large.hidden = false;
    } else {
      large.hidden = true;
    }
  }

  board.addEventListener("mouseover", function (event) { showLarge(event.target.closest(".pt-card[data-inst]")); });
  board.addEventListener("focusin", function (event) { showLarge(event.target.closest(".pt-card[data-inst]")); });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && selected) {
      const card = board.querySelector(`[data-inst="${CSS.escape(selected)}"]`);
      closeCardMoves();
      if (card) card.focus();
    }
  });

  /* Undo and restart. */
  const undoButton = document.getElementById("pt-undo");
  if (undoButton) {
    undoButton.addEventListener("click", function () {
      if (!undoSel.value) return;
      post(root.dataset.undoUrl, { step: Number(undoSel.value) });
    });
    document.getElementById("pt-restart").addEventListener("click", function () {
      if (window.confirm(W.t("Start this game again from the beginning, with the same seed?"))) post(root.dataset.restartUrl, {});
    });
  }

  /* Replay: step through the kept decisions. */
  function renderReplay() {
    document.getElementById("rp-count").textContent = W.t("Step %(n)s of %(total)s", { n: view.step, total: view.decisions });
    document.getElementById("rp-back").disabled = view.step <= 0;
    document.getElementById("rp-first").disabled = view.step <= 0;
    document.getElementById("rp-next").disabled = view.step >= view.decisions;
    document.getElementById("rp-last").disabled = view.step >= view.decisions;
    document.getElementById("rp-takeover-step").value = view.step;
    const turnSel = document.getElementById("rp-turn");
    if (view.turn !== null && view.turn !== undefined && turnSel.querySelector(`option[value="${view.turn}"]`)) turnSel.value = String(view.turn);
  }

  /* Steps asked for while one is loading are not lost: the latest wanted step is fetched next. */
  let wanted = view.step;
  async function goStep(step) {
    wanted = Math.max(0, Math.min(view.decisions, step));
    if (busy) return;
    busy = true;
    try {
      while (wanted !== view.step) {
        const asked = wanted;
        const answer = await W.api("GET", `${root.dataset.stateUrl}?step=${asked}`);
        if (!answer.ok || !answer.body) { showError(W.t("That step could not be loaded.")); wanted = view.step; break; }
        render(answer.body);
      }
    } finally {
      busy = false;
    }
  }

  if (kind === "replay") {
    const turns = view.turns || [];
    document.getElementById("rp-first").addEventListener("click", function () { goStep(0); });
    document.getElementById("rp-back").addEventListener("click", function () { goStep(wanted - 1); });
    document.getElementById("rp-next").addEventListener("click", function () { goStep(wanted + 1); });
    document.getElementById("rp-last").addEventListener("click", function () { goStep(view.decisions); });
    document.getElementById("rp-turn").addEventListener("change", function () {
      const wanted = this.value;
      const index = turns.findIndex(function (t) { return String(t) === wanted; });
      if (index !== -1) goStep(index);
    });
    document.addEventListener("keydown", function (event) {
      if (event.target.closest("input, select, textarea")) return;
      if (event.key === "ArrowLeft") { event.preventDefault(); goStep(wanted - 1); }
      if (event.key === "ArrowRight") { event.preventDefault(); goStep(wanted + 1); }
    });
  }

  render(view, { fresh: true, noFocus: true });
  if (hotSeat && view.next_human !== null && view.next_human !== undefined) showPass(view.next_human);
})();

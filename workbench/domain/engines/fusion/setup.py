"""Building Fusion Duel states: a new game from two decks, a scenario position, and the snapshot.

``new_game`` deals a real game (shuffle, opening hands, mulligans). ``from_setup`` builds any
position a rule scenario describes (docs/engines/fusion.md lists its keys) and ``snapshot``
returns the observable state as plain data for scenario ``expect`` blocks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from operator import is_
from typing import Any

from workbench.domain.engines.base import CardData, DeckCards, State
from workbench.domain.engines.fusion.cards import CardDef, card_def
from workbench.domain.engines.fusion.state import (
    _PTOK,
    MAX_PLAYERS,
    PLAYER,
    FusionState,
    Options,
    Shared,
    shuffle,
)
from workbench.domain.engines.fusion.tokens import add_tokens
from workbench.domain.errors import WorkbenchError

PHASES = ("mulligan", "ready", "main1", "battle", "main2", "end")


class SetupError(WorkbenchError):
    """A scenario ``setup`` mapping for fusion is malformed."""


def new_game(deck_a: DeckCards, deck_b: DeckCards, options: Mapping[str, Any], seed: int) -> FusionState:
    """A two-player game (see :func:`new_pod`)."""
    return new_pod((deck_a, deck_b), options, seed)


def new_pod(decks: Sequence[DeckCards], options: Mapping[str, Any], seed: int) -> FusionState:
    """Shuffle every main deck, choose the first player at random, deal opening hands (§3.1.5);
    ``decks`` are the seats in turn order, two to four of them (§3.9.1).

    The extra decks are dealt face down to their zone (§3.10.2), and the instances of the tokens
    the cards can make are built (``tokens.add_tokens``). Option ``_first_player``
    (a seat) fixes the first player instead of the toss. Option ``_deck_seeds`` (one int per
    seat) gives each deck its own shuffle stream — the setup shuffle and every mulligan shuffle —
    so a deck's order does not depend on its seat (playtest seed pairs, docs/playtests.md).
    Without it every deck shuffles from the state's generator, as before. Raises ValueError for
    fewer than two or more than four decks; never raises for odd card values.
    """
    n = len(decks)
    if not 2 <= n <= MAX_PLAYERS:
        raise ValueError(f"fusion seats 2 to {MAX_PLAYERS} players, not {n} (RULES.md §3.9.1)")
    opts = Options(options)
    shared = _shared_for([list(d.get("main", ())) for d in decks], opts.log,
                         [list(d.get("extra", ())) for d in decks])
    state = FusionState(shared.cards, shared.names, shared.owner, opts, seed, shared)
    state.deck = [list(zone) for zone in shared.dealt_main]  # tokens exist only on the field
    state.extra = [list(zone) for zone in shared.dealt_extra]
    deck_seeds = options.get("_deck_seeds")
    if deck_seeds is not None:
        state.deck_seeds = tuple(int(deck_seeds[p]) for p in range(n))
    for p in range(n):
        shuffle(state.shuffle_rng(p), state.deck[p])
    forced = options.get("_first_player")
    state.first = int(forced) if forced is not None and forced in range(n) else state.rng.randrange(n)
    state.active = state.actor = state.first
    if state.logging:
        state.log.append(f"Setup — P{state.first + 1} goes first ({'coin toss' if n == 2 else 'chosen at random'})")
    for p in range(n):
        state._draw(p, opts.start_hand)
        state.own_stats().opening[p] = set(state.stats.drawn[p])  # until a mulligan replaces it
    state.step = "mulligan" if opts.max_mulligans > 0 else "turn"
    state._advance()
    return state


_SHARED: dict[tuple[Any, ...], tuple[list[list[Any]], Shared]] = {}


def _shared_for(mains: list[list[Any]], texts: bool, extras: list[list[Any]] | None = None) -> Shared:
    """The Shared tables for these card lists (one per seat), reused while the card objects are
    the same. Instances are named by seat letter and number: the main decks ``a1``, ``b7``, ``c3``,
    ``d12``, then the extra decks (``ax1``…; a card there that is not an extra-deck creature is
    ignored), then the tokens the cards can make (``at1``…)."""
    extra_lists = [[c for c in x if card_def(c).extra] for x in (extras or [[] for _ in mains])]
    extra_lists += [[] for _ in range(len(mains) - len(extra_lists))]
    key = (*map(len, mains), *map(len, extra_lists), texts)
    seats = [m + x for m, x in zip(mains, extra_lists)]
    hit = _SHARED.get(key)
    if hit is not None and all(_same(old, new) for old, new in zip(hit[0], seats)):
        return hit[1]
    cards: list[CardDef] = []
    names: list[str] = []
    owner: list[int] = []
    for p, main in enumerate(mains):
        for n, raw in enumerate(main, 1):
            cards.append(card_def(raw))
            names.append(f"{'abcd'[p]}{n}")
            owner.append(p)
    for p, extra in enumerate(extra_lists):
        for n, raw in enumerate(extra, 1):
            cards.append(card_def(raw))
            names.append(f"{'abcd'[p]}x{n}")
            owner.append(p)
    add_tokens(cards, names, owner, lambda q, k: f"{'abcd'[q]}t{k}", len(mains))
    shared = Shared(cards, names, owner, len(mains))
    if len(_SHARED) > 64:
        _SHARED.clear()
    _SHARED[key] = (seats, shared)
    return shared


def _same(old: list[Any], new: list[Any]) -> bool:
    # Identity, not equality: a playtest hands the very same card objects to every game.
    return len(old) == len(new) and all(map(is_, old, new))


# ---------------------------------------------------------------------------- scenarios


def from_setup(setup: Mapping[str, Any], options: Mapping[str, Any], seed: int) -> FusionState:
    """Build a position from a scenario ``setup`` mapping (docs/engines/fusion.md).

    Raises SetupError when a key, card or instance name is wrong.
    """
    if not isinstance(setup, Mapping):
        raise SetupError("setup must be a mapping")
    unknown = set(setup) - {"turn", "active", "first_player", "phase", "cards", "players"}
    if unknown:
        raise SetupError(f"unknown setup keys: {', '.join(sorted(map(str, unknown)))}")
    library = setup.get("cards") or {}
    if not isinstance(library, Mapping):
        raise SetupError("setup.cards must map card ids to card mappings")
    players = setup.get("players") or [{}, {}]
    if not isinstance(players, Sequence) or not 2 <= len(players) <= MAX_PLAYERS:
        raise SetupError(f"setup.players must list 2 to {MAX_PLAYERS} players (RULES.md §3.9.1)")
    n = len(players)  # the setup's seats, whatever option players says (§3.9.1)
    cards: list[CardDef] = []
    names: list[str] = []
    owner: list[int] = []
    placed: list[tuple[int, str, Mapping[str, Any]]] = []
    zones = ("deck", "hand", "creatures", "magic", "field", "graveyard", "exile", "extra_deck")
    for p, spec in enumerate(players):
        if not isinstance(spec, Mapping):
            raise SetupError(f"setup.players.{p} must be a mapping")
        extra = set(spec) - set(zones) - {"life", "mana", "mana_max", "mulligans"}
        if extra:
            raise SetupError(f"setup.players.{p}: unknown keys {', '.join(sorted(map(str, extra)))}")
        for zone in zones:
            for entry in spec.get(zone) or []:
                name, raw, flags = _instance(entry, library, f"players.{p}.{zone}")
                if name in names or name in (*_PTOK, PLAYER, "none"):
                    raise SetupError(f"instance name {name!r} is used twice or reserved")
                parsed = card_def(raw)
                if zone == "creatures" and not parsed.is_creature:
                    raise SetupError(f"players.{p}.creatures: {name!r} is not a creature")
                if zone in ("magic", "field") and parsed.is_creature and not (
                        zone == "magic" and flags.get("face_down") and parsed.kind == "item"):
                    raise SetupError(f"players.{p}.{zone}: {name!r} is a creature")
                if zone == "extra_deck" and not parsed.extra:
                    raise SetupError(f"players.{p}.extra_deck: {name!r} is not an extra-deck creature "
                                     "(extra: true)")
                cards.append(parsed)
                names.append(name)
                owner.append(p)
                placed.append((p, zone, flags))
    add_tokens(cards, names, owner, lambda q, k: f"p{q + 1}-token{k}", n)
    opts = Options(options)
    state = FusionState(cards, names, owner, opts, seed, players=n)
    turn = int(setup.get("turn", 1))
    active = int(setup.get("active", 0))
    if not 0 <= active < n:
        raise SetupError(f"setup.active must be a seat 0 … {n - 1}, got {active}")
    phase = str(setup.get("phase", "main1"))
    if phase not in PHASES:
        raise SetupError(f"setup.phase must be one of {', '.join(PHASES)}, got {phase!r}")
    # by default the first player is the one whose turn numbering fits: turn t is seat first + t - 1
    state.first = int(setup.get("first_player", (active - (turn - 1)) % n))
    if not 0 <= state.first < n:
        raise SetupError(f"setup.first_player must be a seat 0 … {n - 1}")
    for p, spec in enumerate(players):
        state.life[p] = int(spec.get("life", opts.start_life))
        state.mana_max[p] = int(spec.get("mana_max", min(opts.mana_cap, (turn + n - 1) // n)))
        state.mana[p] = int(spec.get("mana", state.mana_max[p]))
        state.mulls[p] = int(spec.get("mulligans", 0))
    for i, (p, zone, flags) in enumerate(placed):
        _place(state, i, p, zone, flags, turn)
    state._cb = None
    state._sc = {}
    state.turn = turn
    state.active = active
    if phase == "mulligan":
        state.step, state.actor, state.phase = "mulligan", state.first, "mulligan"
        state.turn = 0  # the first turn starts after the mulligans
    elif phase == "ready":
        # Start the turn from its ready phase: mana growth, untap, start-of-turn effects, draw.
        state.turn = turn - 1
        state.active = (active - 1) % n
        if turn == 1:
            state.first = active
        state.step = "turn"
    elif phase == "battle":
        state.phase, state.step = "battle", "declare"
    elif phase == "end":
        state.phase, state.step = "end", "end"
    else:
        state.phase, state.step = phase, "main"
    state.actor = state.active if phase != "mulligan" else state.first
    if state.logging:
        state.log.append(f"Setup — scenario position, turn {turn}, P{active + 1} to act, {phase}")
    state._advance()
    return state


def _instance(entry: Any, library: Mapping[str, Any], where: str) -> tuple[str, CardData, Mapping[str, Any]]:
    if isinstance(entry, Mapping) and "name" in entry:
        name = str(entry["name"])
        card = entry.get("card")
        flags = entry
    elif isinstance(entry, Mapping) and len(entry) == 1:
        name, card = next(iter(entry.items()))
        name = str(name)
        flags = {}
    else:
        raise SetupError(f"{where}: each card is {{name: NAME, card: ID or mapping, ...}} or {{NAME: ID}}")
    if isinstance(card, str):
        if card not in library:
            raise SetupError(f"{where}: card {card!r} is not in setup.cards")
        raw = dict(library[card])
        raw.setdefault("id", card)
    elif isinstance(card, Mapping):
        raw = dict(card)
        raw.setdefault("id", name)
    else:
        raise SetupError(f"{where}: instance {name!r} needs a card (an id from setup.cards or a mapping)")
    raw.setdefault("name", raw["id"])
    return name, raw, flags


def _place(state: FusionState, i: int, p: int, zone: str, flags: Mapping[str, Any], turn: int) -> None:
    face_down = bool(flags.get("face_down", False))
    if zone == "deck":
        state.deck[p].insert(0, i)  # listed top first; the top is the end of the list
    elif zone == "hand":
        state.hand[p].append(i)
    elif zone == "graveyard":
        state.grave[p].append(i)
    elif zone == "exile":
        state.exile[p].append(i)
    elif zone == "extra_deck":
        state.extra[p].append(i)
    elif zone == "field":
        state.field[p].append(i)
    elif zone == "magic":
        state.magic[p].append(i)
        if face_down:
            state.down.add(i)
            state.set_turn[i] = turn if flags.get("set_this_turn") else turn - 1
        if "attached_to" in flags:
            host = state.index.get(str(flags["attached_to"]))
            if host is None:
                raise SetupError(f"attached_to names no card instance: {flags['attached_to']!r}")
            state.attached[i] = host
    elif zone == "creatures":
        state.crea[p].append(i)
        if face_down:
            state.down.add(i)
            state.tapped.add(i)
            state.set_turn[i] = turn if flags.get("set_this_turn") else turn - 1
        if flags.get("tapped"):
            state.tapped.add(i)
        if flags.get("sick"):
            state.sick.add(i)
        if flags.get("damage"):
            state.damage[i] = int(flags["damage"])
        if flags.get("atk_mod") or flags.get("def_mod"):
            state.mods[i] = (int(flags.get("atk_mod", 0)), int(flags.get("def_mod", 0)))


def snapshot(state: State) -> dict[str, Any]:
    """The observable position as plain data (life, zones by instance name, chain, result)."""
    assert isinstance(state, FusionState)
    s = state
    names = s.names
    players = []
    for p in range(s.np):
        players.append({
            "life": s.life[p],
            "mana": s.mana[p],
            "mana_max": s.mana_max[p],
            "mulligans": s.mulls[p],
            "hand": [names[i] for i in s.hand[p]],
            "hand_count": len(s.hand[p]),
            "deck": [names[i] for i in reversed(s.deck[p])],
            "deck_count": len(s.deck[p]),
            "creatures": {
                names[i]: {
                    "card": s.cards[i].id,
                    "atk": s.atk(i),
                    "def": s.dfn(i),
                    "damage": s.damage.get(i, 0),
                    "tapped": i in s.tapped,
                    "face_down": i in s.down,
                    "sick": i in s.sick,
                }
                for i in s.crea[p]
            },
            "creature_count": len(s.crea[p]),
            "magic": {
                names[i]: {
                    "card": s.cards[i].id,
                    "face_down": i in s.down,
                    "attached_to": names[s.attached[i]] if i in s.attached else None,
                }
                for i in s.magic[p]
            },
            "field": [names[i] for i in s.field[p]],
            "graveyard": [names[i] for i in s.grave[p]],
            "exile": [names[i] for i in s.exile[p]],
            "extra_deck": [names[i] for i in s.extra[p]],
        })
    if s.np != 2:  # three or four players (§3.9.5): who is out, and the places given so far
        for p, view in enumerate(players):
            view["out"] = p not in s.alive
            view["place"] = s.places[p] or None
    result: dict[str, Any] | None = None
    if s.over:
        result = {"winner": s.winner, "reason": s.reason, "draw": s.winner is None}
        if s.np != 2:
            result["places"] = list(s.places)
    return {
        "turn": s.turn,
        "active": s.active,
        "first_player": s.first,
        "player_count": s.np,
        "phase": s.phase,
        "step": s.step,
        "to_act": list(s.to_act()),
        "players": players,
        "chain": [
            {"player": link[0], "card": s.cards[link[1]].id, "instance": names[link[1]], "speed": link[6],
             "negated": link[7]}
            for link in s.chain
        ],
        "attacks": [
            {"attacker": names[a[0]], "target": (PLAYER if s.np == 2 else _PTOK[-1 - a[1]]) if a[1] < 0 else names[a[1]],
             "blockers": [names[b] for b in a[2]]}
            for a in s.attacks
        ],
        "terminal": s.over,
        "result": result,
    }

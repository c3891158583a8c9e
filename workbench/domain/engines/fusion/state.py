"""The Fusion Duel game state: zones, turn flow, the chain, battle (RULES.md §3, two to four players).

One :class:`FusionState` holds the whole position. Card instances are small integers; their
definitions, names and owners are shared between clones (never mutated), while the per-instance
flags live in small sets and dicts so that :meth:`FusionState.clone` is a handful of shallow
copies. After every applied action :meth:`FusionState._advance` runs the automatic parts of the
rules (ready, draw, chain resolution, battle damage, clean-up) until a player must decide; a
decision whose only legal action is ``pass`` (or an empty block) is taken automatically so the
action space stays small.

Steps (``self.step``) where a player decides:
``mulligan`` (keep/mulligan), ``main`` (main 1 or 2), ``declare`` (attackers), ``respond``
(answer the top of the chain or pass), ``window`` (a quick-effect window in battle),
``retarget`` (an attack lost its target), ``block``, ``order`` (the attacker orders blockers),
``discard`` (hand limit), ``target`` (a triggered effect needs a target).

Speed (benchmarks/engine_fusion.py): Actions are built once per deck pair and looked up in
per-instance tables (``sa_*``: plain plays; plays, abilities, attacks and blocks per target, as
lists indexed by the target, see ``_NO_TARGET``), so a decision allocates no Action and formats no
text while the log is off. ``atk_dfn`` caches each creature's (ATK, DEF) in ``_sc``; the cache and
the continuous bonuses ``_cb`` are dropped only when a continuous card moves or turns face up, and
a single entry when that creature's own changes do (the clean-up drops only the creatures with
end-of-turn changes). Per-player sets of the cards with abilities, quick cards, Taunt and start-
or end-of-turn effects let the scans skip fields and hands that hold none; a chain answer or
battle window where nobody can answer is passed without listing anything. Decks are shuffled by
``shuffle``, the same Fisher-Yates draws as ``random.Random.shuffle``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from itertools import product
from typing import Any

from workbench.domain.engines.base import Action, GameResult, GameStats, State
from workbench.domain.engines.fields import field_copier
from workbench.domain.effects.asks import Paused, resume, run
from workbench.domain.effects.interpreter import can_pay, legal_targets, matches, pay, resolve
from workbench.domain.effects.spec import Source
from workbench.domain.effects.statics import StaticRules
from workbench.domain.engines.fusion.adapter import ADAPTER, card_worth
from workbench.domain.engines.fusion.cards import CardDef, Effect
from workbench.domain.engines.fusion.fusing import FusionCache, fusion_choices
from workbench.domain.engines.fusion.observe import Observe
from workbench.domain.engines.shuffle import shuffle
from workbench.domain.errors import IllegalAction

PLAYER = "player"
# Player tokens inside the engine are negative: -1 is player 0, -2 is player 1, … -4 is player 3.
_PTOK = ("p0", "p1", "p2", "p3")
MAX_PLAYERS = 4
"""Players a game may seat (RULES.md §3.9.1, option ``players``)."""
_SEATS = tuple(f"P{p + 1}" for p in range(MAX_PLAYERS))
"""The players' names in the log (``P{p + 1}``), formatted once."""
_UNLOGGED = frozenset(("pass", "done", "keep", "go", "mulligan", "target"))
"""The action kinds FusionState._do writes no "P1: …" log line for (one hash look-up, no string compares)."""
_PLAYS = frozenset(("summon", "flip", "play"))
"""The action kinds FusionState._do carries out with _do_play (a set: one hash look-up)."""
_ATTACHING = frozenset(("equip", "aura"))
"""The magic subtypes that stay attached to the creature their effect targets (§3.4.3)."""
_TURN_TAGS = tuple(f"Turn {n} — " for n in range(1000))
"""The log lines' prefixes by turn (FusionState._say), formatted once: a game writes ~200 lines."""
ACTIVATION_LIMIT = 40
"""Activations per player per turn; a safety net against zero-cost loops of card data."""

PASS = Action("pass", (), "pass")
_CALM_KINDS = frozenset(("pass", "retarget", "block", "done", "order"))
"""Actions that change nothing a battle window's answers read (RULES.md §3.9.4): between the
window after a declaration and the one after the blocks, a player who could only pass still can
unless another action, a trigger or a resolution came in between (``FusionState._calm``)."""

FIXED = {
    kind: Action(kind, (), text)
    for kind, text in (
        ("keep", "keep the hand"), ("mulligan", "mulligan"), ("battle", "go to battle"),
        ("end", "end the turn"), ("go", "confirm the attack declaration"),
        ("end_battle", "end the battle phase"), ("done", "no more blockers"),
    )
}
"""The argument-free actions: the same immutable values in every game."""


_NO_TARGET = -5
"""Slot of the target-less Action in the per-target tables.

Those tables are lists of ``n + 5`` entries indexed by the target: instances 0 … n-1, the player
tokens -1 … -4 (the last four entries) and _NO_TARGET (the fifth last), so a lookup is a list
index rather than a dict call."""


def _ptok(p: int) -> int:
    return -1 - p


_SOLO = ((0,), (1,), (2,), (3,))  # what to_act returns, without a new tuple per call


def turn_order(n: int, alive: list[int]) -> list[tuple[int, ...]]:
    """Per seat, the other players still in the game in turn order after it (RULES.md §3.9.1);
    with two players ``[(1,), (0,)]``."""
    return [tuple(q for k in range(1, n) if (q := (p + k) % n) in alive) for p in range(n)]


def next_seats(n: int, alive: list[int]) -> list[int]:
    """Per seat (in the game or out), the next seat still in the game in turn order; with two
    players ``[1, 0]``."""
    return [next(((p + k) % n for k in range(1, n + 1) if (p + k) % n in alive), p) for p in range(n)]


_FIXED_TEXTS = {
    "keep": "keep the hand", "mulligan": "mulligan", "battle": "go to battle", "end": "end the turn",
    "go": "confirm the attack declaration", "end_battle": "end the battle phase",
    "done": "no more blockers", "pass": "pass",
}
"""The log texts of the actions without arguments (FusionState._describe)."""


class Options:
    """The rule options the engine reads, resolved once per game (RULES.md §3 options)."""

    __slots__ = (
        "start_life", "start_hand", "max_mulligans", "mana_cap", "hand_limit", "max_creatures",
        "max_set_magic", "set_max_stars", "skip_draw", "strike_back", "log", "max_turns", "extra_in_main",
        "hide_down",
    )

    def __init__(self, options: Mapping[str, Any]) -> None:
        get = options.get
        self.start_life = int(get("start_life", 20))
        self.start_hand = int(get("start_hand", 5))
        self.max_mulligans = int(get("max_mulligans", 3))
        self.mana_cap = int(get("mana_cap", 10))
        self.hand_limit = int(get("hand_limit", 6))
        self.max_creatures = int(get("max_creatures", 5))
        self.max_set_magic = int(get("max_set_magic", 5))
        self.set_max_stars = int(get("set_max_stars", 4))
        self.skip_draw = bool(get("first_player_skips_draw", True))
        self.strike_back = bool(get("target_strikes_back", True))
        # §3.10.2 Decision: extra-deck creatures also come out in the main phase by their materials
        self.extra_in_main = get("extra_deck_summon", "effect_only") == "materials_in_main"
        # §3.4.2 Decision: filters see another player's face-down cards only as face down
        self.hide_down = bool(get("face_down_hidden", True))
        self.log = bool(get("_log", True))
        # Not a rule: a guard so a pathological deck (no draws ever end it) still terminates.
        self.max_turns = int(get("_max_turns", 300))


_SHARED_FIELDS = (
    "cards", "names", "owner", "index", "cont_ids", "cont_set", "neg_cont", "has_cont", "acache",
    "sa_set", "sa_summon", "sa_tables", "sa_attack", "sa_aim", "sa_abil", "has_act", "has_quick",
    "act_ids", "quick_ids", "taunt_ids", "fast_act_ids", "start_ids", "end_ids", "n_slots", "sa_block",
    "token_ids", "item_ids", "has_items", "mcache", "fusion", "worths", "guess_base",
    "v2", "static_ids", "dmg_watch", "cont_filtered", "cnames", "card_texts",
)

# What each position holds of its own (set by FusionState.__init__, copied by clone). With the
# shared fields, the state's slots: a hundred attributes overflow a dict's shared keys, and slots
# read faster than the plain dict an instance would get.
_OWN_FIELDS = (
    "np", "alive", "opps", "nxt", "places", "opts", "stats", "_stats_mine", "_cb", "_sc", "_rng",
    "_rng_mine", "deck_seeds", "log", "logging", "texts", "deck", "hand", "crea", "magic", "field",
    "grave", "exile", "extra", "life", "mana", "mana_max", "mulls", "tapped", "down", "sick",
    "set_turn", "damage", "mods", "eot", "attached", "counters", "lasting", "bound", "hurt", "dealer",
    "_cb_seen", "_rules", "used", "acts", "turn", "first", "active", "phase", "step", "actor", "chain",
    "prio", "passes", "bseat", "resolving", "resume", "attacks", "wplayer", "wstage", "pending",
    "tgt_opts", "asking", "_saved_step", "winner", "reason", "over", "_legal", "_fuse", "_calm",
    "_vouched",
)


GuessTables = tuple[list[tuple[int, int, int]], list[tuple[int, int] | None]]
"""What the heuristic's face-down guess starts from (see agents._guess_tables)."""


class Shared:
    """What never changes during a game: card data, instance names and owners, action caches.

    One Shared serves every clone of a game, and ``new_game`` reuses it for every game between
    the same two deck objects (with the same log setting), so Actions are built once.
    """

    __slots__ = (
        "cards", "names", "owner", "index", "cont_ids", "cont_set", "neg_cont", "has_cont", "acache",
        "sa_set", "sa_summon", "sa_tables", "unsimulated", "sa_attack", "sa_aim", "has_act", "has_quick",
        "act_ids", "quick_ids", "taunt_ids", "fast_act_ids", "sa_abil", "start_ids", "end_ids",
        "n_slots", "sa_block", "players", "token_ids", "v2", "static_ids", "dmg_watch", "cont_filtered",
        "item_ids", "has_items", "mcache", "fusion", "worths", "dealt_main", "dealt_extra", "guess_base",
        "cnames", "card_texts",
    )

    def __init__(self, cards: list[CardDef], names: list[str], owner: list[int], players: int = 2) -> None:
        self.cards = cards
        self.players = players
        self.names = names
        self.owner = owner
        self.index = {n: i for i, n in enumerate(names)}
        self.cont_ids = [i for i, c in enumerate(cards) if c.continuous]
        # Stats (see FusionState.atk_dfn) change only when one of these cards moves or turns.
        self.cont_set = frozenset(self.cont_ids)
        self.neg_cont = any(e.dfn < 0 for c in cards for e in c.continuous)
        self.has_cont = bool(self.cont_ids)
        self.unsimulated = frozenset(c.id for c in cards if not c.simulated)
        self.acache: dict[tuple[str, tuple[Any, ...]], Action] = {}
        # Per-instance tables of the argument-free actions, filled lazily.
        n = len(cards)
        self.sa_set: list[Action | None] = [None] * n
        self.sa_summon: list[Action | None] = [None] * n
        # Cards stay in their owner's zones, so a player without such cards in the deck list never
        # has an ability to activate or a quick card to answer with.
        self.act_ids = [frozenset(i for i, c in enumerate(cards) if c.activated and owner[i] == p) for p in range(players)]
        self.quick_ids = [frozenset(i for i, c in enumerate(cards) if c.play_speed >= 2 and owner[i] == p) for p in range(players)]
        self.has_act = [bool(ids) for ids in self.act_ids]
        # the cards with an ability fast enough for the opponent's turn or a faster chain (§3.6.2)
        self.fast_act_ids = [
            frozenset(i for i in ids if any(e.speed >= 2 for e in cards[i].activated)) for ids in self.act_ids
        ]
        self.taunt_ids = [frozenset(i for i, c in enumerate(cards) if c.taunt and owner[i] == p) for p in range(players)]
        # the cards with start-of-turn and end-of-turn effects: most turns have none to run
        self.start_ids = [frozenset(i for i, c in enumerate(cards) if c.start and owner[i] == p) for p in range(players)]
        self.end_ids = [frozenset(i for i, c in enumerate(cards) if c.end and owner[i] == p) for p in range(players)]
        self.has_quick = [bool(ids) for ids in self.quick_ids]
        # token instances (§3.10.3): outside the creature limit, gone once they leave the field
        self.token_ids = [frozenset(i for i, c in enumerate(cards) if c.token and owner[i] == p) for p in range(players)]
        # effects v2 item 8: what of it the game's cards use (the hot paths test these first), the
        # cards with static rules, and whether damage has triggers to run
        self.v2: frozenset[str] = frozenset().union(*(c.v2 for c in cards))
        self.static_ids = [i for i, c in enumerate(cards) if c.statics]
        self.dmg_watch = bool(self.v2 & {"on_damaged", "on_deal_damage"})
        # a standing change with a filter reaches creatures by name: a newcomer needs a new look
        self.cont_filtered = any(e.filter is not None for c in cards for e in c.continuous)
        # normal items, usable in the main phases of every player's turn (§3.10.6)
        self.item_ids = [frozenset(i for i, c in enumerate(cards) if c.kind == "item" and c.subtype == "normal"
                                   and c.play_speed < 2 and owner[i] == p) for p in range(players)]
        self.has_items = any(self.item_ids)
        # which card definitions fit which material filters (adapter.material_fits): static facts
        self.mcache: dict[int, tuple[frozenset[int], Any]] = {}
        self.fusion = FusionCache()  # fusing.fusion_choices across positions
        self.worths = [card_worth(c) for c in cards]  # ADAPTER.worth of each instance
        # per set_max_stars: agents._guess_tables (per-player totals, per-card stats)
        self.guess_base: dict[int, GuessTables] = {}
        # per instance: (ATK, DEF) -> its name in the log with those stats (FusionState._cname)
        self.cnames: list[dict[tuple[int, int], str]] = [{} for _ in cards]
        # per instance: its name in action descriptions, ``name (a3)`` (FusionState._card_text)
        self.card_texts = [f"{card.name} ({name})" for card, name in zip(cards, names)]
        # what setup.new_pod deals each seat before the shuffle: its main deck and its extra deck
        # (tokens exist only on the field), in instance order
        self.dealt_main = [[i for i, c in enumerate(cards) if owner[i] == p and not c.token and not c.extra]
                           for p in range(players)]
        self.dealt_extra = [[i for i, c in enumerate(cards) if owner[i] == p and not c.token and c.extra]
                            for p in range(players)]
        # Actions of cards with one chosen-target effect, per kind and instance: target -> Action
        # (each per-target table is a list indexed by target, see _NO_TARGET)
        self.sa_aim: dict[str, list[list[Action | None] | None]] = {
            "summon": [None] * n, "play": [None] * n, "flip": [None] * n,
        }
        # attack Actions per attacker: target instance (or -1 for the opponent) -> Action
        self.sa_attack: list[list[Action | None] | None] = [None] * n
        # activate Actions per instance: effect index -> per-target table
        self.sa_abil: list[dict[int, list[Action | None]] | None] = [None] * n
        # block Actions per blocker: attacker -> Action
        self.sa_block: list[list[Action | None] | None] = [None] * n
        self.n_slots = n + 5  # the length of a per-target table
        self.sa_tables: dict[str, list[Action | None]] = {
            "set": self.sa_set, "summon": self.sa_summon, "play": [None] * n, "flip": [None] * n,
        }

    def give_to(self, state: FusionState) -> None:
        """Set ``state``'s shared fields (all of the above but the id sets) to these values."""
        _copy_shared(self, state)


class FusionState(Observe, State):
    """A Fusion Duel position; see the module docstring for the steps."""

    __slots__ = _SHARED_FIELDS + _OWN_FIELDS

    # What Shared hands every state (copied into its slots by __init__, see _SHARED_FIELDS).
    cards: list[CardDef]
    names: list[str]
    owner: list[int]
    index: dict[str, int]
    cont_ids: list[int]
    cont_set: frozenset[int]
    neg_cont: bool
    has_cont: bool
    acache: dict[tuple[str, tuple[Any, ...]], Action]
    sa_set: list[Action | None]
    sa_summon: list[Action | None]
    sa_tables: Any
    sa_attack: Any
    sa_aim: Any
    sa_abil: Any
    has_act: list[bool]
    has_quick: Any
    act_ids: list[frozenset[int]]
    quick_ids: list[frozenset[int]]
    taunt_ids: list[frozenset[int]]
    fast_act_ids: Any
    start_ids: Any
    end_ids: Any
    n_slots: int
    sa_block: Any
    _rng: random.Random  # the generator behind ``rng``, shared with the state cloned from
    _rng_mine: bool      # whether ``_rng`` is this state's own copy
    _stats_mine: bool    # whether ``stats`` is this state's own (see own_stats)
    token_ids: list[frozenset[int]]
    v2: frozenset[str]
    static_ids: list[int]
    dmg_watch: bool
    cont_filtered: bool
    item_ids: list[frozenset[int]]
    has_items: bool
    mcache: dict[int, tuple[frozenset[int], Any]]
    fusion: FusionCache
    worths: list[float]
    cnames: list[dict[tuple[int, int], str]]
    card_texts: list[str]
    guess_base: dict[int, GuessTables]

    # ------------------------------------------------------------------ construction

    def __init__(
        self, cards: list[CardDef], names: list[str], owner: list[int], opts: Options, seed: int,
        shared: Shared | None = None, players: int = 2,
    ) -> None:
        sh = shared if shared is not None else Shared(cards, names, owner, players)
        n = self.np = sh.players  # seats 0 … n-1 (RULES.md §3.9.1)
        self.alive: list[int] = list(range(n))  # seats still in the game, in seat order (§3.9.5)
        self.opps: list[tuple[int, ...]] = turn_order(n, self.alive)  # per seat: the others in turn order
        self.nxt: list[int] = next_seats(n, self.alive)  # per seat: who plays after it
        self.places: list[int] = [0] * n  # final place per seat, set as players drop out (§3.9.5)
        # card data, names, owners and the Action caches (immutable values shared by clones and
        # games) become plain attributes, so the hot paths read self.X rather than self.shared.X
        sh.give_to(self)
        self.opts = opts
        self.stats = GameStats() if n == 2 else GameStats.of(n)
        self._stats_mine = True  # False while shared with a clone: see own_stats
        self.stats.unsimulated.update(sh.unsimulated)
        self._cb: Any = None  # cached continuous bonuses, see _cont_bonuses
        # cached (ATK, DEF) per creature, see atk_dfn; emptied with _cb and on every stat change
        self._sc: dict[int, tuple[int, int]] = {}
        self.rng = random.Random(seed)
        self.deck_seeds: tuple[int, ...] | None = None  # per-deck shuffle streams, see shuffle_rng
        self.log = []
        self.logging = opts.log  # log lines (a look-ahead clone turns this off)
        self.texts = opts.log  # action descriptions, cached in acache and shared by clones
        self.deck: list[list[int]] = [[] for _ in range(n)]  # top of the deck is the end of the list
        self.hand: list[list[int]] = [[] for _ in range(n)]
        self.crea: list[list[int]] = [[] for _ in range(n)]
        self.magic: list[list[int]] = [[] for _ in range(n)]
        self.field: list[list[int]] = [[] for _ in range(n)]
        self.grave: list[list[int]] = [[] for _ in range(n)]
        self.exile: list[list[int]] = [[] for _ in range(n)]
        self.extra: list[list[int]] = [[] for _ in range(n)]  # the extra deck (§3.10.2)
        self.life = [opts.start_life] * n
        self.mana = [0] * n
        self.mana_max = [0] * n
        self.mulls = [0] * n
        self.tapped: set[int] = set()
        self.down: set[int] = set()  # face down
        self.sick: set[int] = set()  # summoned this turn: cannot tap
        self.set_turn: dict[int, int] = {}
        self.damage: dict[int, int] = {}
        self.mods: dict[int, tuple[int, int]] = {}  # permanent ATK/DEF changes
        self.eot: dict[int, tuple[int, int]] = {}  # until end of turn
        self.attached: dict[int, int] = {}  # equip/aura card -> creature
        self.counters: dict[int, dict[str, int]] = {}  # named counters of effects, by creature
        self.lasting: list[tuple[int, int, int, int]] = []  # (controller, creature, +atk, +def) until its next turn
        self.bound: list[tuple[int, int, int, int]] = []  # (source, creature, +atk, +def) while the source is on the field
        self.hurt: list[tuple[int | None, int | None]] = []  # (creature or None, by) damage not yet answered
        self.dealer: dict[tuple[int, int], int] = {}  # (creature, effect index) -> whose damage it took
        self._cb_seen: set[int] = set()  # with cont_filtered: the creatures _cb was computed with
        self._rules: tuple[Any, int, StaticRules] | None = None  # (field zones, face-down count, the static rules in play)
        self.used: set[tuple[int, str, int]] = set()  # once-per-turn keys
        self.acts = [0] * n
        self.turn = 0
        self.first = 0
        self.active = 0
        self.phase = "mulligan"
        self.step = "mulligan"
        self.actor = 0
        self.chain: list[list[Any]] = []  # [player, src, kind, effects, targets, x, speed, negated]
        self.prio = 0
        self.passes = 0  # players who passed in a row on the chain (§3.9.4)
        self.bseat = -1  # the defender choosing blockers now; -1 before the first (§3.9.3)
        self.resolving = False
        self.resume: tuple[str, int] = ("main", 0)
        self.attacks: list[list[Any]] = []  # [attacker, target, blockers, n_ordered]
        self.wplayer = 0
        self.wstage = ""
        self.pending: list[tuple[int, int, Effect]] = []
        self.tgt_opts: list[int] = []
        self.asking: tuple[Any, ...] | None = None  # (Paused, then, step before): effects.asks
        self._saved_step = "main"
        self.winner: int | None = None
        self.reason = ""
        self.over = False
        self._legal: list[Action] | None = None
        self._fuse: dict[tuple[int, int], Any] | None = None  # fusion_choices of this position
        # (player, the attacks): that player could only pass in the window after these attacks
        # were declared, and since then only battle declarations happened (see _advance)
        self._calm: tuple[int, list[list[Any]]] | None = None
        # the last attack attack_listed found legal in this position (None after every move)
        self._vouched: Action | None = None

    def clone(self) -> FusionState:
        """A cheap independent copy: shared card data, copied zones and flags (no deepcopy)."""
        new = object.__new__(FusionState)
        _copy_all(self, new)  # every field as it is; what changes in place is copied below
        # The generator is shared copy-on-write: fusion draws from it only for mulligan shuffles,
        # so most clones never pay for copying its 625-word state.
        self._rng_mine = new._rng_mine = False
        new.log = list(self.log)
        # The statistics are shared copy-on-write too (see own_stats): a look-ahead clone
        # rarely outlives a few draws and plays, and most clones never write to them.
        self._stats_mine = new._stats_mine = False
        new.deck = [list(z) for z in self.deck]
        new.hand = [list(z) for z in self.hand]
        new.crea = [list(z) for z in self.crea]
        new.magic = [list(z) for z in self.magic]
        new.field = [list(z) for z in self.field]
        new.grave = [list(z) for z in self.grave]
        new.exile = [list(z) for z in self.exile]
        new.extra = [list(z) for z in self.extra]
        new.life = list(self.life)
        new.mana = list(self.mana)
        new.mana_max = list(self.mana_max)
        new.mulls = list(self.mulls)
        new.acts = list(self.acts)
        new.pending = list(self.pending)
        new.tgt_opts = list(self.tgt_opts)
        new.lasting = list(self.lasting)
        new.bound = list(self.bound)
        new.hurt = list(self.hurt)
        # alive, opps and places are replaced, never changed in place (_knock_out): shared
        new.tapped = set(self.tapped)
        new.down = set(self.down)
        new.sick = set(self.sick)
        new.used = set(self.used)
        new.set_turn = dict(self.set_turn)
        new.damage = dict(self.damage)
        new.mods = dict(self.mods)
        new.eot = dict(self.eot)
        new.attached = dict(self.attached)
        new.dealer = dict(self.dealer)
        if self.counters:
            new.counters = {i: dict(table) for i, table in self.counters.items()}
        new.chain = [list(link) for link in self.chain]
        new.attacks = [[a[0], a[1], list(a[2]), a[3]] for a in self.attacks]
        # The listed actions are immutable values in a list nobody changes in place (a new
        # position gets a new list): the clone lists the same until it applies an action.
        new._fuse = None
        new._sc = dict(self._sc)  # the same stats until a change drops an entry
        return new

    def own_stats(self) -> GameStats:
        """The game statistics to write to: this state's own copy (made on the first write
        after a clone, which shares them)."""
        if not self._stats_mine:
            self.stats = self.stats.copy()
            self._stats_mine = True
        return self.stats

    @property
    def rng(self) -> random.Random:
        """The state's own seeded generator (copied on first use after a clone)."""
        if not self._rng_mine:
            own = random.Random()
            own.setstate(self._rng.getstate())
            self._rng = own
            self._rng_mine = True
        return self._rng

    @rng.setter
    def rng(self, value: random.Random) -> None:
        self._rng = value
        self._rng_mine = True

    def shuffle_rng(self, p: int) -> random.Random:
        """The generator that shuffles player ``p``'s deck now: the state's own, or — with
        ``deck_seeds`` (setup option ``_deck_seeds``) — one made from that deck's seed and the
        mulligans it has taken, so the deck's order does not depend on its seat or on the other
        player's shuffles (and a clone needs no copy of it)."""
        if self.deck_seeds is None:
            return self.rng
        return random.Random(self.deck_seeds[p] * 64 + self.mulls[p])

    # ------------------------------------------------------------------ interface

    def to_act(self) -> tuple[int, ...]:
        """The single player who decides now; empty once the game is over."""
        return () if self.over else _SOLO[self.actor]

    def legal_actions(self, player: int) -> list[Action]:
        """The actions ``player`` may take now (empty when it is not to act)."""
        if self.over or player != self.actor:
            return []
        if self._legal is None:
            self._legal = self._compute_legal()
        return self._legal

    def apply(self, action: Action) -> None:
        """Apply the acting player's action. Raises IllegalAction when it is not legal now."""
        if self.over:
            raise IllegalAction("the game is over")
        legal = self._legal
        if legal is None:
            listed = None
            if self.step == "declare":
                # an attack declaration the list would hold (the heuristic declares without
                # listing): the listed Action (its text is logged), without building the list;
                # the attack attack_listed just found legal here needs no second check
                listed = action if action is self._vouched else self._declares(action)
            if listed is not None:
                self._vouched = None
                self._fuse = None
                self._calm = None
                self._do(listed)
                self._advance()
                return
            legal = self._legal = self._compute_legal()
        chosen = None
        for candidate in legal:  # the usual case: an agent hands back one of the listed actions
            if candidate is action:
                chosen = candidate
                break
        if chosen is None:
            kind, args = action.kind, tuple(action.args)
            for candidate in legal:
                if candidate.kind == kind and candidate.args == args:
                    chosen = candidate
                    break
            if chosen is None:
                chosen = self._match_loose(legal, kind, args)
        if chosen is None:
            raise IllegalAction(f"{action} is not legal for P{self.actor + 1} now ({self._step_name()})")
        self._legal = None
        self._vouched = None
        self._fuse = None
        if self._calm is not None and chosen.kind not in _CALM_KINDS:
            self._calm = None
        self._do(chosen)
        self._advance()
        if (chosen.kind == "attack" and self.step == "declare" and self.attacks
                and self.attacks[-1][0] == self.index[chosen.args[0]]):
            # _advance went straight back to the declaration (every other way into "declare"
            # empties the attacks): the attack only tapped its attacker, so the next list is
            # this one without that attacker's attacks (see _declared_from)
            self._legal = self._declared_from(legal, chosen.args[0])

    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self.over

    def result(self) -> GameResult:
        """Winner (or None for a draw), the reason, and the number of turns played."""
        if not self.over:
            raise ValueError("the game is still running")
        if self.np == 2:
            return GameResult(self.winner, self.reason, self.turn)
        return GameResult(self.winner, self.reason, self.turn, tuple(self.places))

    # ------------------------------------------------------------------ helpers

    @staticmethod
    def _match_loose(legal: list[Action], kind: str, args: tuple[Any, ...]) -> Action | None:
        # Scenario files may write 3 for "3"; compare printed arguments as a fallback.
        wanted = tuple(str(a) for a in args)
        for candidate in legal:
            if candidate.kind == kind and tuple(str(a) for a in candidate.args) == wanted:
                return candidate
        return None

    def _step_name(self) -> str:
        return f"turn {self.turn}, {self.phase}, step {self.step}"

    def _say(self, text: str) -> None:
        """Add a log line of the current turn: ``Turn {turn} — {text}`` (the prefix from _TURN_TAGS)."""
        turn = self.turn
        self.log.append((_TURN_TAGS[turn] if 0 <= turn < 1000 else f"Turn {turn} — ") + text)

    def _cname(self, i: int) -> str:
        card = self.cards[i]
        if card.is_creature:
            stats = self._sc.get(i) or self.atk_dfn(i)  # atk(i), dfn(i) in one look-up
            # formatted once per instance and stats (Shared.cnames): the log names creatures often
            known = self.cnames[i]
            name = known.get(stats)
            if name is None:
                name = known[stats] = f"{card.name} ({self.names[i]}, {stats[0]}/{stats[1]})"
            return name
        return f"{card.name} ({self.names[i]})"

    def _tname(self, t: int) -> str:
        if t < 0:
            return f"P{-t}"
        return self._cname(t)

    def _targ_arg(self, t: int) -> str:
        return _PTOK[-1 - t] if t < 0 else self.names[t]

    def _act(self, kind: str, args: tuple[Any, ...]) -> Action:
        """The Action for (kind, args), built once per game: actions are immutable values."""
        key = (kind, args)
        action = self.acache.get(key)
        if action is None:
            # Descriptions cost time; batch playtests (no log) do without them.
            text = self._describe(kind, args) if self.texts else ""
            action = self.acache[key] = Action(kind, args, text)
        return action

    def _card_text(self, arg: Any) -> str:
        """An instance name in an action's description: ``name (a3)``."""
        i = self.index.get(arg)
        return str(arg) if i is None else self.card_texts[i]  # f"{self.cards[i].name} ({arg})", made once

    def _target_text(self, arg: Any, attacker: Any = None) -> str:
        """A target in an action's description: a player (``P2``) or an instance (_card_text)."""
        if arg == PLAYER:  # two players: the attacker's opponent
            return _SEATS[1 - self.owner[self.index[attacker]]] if attacker in self.index else "the opponent"
        if arg in _PTOK:
            return _SEATS[_PTOK.index(arg)]
        return self._card_text(arg)

    def _describe(self, kind: str, args: tuple[Any, ...]) -> str:
        # (methods rather than closures: no functions made per description)
        card, target = self._card_text, self._target_text
        if kind in _FIXED_TEXTS:
            return _FIXED_TEXTS[kind]
        if kind in ("summon", "flip", "play"):
            rest = f" → {', '.join(target(a) for a in args[1:])}" if len(args) > 1 else ""
            return f"{kind} {card(args[0])}{rest}"
        if kind == "fusion":
            return f"fusion summon {card(args[0])} from the extra deck by its materials"
        if kind == "activate":
            rest = f" → {', '.join(target(a) for a in args[2:])}" if len(args) > 2 else ""
            i = self.index.get(args[0])
            what = ""
            if i is not None:
                e = next((e for e in self.cards[i].activated if e.index == args[1]), None)
                what = f": {e.action}" + (" X" if e.x else f" {e.amount}" if e.amount else "") if e else ""
            return f"activate {card(args[0])} (effect {args[1]}{what}){rest}"
        if kind == "set":
            return f"set {card(args[0])} face down"
        if kind in ("attack", "retarget"):
            verb = "attack" if kind == "attack" else "turn the attack to"
            return f"{verb} {target(args[1], args[0])} with {card(args[0])}"
        if kind == "block":
            return f"block {card(args[1])} with {card(args[0])}"
        if kind == "order":
            return f"{card(args[0])} deals damage to {card(args[1])} next"
        if kind == "discard":
            return f"discard {card(args[0])}"
        if kind == "target":
            return f"target {target(args[0])}"
        return f"{kind} {args}"

    def atk(self, i: int) -> int:
        """Current ATK of creature ``i`` (base, permanent and end-of-turn changes, continuous)."""
        v = self._sc.get(i)
        if v is None:
            v = self._sc[i] = self._stats(i)
        return v[0]

    def dfn(self, i: int) -> int:
        """Current DEF of creature ``i``."""
        v = self._sc.get(i)
        if v is None:
            v = self._sc[i] = self._stats(i)
        return v[1]

    def atk_dfn(self, i: int) -> tuple[int, int]:
        """Current (ATK, DEF) of creature ``i`` in one call: what ``atk`` and ``dfn`` return."""
        v = self._sc.get(i)
        if v is None:
            v = self._sc[i] = self._stats(i)
        return v

    def _stats(self, i: int) -> tuple[int, int]:
        card = self.cards[i]
        a = card.atk
        d = card.dfn
        if self.mods:
            m = self.mods.get(i)
            if m:
                a += m[0]
                d += m[1]
        if self.eot:
            m = self.eot.get(i)
            if m:
                a += m[0]
                d += m[1]
        if self.has_cont:
            cb = self._cb
            if cb is None or (self.cont_filtered and i not in self._cb_seen):
                cb = self._cb = self._cont_bonuses()  # (a newcomer: a filtered change may reach it)
            m = cb[self.owner[i]]
            a += m[0]
            d += m[1]
            if cb[-1]:
                m = cb[-1].get(i)
                if m:
                    a += m[0]
                    d += m[1]
        return a, d

    def _cont_bonuses(self) -> tuple[Any, ...]:
        """Continuous stat changes now in force: per player's creatures (one (ATK, DEF) per seat),
        and last, per creature itself (a dict).

        Cached in ``_cb``; every move of a card onto or off the field resets the cache.
        """
        bonus = [[0, 0] for _ in range(self.np)]
        this: dict[int, tuple[int, int]] = {}
        if self.cont_filtered:
            self._cb_seen = {k for zone in self.crea for k in zone}  # the creatures this table looked at
        down = self.down
        for j in self.cont_ids:
            if j in down:
                continue
            p = self.owner[j]
            if self.cards[j].is_creature:  # a creature is only ever in the creature zone
                if j not in self.crea[p]:
                    continue
            elif j not in self.magic[p] and j not in self.field[p]:
                continue
            for e in self.cards[j].continuous:
                t = e.target
                if e.filter is not None:  # "your Fire creatures get +1 ATK": the matching creatures
                    src = ADAPTER.source(self, p, j, 0)
                    if t in ("this", "self"):
                        side = [j]
                    elif t == "own_creatures":
                        side = self.crea[p]
                    else:
                        side = [k for q in self.opps[p] for k in self.crea[q]]
                    for k in side:
                        if matches(e.filter, k, src, self, ADAPTER):
                            old = this.get(k, (0, 0))
                            this[k] = (old[0] + e.atk, old[1] + e.dfn)
                elif t == "own_creatures":
                    bonus[p][0] += e.atk
                    bonus[p][1] += e.dfn
                elif t == "enemy_creatures":
                    for q in self.opps[p]:
                        bonus[q][0] += e.atk
                        bonus[q][1] += e.dfn
                elif self.cards[j].is_creature:
                    old = this.get(j, (0, 0))
                    this[j] = (old[0] + e.atk, old[1] + e.dfn)
        if self.np == 2:
            return (bonus[0][0], bonus[0][1]), (bonus[1][0], bonus[1][1]), this
        return (*((b[0], b[1]) for b in bonus), this)

    def room(self, p: int, leaving: int = 0) -> bool:
        """True while player ``p`` may put another creature into its creature zone: tokens do not
        count towards ``max_creatures`` (§3.2, §3.10.3); ``leaving`` creatures are about to go."""
        crea = self.crea[p]
        limit = self.opts.max_creatures
        if len(crea) - leaving < limit:
            return True
        tokens = self.token_ids[p]
        return bool(tokens) and len(crea) - leaving - len(tokens.intersection(crea)) < limit

    def _left_for(self, i: int, zone: list[int]) -> None:
        """Put a card that left the field into ``zone`` of its owner: a token ceases to exist
        (§3.10.3) and an extra-deck creature bound for the hand or deck goes back to the extra
        deck (§3.10.2)."""
        card = self.cards[i]
        if card.token:
            return
        p = self.owner[i]
        if card.extra and (zone is self.hand[p] or zone is self.deck[p]):
            self.extra[p].append(i)
            return
        zone.append(i)

    def fusion_materials(self, p: int, i: int) -> list[int] | None:
        """The materials extra-deck creature ``i`` would take now (the cheapest that fit, hand
        first), or None when the hand and field of ``p`` hold too few or there is no room."""
        from workbench.domain.effects.interpreter import find_materials

        needs = self.cards[i].materials
        if not needs:
            return None
        worth = ADAPTER.worth
        pool = sorted(self.hand[p], key=lambda x: worth(self, x)) + sorted(self.crea[p], key=lambda x: worth(self, x))
        mats = find_materials(needs, pool, Source(p, self.cards[i].name), self, ADAPTER)
        if mats is None or not ADAPTER.has_room(self, p, mats):
            return None
        return mats

    def can_fuse(self, p: int, i: int) -> bool:
        """True when a ``fusion_summon`` effect of card ``i`` would bring a creature out now: a
        card that would do nothing is not offered (§3.10.2)."""
        if not self.extra[p]:
            return False
        for e in self.cards[i].on_play:
            if e.action == "fusion_summon" and self.fusion_choices(p, i, e):
                return True
        return False

    def fusion_choices(self, p: int, i: int, e: Effect) -> Any:
        """``interpreter.fusion_options`` of effect ``e`` of card ``i`` for ``p`` now, kept until
        the next action (the legal actions and the players' scores ask for it alike) and, for
        filters on printed fields, across positions (see fusing.py)."""
        memo = self._fuse
        if memo is None:
            memo = self._fuse = {}
        key = (i, e.index)
        hit = memo.get(key)
        if hit is None:
            hit = memo[key] = fusion_choices(self, p, i, e)
        return hit

    def on_field(self, i: int) -> bool:
        """True while creature ``i`` is in its owner's creature zone."""
        return i in self.crea[self.owner[i]]

    def taunting(self, p: int) -> bool:
        """True when player ``p`` controls a face-up creature with Taunt (§3.5.1)."""
        crea = self.crea[p]
        if self.taunt_ids[p].isdisjoint(crea):
            return False  # no Taunt card on the field at all: the usual case
        down, cards = self.down, self.cards
        for i in crea:
            if cards[i].taunt and i not in down:
                return True
        return False

    def can_attack(self, i: int) -> bool:
        """Untapped, face up and not summoned this turn (§3.4.4, §3.5.1)."""
        return i not in self.tapped and i not in self.sick and i not in self.down

    def can_block(self, i: int) -> bool:
        """Untapped and face up; blocking does not tap (§3.5.3)."""
        return i not in self.tapped and i not in self.down

    # ------------------------------------------------------------------ zones

    def _draw(self, p: int, n: int = 1) -> None:
        deck, hand, cards = self.deck[p], self.hand[p], self.cards
        drawn = self.own_stats().drawn[p]  # (looked up once: drawing changes neither)
        watch = bool(self.v2) and "on_draw" in self.v2
        for _ in range(n):
            if not deck:
                self._lose(p, f"P{p + 1} must draw from an empty deck (§3.1.8)")
                return
            i = deck.pop()
            hand.append(i)
            drawn.add(cards[i].id)
            if watch:
                self._watchers("on_draw", p, None)

    def _lose(self, p: int, reason: str) -> None:
        if self.over:
            return
        if self.np != 2:
            self._knock_out([p], reason)
            return
        self.over = True
        self.winner = 1 - p
        self.reason = reason
        if self.logging:
            self._say(f"P{2 - p} wins: {reason}")

    def _next(self, q: int) -> int:
        """The next seat after ``q`` still in the game, in turn order (§3.9.1); ``q`` itself may
        be out already. The hot paths read ``self.nxt[q]`` directly."""
        return self.nxt[q]

    def _knock_out(self, out: list[int], reason: str) -> None:
        """Players ``out`` drop out together (games of three or more, §3.9.5): they share the
        next place from the bottom, their cards leave the game, and the game goes on until one
        player is left (the winner) or none (those who dropped out last share first place)."""
        alive = [q for q in self.alive if q not in out]
        places = list(self.places)
        for q in out:
            places[q] = len(alive) + 1
        self.alive, self.places, self.opps = alive, places, turn_order(self.np, alive)
        self.nxt = next_seats(self.np, alive)
        if self.logging:
            self._say(f"{', '.join(f'P{q + 1}' for q in out)} out of the game (§3.9.5): {reason}")
        if len(alive) <= 1:
            self.over = True
            if alive:
                self.winner = alive[0]
                places[alive[0]] = 1
                self.reason = "the last player left wins (§3.9.5)"  # the log says who dropped out why
                if self.logging:
                    self._say(f"P{alive[0] + 1} wins: the last player left")
            else:
                self.winner = None
                self.reason = "the last players dropped out at once and share first place (§3.9.5)"
                if self.logging:
                    self._say("draw: " + self.reason)
            return
        for q in out:
            self._remove_player(q)
        if self.active in out:  # its turn ends here: clean up, then the next player's turn
            self.chain = []
            self.pending = []
            self.attacks = []
            self.resolving = True
            self.resume = ("cleanup", 0)

    def _remove_player(self, q: int) -> None:
        """Player ``q`` is out: its cards leave the game (no triggers), with everything that
        refers to them; the cards of others attached to its creatures go to their graveyards."""
        gone: set[int] = set()
        for zones in (self.deck, self.hand, self.crea, self.magic, self.field, self.grave, self.exile, self.extra):
            gone.update(zones[q])
            zones[q] = []
        self.tapped -= gone
        self.down -= gone
        self.sick -= gone
        for table in (self.set_turn, self.damage, self.mods, self.eot, self.counters):
            for i in gone & table.keys():
                del table[i]
        if self.lasting:
            for c, i, da, dd in self.lasting:
                if c == q and i not in gone:  # its "until your next turn" changes end: no next turn
                    old = self.mods.get(i, (0, 0))
                    self.mods[i] = (old[0] - da, old[1] - dd)
            self.lasting = [x for x in self.lasting if x[0] != q and x[1] not in gone]
        for card, host in list(self.attached.items()):
            if card in gone:
                del self.attached[card]
            elif host in gone:
                del self.attached[card]
                r = self.owner[card]
                if card in self.magic[r] and self.cards[card].kind == "magic":
                    self.magic[r].remove(card)
                    self.grave[r].append(card)
        self.chain = [link for link in self.chain if link[0] != q and link[1] not in gone]
        self.pending = [x for x in self.pending if x[0] != q and x[1] not in gone]
        self.attacks = [a for a in self.attacks if a[0] not in gone]
        for attack in self.attacks:
            attack[2] = [b for b in attack[2] if b not in gone]
            attack[3] = min(attack[3], len(attack[2]))
        self.mana[q] = 0
        self._cb = None
        self._sc = {}

    def _check_life(self) -> None:
        if self.over:
            return
        if self.np != 2:
            out = [q for q in self.alive if self.life[q] <= 0]
            if out:
                self._knock_out(out, ", ".join(f"P{q + 1} has {self.life[q]} life" for q in out) + " (§3.1.4)")
            return
        dead = (self.life[0] <= 0, self.life[1] <= 0)
        if dead[0] and dead[1]:
            self.over = True
            self.winner = None
            self.reason = "both players reached 0 life at once (§3.1.4)"
            if self.logging:
                self._say("draw: " + self.reason)
        elif dead[0] or dead[1]:
            p = 0 if dead[0] else 1
            self._lose(p, f"P{p + 1} has {self.life[p]} life (§3.1.4)")

    def _leave_field(self, i: int) -> None:
        """Remove creature ``i``'s per-instance state and drop what was attached to it."""
        if self.cards[i].on_leave and i not in self.down:  # a face-up creature left the field
            for e in self.cards[i].on_leave:
                self._trigger(self.owner[i], i, e)
        if i in self.cont_set:
            self._cb = None
            self._sc = {}
        elif self._sc:
            self._sc.pop(i, None)  # its own changes end; other creatures keep their stats
        self.tapped.discard(i)
        self.down.discard(i)
        self.sick.discard(i)
        self.damage.pop(i, None)
        if self.counters:
            self.counters.pop(i, None)
        if self.lasting:
            self.lasting = [x for x in self.lasting if x[1] != i]
        if self.bound:
            self._end_bound(i)
        self.mods.pop(i, None)
        self.eot.pop(i, None)
        self.set_turn.pop(i, None)
        if self.attached:
            for card, host in list(self.attached.items()):
                if host == i:
                    del self.attached[card]
                    q = self.owner[card]
                    if card in self.magic[q] and self.cards[card].kind == "magic":
                        self.magic[q].remove(card)
                        self.grave[q].append(card)
                        if card in self.cont_set:
                            self._cb = None
                            self._sc = {}

    def _destroy(self, i: int, why: str = "") -> None:
        p = self.owner[i]
        if i not in self.crea[p]:
            return
        face_up = i not in self.down
        self.crea[p].remove(i)
        self._left_for(i, self.grave[p])
        self._leave_field(i)  # after the creature, so an equip card lands on top of it
        if self.logging:
            self._say(f"{self.cards[i].name} ({self.names[i]}) of {_SEATS[p]} is destroyed{why}")
        if face_up:
            for e in self.cards[i].on_destroyed:
                self._trigger(p, i, e)

    def _bounce(self, i: int) -> None:
        p = self.owner[i]
        if i not in self.crea[p]:
            return
        self.crea[p].remove(i)
        self._leave_field(i)
        self._left_for(i, self.hand[p])
        if self.logging:
            self._say(f"{self.cards[i].name} ({self.names[i]}) returns to P{p + 1}'s hand")

    def _check_creatures(self) -> None:
        """Destroy every creature whose damage this turn reaches its DEF (§3.5.6)."""
        if self.mods or self.eot or self.neg_cont:
            crea = self.crea  # a DEF may have dropped to 0
            candidates = crea[0] + crea[1] if self.np == 2 else [i for zone in crea for i in zone]
        elif self.damage:
            candidates = list(self.damage)
        else:
            return
        doomed = []
        sc, damage, cards = self._sc, self.damage, self.cards
        for i in candidates:
            v = sc.get(i)
            d = (v or self.atk_dfn(i))[1]
            dmg = damage.get(i, 0)
            if (dmg > 0 and dmg >= d) or (d <= 0 < cards[i].dfn):
                doomed.append(i)
        for i in doomed:
            # the reason is text for the log only: batch games skip formatting it
            self._destroy(i, f" ({self.damage.get(i, 0)} damage, DEF {self.dfn(i)})" if self.logging else "")

    # ------------------------------------------------------------------ turn flow

    def _start_turn(self) -> None:
        self.turn += 1
        self.active = p = self.first if self.turn == 1 else self.nxt[self.active]
        if self.turn > self.opts.max_turns:
            self.over = True
            self.winner = None
            self.reason = f"turn limit {self.opts.max_turns} reached (engine safety limit)"
            return
        if self.lasting:  # "until your next turn" changes of p's effects end
            keep = []
            for entry in self.lasting:
                if entry[0] != p:
                    keep.append(entry)
                    continue
                _, i, a, d = entry
                old = self.mods.get(i, (0, 0))
                self.mods[i] = (old[0] - a, old[1] - d)
                self._sc.pop(i, None)
            self.lasting = keep
            self._check_creatures()  # a DEF that drops to 0 destroys
        # Ready (§3.8.1): mana +1 up to the cap and refill; untap; start-of-turn effects.
        if self.mana_max[p] < self.opts.mana_cap:
            self.mana_max[p] += 1
        self.mana[p] = self.mana_max[p]
        down, tapped = self.down, self.tapped
        if tapped:  # (nothing to untap: no walk over the zones)
            for zone in (self.crea[p], self.magic[p], self.field[p]):
                for i in zone:
                    if i not in down:  # a set creature stays sideways until flipped (§3.4.2)
                        tapped.discard(i)
        self.acts = [0] * self.np
        if self.logging:
            self._say(
                f"{_SEATS[p]}'s turn: life {' / '.join(map(str, self.life))}, "
                f"mana {self.mana[p]}/{self.mana_max[p]}, hand {len(self.hand[p])}, deck {len(self.deck[p])}"
            )
        if self.start_ids[p] and self._any_on_field(self.start_ids[p], p):
            for zone in (self.crea[p], self.magic[p], self.field[p]):
                for i in zone:
                    if i not in down:
                        for e in self.cards[i].start:
                            self._trigger(p, i, e)
        self.phase = "ready"
        self.step = "draw"
        if self.v2:
            self._phase_begins()

    def _do_draw_phase(self) -> None:
        p = self.active
        self.phase = "draw"
        if self.v2:
            self._phase_begins()
        if not (self.turn == 1 and self.opts.skip_draw):
            self._draw(p)
            if self.logging and not self.over and (self.np == 2 or p in self.alive):
                self._say(_SEATS[p] + " draws a card")
        self.phase = "main1"
        self.step = "main"
        if self.v2:
            self._phase_begins()

    def _end_phase(self) -> None:
        p = self.active
        self.phase = "end"
        if self.v2:
            self._phase_begins()
        if self.end_ids[p] and self._any_on_field(self.end_ids[p], p):
            for zone in (self.crea[p], self.magic[p], self.field[p]):
                for i in zone:
                    if i not in self.down:
                        for e in self.cards[i].end:
                            self._trigger(p, i, e)
        self.step = "discard"

    def _any_on_field(self, ids: frozenset[int], p: int) -> bool:
        """True when one of ``ids`` (cards of player ``p``) is in a zone of ``p``'s field."""
        if not ids:
            return False
        return not (ids.isdisjoint(self.crea[p]) and ids.isdisjoint(self.magic[p]) and ids.isdisjoint(self.field[p]))

    def _cleanup(self) -> None:
        # End (§3.8.6): damage wears off, "until end of turn" ends, once-per-turn resets.
        self.damage.clear()  # damage is not part of the cached stats (_sc)
        eot = self.eot
        if eot:
            sc = self._sc
            for i in eot:  # only these creatures' stats change
                sc.pop(i, None)
            eot.clear()
        self.used.clear()
        self.sick.clear()  # summoning sickness lasts until end of turn (§3.4.4)
        self._check_creatures()  # a creature kept alive only by a +DEF until end of turn dies
        self.step = "turn"

    # ------------------------------------------------------------------ the automatic part

    def _advance(self) -> None:
        """Run automatic rules until a player must decide or the game ends."""
        while True:
            if self.over or self.pending or self.resolving:  # one test on the usual path
                if self.over:
                    self.step = "over"
                    return
                if self.asking is not None:  # a resolving effect waits for a player's answer
                    return
                if self.resolving:
                    if self.chain:  # triggers met while a chain resolves wait for its end (§3.10.5)
                        self._resolve_top()
                        continue
                    self.resolving = False
                    self.step, self.wplayer = self.resume
                    continue
                if self._run_pending():  # triggered effects go on the chain (§3.10.5)
                    return
                continue
            step = self.step
            if step == "main":
                self.actor = self.active
                return
            if step == "respond":
                self.actor = self.prio
                if self._only_pass():
                    if self.np == 2:  # _chain_passed, inline: the other player passed
                        self.resolving = True
                    else:
                        self._chain_passed()
                    continue
                return
            if step == "turn":
                self._start_turn()
            elif step == "draw":
                self._do_draw_phase()
            elif step == "declare" or step == "mulligan" or step == "retarget":
                self.actor = self.active if step != "mulligan" else self.actor
                if step == "declare":
                    if not self._can_declare():
                        if not self.attacks:
                            self._to_main2()
                        else:  # nobody is left to declare: the declaration is complete
                            self._do(FIXED["go"])
                        continue
                if step == "retarget" and not self._needs_retarget():
                    self.step = "block" if self.attacks else "declare"
                    continue
                return
            elif step == "window":
                w = self.actor = self.wplayer
                calm = self._calm
                if calm is not None and calm[0] == w and calm[1] is self.attacks and self.wstage == "blocked":
                    only_pass = True  # as in the window after the declaration: nothing it reads changed
                else:
                    only_pass = self._only_pass()
                    if only_pass and self.wstage == "declared" and w != self.active:
                        self._calm = (w, self.attacks)
                if only_pass:
                    if self.np != 2 or self.wstage[:5] == "main:":
                        self._window_passed()
                    elif self.wstage == "declared":  # _window_passed for two players, inline
                        self.step = "retarget"
                    elif self.wplayer == self.active:
                        self.wplayer = 1 - self.active
                    else:
                        self.step = "damage"
                    continue
                return
            elif step == "block":
                if self.np == 2:
                    self.actor = 1 - self.active
                    if not self._block_options(self.actor):
                        self.step = "order"
                        continue
                    return
                q = self._defender()
                if q is None:
                    self.step = "order"
                    continue
                self.actor = q
                return
            elif step == "order":
                self.actor = self.active
                if self._next_to_order() is None:
                    self.step = "window"
                    self.wstage = "blocked"
                    self.wplayer = self.active
                    continue
                return
            elif step == "damage":
                self._battle_damage()
            elif step == "end":
                self._end_phase()
            elif step == "discard":
                self.actor = self.active
                if len(self.hand[self.active]) <= self.opts.hand_limit:
                    self._cleanup()
                    continue
                return
            elif step == "target" or step == "ask":
                return
            elif step == "cleanup":  # the active player dropped out (§3.9.5): its turn ends
                self._cleanup()
            else:  # pragma: no cover - a bug in the step machine
                raise RuntimeError(f"unknown step {step}")

    def _can_declare(self) -> bool:
        """True while the active player has a creature left that may still declare an attack."""
        tapped, sick, down = self.tapped, self.sick, self.down
        declared = []  # (loops rather than comprehensions in the hot paths: no frame per call)
        for a in self.attacks:
            declared.append(a[0])
        rules = ADAPTER.statics(self) if self.static_ids else None
        for i in self.crea[self.active]:
            if i not in tapped and i not in sick and i not in down and i not in declared:
                if rules is None or i not in rules.no_attack:
                    return True
        return False

    def _only_pass(self) -> bool:
        """True when the actor of a ``respond`` or ``window`` step can only pass (else lists its actions)."""
        p = self.actor
        min_speed = self.chain[-1][6] if self.step == "respond" else 1
        if self.acts[p] >= ACTIVATION_LIMIT:
            return True
        if self.step == "window" and self.wstage[:5] == "main:":  # another player's main phase
            items = self._item_plays(p) + self._instant_actions(p, 1)
            if not items:
                return True
            self._legal = [PASS] + items
            return False
        quick = self.quick_ids[p]
        if quick.isdisjoint(self.hand[p]) and quick.isdisjoint(self.magic[p]):
            # no quick card to play: only an ability could answer (the checks of _add_abilities)
            if not self.has_act[p]:
                return True
            ids = self.act_ids[p] if p == self.active and min_speed <= 1 else self.fast_act_ids[p]
            if ids.isdisjoint(self.crea[p]) and ids.isdisjoint(self.magic[p]) and ids.isdisjoint(self.field[p]):
                return True
        extra = self._instant_actions(p, min_speed)
        if not extra:
            return True
        self._legal = [PASS] + extra
        return False

    def _to_main2(self) -> None:
        self.attacks = []
        self.phase = "main2"
        self.step = "main"
        self.actor = self.active
        if self.v2:
            self._phase_begins()

    def _leave_main(self, kind: str) -> None:
        """``battle`` or ``end`` from a main phase."""
        self.attacks = []
        if kind == "battle":
            self.phase = "battle"
            if self.v2:
                self._phase_begins()
            self.step = "declare"
        else:
            self.step = "end"

    def _items_waiting(self) -> bool:
        """True when a player other than the active one holds a normal item (§3.10.6)."""
        hand, ids = self.hand, self.item_ids
        if self.np == 2:  # the other player (both are in while the game runs)
            q = 1 - self.active
            return not ids[q].isdisjoint(hand[q])
        return any(not ids[q].isdisjoint(hand[q]) for q in self.alive if q != self.active)

    def _item_plays(self, p: int) -> list[Action]:
        """The normal items ``p`` may use in another player's main phase (§3.10.6)."""
        acts: list[Action] = []
        ids = self.item_ids[p]
        if ids.isdisjoint(self.hand[p]) or self.acts[p] >= ACTIVATION_LIMIT:
            return acts
        mana, used = self.mana[p], self.used
        for i in self.hand[p]:
            if i in ids:
                card = self.cards[i]
                if (card.x_cost or card.cost <= mana) and (not used or self._once_free(p, card, card.on_play)):
                    self._add_plays(acts, "play", i, card, p, card.on_play)
        return acts

    def _window_passed(self) -> None:
        """The window player passed: the next player in turn order gets the window; after the
        last one (the player before the active player), the battle goes on (§3.9.4) — or, after
        a main phase (§3.10.6), the active player's battle or end."""
        w = self.nxt[self.wplayer]
        if w != self.active:
            self.wplayer = w
        elif self.wstage[:5] == "main:":
            self._leave_main(self.wstage[5:])
        elif self.wstage == "declared":  # the other players had the window after the declaration
            self.step = "retarget"
        else:  # after the blocks: the active player first, then the others
            self.step = "damage"

    def _chain_passed(self) -> None:
        """The player with priority passed: the chain resolves once every other player has
        passed in a row (§3.6.1, §3.9.4), else the next player in turn order may answer."""
        self.passes += 1
        if self.passes >= len(self.alive) - 1:
            self.resolving = True
        else:
            self.prio = self.nxt[self.prio]

    def _defender(self) -> int | None:
        """The attacked player who chooses blockers now (§3.9.3), in turn order after the active
        player; None when no attacked player has a blocker left."""
        a = self.active
        q = self.bseat if self.bseat >= 0 else self.nxt[a]
        while q != a:
            if self._block_options(q):
                self.bseat = q
                return q
            q = self.nxt[q]
        self.bseat = -1
        return None

    # ------------------------------------------------------------------ triggers and the chain

    def _trigger(self, p: int, src: int, e: Effect) -> None:
        self._calm = None  # a triggered effect may change what a window's player could answer
        if e.once:
            key = (p, self.cards[src].id, e.index)
            if key in self.used:
                return
            self.used.add(key)
        self.pending.append((p, src, e))

    def _run_pending(self) -> bool:
        """Put the first queued triggered effect on the chain as a link the other players may
        answer (§3.10.5); True when its controller must first choose its target."""
        p, src, e = self.pending[0]
        if e.choice:
            options = self._targets(e, p, src)
            if not options:
                self.pending.pop(0)
                return False
            if len(options) > 1:
                if self.step != "target":
                    self._saved_step = self.step
                self.step = "target"
                self.tgt_opts = options
                self.actor = p
                return True
            target = options[0]
        else:
            target = None
        self.pending.pop(0)
        self._push(p, src, "trigger", (e,), (target,), 0, e.speed, own=False)
        return False

    def _after_resolution(self) -> None:
        if self.hurt:
            self._answer_damage()
        if self.damage or self.mods or self.eot or self.neg_cont:  # else _check_creatures has nothing to do
            self._check_creatures()
        life = self.life
        if self.np == 2:
            if life[0] <= 0 or life[1] <= 0:
                self._check_life()
        elif any(life[q] <= 0 for q in self.alive):
            self._check_life()

    def _resolve_top(self) -> None:
        self._calm = None  # a resolving effect may change what a window's player could answer
        p, src, kind, effects, targets, x, _speed, negated = self.chain.pop()
        card = self.cards[src]
        if negated:
            if self.logging:
                self._say(f"{card.name} ({self.names[src]}) is negated")
            if kind == "card":
                self._card_to_grave(src)
            return
        if kind == "card" and card.subtype in _ATTACHING:
            host = next((t for t in targets if t is not None and t >= 0), None)
            if host is None or not self.on_field(host):
                if self.logging:
                    self._say(f"{card.name} ({self.names[src]}) has no creature to attach to")
                self._card_to_grave(src)
                return
            self.attached[src] = host
        source = ADAPTER.source(self, p, src, x)
        if kind == "trigger" and self.dealer:  # on_damaged: the creature whose damage it was
            source.attacker = self.dealer.pop((src, effects[0].index), None)
        asks = False  # effects.asks.asking, read in place (a generator per resolution costs a frame)
        for e in effects:
            if e.asks:
                asks = True
                break
        if asks:
            decoded = [t if e.action == "negate" else ADAPTER.decode(self, e, t) for e, t in zip(effects, targets)]
            paused = run(effects, decoded, source, self, ADAPTER)
            if paused is not None:
                self._wait(paused, ("link", src, kind))
                return
        else:
            for e, t in zip(effects, targets):
                self._resolve_effect(p, src, e, t, x, source)
        if kind == "card":
            self._settle_card(src)
        self._after_resolution()

    # A resolution that asks a player (effects.asks): ``asking`` holds (Paused, then, the step
    # to return to); ``then`` is ("link", card, kind) (settle the card) or ("trigger",).

    def _wait(self, paused: Paused, then: tuple[Any, ...]) -> None:
        back = self.step if self.asking is None else self.asking[2]
        self.asking = (paused, then, back)
        self.step = "ask"
        self.actor = paused.ask.player

    def _do_answer(self, answer: str) -> None:
        paused, then, back = self.asking  # type: ignore[misc]
        self.asking = None
        nxt = resume(paused, answer, self, ADAPTER)
        if nxt is not None:
            self.asking = (nxt, then, back)
            self.actor = nxt.ask.player
            return
        self.step = back
        if then[0] == "link" and then[2] == "card":
            self._settle_card(then[1])
        self._after_resolution()

    def _card_to_grave(self, i: int) -> None:
        if i in self.cont_set:
            self._cb = None
            self._sc = {}
        p = self.owner[i]
        for zone in (self.magic[p], self.field[p]):
            if i in zone:
                zone.remove(i)
                self.grave[p].append(i)
                self.down.discard(i)
                self.attached.pop(i, None)
                return

    def _settle_card(self, i: int) -> None:
        """Where a magic card or item goes after it resolved (§3.4.3)."""
        card = self.cards[i]
        if i in self.cont_set or card.subtype == "field":  # a field card may replace a continuous one
            self._cb = None
            self._sc = {}
        p = self.owner[i]
        if card.kind == "magic":
            if card.subtype in ("normal", "quick"):
                self._card_to_grave(i)
            elif card.subtype == "field" and i in self.magic[p]:
                self.magic[p].remove(i)
                for old in self.field[p]:
                    self.grave[p].append(old)
                self.field[p] = [i]

    def _resolve_effect(self, p: int, src: int, e: Effect, t: int | None, x: int,
                        source: Source | None = None) -> None:
        """Carry out one effect of ``src`` controlled by ``p`` on target ``t`` (chosen or None):
        the effect interpreter with fusion's adapter. ``t`` of ``negate`` is the chain link.
        ``source``: shared by the effects of one chain link (``if: {previous: true}``)."""
        chosen = t if e.action == "negate" else ADAPTER.decode(self, e, t)
        resolve(e, source or ADAPTER.source(self, p, src, x), chosen, self, ADAPTER)

    def _effect_targets(self, e: Effect, p: int, src: int, t: int | None) -> list[int]:
        tgt = e.target
        if e.choice:
            return [] if t is None else [t]
        if tgt == "self":
            if e.action in ("modify_stats", "heal"):
                return [src] if self.cards[src].is_creature else []
            return [_ptok(p)]
        if tgt == "opponent":  # with three or more players: each opponent
            return [_ptok(q) for q in self.opps[p]]
        if tgt == "this":
            return [src] if self.cards[src].is_creature else []
        if tgt == "own_creatures":
            return list(self.crea[p])
        if tgt == "enemy_creatures":
            return list(self.enemies(p))
        return []

    def enemies(self, p: int) -> list[int]:
        """The creatures of every opponent of ``p`` still in the game, in turn order after ``p``
        (for reading: with two players the opponent's zone itself)."""
        opps = self.opps[p]
        if len(opps) == 1:
            return self.crea[opps[0]]
        crea = self.crea
        return [i for q in opps for i in crea[q]]

    def player_tokens(self, p: int) -> tuple[int, ...]:
        """The tokens of ``p`` and then of each opponent in turn order (an ``any_player`` choice)."""
        return (_ptok(p),) + tuple(_ptok(q) for q in self.opps[p])

    def _target_view(self, e: Effect, p: int, src: int = -1) -> Any:
        """The choices of ``_targets`` for reading only: the zone itself where possible, no copy."""
        tgt = e.target
        if e.filter is not None or (self.static_ids and tgt != "any_player" and self._shielded()):
            return self._targets(e, p, src)
        if tgt == "enemy_creature":
            return self.enemies(p)
        if tgt == "own_creature":
            return self.crea[p]
        if tgt == "any_creature":
            return self.crea[p] + self.enemies(p)
        if tgt == "any_player":
            return self.player_tokens(p)
        return ()

    def _targets(self, e: Effect, p: int, src: int) -> list[int]:
        """The legal choices for a single-target effect (creature indices or player tokens)."""
        tgt = e.target
        if e.filter is not None or (self.static_ids and tgt != "any_player" and self._shielded()):
            # a filtered choice, or static rules in the game: the interpreter's matching, targetable creatures
            return legal_targets(e, ADAPTER.source(self, p, src, 0) if src >= 0 else Source(p, ""), self, ADAPTER)
        if tgt == "enemy_creature":
            return list(self.enemies(p))
        if tgt == "own_creature":
            return list(self.crea[p])
        if tgt == "any_creature":
            return self.crea[p] + self.enemies(p)
        if tgt == "any_player":
            return list(self.player_tokens(p))
        return []

    # ------------------------------------------------------------------ effects v2 item 8

    def _shielded(self) -> bool:
        """A cannot_be_targeted rule is in play (targets then go through the interpreter)."""
        rules = ADAPTER.statics(self)
        return rules is not None and bool(rules.untargetable)

    def _priced(self) -> bool:
        """A modify_cost rule is in play."""
        rules = ADAPTER.statics(self)
        return rules is not None and bool(rules.costs)

    def _price(self, p: int, i: int) -> int:
        """What card ``i`` of ``p`` costs now: its cost changed by the modify_cost rules in play."""
        cost = int(self.cards[i].cost)
        rules = ADAPTER.statics(self)
        if rules is None or not rules.costs:
            return cost
        return max(0, cost + rules.cost_change(p, i, self, ADAPTER))

    def _entered(self, i: int) -> None:
        """Creature ``i`` came onto the field face up (summoned, put onto the field)."""
        for e in self.cards[i].on_enter:
            self._trigger(self.owner[i], i, e)

    def _played(self, p: int, i: int, summon: bool) -> None:
        """``p`` played card ``i`` face up (summoned, or a magic card or item): the opponent's watch."""
        if "on_opponent_play" in self.v2:
            self._watchers("on_opponent_play", p, i)

    def _phase_begins(self) -> None:
        if "on_phase" in self.v2:
            self._watchers("on_phase", self.active, None)

    def _watchers(self, trigger: str, player: int, card: int | None) -> None:
        """Queue ``trigger`` effects of the face-up cards on the field that watch ``player``
        (on_draw: whose draw; on_phase: whose turn; on_opponent_play: ``player`` played ``card``, the
        others watch)."""
        down = self.down
        for c in self.alive:
            if trigger == "on_opponent_play" and c == player:
                continue
            for zone in (self.crea[c], self.magic[c], self.field[c]):
                for j in zone:
                    if j in down:
                        continue
                    for e in getattr(self.cards[j], trigger):
                        if trigger == "on_phase" and self.phase not in e.phase.split(","):
                            continue
                        if trigger != "on_opponent_play":
                            if (e.side == "own" and c != player) or (e.side == "opponent" and c == player):
                                continue
                        elif e.played is not None and card is not None and not matches(
                                e.played, card, ADAPTER.source(self, c, j, 0), self, ADAPTER):
                            continue
                        self._trigger(c, j, e)

    def _answer_damage(self) -> None:
        """on_damaged / on_deal_damage of the damage dealt since the last look, in order: each is
        triggered (a chain link of its own, §3.10.5); the damage they deal is answered in turn."""
        for _ in range(20):
            hurt = self.hurt
            if not hurt:
                return
            self.hurt = []
            for victim, by in hurt:
                if victim is not None and self.cards[victim].on_damaged and victim not in self.down \
                        and self.on_field(victim):
                    for e in self.cards[victim].on_damaged:
                        self._fire(victim, e, by)
                if by is not None and self.cards[by].on_deal_damage and by not in self.down and self.on_field(by):
                    for e in self.cards[by].on_deal_damage:
                        self._fire(by, e, None)
        self.hurt = []

    def _fire(self, i: int, e: Effect, attacker: int | None) -> None:
        """Trigger ``e`` of ``i`` like any triggered effect (a chain link, §3.10.5); ``attacker``
        (whose damage it was) is kept for its ``target: attacker`` until the link resolves."""
        if attacker is not None and e.target == "attacker":
            self.dealer[(i, e.index)] = attacker
        self._trigger(self.owner[i], i, e)

    def _end_bound(self, i: int) -> None:
        """``i`` leaves the field: while_on_field changes it made end, those made on it are forgotten."""
        keep = []
        for entry in self.bound:
            source, target, a, d = entry
            if source == i:
                old = self.mods.get(target, (0, 0))
                self.mods[target] = (old[0] - a, old[1] - d)
                self._sc.pop(target, None)
            elif target != i:
                keep.append(entry)
        self.bound = keep

    # ------------------------------------------------------------------ legal actions

    def _compute_legal(self) -> list[Action]:
        step = self.step
        p = self.actor
        if step == "main":
            return self._main_actions(p)
        if step == "respond":
            return [PASS] + self._instant_actions(p, self.chain[-1][6])
        if step == "window":
            if self.wstage[:5] == "main:":
                return [PASS] + self._item_plays(p) + self._instant_actions(p, 1)
            return [PASS] + self._instant_actions(p, 1)
        if step == "declare":
            return self._declare_actions(p)
        if step == "block":
            return self._block_actions()
        if step == "order":
            return self._order_actions()
        if step == "retarget":
            return self._retarget_actions()
        if step == "discard":
            t = self.logging
            return [
                self._act("discard", (self.names[i],))
                for i in self.hand[p]
            ]
        if step == "mulligan":
            acts = [FIXED["keep"]]
            if self.mulls[p] < self.opts.max_mulligans:
                acts.append(FIXED["mulligan"])
            return acts
        if step == "target":
            return [self._act("target", (self._targ_arg(t),)) for t in self.tgt_opts]
        if step == "ask" and self.asking is not None:
            ask = self.asking[0].ask
            return [Action("choose", (opt,), f"{ask.card}: {label}") for opt, label in zip(ask.options, ask.labels)]
        return []

    def _cost_of(self, cost: int | str, p: int) -> int:
        return self.mana[p] if isinstance(cost, str) else cost  # a str is "X": all the mana left

    def _once_free(self, p: int, card: CardDef, effects: tuple[Effect, ...]) -> bool:
        used = self.used
        if not used:
            return True
        for e in effects:
            if e.once and (p, card.id, e.index) in used:
                return False
        return True

    def _target_combos(self, effects: tuple[Effect, ...], p: int, src: int) -> list[tuple[int | None, ...]] | None:
        """Target tuples for a card's effects; None when a chosen-target effect has no target."""
        lists: list[Sequence[int | None]] = []
        for e in effects:
            if e.action == "negate":
                if not self.chain:
                    return None
                lists.append([len(self.chain) - 1])
            elif e.choice:
                opts = self._targets(e, p, src)
                if not opts:
                    return None
                lists.append(opts)
            else:
                lists.append([None])
        if len(lists) == 1:
            return [(t,) for t in lists[0]]
        return list(product(*lists))[:64]

    def _targ_args(self, effects: tuple[Effect, ...], combo: tuple[int | None, ...]) -> tuple[str, ...]:
        if len(effects) == 1:  # the usual case, without a generator
            t = combo[0]
            return () if t is None or effects[0].action == "negate" else (self._targ_arg(t),)
        return tuple(self._targ_arg(t) for e, t in zip(effects, combo) if t is not None and e.action != "negate")

    def _simple(self, table: list[Action | None], kind: str, i: int) -> Action:
        """The cached Action ``kind (instance i)`` with no other argument."""
        action = table[i]
        if action is None:
            action = table[i] = self._act(kind, (self.names[i],))
        return action

    def _main_actions(self, p: int) -> list[Action]:
        acts: list[Action] = []
        opts = self.opts
        mana = self.mana[p]
        down = self.down
        room = len(self.crea[p]) < opts.max_creatures or self.room(p)
        set_room = None  # room for another face-down magic card: counted when a magic card asks
        cards = self.cards
        sa_set, sa_summon = self.sa_set, self.sa_summon
        sa_play = self.sa_tables["play"]
        used = self.used
        priced = bool(self.static_ids) and self._priced()  # a modify_cost rule is in play
        for i in self.hand[p]:
            card = cards[i]
            cost = mana if card.x_cost else (self._price(p, i) if priced else card.cost)
            if card.is_creature:
                if room:
                    if cost <= mana:
                        if card.aimed:
                            self._add_plays(acts, "summon", i, card, p, card.on_play, allow_no_target=True)
                        else:
                            acts.append(sa_summon[i] or self._simple(sa_summon, "summon", i))
                    if card.kind == "creature" and card.stars <= opts.set_max_stars:
                        acts.append(sa_set[i] or self._simple(sa_set, "set", i))
                if card.kind == "item":  # an artifact creature is set in the magic zone (§3.10.7)
                    if set_room is None:
                        set_room = opts.max_set_magic > sum(1 for j in self.magic[p] if j in down)
                    if set_room:
                        acts.append(sa_set[i] or self._simple(sa_set, "set", i))
            else:
                if cost <= mana and (not used or self._once_free(p, card, card.on_play)) and (
                        not card.fuses or self.can_fuse(p, i)):
                    if card.aimed:
                        self._add_plays(acts, "play", i, card, p, card.on_play)
                    else:
                        acts.append(sa_play[i] or self._simple(sa_play, "play", i))
                if card.kind == "magic":
                    if set_room is None:
                        magic = self.magic[p]
                        face_down = 0
                        for j in magic:
                            if j in down:
                                face_down += 1
                        set_room = opts.max_set_magic > face_down
                    if set_room:
                        acts.append(sa_set[i] or self._simple(sa_set, "set", i))
        if down:
            turn = self.turn
            for i in self.crea[p]:
                if i in down and self.set_turn.get(i, 0) < turn:
                    card = cards[i]
                    if card.x_cost or (self._price(p, i) if priced else card.cost) <= mana:
                        self._add_plays(acts, "flip", i, card, p, card.on_play, allow_no_target=True)
            for i in self.magic[p]:
                if i in down:
                    card = cards[i]
                    if card.is_creature:  # a set artifact creature: flipped into the creature zone (§3.10.7)
                        if self.set_turn.get(i, 0) < turn and room and (card.x_cost or card.cost <= mana):
                            self._add_plays(acts, "flip", i, card, p, card.on_play, allow_no_target=True)
                        continue
                    if card.subtype == "quick" and self.set_turn.get(i, 0) >= turn:
                        continue  # set quick magic waits a turn (§3.4.2)
                    if (card.x_cost or (self._price(p, i) if priced else card.cost) <= mana) and (
                            not used or self._once_free(p, card, card.on_play)):
                        self._add_plays(acts, "play", i, card, p, card.on_play)
        if opts.extra_in_main and self.extra[p]:
            seen = set()
            for i in self.extra[p]:
                card = cards[i]
                if card.id not in seen and (card.x_cost or int(card.cost) <= mana) and self.fusion_materials(p, i) is not None:
                    seen.add(card.id)  # copies are the same choice
                    acts.append(self._act("fusion", (self.names[i],)))
        if self.has_act[p] and self.acts[p] < ACTIVATION_LIMIT:
            # _add_abilities at speed 1, without the call: the cards with an ability, face up
            ids = self.act_ids[p] if p == self.active else self.fast_act_ids[p]
            for zone in (self.crea[p], self.magic[p], self.field[p]):
                if zone and not ids.isdisjoint(zone):
                    for i in zone:
                        if i in ids and i not in down:
                            self._add_abilities_of(acts, p, i, 1, p == self.active)
        if self.phase == "main1":
            tapped, sick = self.tapped, self.sick
            rules = ADAPTER.statics(self) if self.static_ids else None
            for i in self.crea[p]:
                if i not in tapped and i not in sick and i not in down and (rules is None or i not in rules.no_attack):
                    acts.append(FIXED["battle"])
                    break
        acts.append(FIXED["end"])
        return acts

    def _add_plays(
        self, acts: list[Action], kind: str, i: int, card: CardDef, p: int,
        effects: tuple[Effect, ...], allow_no_target: bool = False,
    ) -> None:
        if not card.aimed:
            table = self.sa_tables[kind]
            acts.append(table[i] or self._simple(table, kind, i))
            return
        e = effects[0] if len(effects) == 1 else None
        if e is not None and e.choice:
            # the usual aimed card: one effect with one chosen target, Actions cached per target
            tables = self.sa_aim[kind]
            cache = tables[i]
            if cache is None:
                cache = tables[i] = [None] * self.n_slots
            tgt = e.target  # the choices of _targets, read in place
            options: Any  # a zone, a view of one, or the filtered choices
            if e.filter is not None or (self.static_ids and self._shielded()):
                options = self._target_view(e, p, i)
            elif tgt == "enemy_creature":
                options = self.enemies(p)
            elif tgt == "own_creature":
                options = self.crea[p]
            else:
                options = self._target_view(e, p)
            if not options:
                if allow_no_target:
                    action = cache[_NO_TARGET]
                    if action is None:
                        action = cache[_NO_TARGET] = self._act(kind, (self.names[i],))
                    acts.append(action)
                return
            for t in options:
                action = cache[t]
                if action is None:
                    action = cache[t] = self._act(kind, (self.names[i], self._targ_arg(t)))
                acts.append(action)
            return
        combos = self._target_combos(effects, p, i)
        if combos is None:
            if not allow_no_target:
                return
            combos = [tuple(None for _ in effects)]
        for combo in combos:
            targs = self._targ_args(effects, combo)
            acts.append(self._act(kind, (self.names[i],) + targs))

    def _add_abilities(self, acts: list[Action], p: int, min_speed: int) -> None:
        if not self.has_act[p] or self.acts[p] >= ACTIVATION_LIMIT:
            return
        own_turn = p == self.active
        # only speed 2+ effects qualify outside the own turn or above speed 1 (checked per effect)
        ids = self.act_ids[p] if own_turn and min_speed <= 1 else self.fast_act_ids[p]
        crea, magic, field = self.crea[p], self.magic[p], self.field[p]
        if ids.isdisjoint(crea) and ids.isdisjoint(magic) and (not field or ids.isdisjoint(field)):
            return  # no card with a usable ability on the field: the usual case
        down = self.down
        for zone in (crea, magic, field):
            if not zone or ids.isdisjoint(zone):
                continue
            for i in zone:
                if i in ids and i not in down:
                    self._add_abilities_of(acts, p, i, min_speed, own_turn)

    def _add_abilities_of(self, acts: list[Action], p: int, i: int, min_speed: int, own_turn: bool) -> None:
        """The usable ``activated`` effects of face-up card ``i`` on ``p``'s field."""
        card = self.cards[i]
        mana = self.mana[p]
        used = self.used
        for e in card.activated:
            speed = e.speed
            if speed < min_speed or (speed < 2 and not own_turn):
                continue
            if e.cost_tap and (i in self.tapped or i in self.sick):
                continue
            cost = e.cost_mana
            if not e.x_mana and cost > mana:  # an X cost takes what there is
                continue
            if e.once and used and (p, card.id, e.index) in used:
                continue
            if e.costs and not can_pay(e, ADAPTER.source(self, p, i, 0), self, ADAPTER):
                continue
            # Actions cached per instance, effect and target (_NO_TARGET when nothing is chosen)
            tables = self.sa_abil[i]
            if tables is None:
                tables = self.sa_abil[i] = {}
            cache = tables.get(e.index)
            if cache is None:
                cache = tables[e.index] = [None] * self.n_slots
            if not e.choice:
                action = cache[_NO_TARGET]
                if action is None:
                    action = cache[_NO_TARGET] = self._act("activate", (self.names[i], e.index))
                acts.append(action)
                continue
            for t in self._target_view(e, p, i):
                action = cache[t]
                if action is None:
                    action = cache[t] = self._act("activate", (self.names[i], e.index, self._targ_arg(t)))
                acts.append(action)

    def _instant_actions(self, p: int, min_speed: int) -> list[Action]:
        """Quick plays and abilities of ``p`` at least as fast as ``min_speed`` (§3.6.2)."""
        acts: list[Action] = []
        if self.acts[p] >= ACTIVATION_LIMIT:
            return acts
        quick = self.quick_ids[p]
        if quick.isdisjoint(self.hand[p]) and quick.isdisjoint(self.magic[p]):
            self._add_abilities(acts, p, min_speed)
            return acts
        own_turn = p == self.active
        mana = self.mana[p]
        cards = self.cards
        used = self.used
        priced = bool(self.static_ids) and self._priced()  # a modify_cost rule is in play
        hand = self.hand[p] if not quick.isdisjoint(self.hand[p]) else ()  # quick cards are the only candidates
        for i in hand:
            card = cards[i]
            if card.play_speed < 2 or card.play_speed < min_speed or card.is_creature:
                continue
            if card.kind == "magic" and not own_turn:
                continue  # quick magic from the hand only in the own turn; set it to use it later
            if (card.x_cost or (self._price(p, i) if priced else card.cost) <= mana) and (
                    not used or self._once_free(p, card, card.on_play)):
                self._add_plays(acts, "play", i, card, p, card.on_play)
        down, set_turn, turn = self.down, self.set_turn, self.turn
        for i in self.magic[p]:
            if i in down:
                card = cards[i]
                if card.play_speed < 2 or card.play_speed < min_speed or card.is_creature:
                    continue
                if set_turn.get(i, 0) >= turn:
                    continue
                if (card.x_cost or (self._price(p, i) if priced else card.cost) <= mana) and (
                        not used or self._once_free(p, card, card.on_play)):
                    self._add_plays(acts, "play", i, card, p, card.on_play)
        self._add_abilities(acts, p, min_speed)
        return acts

    def _declare_actions(self, p: int) -> list[Action]:
        acts: list[Action] = []
        declared = []  # (loops rather than comprehensions in the hot paths: no frame per call)
        for a in self.attacks:
            declared.append(a[0])
        # each attacker picks its own target: any opponent (unless its own Taunt protects it) or
        # a creature of any opponent, opponents in turn order (§3.5.1, §3.9.2)
        sides = []  # (a loop rather than a comprehension: usually one opponent)
        for q in self.opps[p]:
            sides.append((q, self.crea[q], self.taunt_ids[q].isdisjoint(self.crea[q]) or not self.taunting(q)))
        two = self.np == 2
        tapped, sick, down = self.tapped, self.sick, self.down
        sa_attack = self.sa_attack
        rules = ADAPTER.statics(self) if self.static_ids else None
        for i in self.crea[p]:
            if i in tapped or i in sick or i in down or i in declared:
                continue
            if rules is not None and i in rules.no_attack:
                continue  # cannot_attack
            table = sa_attack[i]
            if table is None:
                table = sa_attack[i] = [None] * self.n_slots
            for q, enemy, player_ok in sides:
                if player_ok:
                    action = table[-1 - q]
                    if action is None:
                        action = table[-1 - q] = self._act("attack", (self.names[i], PLAYER if two else _PTOK[q]))
                    acts.append(action)
                for j in enemy:
                    if rules is not None and j in rules.unattackable:
                        continue  # cannot_be_attacked
                    action = table[j]
                    if action is None:
                        action = table[j] = self._act("attack", (self.names[i], self.names[j]))
                    acts.append(action)
        if self.attacks:
            acts.append(FIXED["go"])
        else:
            acts.append(FIXED["end_battle"])
        return acts

    def attack_listed(self, i: int, t: int) -> Action | None:
        """The Action ``attack`` of creature ``i`` on ``t`` (a creature, or ``-1 - q`` for player
        ``q``) when ``_declare_actions`` lists it now, else None: the same checks, for one pair."""
        p = self.actor
        if i not in self.crea[p] or i in self.tapped or i in self.sick or i in self.down:
            return None
        for a in self.attacks:
            if a[0] == i:
                return None
        rules = ADAPTER.statics(self) if self.static_ids else None
        if rules is not None and i in rules.no_attack:
            return None
        if t < 0:
            q = -1 - t
            if q not in self.opps[p] or not (self.taunt_ids[q].isdisjoint(self.crea[q]) or not self.taunting(q)):
                return None
        else:
            for q in self.opps[p]:
                if t in self.crea[q]:
                    break
            else:
                return None
            if rules is not None and t in rules.unattackable:
                return None
        table = self.sa_attack[i]
        if table is None:
            table = self.sa_attack[i] = [None] * self.n_slots
        action = table[t]
        if action is None:
            target = (PLAYER if self.np == 2 else _PTOK[-1 - t]) if t < 0 else self.names[t]
            action = table[t] = self._act("attack", (self.names[i], target))
        self._vouched = action
        return action

    def _declares(self, action: Action) -> Action | None:
        """The Action of ``_declare_actions`` with the kind and arguments of ``action`` when it
        lists one now, else None."""
        kind = action.kind
        if kind == "attack":
            args = action.args
            if len(args) != 2 or not isinstance(args[0], str) or not isinstance(args[1], str):
                return None  # (a free-form move from the table may carry any JSON: the list refuses it)
            i, arg = self.index.get(args[0]), args[1]
            if i is None:
                return None
            if arg == PLAYER:
                if self.np != 2:
                    return None
                t = -1 - self.opps[self.actor][0]
            elif arg in _PTOK:
                if self.np == 2:
                    return None
                t = -1 - _PTOK.index(arg)
            else:
                j = self.index.get(arg)
                if j is None:
                    return None
                t = j
            listed = self.attack_listed(i, t)
            return listed if listed is not None and listed.args == tuple(args) else None
        if kind == "go" or kind == "end_battle":
            if not action.args and bool(self.attacks) == (kind == "go"):
                return FIXED[kind]
        return None

    def _declared_from(self, listed: list[Action], attacker: str) -> list[Action]:
        """``_declare_actions`` right after ``attacker`` declared its attack from the declaration
        that listed ``listed``: declaring taps the attacker and adds one attack, nothing else
        (tapped, sick and face-down creatures, Taunt, the static rules and the targets stay), so
        the list is the same less the attacker's attacks, and "go" now ends the declaration."""
        acts: list[Action] = []
        for a in listed:
            if a.kind == "attack" and a.args[0] != attacker:
                acts.append(a)
        acts.append(FIXED["go"])
        return acts

    def _attack_targets(self, p: int) -> list[str]:
        out: list[str] = []
        rules = ADAPTER.statics(self) if self.static_ids else None
        for q in self.opps[p]:
            if not self.taunting(q):
                out.append(PLAYER if self.np == 2 else _PTOK[q])
            out.extend(self.names[j] for j in self.crea[q] if rules is None or j not in rules.unattackable)
        return out

    def _gone(self, t: int) -> bool:
        """True when attack target ``t`` is gone: a creature off the field, a player out (§3.5.2)."""
        return not self.on_field(t) if t >= 0 else -1 - t not in self.alive

    def _needs_retarget(self) -> bool:
        crea, owner, alive = self.crea, self.owner, self.alive
        for a in self.attacks:
            if a[0] not in crea[owner[a[0]]]:  # an attacker left the field: its attack ends
                self.attacks = [a for a in self.attacks if self.on_field(a[0])]
                break
        for a in self.attacks:
            t = a[1]
            if (t not in crea[owner[t]]) if t >= 0 else (-1 - t not in alive):  # _gone, inline
                return True
        return False

    def _retarget_actions(self) -> list[Action]:
        p = self.active
        for a in self.attacks:
            if self._gone(a[1]):
                name = self.names[a[0]]
                return [self._act("retarget", (name, tgt)) for tgt in self._attack_targets(p)] or [
                    self._act("retarget", (name, "none"))
                ]
        return []

    def attacks_on(self, q: int) -> list[list[Any]]:
        """The declared attacks aimed at player ``q`` or at one of its creatures: only ``q`` may
        block them (§3.9.3). With two players, every attack."""
        if self.np == 2:
            return self.attacks
        owner, tok = self.owner, -1 - q
        return [a for a in self.attacks if a[1] == tok or (a[1] >= 0 and owner[a[1]] == q)]

    def _block_options(self, q: int) -> bool:
        """True when player ``q`` is attacked and has a creature free to block."""
        if not self.attacks or (self.np != 2 and not self.attacks_on(q)):
            return False
        tapped, down = self.tapped, self.down
        blocking = []
        for a in self.attacks:
            blocking += a[2]
        if self.static_ids:
            rules = ADAPTER.statics(self)
            if rules is not None and all(a[0] in rules.unblockable for a in (
                    self.attacks if self.np == 2 else self.attacks_on(q))):
                return False  # cannot_be_blocked
        for i in self.crea[q]:
            if i not in tapped and i not in down and i not in blocking:
                return True
        return False

    def _block_actions(self) -> list[Action]:
        q = self.actor
        attacks = self.attacks_on(q)
        blocking: set[int] = set()
        for a in self.attacks:
            blocking.update(a[2])
        tapped, down, sa_block = self.tapped, self.down, self.sa_block
        rules = ADAPTER.statics(self) if self.static_ids else None
        if rules is not None and rules.unblockable:
            attacks = [a for a in attacks if a[0] not in rules.unblockable]  # cannot_be_blocked
        acts = []
        for i in self.crea[q]:
            if i in blocking or i in tapped or i in down:  # can_block
                continue
            table = sa_block[i]
            if table is None:
                table = sa_block[i] = [None] * self.n_slots
            for a in attacks:
                att = a[0]
                action = table[att]
                if action is None:
                    action = table[att] = self._act("block", (self.names[i], self.names[att]))
                acts.append(action)
        acts.append(FIXED["done"])
        return acts

    def _next_to_order(self) -> list[Any] | None:
        for a in self.attacks:
            if len(a[2]) - a[3] >= 2:
                return a
        return None

    def _order_actions(self) -> list[Action]:
        a = self._next_to_order()
        if a is None:
            return []
        return [
            self._act("order", (self.names[a[0]], self.names[b]))
            for b in a[2][a[3]:]
        ]

    # ------------------------------------------------------------------ applying

    def _do(self, action: Action) -> None:
        kind = action.kind
        args = action.args
        p = self.actor
        if self.logging and kind not in _UNLOGGED:
            self._say(f"{_SEATS[p]}: {action.text or action}")
        if kind == "attack":  # the most frequent action first
            i = self.index[args[0]]
            arg = args[1]
            t = self.index[arg] if arg in self.index else self._attack_target(p, arg)
            self.tapped.add(i)
            self.attacks.append([i, t, [], 0])
        elif kind == "pass":
            if self.step == "respond":
                self._chain_passed()
            else:
                self._window_passed()
        elif kind in _PLAYS:
            self._do_play(kind, p, args)
        elif kind == "activate":
            self._do_activate(p, args)
        elif kind == "fusion":
            self._do_fusion(p, self.index[args[0]])
        elif kind == "set":
            self._do_set(p, self.index[args[0]])
        elif kind == "choose":
            self._do_answer(str(args[0]))
        elif kind == "battle" or kind == "end":
            if self.has_items and self._items_waiting():
                # the other players may use normal items in this main phase first (§3.10.6)
                self.step = "window"
                self.wstage = "main:" + kind
                self.wplayer = self.nxt[self.active]
            else:
                self._leave_main(kind)
        elif kind == "go":
            if self.logging:
                self._say(f"{_SEATS[p]} attacks: " + "; ".join([f"{self._cname(a[0])} → {self._tname(a[1])}" for a in self.attacks]))
            self.step = "window"
            self.wstage = "declared"
            self.wplayer = self.nxt[p]
            self.bseat = -1
            for a in self.attacks:  # attack triggers go on the pending list (§3.6: no chain)
                i, t = a[0], a[1]
                for e in self.cards[i].on_attack:
                    self._trigger(p, i, e)
                if t >= 0:
                    for e in self.cards[t].on_attacked:
                        self._trigger(self.owner[t], t, e)
        elif kind == "end_battle":
            self._to_main2()
        elif kind == "retarget":
            i = self.index[args[0]]
            for a in self.attacks:
                if a[0] == i:
                    if args[1] == "none":
                        self.attacks.remove(a)
                    else:
                        a[1] = self._attack_target(p, args[1])
                    break
        elif kind == "block":
            b, att = self.index[args[0]], self.index[args[1]]
            for a in self.attacks:
                if a[0] == att:
                    a[2].append(b)
            for e in self.cards[b].on_block:  # block triggers go on the pending list (no chain)
                self._trigger(p, b, e)
            for e in self.cards[att].on_blocked:
                self._trigger(self.owner[att], att, e)
        elif kind == "done":
            if self.logging:
                own = self.crea[p]
                blocks = [f"{self.cards[b].name} blocks {self.cards[a[0]].name}" for a in self.attacks for b in a[2]
                          if self.np == 2 or b in own]
                self._say(f"{_SEATS[p]}: " + ("; ".join(blocks) if blocks else "no blocks"))
            nxt = self.nxt[p]
            if nxt == self.active:  # the last attacked player in turn order has blocked (§3.9.3)
                self.step = "order"
                self.bseat = -1
            else:
                self.bseat = nxt
        elif kind == "order":
            att, b = self.index[args[0]], self.index[args[1]]
            for a in self.attacks:
                if a[0] == att:
                    blockers = a[2]
                    k = blockers.index(b)
                    blockers[a[3]], blockers[k] = blockers[k], blockers[a[3]]
                    a[3] += 1
        elif kind == "discard":
            i = self.index[args[0]]
            self.hand[p].remove(i)
            self.grave[p].append(i)
        elif kind == "keep":
            if self.logging:
                self.log.append(f"Setup — P{p + 1} keeps {len(self.hand[p])} cards after {self.mulls[p]} mulligan(s)")
            self._next_mulligan_player()
        elif kind == "mulligan":
            self.mulls[p] += 1
            self.deck[p].extend(self.hand[p])
            self.hand[p] = []
            shuffle(self.shuffle_rng(p), self.deck[p])
            drawn = self.own_stats().drawn[p]
            drawn.clear()  # a mulliganed hand was not drawn (only the hand was drawn so far)
            self._draw(p, self.opts.start_hand)
            self.stats.opening[p] = set(drawn)
            if self.mulls[p] >= self.opts.max_mulligans:
                self._next_mulligan_player()
        elif kind == "target":
            self._do_target(p, args[0])
        else:  # pragma: no cover
            raise IllegalAction(f"unknown action kind {kind}")

    def _next_mulligan_player(self) -> None:
        nxt = self.nxt[self.actor]  # mulligans go round in turn order from the first player
        if nxt != self.first:
            self.actor = nxt
        else:
            self.step = "turn"

    def _attack_target(self, p: int, arg: str) -> int:
        """The target of an ``attack``/``retarget`` argument: ``player`` (two players: the
        opponent), a player token ``pK`` (three or more), or a creature instance."""
        if arg == PLAYER:
            return _ptok(self.opps[p][0])
        if arg in _PTOK:
            return _ptok(_PTOK.index(arg))
        return self.index[arg]

    def _do_target(self, p: int, arg: str) -> None:
        t = _ptok(_PTOK.index(arg)) if arg in _PTOK else self.index[arg]
        _, src, e = self.pending.pop(0)
        self.step = self._saved_step
        self._push(p, src, "trigger", (e,), (t,), 0, e.speed, own=False)  # on the chain (§3.10.5)

    def _do_set(self, p: int, i: int) -> None:
        if i in self.cont_set:
            self._cb = None
            self._sc = {}
        card = self.cards[i]
        self.own_stats().played[p].add(card.id)
        self.hand[p].remove(i)
        self.down.add(i)
        self.set_turn[i] = self.turn
        if card.kind == "creature":
            self.crea[p].append(i)
            self.tapped.add(i)  # a set creature lies sideways (§3.4.2)
        else:
            self.magic[p].append(i)  # magic, or an artifact creature (§3.10.7)

    def _pay(self, p: int, cost: int | str) -> int:
        amount = self._cost_of(cost, p)
        self.mana[p] -= amount
        return amount

    def _decode_targets(self, effects: tuple[Effect, ...], args: tuple[Any, ...]) -> tuple[int | None, ...]:
        out: list[int | None] = []
        k = 0
        for e in effects:
            if e.action == "negate":
                out.append(len(self.chain) - 1)
            elif e.choice:
                a = args[k]
                k += 1
                out.append(_ptok(_PTOK.index(a)) if a in _PTOK else self.index[a])
            else:
                out.append(None)
        return tuple(out)

    def _play_targets(self, effects: tuple[Effect, ...], card: CardDef, args: tuple[Any, ...]) -> tuple[int | None, ...]:
        """The decoded targets of a play's ``on_play`` effects (None where nothing was chosen)."""
        if len(args) > 1 or not card.choosy:
            return self._decode_targets(effects, args[1:])
        return (None,) * len(effects)

    def _do_play(self, kind: str, p: int, args: tuple[Any, ...]) -> None:
        i = self.index[args[0]]
        if i in self.cont_set:  # only a continuous card changes stats by entering or turning face up
            self._cb = None
            self._sc = {}
        card = self.cards[i]
        x = self.mana[p] if card.x_cost else (self._price(p, i) if self.static_ids and self._priced() else card.cost)
        self.mana[p] -= x
        self.own_stats().played[p].add(card.id)
        effects = card.on_play
        if self.v2 and kind != "flip":
            self._played(p, i, kind == "summon")
        if kind == "summon" or kind == "flip":
            if kind == "summon":
                self.hand[p].remove(i)
                self.crea[p].append(i)
                self.sick.add(i)  # summoning sickness (§3.4.4)
                if card.on_enter:
                    self._entered(i)
            else:
                if i in self.magic[p]:  # a set artifact creature enters the creature zone (§3.10.7)
                    self.magic[p].remove(i)
                    self.crea[p].append(i)
                self.down.discard(i)
                self.tapped.discard(i)  # flipped: untaps and may attack this turn (§3.4.2)
                self.set_turn.pop(i, None)
            if not effects:
                return  # most creatures: no on_play effect, nothing goes on the chain
            targets = self._play_targets(effects, card, args)
            if len(effects) == 1:  # the usual creature effect: the general code below, without lists
                e = effects[0]
                if (e.choice and targets[0] is None) or (e.once and (p, card.id, e.index) in self.used):
                    return
                if e.once:
                    self.used.add((p, card.id, e.index))
                self._push(p, i, "trigger", effects, targets, x, e.speed)
                return
            live = [
                (e, t) for e, t in zip(effects, targets)
                if not (e.choice and t is None) and not (e.once and (p, card.id, e.index) in self.used)
            ]
            for e, _t in live:
                if e.once:
                    self.used.add((p, card.id, e.index))
            if live:
                speed = max(e.speed for e, _ in live)  # a creature's effect is speed 1 unless it says more
                self._push(p, i, "trigger", tuple(e for e, _ in live), tuple(t for _, t in live), x, speed)
            return
        # magic or item: into the magic zone (normal items straight to the graveyard) then the chain
        targets = self._play_targets(effects, card, args)
        for e in effects:
            if e.once:
                self.used.add((p, card.id, e.index))
        if i in self.hand[p]:
            self.hand[p].remove(i)
            if card.kind == "item" and card.subtype == "normal":
                self.grave[p].append(i)
            else:
                self.magic[p].append(i)
        else:
            self.down.discard(i)  # a set magic card is turned face up
            self.set_turn.pop(i, None)
        self._push(p, i, "card", effects, targets, x, card.play_speed)

    def _do_fusion(self, p: int, i: int) -> None:
        """Option ``extra_deck_summon: materials_in_main`` (§3.10.2): pay the cost, send the
        materials to the graveyard, summon the extra-deck creature (its on_play effects trigger)."""
        mats = self.fusion_materials(p, i) or []
        card = self.cards[i]
        self.mana[p] -= self.mana[p] if card.x_cost else int(card.cost)
        src = Source(p, card.name)
        for m in mats:
            if m in self.crea[p]:
                ADAPTER.leave(self, m, "graveyard", src)
            else:
                ADAPTER.move_card(self, p, m, "hand", "graveyard", src)
        ADAPTER.special_summon(self, p, i, "extra_deck", src)

    def _do_activate(self, p: int, args: tuple[Any, ...]) -> None:
        i = self.index[args[0]]
        card = self.cards[i]
        e = card.activated_at[int(args[1])]
        x = self._pay(p, e.mana)
        if e.cost_tap:
            self.tapped.add(i)
        if e.costs:
            pay(e, ADAPTER.source(self, p, i, x), self, ADAPTER)
        if e.once:
            self.used.add((p, card.id, e.index))
        targets = self._decode_targets((e,), args[2:])
        self._push(p, i, "ability", (e,), targets, x, e.speed)

    def _push(self, p: int, src: int, kind: str, effects: tuple[Effect, ...], targets: tuple[Any, ...], x: int,
              speed: int, own: bool = True) -> None:
        """Put an activation (or, ``own`` false, a triggered effect, §3.10.5) on the chain; the
        other players may answer it (§3.6.1). Only activations count towards ACTIVATION_LIMIT."""
        if not self.chain:
            self.resume = (self.step, self.wplayer)
        if own:
            self.acts[p] += 1
        self.chain.append([p, src, kind, effects, targets, x, speed, False])
        if self.logging and len(self.chain) > 1:
            self._say(f"chain link C{len(self.chain) - 1}: {self.cards[src].name} (speed {speed})")
        self.prio = self.nxt[p]  # every other player in turn order may answer (§3.9.4)
        self.passes = 0
        self.step = "respond"

    # ------------------------------------------------------------------ battle damage

    def _battle_damage(self) -> None:
        """Simultaneous battle damage for the declared attacks (§3.5.4-3.5.6)."""
        dmg: dict[int, int] = {}
        life_loss = [0] * self.np
        strike_back = self.opts.strike_back
        blocking: set[int] = set()
        for a in self.attacks:
            blocking.update(a[2])
        log = self.logging
        crea, owner = self.crea, self.owner
        rules = ADAPTER.statics(self) if self.static_ids else None
        hurt = self.hurt if self.dmg_watch else None  # (creature or None, by): on_damaged, on_deal_damage
        for a, t, blockers, _n in self.attacks:
            if a not in crea[owner[a]]:
                continue  # the attacker left the field
            power = self.atk(a)
            if rules is not None:
                power = rules.dealt(a, None, power)  # double_damage; reduce_damage below, per target
            if blockers:
                live = [b for b in blockers if b in crea[owner[b]]]
                rest = power
                for k, b in enumerate(live):
                    if k == len(live) - 1:
                        share = rest
                    else:
                        share = min(rest, max(0, self.dfn(b) - self.damage.get(b, 0) - dmg.get(b, 0)))
                    if share > 0:
                        rest -= share
                        if rules is not None:
                            share = rules.dealt(None, b, share)
                        dmg[b] = dmg.get(b, 0) + share
                        if hurt is not None and share > 0:
                            hurt.append((b, a))
                    back = self.atk(b)
                    if rules is not None:
                        back = rules.dealt(b, a, back)
                    if back > 0:
                        dmg[a] = dmg.get(a, 0) + back
                        if hurt is not None:
                            hurt.append((a, b))
                if log:
                    self._say(f"{self._cname(a)} is blocked by " + ", ".join(self._cname(b) for b in live))
            elif t < 0:
                if power > 0:
                    life_loss[-1 - t] += power
                    if hurt is not None:
                        hurt.append((None, a))
                if log:
                    self._say(f"{self._cname(a)} hits {_SEATS[-1 - t]} for {max(power, 0)}")
            elif t in crea[owner[t]]:
                hit = power if rules is None else rules.dealt(None, t, power)
                if hit > 0:
                    dmg[t] = dmg.get(t, 0) + hit
                    if hurt is not None:
                        hurt.append((t, a))
                if strike_back and t not in self.down and t not in blocking:
                    back = self.atk(t)
                    if rules is not None:
                        back = rules.dealt(t, a, back)
                    if back > 0:
                        dmg[a] = dmg.get(a, 0) + back
                        if hurt is not None:
                            hurt.append((a, t))
                if log:
                    self._say(f"{self._cname(a)} fights {self._cname(t)}")
        for i, amount in dmg.items():
            self.damage[i] = self.damage.get(i, 0) + amount
        if log and dmg:
            self._say("battle damage: " + ", ".join([  # (a list: join takes no generator frames)
                f"{self.cards[i].name} ({self.names[i]}) {amount}" for i, amount in dmg.items()
            ]))
        for q in range(self.np):
            if life_loss[q]:
                self.life[q] -= life_loss[q]
                if log:
                    self._say(f"{_SEATS[q]} loses {life_loss[q]} life ({self.life[q]})")
        self.attacks = []
        if self.hurt:
            self._answer_damage()
        self._check_creatures()
        self._check_life()
        self.step = "declare"


_copy_shared = field_copier(_SHARED_FIELDS)  # Shared -> a new state (both have these fields)
_copy_all = field_copier(FusionState.__slots__)  # a state -> its clone

"""Pure rule arithmetic of warzone (RULES.md §1): options, recruit limits, reach, battle, damage.

Nothing here touches a game state, so the AI players can use the same functions to predict
what an attack or an interception will do.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from workbench.domain.errors import WorkbenchError

DEFAULT_OPTIONS: dict[str, Any] = {
    "start_life": 2500,
    "start_hand": 8,
    "damage_pile_limit": 10,
    "damage_card_step": 500,
    "max_degree": 6,
    "stat_step": 50,
    "main_min": 60,
    "main_max": 85,
    "first_turn_no_attack": True,
    "recruit_limit_by_highest_degree": True,
    "guarding_can_attack": False,
    "position_change_once_per_turn": True,
    "interceptors_per_attack": 1,
    "damage_pile_loss_immediate": True,
    "attacker_excess_battle_damage": True,
    "damage_step_single": True,
    "traps_set_first": True,
    "heal_before_pile_loss": True,
}
"""The rule options with their RULES.md defaults (game.yaml holds the same)."""


class OptionError(WorkbenchError):
    """A rule option has a value the engine cannot play with."""


class Config:
    """Rule options read once per game; shared (never changed) between cloned states."""

    __slots__ = ("start_life", "start_hand", "pile_limit", "step", "stat_step", "first_no_attack",
                 "limit_by_highest", "guard_attacks", "pos_once", "interceptors",
                 "pile_immediate", "attacker_excess", "step_single", "set_first", "heal_first",
                 "log", "quiet_twin")

    def __init__(self, options: Mapping[str, Any]) -> None:
        def get(name: str) -> Any:
            return options.get(name, DEFAULT_OPTIONS[name])

        def integer(name: str, minimum: int) -> int:
            value = get(name)
            if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
                raise OptionError(f"rule option {name} must be an integer >= {minimum}, "
                                  f"got {value!r}")
            return value

        self.start_life = integer("start_life", 1)
        self.start_hand = integer("start_hand", 0)
        self.pile_limit = integer("damage_pile_limit", 1)
        self.step = integer("damage_card_step", 1)
        self.stat_step = integer("stat_step", 1)
        self.interceptors = integer("interceptors_per_attack", 0)
        self.first_no_attack = bool(get("first_turn_no_attack"))
        self.limit_by_highest = bool(get("recruit_limit_by_highest_degree"))
        self.guard_attacks = bool(get("guarding_can_attack"))
        self.pos_once = bool(get("position_change_once_per_turn"))
        self.pile_immediate = bool(get("damage_pile_loss_immediate"))
        self.attacker_excess = bool(get("attacker_excess_battle_damage"))
        self.step_single = bool(get("damage_step_single"))
        self.set_first = bool(get("traps_set_first"))
        self.heal_first = bool(get("heal_before_pile_loss"))
        self.log = bool(options.get("_log", True))
        self.quiet_twin: Config | None = None  # quiet(), made once

    def quiet(self) -> Config:
        """The same options with logging off (for look-ahead playouts); made once per Config
        (a Config never changes)."""
        other = self.quiet_twin
        if other is None:
            if not self.log:
                other = self
            else:
                other = Config.__new__(Config)
                for name in Config.__slots__:
                    setattr(other, name, getattr(self, name))
                other.log = False
                other.quiet_twin = other
            self.quiet_twin = other
        return other


def band_limit(degree: int) -> int:
    """Creatures a turn may recruit when ``degree`` is the highest Degree among them (§1.6.2)."""
    if degree <= 1:
        return 3
    if degree <= 3:
        return 2
    return 1


def band_weight(degree: int) -> int:
    """A packed counter unit for the creature's Degree band (0-1, 2-3, 4+), see can_recruit."""
    if degree <= 1:
        return 1
    if degree <= 3:
        return 16
    return 256


def can_recruit(cfg: Config, count: int, highest: int, used: int, degree: int) -> bool:
    """Whether one more creature of ``degree`` may be recruited this turn.

    ``count`` creatures were recruited so far this turn (Recruitment and Return together),
    ``highest`` is their highest Degree (-1 when none) and ``used`` packs how many came from
    each band (sum of :func:`band_weight`). Default (Decision §1.6.2): the limit is set by the
    highest Degree recruited this turn, so mixing bands never exceeds the lower limit. Option
    off: each band keeps its own quota (up to 3 of Degree 0-1, 2 of Degree 2-3 and 1 of 4+).
    """
    if cfg.limit_by_highest:
        return count + 1 <= band_limit(max(highest, degree))
    weight = band_weight(degree)
    return (used // weight) % 16 < band_limit(degree)


OK_BY_HIGHEST: dict[tuple[int, int], tuple[bool, bool, bool]] = {}
"""bands_open's answers by (count, highest) under the default limit (read directly by hot code)."""


def bands_open(cfg: Config, count: int, highest: int, used: int) -> tuple[bool, bool, bool]:
    """Whether one more creature of Degree 0-1, 2-3 and 4+ may be recruited (see can_recruit)."""
    if cfg.limit_by_highest:
        key = (count, highest)
        hit = OK_BY_HIGHEST.get(key)
        if hit is None:
            hit = OK_BY_HIGHEST[key] = (can_recruit(cfg, count, highest, used, 0),
                                         can_recruit(cfg, count, highest, used, 2),
                                         can_recruit(cfg, count, highest, used, 4))
        return hit
    return (can_recruit(cfg, count, highest, used, 0), can_recruit(cfg, count, highest, used, 2),
            can_recruit(cfg, count, highest, used, 4))


def damage_split(cfg: Config, amount: int) -> tuple[int, int]:
    """Split damage to a player into (Damage Cards, Life Points) per §1.10.

    Default (Decision §1.10): every full ``damage_card_step`` is one card, the rest is Life
    Points (480 -> 0 cards + 480 LP). Option off: a remainder above ``step - stat_step`` (the
    seed's "450 or lower" line) is one more card instead.
    """
    if amount <= 0:
        return 0, 0
    cards, rest = divmod(amount, cfg.step)
    if not cfg.step_single and rest > cfg.step - cfg.stat_step:
        return cards + 1, 0
    return cards, rest


def can_reach(att_cls: int, master: bool, target_cls: int, rows: tuple[int, int, int]) -> bool:
    """Whether a creature of class ``att_cls`` may attack an enemy of class ``target_cls``.

    ``rows`` counts the defender's creatures in rows 1, 2 and 3 (§1.7).
    """
    if master or att_cls == 3:
        return True
    if att_cls == 2:
        return target_cls <= 2 or (rows[0] == 0 and rows[1] == 0)
    if target_cls == 1:
        return True
    if target_cls == 2:
        return rows[0] == 0
    return rows[0] == 0 and rows[1] == 0


def can_direct(att_cls: int, master: bool, rows: tuple[int, int, int]) -> bool:
    """Whether a creature may declare a Direct Attack (§1.7)."""
    return master or att_cls == 3 or (rows[0] + rows[1] + rows[2] == 0)


REACH: dict[tuple[int, bool, tuple[int, int, int]], tuple[bool, bool, bool, bool, bool]] = {}
"""reach_table's answers by (Class, Class Master, rows), read directly by hot loops (a missing
key: call reach_table)."""


def reach_table(cls: int, master: bool, rows: tuple[int, int, int]
                ) -> tuple[bool, bool, bool, bool, bool]:
    """:func:`can_reach` and :func:`can_direct` at once, for hot loops: index 1-3 says whether
    the attacker may attack an enemy of that Class, index 4 whether it may attack directly
    (index 0 is unused). Looked up once per (Class, Class Master, rows)."""
    key = (cls, master, rows)
    hit = REACH.get(key)
    if hit is None:
        if len(REACH) > 10_000:  # rows are small counts: this stays tiny in practice
            REACH.clear()
        hit = REACH[key] = (False, can_reach(cls, master, 1, rows),
                             can_reach(cls, master, 2, rows), can_reach(cls, master, 3, rows),
                             can_direct(cls, master, rows))
    return hit


REACH_BY_ROWS: dict[tuple[int, int, int], tuple[tuple[bool, bool, bool, bool, bool], ...]] = {}
"""reach_by_rows's answers by the defender's rows, read directly by hot loops (a missing key:
call reach_by_rows)."""


def reach_kind(cls: int, master: bool) -> int:
    """The index of an attacker of Class ``cls`` (Class Master or not) in a reach_by_rows table."""
    return 2 * cls + master


def reach_by_rows(rows: tuple[int, int, int]) -> tuple[tuple[bool, bool, bool, bool, bool], ...]:
    """:func:`reach_table` of every kind of attacker against a defender with ``rows``, indexed
    by :func:`reach_kind`: the War phase looks the rows up once for all its attackers."""
    hit = REACH_BY_ROWS.get(rows)
    if hit is None:
        if len(REACH_BY_ROWS) > 10_000:  # rows are small counts: this stays tiny in practice
            REACH_BY_ROWS.clear()
        hit = REACH_BY_ROWS[rows] = tuple(reach_table(cls, master, rows)
                                          for cls in (0, 1, 2, 3) for master in (False, True))
    return hit


class BattleOutcome:
    """What one battle does: remaining Resilience, who is destroyed, Battle Damage to players."""

    __slots__ = ("att_left", "def_left", "att_dies", "def_dies", "to_attacker", "to_defender")

    def __init__(self, att_left: int, def_left: int, att_dies: bool, def_dies: bool,
                 to_attacker: int, to_defender: int) -> None:
        self.att_left = att_left
        self.def_left = def_left
        self.att_dies = att_dies
        self.def_dies = def_dies
        self.to_attacker = to_attacker
        self.to_defender = to_defender


def battle(cfg: Config, a_cls: int, a_str: int, a_left: int, d_cls: int, d_str: int,
           d_left: int, d_guarding: bool) -> BattleOutcome:
    """Resolve one battle (§1.9) from the two creatures' Class, Strength and remaining Resilience.

    The higher Class deals its damage first and the lower one strikes back only if it survives;
    the same Class strikes simultaneously. ``to_attacker``/``to_defender`` is the Battle Damage
    each controller takes.
    """
    return BattleOutcome(*battle_tuple(cfg, a_cls, a_str, a_left, d_cls, d_str, d_left,
                                       d_guarding))


def battle_tuple(cfg: Config, a_cls: int, a_str: int, a_left: int, d_cls: int, d_str: int,
                 d_left: int, d_guarding: bool) -> tuple[int, int, bool, bool, int, int]:
    """:func:`battle` as a plain tuple (att_left, def_left, att_dies, def_dies, to_attacker,
    to_defender): the AI players predict thousands of battles and a tuple is cheap to build."""
    if a_cls > d_cls:
        d_left -= a_str
        if d_left > 0:
            a_left -= d_str
    elif d_cls > a_cls:
        a_left -= d_str
        if a_left > 0:
            d_left -= a_str
    else:
        a_left -= d_str
        d_left -= a_str
    if d_guarding:
        if a_left == 0 and d_left == 0:
            # §1.9.3: both at exactly 0 -> only the attacker is destroyed.
            return (0, 0, True, False, 0, 0)
        # A Guarding creature's controller takes no Battle Damage.
        to_att = -a_left if a_left < 0 and cfg.attacker_excess else 0
        return (a_left, d_left, a_left <= 0, d_left <= 0, to_att, 0)
    return (a_left, d_left, a_left <= 0, d_left <= 0, -a_left if a_left < 0 else 0,
            -d_left if d_left < 0 else 0)

"""FusionState keeps its fields in slots and clones them with a generated copier: the slot list
against what a played game sets (the copier itself: test_fields.py)."""

from __future__ import annotations

import pytest

from workbench.domain.engines.fusion import ENGINE
from workbench.domain.engines.fusion.samples import sample_deck
from workbench.domain.engines.fusion.state import FusionState


def _played(seed: int, decisions: int) -> FusionState:
    s = ENGINE.new_game(sample_deck("aggro"), sample_deck("control"), {}, seed)
    agents = [ENGINE.agents["heuristic"](seed), ENGINE.agents["random"](seed + 1)]
    for _ in range(decisions):
        if s.is_terminal():
            break
        (p,) = s.to_act()
        s.apply(agents[p].choose(s, p))
    return s


@pytest.mark.parametrize("decisions", [0, 25, 80])
def test_every_slot_is_set_by_a_new_game_and_kept_by_a_clone(decisions: int) -> None:
    s = _played(7, decisions)
    copy = s.clone()
    for name in FusionState.__slots__:
        value = getattr(s, name)  # AttributeError: a slot __init__ never sets
        assert getattr(copy, name) == value, name


def test_a_clone_changes_nothing_of_its_origin() -> None:
    s = _played(11, 40)
    before = {n: repr(getattr(s, n)) for n in FusionState.__slots__ if not n.startswith("_")}
    copy = s.clone()
    agents = [ENGINE.agents["random"](3), ENGINE.agents["random"](4)]
    while not copy.is_terminal():
        (p,) = copy.to_act()
        copy.apply(agents[p].choose(copy, p))
    after = {n: repr(getattr(s, n)) for n in FusionState.__slots__ if not n.startswith("_")}
    changed = [n for n in before if before[n] != after[n] and n not in ("acache", "mcache", "fusion", "guess_base",
                                                                           "sa_set", "sa_summon", "sa_tables",
                                                                           "sa_attack", "sa_aim", "sa_abil",
                                                                           "sa_block", "cnames")]
    assert changed == []  # the shared Action, material and log-name caches grow; the position does not


def test_no_instance_dict() -> None:
    assert not hasattr(_played(1, 0), "__dict__")

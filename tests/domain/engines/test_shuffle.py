"""engines/shuffle.py: every engine's shuffles replay seeded games exactly as random.shuffle."""

from __future__ import annotations

import random

import pytest

from workbench.domain.engines.shuffle import shuffle


@pytest.mark.parametrize("length", [0, 1, 2, 3, 5, 7, 16, 33, 40, 45, 64, 65, 90, 1023, 1024, 1025, 1500])
def test_the_shuffle_gives_random_shuffles_permutation(length: int) -> None:
    """The same order, and the generator is left in the same state, for every length a deck or a
    re-dealt pool can have (and beyond the table of bits per place)."""
    for seed in range(40):
        ours, theirs = random.Random(seed), random.Random(seed)
        a, b = list(range(length)), list(range(length))
        shuffle(ours, a)
        theirs.shuffle(b)
        assert a == b
        assert ours.getstate() == theirs.getstate()


def test_another_kind_of_generator_shuffles_itself() -> None:
    class Counted(random.Random):
        calls = 0

        def shuffle(self, x) -> None:  # type: ignore[override]
            Counted.calls += 1
            super().shuffle(x)

    shuffle(Counted(1), [1, 2, 3])
    assert Counted.calls == 1

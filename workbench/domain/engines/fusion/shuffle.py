"""Deck shuffles of Fusion Duel: CPython's Fisher-Yates with the draws of ``random.shuffle``."""

from __future__ import annotations

import random

__all__ = ["shuffle"]


def shuffle(rng: random.Random, x: list[int]) -> None:
    """Shuffle ``x`` in place exactly as ``rng.shuffle(x)`` does (CPython's Fisher-Yates with
    ``_randbelow``), without a method call per card; games replay the same as before."""
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]

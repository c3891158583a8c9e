"""Deck and pool shuffles of every engine: ``random.Random.shuffle``'s permutation, drawn faster.

Seeded games must replay exactly, so the order and the generator's state afterwards are those of
the library's Fisher-Yates; the search re-deals a world per playout and shuffles a deck at every
setup, where the library loop's two Python calls per card were most of the cost.
"""

from __future__ import annotations

import random
from typing import Any

__all__ = ["shuffle"]

_BITS = tuple((i + 1).bit_length() for i in range(1024))
"""``(i + 1).bit_length()`` by place ``i``: the bits the library draws for the card at place ``i``
(one look-up instead of a method call per card; longer lists compute it)."""


def shuffle(rng: random.Random, cards: list[Any]) -> None:
    """Shuffle ``cards`` in place exactly as ``rng.shuffle(cards)`` does (the same permutation
    from the same generator state, with ``random.Random``'s draw ``_randbelow_with_getrandbits``
    written into the loop). Another kind of generator (a subclass) shuffles itself."""
    if type(rng) is not random.Random:
        rng.shuffle(cards)
        return
    getrandbits = rng.getrandbits
    last = len(cards) - 1
    if last < len(_BITS):
        bits = _BITS
        for i in range(last, 0, -1):  # the draw is below i + 1: getrandbits(k) until it is
            j = getrandbits(bits[i])
            while j > i:
                j = getrandbits(bits[i])
            cards[i], cards[j] = cards[j], cards[i]
        return
    for i in range(last, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]

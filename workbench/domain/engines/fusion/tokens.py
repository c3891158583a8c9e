"""Tokens (RULES.md §3.10.3): creatures made by effects, with the stats the effect gives.

Card instances are built once per game and shared by clones, so a game holds its token
instances from the start: ``add_tokens`` appends, per player and kind of token, a pool of
instances the cards' ``create_token`` effects can make. A token is on its owner's field or
nowhere: one that leaves the field ceases to exist, and its instance can be made again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from workbench.domain.effects.spec import EffectSpec

if TYPE_CHECKING:
    from workbench.domain.engines.fusion.cards import CardDef


TOKEN_POOL = 6
"""Token instances kept per player and token kind for each token an effect makes at once: a
game builds its instances up front (clones share them), so this many of one kind can be on a
player's field together (an engine limit, far above what sample decks reach)."""


def token_card(e: EffectSpec) -> dict[str, Any]:
    """The card mapping of the token effect ``e`` makes (RULES.md §3.10.3)."""
    fields = dict(e.token)
    name = str(fields.get("name", "衍生物"))
    raw: dict[str, Any] = {"id": f"token:{name}", "name": name, "kind": "creature", "subtype": "衍生物",
                           "stars": 0, "token": True}
    raw.update({k: v for k, v in fields.items() if k != "name"})
    key = str(sorted(raw.items(), key=lambda kv: kv[0]))
    return _TOKENS.setdefault(key, raw)  # one mapping per kind of token: its CardDef is parsed once


_TOKENS: dict[str, dict[str, Any]] = {}


def add_tokens(cards: list[CardDef], names: list[str], owner: list[int], label: Any, players: int) -> None:
    """Append the token instances the cards' effects can make: per player (of ``players``) and
    token kind, ``TOKEN_POOL`` × the most one effect makes at once; ``label(p, k)`` names the k-th
    (from 1). ``opponent`` tokens go to each opponent (§3.9)."""
    wanted: dict[tuple[int, str], tuple[dict[str, Any], int]] = {}
    for card, p in zip(list(cards), list(owner)):
        for e in card.makes_tokens:
            raw = token_card(e)
            if e.target == "each_player":
                targets: tuple[int, ...] = tuple(range(players))
            elif e.target == "opponent":
                targets = tuple(q for q in range(players) if q != p)
            else:
                targets = (p,)
            for q in targets:
                key = (q, raw["id"] + str(sorted(raw.items(), key=lambda kv: kv[0])))
                old = wanted.get(key)
                wanted[key] = (raw, max(old[1] if old else 0, TOKEN_POOL * max(1, e.count)))
    from workbench.domain.engines.fusion.cards import card_def

    made: dict[int, int] = {}
    for (q, _), (raw, n) in sorted(wanted.items(), key=lambda kv: kv[0]):
        card = card_def(raw)
        for _ in range(n):
            made[q] = made.get(q, 0) + 1
            cards.append(card)
            names.append(label(q, made[q]))
            owner.append(q)

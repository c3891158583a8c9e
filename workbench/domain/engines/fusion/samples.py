"""Two small built-in Fusion decks (the project's own cards) for benchmarks, tests and demos.

The cards use every effect the engine runs; names are Chinese with English glosses, as the
game's card data is. Real decks come from ``card_data/fusion``; these exist so the engine can be
measured and tested without files.
"""

from __future__ import annotations

from typing import Any


def _c(cid: str, name: str, en: str, cost: int | str, atk: int, dfn: int, stars: int, attribute: str,
       subtype: str = "战士", text: str = "", effects: list[dict[str, Any]] | None = None,
       keywords: list[str] | None = None) -> dict[str, Any]:
    card: dict[str, Any] = {
        "id": cid, "name": name, "name_en": en, "kind": "creature", "cost": cost, "atk": atk, "def": dfn,
        "stars": stars, "attribute": attribute, "subtype": subtype, "text": text or "通常生物",
    }
    if effects:
        card["effects"] = effects
    if keywords:
        card["keywords"] = keywords
    return card


def _m(cid: str, name: str, en: str, cost: int | str, subtype: str, text: str,
       effects: list[dict[str, Any]], kind: str = "magic") -> dict[str, Any]:
    return {"id": cid, "name": name, "name_en": en, "kind": kind, "cost": cost, "subtype": subtype,
            "text": text, "effects": effects}


CARDS: dict[str, dict[str, Any]] = {c["id"]: c for c in [
    _c("spark-imp", "火花小鬼", "Spark Imp", 1, 2, 2, 1, "fire"),
    _c("stone-guard", "石甲卫士", "Stone Guard", 2, 1, 5, 2, "earth", text="嘲讽", keywords=["taunt"]),
    _c("wind-wolf", "风刃狼", "Wind Wolf", 2, 4, 2, 3, "wind", subtype="兽"),
    _c("tide-mage", "潮汐法师", "Tide Mage", 3, 3, 3, 3, "water", subtype="魔法师", text="召唤时抽1张卡。",
       effects=[{"trigger": "on_play", "action": "draw", "target": "self", "amount": 1}]),
    _c("flame-knight", "炎之骑士", "Flame Knight", 4, 5, 5, 4, "fire"),
    _c("shadow-blade", "暗影刺客", "Shadow Blade", 3, 4, 3, 4, "dark",
       text="①横置：对手受到1点伤害。",
       effects=[{"trigger": "activated", "cost": {"mana": 1, "tap": True}, "action": "damage",
                 "target": "opponent", "amount": 1}]),
    _c("light-warden", "光之守护者", "Light Warden", 5, 4, 8, 5, "light", text="嘲讽", keywords=["taunt"]),
    _c("storm-dragon", "雷鸣巨龙", "Storm Dragon", 6, 7, 7, 7, "wind", subtype="龙",
       text="召唤时对一只敌方生物造成2点伤害。",
       effects=[{"trigger": "on_play", "action": "damage", "target": "enemy_creature", "amount": 2}]),
    _c("ember-phoenix", "余烬凤凰", "Ember Phoenix", 4, 4, 4, 4, "fire", subtype="鸟",
       text="被破坏时，对手受到2点伤害。",
       effects=[{"trigger": "on_destroyed", "action": "damage", "target": "opponent", "amount": 2}]),
    _m("fireball", "火球术", "Fireball", 2, "normal", "对一只敌方生物造成3点伤害。",
       [{"trigger": "on_play", "action": "damage", "target": "enemy_creature", "amount": 3}]),
    _m("lightning", "闪电", "Lightning", 1, "quick", "对一只生物造成2点伤害。",
       [{"trigger": "on_play", "action": "damage", "target": "any_creature", "amount": 2}]),
    _m("cancel", "取消", "Cancel", 2, "quick", "卡的效果发动时才能发动，那个效果无效。",
       [{"trigger": "on_play", "action": "negate"}]),
    _m("double", "加倍", "Double", 3, "normal", "抽两张卡。",
       [{"trigger": "on_play", "action": "draw", "target": "self", "amount": 2}]),
    _m("might", "巨力", "Might", 1, "quick", "一只己方生物直到回合结束攻击力和防御力+2。",
       [{"trigger": "on_play", "action": "modify_stats", "target": "own_creature",
         "stats": {"atk": 2, "def": 2}, "duration": "end_of_turn"}]),
    _m("war-banner", "战旗", "War Banner", 3, "continuous", "己方生物攻击力+1。",
       [{"trigger": "continuous", "action": "modify_stats", "target": "own_creatures",
         "stats": {"atk": 1}, "duration": "permanent"}]),
    _m("iron-sword", "铁剑", "Iron Sword", 2, "equip", "装备生物攻击力+2。",
       [{"trigger": "on_play", "action": "modify_stats", "target": "own_creature",
         "stats": {"atk": 2}, "duration": "permanent"}]),
    _m("potion", "治疗药水", "Healing Potion", 1, "normal", "回复4点生命值。",
       [{"trigger": "on_play", "action": "gain_life", "target": "self", "amount": 4}], kind="item"),
    _m("mana-crystal", "魔力水晶", "Mana Crystal", 2, "artifact", "横置：本回合魔力+1。",
       [{"trigger": "activated", "cost": {"tap": True}, "speed": 2, "once_per_turn": True,
         "action": "add_mana", "amount": 1}], kind="item"),
    _m("banish", "放逐", "Banish", 4, "normal", "让一只生物回到持有者手牌。",
       [{"trigger": "on_play", "action": "return_to_hand", "target": "enemy_creature"}]),
    _m("riddle", "谜语", "Riddle", 2, "normal", "对手必须回答一个谜语。", []),
]}

DECKS: dict[str, dict[str, int]] = {
    "aggro": {
        "spark-imp": 3, "wind-wolf": 3, "stone-guard": 3, "tide-mage": 3, "shadow-blade": 3,
        "flame-knight": 3, "ember-phoenix": 3, "storm-dragon": 2, "fireball": 3, "lightning": 3,
        "might": 3, "war-banner": 2, "iron-sword": 2, "potion": 2, "riddle": 1,
    },
    "control": {
        "stone-guard": 3, "tide-mage": 3, "wind-wolf": 2, "flame-knight": 3, "light-warden": 3,
        "storm-dragon": 3, "ember-phoenix": 2, "fireball": 3, "lightning": 3, "cancel": 3,
        "double": 3, "banish": 2, "mana-crystal": 3, "potion": 2, "spark-imp": 2,
    },
}


def sample_deck(name: str) -> dict[str, list[dict[str, Any]]]:
    """The deck ``name`` ("aggro" or "control") as engine input: one mapping per copy.

    Every copy of a card is the same mapping object, so the engine parses it once.
    Raises KeyError for an unknown deck name.
    """
    main = [CARDS[cid] for cid, copies in DECKS[name].items() for _ in range(copies)]
    return {"main": main, "extra": []}

"""The card editor's effect schema: the vocabulary as labelled, nested controls (plain data).

``effects_schema(stats, filter_keys, lang)`` turns the tables of ``vocabulary.py`` into what the
editor's effect rows are built from (``static/js/effects_editor.js`` has no vocabulary of its own):
every trigger, action, target, zone, … with the label a designer reads ("When this is destroyed",
"Each enemy creature") in English or Chinese, its internal name as secondary text and its doc line;
every key of an entry with the *shape* of its value, so nested values (a filter, a condition, a
cost) are controls too. A new verb of ``vocabulary.ACTIONS`` appears in the editor without any
script change; a new key needs a shape in ``KEY_SHAPES`` (until then it is edited as YAML, and
``tests/domain/effects/test_schema.py`` fails so it is not forgotten).

Shapes (``{"type": …}``):

* ``choice`` — one name of a part (``"part": "zones"``) or of inline ``values``;
* ``int`` (``min``/``max``), ``amount`` (a whole number or X), ``bool``, ``true`` (only ``true``),
  ``text``;
* ``map`` — fixed named ``fields`` (each ``{name, label, doc, shape}``), ``required`` names, and
  ``start``: the value a new one starts with (a condition starts ``{min: 1}``, so it is whole);
* ``one_of`` — a mapping holding exactly one of the ``fields`` (``if:``);
* ``dict`` — free keys of a part (``stats``, the game's ``filter_keys``) or any text, each with
  the ``value`` shape;
* ``union`` — one of several ``options`` shapes, told apart by the value's type;
* ``list`` — a list of ``item`` shapes; ``entries`` — a nested list of effect entries;
* ``yaml`` — anything, edited as YAML text (a key the schema has no shape for).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from typing import Any

from workbench.domain.effects.vocabulary import (
    ACTIONS, CONDITIONS, COSTS, DEFAULT_TARGET, DURATIONS, FILTER_STATES, KEYS, LABELS as VOCAB_LABELS, PICKS, SIDES,
    SPEED_RANGE, TARGETS, TRIGGERS, ZONES, ActionSpec)

Shape = dict[str, Any]

_VOCABULARY: Any = importlib.import_module("workbench.domain.effects.vocabulary")
"""The module itself, for tables other helpers are adding (``UNLESS``, ``TOKEN_FIELDS``): the
schema offers them as soon as they exist. (``effects.vocabulary`` as an attribute is the function.)"""
UNLESS: Mapping[str, str] = getattr(_VOCABULARY, "UNLESS", {})
TOKEN_FIELDS: frozenset[str] = frozenset(getattr(_VOCABULARY, "TOKEN_FIELDS", ()))
STEP_EXCLUDE = ("trigger", "cost", "speed", "once_per_turn", "options")
"""Keys a step of a ``choose`` option does not take (it resolves under the entry's trigger)."""

DOCS_PAGE = "effects"
"""The docs page the editor links to (``/docs/effects``, docs/effects.md)."""

PARTS: dict[str, Mapping[str, Any]] = {
    "triggers": TRIGGERS, "actions": ACTIONS, "targets": TARGETS, "durations": DURATIONS,
    "zones": ZONES, "sides": SIDES, "picks": PICKS, "conditions": CONDITIONS, "costs": COSTS,
    "filter_states": FILTER_STATES, "unless": UNLESS,
}
"""Every named table of the vocabulary the editor offers."""

SECTIONS: dict[str, str] = {
    "triggers": "triggers", "actions": "actions", "targets": "targets", "durations": "durations",
    "zones": "zones-move", "sides": "zones-move", "picks": "zones-move", "conditions": "conditions-if",
    "costs": "costs", "filter_states": "filters", "unless": "choices-while-an-effect-resolves",
}
"""The docs/effects.md section (its heading's anchor) of each part."""

ACTION_SECTIONS: dict[str, str] = {"move": "zones-move", "choose": "choices-while-an-effect-resolves",
                                   "arrange": "choices-while-an-effect-resolves",
                                   "create_token": "tokens-and-fusion-summons-create_token-fusion_summon",
                                   "fusion_summon": "tokens-and-fusion-summons-create_token-fusion_summon"}
"""Actions documented in a section of their own (else ``actions``; static rules: ``static-rules``)."""

LABELS: dict[str, dict[str, dict[str, str]]] = {
    "en": {
        "triggers": dict(VOCAB_LABELS["triggers"]),
        "targets": dict(VOCAB_LABELS["targets"]),
        "actions": {
            "draw": "Draw cards", "damage": "Deal damage", "heal": "Heal damage", "gain_life": "Gain life",
            "modify_stats": "Change stats", "destroy": "Destroy", "return_to_hand": "Return to the hand",
            "negate": "Negate", "add_poison": "Put poison counters", "add_mana": "Gain mana",
            "add_counters": "Put counters", "remove_counters": "Remove counters",
            "move": "Move cards (search, return, exile, mill, discard …)",
            "cannot_be_targeted": "Cannot be targeted", "cannot_be_attacked": "Cannot be attacked",
            "cannot_be_blocked": "Cannot be blocked", "cannot_attack": "Cannot attack",
            "double_damage": "Deals double damage", "reduce_damage": "Takes less damage",
            "modify_cost": "Change costs",
            "create_token": "Create tokens", "fusion_summon": "Fusion summon from the extra deck",
        },
        "durations": {"end_of_turn": "Until end of turn", "permanent": "For good",
                      "until_your_next_turn": "Until your next turn", "while_on_field": "While this is on the field"},
        "zones": {"hand": "Hand", "deck": "Deck (search, then shuffle)", "deck_top": "Top of the deck",
                  "deck_bottom": "Bottom of the deck", "graveyard": "Graveyard / Discard Pile",
                  "exile": "Exile (removed from the game)", "field": "Field (in play)",
                  "damage_pile": "Damage pile", "extra_deck": "Extra deck (fusion)"},
        "sides": {"own": "Yours", "opponent": "The opponent's", "each": "Each player's"},
        "picks": {"best": "The best card (the engine picks)", "random": "At random", "first": "In zone order",
                  "choose": "You choose the card"},
        "conditions": {
            "count": "If there are N matching cards", "life": "If a player's life is",
            "damage_pile": "If a damage pile holds", "hand": "If a hand holds", "turn": "If the turn number is",
            "summoned_this_turn": "If this came onto the field this turn", "previous": "If you do (the step before did something)",
            "phase": "If it is a phase", "counters": "If this has counters",
        },
        "costs": {"mana": "Pay mana", "tap": "Tap this card", "pay_life": "Pay life", "discard": "Discard cards",
                  "sacrifice": "Sacrifice creatures", "exile_from_graveyard": "Exile cards from your graveyard",
                  "remove_counters": "Remove counters from this card"},
        "unless": {"pay_life": "Unless its controller pays life", "mana": "Unless its controller pays mana",
                   "discard": "Unless its controller discards cards"},
        "filter_states": {"other": "Other than this card", "position": "Position (Battling / Guarding)",
                          "tapped": "Tapped", "face_down": "Face down", "summoned_this_turn": "Came onto the field this turn"},
        "keys": {
            "trigger": "When", "action": "What it does", "target": "Whom", "amount": "Amount",
            "stats": "Stat changes", "duration": "How long", "cost": "Cost", "speed": "Chain speed",
            "once_per_turn": "Once per turn", "filter": "Only cards that match", "random": "Pick at random",
            "count": "How many", "from": "From zone", "to": "To zone", "side": "Whose zone", "pick": "Which cards",
            "look": "Look at the top N", "if": "Only if", "per": "For each", "counter": "Counter name",
            "zone": "Zone", "min": "At least", "max": "At most", "value": "Value", "values": "Any of",
            "range": "Between", "yes": "Yes", "no": "No", "phase": "Which phase",
            "played": "Which cards the opponent plays", "options": "Options", "unless": "Unless",
            "ready": "Ready to attack this turn",
            "token": "The token", "step": "One step", "steps": "Several steps", "name": "Name",
        },
    },
    "zh": {
        "triggers": {
            "on_play": "此卡使用时", "on_destroyed": "此卡被破坏时", "activated": "启动：支付代价",
            "continuous": "永续：此卡在场期间", "start_of_turn": "己方回合开始时", "end_of_turn": "己方回合结束时",
            "on_attack": "此卡攻击宣言时", "on_attacked": "此卡被攻击时", "on_leave": "此卡离场时",
            "on_block": "此卡阻挡时", "on_blocked": "此卡被阻挡时", "on_damaged": "此卡受到伤害时",
            "on_deal_damage": "此卡造成伤害时", "on_enter": "此卡登场时", "on_draw": "有玩家抽卡时",
            "on_opponent_play": "对手使用卡牌时", "on_phase": "阶段开始时",
        },
        "targets": {
            "self": "自己（能力值变化时：此卡）", "this": "此卡", "opponent": "对手", "any_player": "你选择的一名玩家",
            "own_creature": "一只己方生物", "enemy_creature": "一只敌方生物", "any_creature": "任意一只生物",
            "own_creatures": "所有己方生物", "enemy_creatures": "所有敌方生物", "attacker": "攻击的生物",
            "each_player": "双方玩家", "same": "与上一步相同的对象",
        },
        "actions": {
            "draw": "抽卡", "damage": "造成伤害", "heal": "回复伤害", "gain_life": "回复生命", "modify_stats": "改变能力值",
            "destroy": "破坏", "return_to_hand": "返回手牌", "negate": "无效", "add_poison": "放置毒素指示物",
            "add_mana": "获得魔力", "add_counters": "放置指示物", "remove_counters": "移除指示物",
            "move": "移动卡牌（检索、回收、除外、堆墓、丢弃……）",
            "cannot_be_targeted": "不能成为效果的对象", "cannot_be_attacked": "不能被攻击", "cannot_be_blocked": "不能被阻挡",
            "cannot_attack": "不能攻击", "double_damage": "造成的伤害加倍", "reduce_damage": "受到的伤害减少",
            "modify_cost": "改变费用", "choose": "选择一项——（模式）", "arrange": "查看卡组顶端的卡，以任意顺序放回",
            "create_token": "特殊召唤衍生物", "fusion_summon": "从额外卡组融合召唤",
        },
        "durations": {"end_of_turn": "直到回合结束", "permanent": "永久", "until_your_next_turn": "直到己方下个回合",
                      "while_on_field": "此卡在场期间"},
        "zones": {"hand": "手牌", "deck": "卡组（检索后洗切）", "deck_top": "卡组顶端", "deck_bottom": "卡组底部",
                  "graveyard": "墓地", "exile": "除外区", "field": "场上", "damage_pile": "伤害堆", "extra_deck": "额外卡组"},
        "sides": {"own": "己方", "opponent": "对方", "each": "双方"},
        "picks": {"best": "最好的卡（由引擎选择）", "random": "随机", "first": "按区域顺序", "choose": "由你选择"},
        "conditions": {
            "count": "若有N张符合的卡", "life": "若玩家的生命值", "damage_pile": "若伤害堆的卡数", "hand": "若手牌数",
            "turn": "若回合数", "summoned_this_turn": "若此卡本回合登场", "previous": "若如此做（上一步有效果）",
            "phase": "若处于某阶段", "counters": "若此卡的指示物",
        },
        "costs": {"mana": "支付魔力", "tap": "横置此卡", "pay_life": "支付生命", "discard": "丢弃手牌",
                  "sacrifice": "解放生物", "exile_from_graveyard": "从墓地除外卡牌",
                  "remove_counters": "移除此卡的指示物"},
        "unless": {"pay_life": "除非其控制者支付生命", "mana": "除非其控制者支付魔力", "discard": "除非其控制者丢弃手牌"},
        "filter_states": {"other": "此卡以外", "position": "位置（战斗 / 守备）", "tapped": "横置",
                          "face_down": "里侧", "summoned_this_turn": "本回合登场"},
        "keys": {
            "trigger": "时机", "action": "效果", "target": "对象", "amount": "数值", "stats": "能力值变化",
            "duration": "持续时间", "cost": "代价", "speed": "连锁速度", "once_per_turn": "每回合一次",
            "filter": "只限符合条件的卡", "random": "随机选择", "count": "数量", "from": "从区域", "to": "到区域",
            "side": "谁的区域", "pick": "选哪些卡", "look": "查看顶端N张", "if": "条件", "per": "每有一张",
            "counter": "指示物名称", "zone": "区域", "min": "至少", "max": "至多", "value": "值", "values": "任意一个",
            "range": "范围", "yes": "是", "no": "否", "phase": "哪个阶段", "played": "对手使用的哪些卡", "ready": "本回合可以攻击",
            "options": "选项", "unless": "除非", "token": "衍生物", "step": "一个步骤", "steps": "多个步骤", "name": "名称",
        },
    },
}
"""What the editor shows for each name, per language; a name without a label shows its doc line."""

DOCS_ZH: dict[str, dict[str, str]] = {
    "triggers": {
        "on_play": "此卡使用时（生物召唤、卡牌发动、怪兽首次派出）", "on_destroyed": "此生物或怪兽被破坏或移除时",
        "activated": "由控制者选择发动，并支付代价", "continuous": "此卡在场期间一直有效",
        "start_of_turn": "控制者的回合开始时", "end_of_turn": "控制者的结束阶段开始时",
        "on_attack": "此生物宣言攻击时", "on_attacked": "此生物被选为攻击对象时",
        "on_leave": "此生物因任何原因离场时（被破坏、返回、除外……）", "on_block": "此生物阻挡（warzone：拦截）攻击时",
        "on_blocked": "此攻击中的生物被阻挡（warzone：拦截）时", "on_damaged": "此生物受到伤害时（战斗或效果）",
        "on_deal_damage": "此生物造成伤害时（战斗或效果）", "on_enter": "此生物从任何区域进入场上时（使用、放置、召唤）",
        "on_draw": "此卡在场期间，有玩家抽卡时（side：己方、对方或双方）",
        "on_opponent_play": "此卡在场期间，对手使用卡牌时（played：符合的卡）",
        "on_phase": "此卡在场期间，某阶段开始时（phase：阶段名称；side：谁的回合）",
    },
    "actions": {
        "draw": "对象玩家抽卡", "damage": "对生物、怪兽或玩家造成伤害", "heal": "移除生物或怪兽身上的伤害",
        "gain_life": "对象玩家回复生命", "modify_stats": "暂时或永久改变能力值", "destroy": "破坏对象生物或怪兽",
        "return_to_hand": "将对象生物返回持有者手牌", "negate": "使其回应的发动或攻击无效",
        "add_poison": "在对象怪兽上放置毒素指示物", "add_mana": "控制者本回合获得魔力，不受上限限制",
        "add_counters": "在对象上放置某种名称的指示物（counter：charge）", "remove_counters": "从对象上移除某种名称的指示物",
        "move": "在区域之间移动卡牌：检索卡组、从墓地回收、除外、堆墓、丢弃、洗入卡组、放置到场上",
        "cannot_be_targeted": "永续：对象生物不能成为效果的对象（也不会被随机选中）",
        "cannot_be_attacked": "永续：对象生物不能成为攻击的对象", "cannot_be_blocked": "永续：对象生物的攻击不能被阻挡（warzone：拦截）",
        "cannot_attack": "永续：对象生物不能攻击", "double_damage": "永续：对象生物造成的伤害加倍",
        "reduce_damage": "永续：对象生物受到的伤害减少数值", "modify_cost": "永续：对象玩家的卡（filter）费用改变数值（-1：少1；最低为0）",
        "choose": "从选项中选择一项（count: 2：选择两项），每项是一串步骤；结算时由控制者决定",
        "arrange": "查看卡组顶端的卡（数值张），以任意顺序放回", "create_token": "特殊召唤 count 只衍生物（由效果产生的生物），能力值由 token 给出",
        "fusion_summon": "将素材从手牌或场上送入墓地，从额外卡组特殊召唤一只生物",
    },
    "conditions": {
        "count": "符合条件的卡有多少张", "life": "玩家的生命值", "damage_pile": "warzone：伤害堆中的卡数", "hand": "手牌数",
        "turn": "游戏的回合数（seth：轮数）", "summoned_this_turn": "此卡本回合登场", "previous": "上一步有效果（“若如此做”）",
        "phase": "游戏当前的阶段（warzone recruit、war、return；fusion main1、battle、main2；seth fast、medium、slow）",
        "counters": "此卡上某种名称的指示物数量",
    },
    "targets": {
        "self": "此卡的控制者（能力值变化与回复时：此卡本身）", "this": "此卡本身", "opponent": "对方玩家",
        "any_player": "由控制者选择的一名玩家", "own_creature": "控制者的一只生物", "enemy_creature": "对手的一只生物",
        "any_creature": "任意一只生物", "own_creatures": "控制者的所有生物", "enemy_creatures": "对手的所有生物",
        "attacker": "进行攻击的生物（回应攻击时）", "each_player": "双方玩家，控制者优先",
        "same": "上一个条目所影响的对象（共用同一对象的一串步骤）",
    },
    "durations": {
        "end_of_turn": "直到回合结束（seth：轮结束）", "permanent": "只要此卡留在场上就一直有效",
        "until_your_next_turn": "直到其控制者的下个回合开始（warzone、fusion）",
        "while_on_field": "只要造成此变化的卡留在场上",
    },
    "zones": {
        "hand": "玩家的手牌", "deck": "整个卡组：检索一张卡后洗切卡组（to：洗入卡组）",
        "deck_top": "卡组顶端（from：按顺序取顶端的卡；to：放到顶端）", "deck_bottom": "卡组底部（to：放到底部）",
        "graveyard": "墓地 / 弃牌堆", "exile": "从游戏中除外",
        "field": "场上（from：对象生物；to：无视费用放置到场上）",
        "extra_deck": "fusion 的额外卡组（其中的生物通过 fusion_summon 登场，RULES.md §3.10.2）",
        "damage_pile": "warzone 的伤害堆（伤害卡，§1.10）",
    },
    "sides": {"own": "控制者的", "opponent": "对手的", "each": "双方的，控制者优先"},
    "picks": {
        "best": "由引擎替控制者选择：价值最高的卡（费用与能力值；docs/effects.md）", "random": "随机",
        "first": "按区域顺序：卡组从顶端开始，其他区域从最新的卡开始",
        "choose": "由控制者看着可选的卡进行选择（一张卡，其自己的区域）",
    },
    "costs": {
        "mana": "fusion：N 或 X（剩余的全部魔力）", "tap": "true：横置此卡（warzone：代替攻击）",
        "pay_life": "N：控制者支付 N 点生命（生命值必须大于 N）", "discard": "N：从手牌丢弃 N 张卡",
        "sacrifice": "N 或 {count: N, filter: {...}}：破坏控制者的 N 只其他生物",
        "exile_from_graveyard": "N：从控制者的墓地除外 N 张卡",
        "remove_counters": "{名称: N}：从此卡上移除 N 个该名称的指示物",
    },
    "filter_states": {
        "other": "true：不是此卡本身（“此卡以外”）", "position": "warzone：战斗或守备",
        "tapped": "fusion：true 或 false", "face_down": "fusion：true 或 false",
        "summoned_this_turn": "true 或 false：本回合登场",
    },
    "unless": {
        "pay_life": "N：受影响的玩家可支付 N 点生命（生命值必须大于 N）使此条目无效",
        "mana": "N：fusion：受影响的玩家可支付 N 点魔力使此条目无效",
        "discard": "N：受影响的玩家可丢弃 N 张卡（价值最低的卡）使此条目无效",
    },
    "keys": {
        "trigger": "何时发生", "action": "效果做什么", "target": "影响谁",
        "amount": "多少（整数；X = 为 X 费用支付的魔力）",
        "stats": "modify_stats：能力值名称 → 变化量，例如 {strength: 200}",
        "duration": "modify_stats：end_of_turn、until_your_next_turn、while_on_field 或 permanent",
        "cost": "activated：{mana: N 或 X, tap: true, pay_life: N, discard: N, sacrifice: N, exile_from_graveyard: N}",
        "speed": "连锁速度 1-3（fusion；warzone：2 为快速法术）",
        "once_per_turn": "fusion：每个卡名每回合只能使用一次（默认 true）",
        "filter": "哪些卡计入：卡牌字段、能力值与状态，例如 {class: 2, strength: {min: 500}}",
        "random": "true：随机选择一个对象（或 count 个对象），而不是由玩家选择",
        "count": "数量：移动的卡数，或随机选择的对象数（1 或以上的整数）",
        "from": "move：卡牌来自的区域（默认 field：对象生物）", "to": "move：卡牌去往的区域",
        "side": "从区域移动时：谁的区域，own（默认）、opponent 或 each；on_draw：谁抽卡；on_phase：谁的回合",
        "pick": "从区域移动时：best（默认）、random 或 first",
        "look": "从 deck_top 移动时：查看顶端 N 张，移动其中 count 张符合的卡，其余放到底部",
        "if": "效果结算时检查的条件；不满足时此条目不做任何事",
        "per": "{zone, side, filter}：数值乘以符合的卡数",
        "counter": "add_counters、remove_counters：指示物的名称（seth：poison 即 §2.5 的毒素）",
        "phase": "on_phase：开始的阶段（游戏的阶段名称），或阶段列表",
        "played": "on_opponent_play：对手使用哪些卡时触发，一个筛选条件，例如 {kind: spell}",
        "options": "choose：2 到 5 个选项，每项是一个步骤（不含 trigger 的映射）或一串步骤",
        "unless": "{pay_life: N} | {mana: N} | {discard: N}：受影响的玩家可支付它使此条目无效",
        "token": "create_token：衍生物的名称与能力值，例如 {name: 衍生物, atk: 1, def: 1}",
        "ready": "move to: field：true 使生物登场后本回合即可攻击（无召唤失调）",
    },
}
"""The doc lines in Chinese (a name without one shows its English line; ``keys``: the entry keys'
lines of ``vocabulary.KEYS``; ``filter_states`` also serve the filter keys of those states)."""

_INT1: Shape = {"type": "int", "min": 1}
_INT: Shape = {"type": "int"}
_TEXT: Shape = {"type": "text"}


def _choice(part: str) -> Shape:
    return {"type": "choice", "part": part}


FILTER_VALUE: Shape = {"type": "union", "options": [
    {"label": "value", "shape": {"type": "text"}},
    {"label": "values", "shape": {"type": "list", "item": {"type": "text"}}},
    {"label": "range", "shape": {"type": "map", "fields": ["min", "max"]}},
    {"label": "yes", "shape": {"type": "bool"}},
]}
"""A filter key's value: one value, a list of them, a range, or true/false (docs/effects.md Filters)."""

FILTER: Shape = {"type": "dict", "part": "filter_keys", "value": FILTER_VALUE}

SUB_FIELDS: dict[str, Shape] = {
    "zone": _choice("zones"), "side": _choice("sides"), "filter": FILTER, "min": _INT, "max": _INT,
    "counter": _TEXT, "count": _INT1,
}
"""Fields of the nested mappings (a condition's ``zone``, ``side``, ``min`` …)."""

_BOUNDED: Shape = {"type": "map", "fields": ["side", "min", "max"], "start": {"min": 1}}

CONDITION_SHAPES: dict[str, Shape] = {
    "count": {"type": "map", "fields": ["zone", "side", "filter", "min", "max"], "start": {"min": 1}},
    "life": _BOUNDED, "damage_pile": _BOUNDED, "hand": _BOUNDED,
    "turn": {"type": "map", "fields": ["min", "max"], "start": {"min": 1}},
    "summoned_this_turn": {"type": "true"}, "previous": {"type": "true"},
    "counters": {"type": "map", "fields": ["counter", "min", "max"], "required": ["counter"], "start": {"min": 1}},
    "phase": {"type": "union", "options": [{"label": "value", "shape": _TEXT},
                                           {"label": "values", "shape": {"type": "list", "item": _TEXT}}]},
}

COST_SHAPES: dict[str, Shape] = {
    "mana": {"type": "amount"}, "tap": {"type": "bool"}, "pay_life": _INT1, "discard": _INT1,
    "sacrifice": {"type": "union", "options": [
        {"label": "count", "shape": _INT1},
        {"label": "filter", "shape": {"type": "map", "fields": ["count", "filter"]}}]},
    "exile_from_graveyard": _INT1,
    "remove_counters": {"type": "dict", "value": _INT1},
}

UNLESS_SHAPES: dict[str, Shape] = {name: _INT1 for name in UNLESS}

KEY_SHAPES: dict[str, Shape] = {
    "trigger": _choice("triggers"), "action": _choice("actions"), "target": _choice("targets"),
    "amount": {"type": "amount"},
    "stats": {"type": "dict", "part": "stats", "value": _INT},
    "duration": _choice("durations"),
    "cost": {"type": "map", "part": "costs", "fields": list(COSTS)},
    "speed": {"type": "choice", "values": list(range(SPEED_RANGE[0], SPEED_RANGE[1] + 1))},
    "once_per_turn": {"type": "bool"},
    "filter": FILTER,
    "random": {"type": "bool"},
    "count": _INT1,
    "from": _choice("zones"), "to": _choice("zones"), "side": _choice("sides"), "pick": _choice("picks"),
    "look": _INT1,
    "if": {"type": "one_of", "part": "conditions", "fields": list(CONDITIONS)},
    "per": {"type": "map", "fields": ["zone", "side", "filter"]},
    "counter": _TEXT,
    "phase": {"type": "union", "options": [{"label": "value", "shape": _TEXT},
                                           {"label": "values", "shape": {"type": "list", "item": _TEXT}}]},
    "played": FILTER,
    "ready": {"type": "bool"},
    "options": {"type": "list", "item": {"type": "union", "options": [
        {"label": "step", "shape": {"type": "entry", "exclude": list(STEP_EXCLUDE)}},
        {"label": "steps", "shape": {"type": "entries", "exclude": list(STEP_EXCLUDE)}}]}},
    "unless": {"type": "one_of", "part": "unless", "fields": list(UNLESS)},
    "token": {"type": "dict", "part": "token_keys", "value": {"type": "union", "options": [
        {"label": "value", "shape": _TEXT}, {"label": "values", "shape": {"type": "list", "item": _TEXT}}]}},
}
"""The shape of each entry key's value (``vocabulary.KEYS``)."""

TRIGGER_KEYS: dict[str, tuple[str, ...]] = {
    "on_draw": ("side",), "on_opponent_play": ("played",), "on_phase": ("phase", "side"),
}
"""Keys a trigger shows at once (docs/effects.md Triggers)."""

ACTION_KEYS: dict[str, tuple[str, ...]] = {
    "add_counters": ("counter",), "remove_counters": ("counter",),
    "move": ("from", "to", "target", "side", "pick", "count", "look", "filter", "ready"),
    "choose": ("options", "count"), "create_token": ("target", "token", "count"), "fusion_summon": ("filter",),
}
"""Keys an action shows at once beside those its ``ActionSpec`` needs (target, amount, stats)."""

COMMON_KEYS = ("filter", "random", "count", "if", "per", "unless", "cost", "speed", "once_per_turn", "duration")
"""Keys any entry may add ("Add a detail"), in that order; the rest belong to their actions."""


def _label(lang: str, part: str, name: str, doc: str) -> str:
    if lang == "en" and name in VOCAB_LABELS.get(part, {}):
        return VOCAB_LABELS[part][name]  # the vocabulary's own labels come first
    table = LABELS.get(lang, {}).get(part, {})
    if name in table:
        return table[name]
    english = LABELS["en"].get(part, {})
    return english.get(name) or (doc[:1].upper() + doc[1:] if doc else name)


HINTS: dict[str, dict[str, str]] = {
    "en": {"amount_x": "a whole number, or X with an X mana cost", "amount": "a whole number"},
    "zh": {"amount_x": "整数；或 X（需要 X 魔力代价）", "amount": "整数"},
}
"""The hint under an Amount box: X only in a game with X costs (``effects_schema(x_costs=…)``)."""

AMOUNT_DOC: dict[str, str] = {"en": "how much (a whole number)", "zh": "多少（整数）"}
"""The ``amount`` key's doc line in a game without X costs (no mana to pay X with)."""


def _key_doc(name: str, lang: str, x_costs: bool) -> str:
    if name == "amount" and not x_costs:
        return AMOUNT_DOC.get(lang, AMOUNT_DOC["en"])
    if lang == "zh" and name in DOCS_ZH["keys"]:
        return DOCS_ZH["keys"][name]
    return KEYS[name]


def _doc(part: str, name: str, lang: str = "en") -> str:
    if lang == "zh" and name in DOCS_ZH.get(part, {}):
        return DOCS_ZH[part][name]
    raw = PARTS[part][name]
    return raw.description if isinstance(raw, ActionSpec) else str(raw)


def _own_keys(name: str, spec: ActionSpec) -> list[str]:
    keys: list[str] = []
    if spec.takes_target:
        keys.append("target")
    if spec.needs_amount:
        keys.append("amount")
    if spec.needs_stats:
        keys += ["stats", "duration"]
    for key in ACTION_KEYS.get(name, ()):
        if key not in keys and key in KEYS:
            keys.append(key)
    return keys


def _shape(name: str, table: Mapping[str, Shape]) -> Shape:
    return dict(table.get(name) or {"type": "yaml"})


def _fields(names: Iterable[str], part: str | None, shapes: Mapping[str, Shape], lang: str) -> list[dict[str, Any]]:
    out = []
    for name in names:
        doc = _doc(part, name, lang) if part and name in PARTS[part] else ""
        label = _label(lang, part, name, doc) if part and name in PARTS[part] else _label(lang, "keys", name, "")
        out.append({"name": name, "label": label, "doc": doc, "shape": _resolve(_shape(name, shapes), lang)})
    return out


def _resolve(shape: Shape, lang: str) -> Shape:
    """Nested field names become labelled fields with their shapes."""
    kind = shape.get("type")
    if kind in ("map", "one_of") and not shape.get("fields"):
        return {"type": "yaml"}  # a table that is still empty
    if kind in ("map", "one_of") and isinstance(shape["fields"][0], str):
        part = shape.get("part")
        table = {"costs": COST_SHAPES, "conditions": CONDITION_SHAPES, "unless": UNLESS_SHAPES}.get(str(part), SUB_FIELDS)
        shape = dict(shape, fields=_fields(shape["fields"], part, table, lang))
    elif kind == "union":
        shape = dict(shape, options=[{"label": _label(lang, "keys", str(o["label"]), ""),
                                      "shape": _resolve(dict(o["shape"]), lang)} for o in shape["options"]])
    elif kind == "list":
        shape = dict(shape, item=_resolve(dict(shape["item"]), lang))
    elif kind == "dict":
        shape = dict(shape, value=_resolve(dict(shape["value"]), lang))
    return shape


def effects_schema(stats: Iterable[tuple[str, str]] = (), filter_keys: Iterable[tuple[str, str]] = (),
                  lang: str = "en", x_costs: bool = True) -> dict[str, Any]:
    """Everything the effect rows are built from. ``stats``: the game's stats (name, label);
    ``filter_keys``: what a filter may test (name, label), the game's card fields and the
    states of ``FILTER_STATES``; ``lang``: ``en`` or ``zh`` (labels and doc lines in that
    language); ``x_costs``: the game has X costs (a card costing X, or an ability's ``mana: X``),
    so the Amount hint mentions X (warzone has no mana: it does not)."""
    parts: dict[str, list[dict[str, Any]]] = {}
    for part, table in PARTS.items():
        parts[part] = [{"name": name, "label": _label(lang, part, name, _doc(part, name)), "doc": _doc(part, name, lang)}
                       for name in table]
    for entry in parts["triggers"]:
        entry["keys"] = list(TRIGGER_KEYS.get(entry["name"], ()))
    for entry in parts["actions"]:
        name = entry["name"]
        spec = ACTIONS[name]
        own = _own_keys(name, spec)
        entry["keys"] = own
        entry["optional"] = [k for k in COMMON_KEYS if k not in own and k in KEYS]
        entry["section"] = ACTION_SECTIONS.get(name, "static-rules" if getattr(spec, "static", False) else "actions")
        entry["default_target"] = DEFAULT_TARGET.get(name)
    stats = list(stats)
    filter_keys = list(filter_keys)
    parts["stats"] = [{"name": name, "label": label, "doc": ""} for name, label in stats]
    parts["token_keys"] = [{"name": "name", "label": _label(lang, "keys", "name", ""), "doc": ""}] + parts["stats"] + [
        {"name": name, "label": label, "doc": ""} for name, label in filter_keys if name in TOKEN_FIELDS]
    states = dict(FILTER_STATES)
    parts["filter_keys"] = [{"name": name, "label": _label(lang, "filter_states", name, states[name])
                             if name in states else label,
                             "doc": _doc("filter_states", name, lang) if name in states else ""}
                            for name, label in filter_keys]
    keys = {name: {"label": _label(lang, "keys", name, doc), "doc": _key_doc(name, lang, x_costs),
                   "shape": _resolve(_shape(name, KEY_SHAPES), lang)}
            for name, doc in KEYS.items()}
    hints = HINTS.get(lang, HINTS["en"])
    return {"lang": lang, "parts": parts, "keys": keys, "key_order": list(KEYS),
            "docs_page": DOCS_PAGE, "sections": dict(SECTIONS),
            "labels": {"yes": _label(lang, "keys", "yes", ""), "no": _label(lang, "keys", "no", "")},
            "x_costs": x_costs, "hints": {"amount": hints["amount_x" if x_costs else "amount"]}}


def unshaped_keys() -> list[str]:
    """Keys of the vocabulary the editor can only offer as YAML text (none, when the schema is whole)."""
    return [name for name in KEYS if name not in KEY_SHAPES]


def _is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def fits(shape: Mapping[str, Any], value: object, keys: Mapping[str, Any] | None = None) -> bool:
    """Can the editor show ``value`` as the controls of ``shape`` (a resolved shape of
    ``effects_schema``)? The same test as ``fits`` in ``static/js/effects_editor.js``: a value that
    does not fit is shown as YAML text instead, and saved unchanged. ``keys``: the schema's entry
    keys, for nested entries."""
    kind = shape.get("type")
    if kind == "choice":
        return not isinstance(value, (Mapping, list))
    if kind in ("int", "amount"):
        return _is_whole(value) or isinstance(value, str)
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "true":
        return value is True
    if kind == "text":
        return isinstance(value, str) or _is_whole(value)
    if kind in ("map", "one_of"):
        fields = {f["name"]: f["shape"] for f in shape["fields"]}
        return (isinstance(value, Mapping) and (kind == "map" or len(value) == 1)
                and all(k in fields and fits(fields[k], x, keys) for k, x in value.items()))
    if kind == "dict":
        return isinstance(value, Mapping) and all(fits(shape["value"], x, keys) for x in value.values())
    if kind == "union":
        return any(_typed(o["shape"], value) and fits(o["shape"], value, keys) for o in shape["options"])
    if kind == "list":
        return isinstance(value, list) and all(fits(shape["item"], x, keys) for x in value)
    if kind == "entry":
        return isinstance(value, Mapping) and _entry_fits(keys or {}, value, shape.get("exclude", ()))
    if kind == "entries":
        return isinstance(value, list) and all(
            isinstance(x, Mapping) and _entry_fits(keys or {}, x, shape.get("exclude", ())) for x in value)
    return True  # yaml: anything


def _typed(shape: Mapping[str, Any], value: object) -> bool:
    kind = shape.get("type")
    if kind == "list":
        return isinstance(value, list)
    if kind in ("map", "dict", "entry"):
        return isinstance(value, Mapping)
    if kind == "entries":
        return isinstance(value, list)
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "int":
        return _is_whole(value)
    if kind == "text":
        return isinstance(value, str) or _is_whole(value)
    return True


def _entry_fits(keys: Mapping[str, Any], entry: Mapping[str, Any], exclude: Iterable[str] = ()) -> bool:
    return all(key in keys and key not in exclude and keys[key]["shape"]["type"] != "yaml"
               and fits(keys[key]["shape"], value, keys) for key, value in entry.items())


def entry_fits(schema: Mapping[str, Any], entry: Mapping[str, Any]) -> bool:
    """Every key of ``entry`` is a vocabulary key whose value the editor shows as controls (no YAML
    text needed). ``schema``: an ``effects_schema``."""
    return _entry_fits(schema.get("keys") or {}, entry)

"""Rules text from effect entries, in English and in Chinese (fusion's card language).

``rules_text(entries, lang)`` writes what a card's ``effects`` list does the way a card reads,
e.g. "When this is destroyed, deal 200 damage to each enemy creature." /
"此卡被破坏时，给予所有敌方生物200伤害。". It reads the raw entries (what the card file holds),
so it works for every game; entries that break the vocabulary are left out.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from workbench.domain.effects.vocabulary import ACTIONS, DEFAULT_TARGET, TRIGGERS

_WHEN = {
    "en": {"on_play": "When this is played, ", "on_destroyed": "When this is destroyed, ",
           "activated": "", "continuous": "", "start_of_turn": "At the start of your turn, ",
           "end_of_turn": "At the end of your turn, ", "on_attack": "When this attacks, ",
           "on_attacked": "When this is attacked, ", "on_leave": "When this leaves the field, ",
           "on_block": "When this blocks, ", "on_blocked": "When this is blocked, ",
           "on_damaged": "When this takes damage, ", "on_deal_damage": "When this deals damage, ",
           "on_enter": "When this enters the field, ", "on_draw": "", "on_opponent_play": "", "on_phase": ""},
    "zh": {"on_play": "此卡使用时，", "on_destroyed": "此卡被破坏时，", "activated": "", "continuous": "",
           "start_of_turn": "己方回合开始时，", "end_of_turn": "己方回合结束时，", "on_attack": "此卡攻击宣言时，",
           "on_attacked": "此卡被攻击时，", "on_leave": "此卡离场时，", "on_block": "此卡阻挡时，",
           "on_blocked": "此卡被阻挡时，", "on_damaged": "此卡受到伤害时，", "on_deal_damage": "此卡造成伤害时，",
           "on_enter": "此卡登场时，", "on_draw": "", "on_opponent_play": "", "on_phase": ""},
}

_WHO = {
    "en": {"self": "you", "this": "this card", "opponent": "the opponent", "any_player": "a player",
           "each_player": "each player", "own_creature": "one of your creatures",
           "enemy_creature": "an enemy creature", "any_creature": "a creature",
           "own_creatures": "each of your creatures", "enemy_creatures": "each enemy creature",
           "attacker": "the attacking creature", "same": "it"},
    "zh": {"self": "自己", "this": "此卡", "opponent": "对手", "any_player": "一名玩家", "each_player": "双方玩家",
           "own_creature": "一只己方生物", "enemy_creature": "一只敌方生物", "any_creature": "一只生物",
           "own_creatures": "所有己方生物", "enemy_creatures": "所有敌方生物", "attacker": "攻击的生物",
           "same": "该目标"},
}

_STAT_ZH = {"atk": "攻击力", "def": "守备力", "strength": "力量", "resilience": "韧性", "damage": "伤害值",
            "health": "生命值"}
_STAT_EN = {"atk": "ATK", "def": "DEF", "strength": "Strength", "resilience": "Resilience",
            "damage": "Damage", "health": "Health"}
_ZONE = {
    "en": {"hand": "hand", "deck": "deck", "deck_top": "deck", "deck_bottom": "deck", "graveyard": "graveyard",
           "exile": "exile", "field": "field", "damage_pile": "damage pile"},
    "zh": {"hand": "手牌", "deck": "卡组", "deck_top": "卡组", "deck_bottom": "卡组", "graveyard": "墓地",
           "exile": "除外区", "field": "场上", "damage_pile": "伤害堆"},
}
_STATE_ZH = {"tapped": "横置", "face_down": "里侧", "summoned_this_turn": "本回合登场", "position": "位置"}
"""A card's states in filters, in the seed's words (the editor's filter_states labels)."""
_SIDE_EN = {"own": "your", "opponent": "the opponent's", "each": "each player's"}
_SIDE_ZH = {"own": "己方", "opponent": "对方", "each": "双方"}


_PHASE_ZH = {"wake": "苏醒阶段", "recruit": "招募阶段", "war": "战争阶段", "return": "返回阶段", "night": "夜晚阶段",
             "ready": "准备阶段", "draw": "抽卡阶段", "main1": "主要阶段1", "battle": "战斗阶段", "main2": "主要阶段2",
             "end": "结束阶段", "fast": "快速阶段", "medium": "中速阶段", "slow": "慢速阶段"}
_PHASE_EN = {"main1": "first main", "main2": "second main"}
_TURN_EN = {"own": "your", "opponent": "the opponent's", "each": "each"}
_TURN_ZH = {"own": "己方", "opponent": "对方", "each": "每个"}
_DRAWER_EN = {"own": "you draw", "opponent": "the opponent draws", "each": "a player draws"}
_DRAWER_ZH = {"own": "己方", "opponent": "对方", "each": "任意玩家"}
_STATIC_WHO = {
    "en": {"this": "this card", "self": "this card", "own_creatures": "your creatures",
           "enemy_creatures": "enemy creatures"},
    "zh": {"this": "此卡", "self": "此卡", "own_creatures": "己方生物", "enemy_creatures": "敌方生物"},
}


def _trigger_head(entry: Mapping[str, Any], lang: str) -> str:
    """The "when" words of the triggers that read an entry's own keys (on_draw, on_phase …)."""
    trigger = entry.get("trigger")
    zh = lang == "zh"
    side = str(entry.get("side", "own"))
    if trigger == "on_draw":
        return f"{_DRAWER_ZH.get(side, '')}每抽1张卡时，" if zh else f"Whenever {_DRAWER_EN.get(side, 'you draw')} a card, "
    if trigger == "on_opponent_play":
        what = _filter_words(entry.get("played"), lang)
        return f"对方使用卡{what}时，" if zh else f"When the opponent plays a card{what}, "
    if trigger == "on_phase":
        raw = entry.get("phase")
        names = [str(n) for n in (raw if isinstance(raw, list) else [raw]) if n]
        if zh:
            return f"{'每个' if side == 'each' else _TURN_ZH.get(side, '')}{'或'.join(_PHASE_ZH.get(n, n) for n in names)}开始时，"
        words = " or ".join(_PHASE_EN.get(n, n) for n in names)
        turn = "each" if side == "each" else _TURN_EN.get(side, "your")
        return f"At the start of {turn} {words} phase, "
    return ""


def _static(entry: Mapping[str, Any], lang: str) -> str:
    """A static rule: "your creatures with keywords flight cannot be targeted"."""
    action = entry.get("action")
    zh = lang == "zh"
    n = entry.get("amount", 0)
    if action == "modify_cost":
        target = entry.get("target", "self")
        whose = {"self": ("己方", "your"), "opponent": ("对方", "the opponent's"),
                 "each_player": ("双方", "each player's")}.get(str(target), ("", ""))
        what = _filter_words(entry.get("filter"), lang)
        more = isinstance(n, int) and n >= 0
        if zh:
            return f"{whose[0]}的卡{what}费用{'增加' if more else '减少'}{abs(n) if isinstance(n, int) else n}"
        return f"{whose[1]} cards{what} cost {abs(n) if isinstance(n, int) else n} {'more' if more else 'less'}"
    target = str(entry.get("target") or "this")
    who = _STATIC_WHO[lang].get(target, target) + _filter_words(entry.get("filter"), lang)
    one = target in ("this", "self")
    if zh:
        return {"cannot_be_targeted": f"{who}不能成为效果的对象", "cannot_be_attacked": f"{who}不能被选为攻击对象",
                "cannot_be_blocked": f"{who}的攻击不能被阻挡", "cannot_attack": f"{who}不能攻击",
                "double_damage": f"{who}造成的伤害加倍", "reduce_damage": f"{who}受到的伤害减少{n}"}.get(str(action), "")
    return {"cannot_be_targeted": f"{who} cannot be targeted", "cannot_be_attacked": f"{who} cannot be attacked",
            "cannot_be_blocked": f"{who} cannot be blocked", "cannot_attack": f"{who} cannot attack",
            "double_damage": f"{who} {'deals' if one else 'deal'} double damage",
            "reduce_damage": f"{who} {'takes' if one else 'take'} {n} less damage"}.get(str(action), "")


_GAME: ContextVar[Any] = ContextVar("rules_text_game", default=None)
"""The game definition of the text being written, for its field and value labels. Only the filter
words need it, deep inside every clause writer, so it rides along in a context variable rather
than in the signature of each of them."""

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def _in_language(label: str, lang: str) -> str | None:
    """The part of a bilingual game.yaml label (``属性 Attribute``) in ``lang``: for ``zh`` the leading
    words holding Chinese, else ``None`` (the label has no Chinese to offer)."""
    if lang != "zh":
        return None
    words = label.split()
    lead = []
    for word in words:
        if not _CJK.search(word):
            break
        lead.append(word)
    return "".join(lead) or None


def _field_for(key: str, value: Any) -> Any:
    """The game's field named ``key`` (kinds share names: fusion's creature and magic ``subtype``),
    the one whose ``labels`` name ``value`` first; ``None`` without a game or such a field."""
    game = _GAME.get()
    if game is None:
        return None
    fields = [f for kind in game.kinds for f in game.fields_for(kind) if f.name == key]
    first = value[0] if isinstance(value, list) and value else value
    labelled = [f for f in fields if isinstance(f.spec.get("labels"), Mapping) and first in f.spec["labels"]]
    return (labelled or fields or [None])[0]


def _field_label(key: str, value: Any, lang: str) -> str | None:
    """The game's own label of filter key ``key`` (a card field, or ``kind``) in ``lang``, if any."""
    if key == "kind":
        return "种类" if lang == "zh" and _GAME.get() is not None else None
    fdef = _field_for(key, value)
    return _in_language(str(fdef.spec["label"]), lang) if fdef is not None and fdef.spec.get("label") else None


def _value_label(key: str, value: Any, lang: str, fdef: Any = None) -> str:
    """Value ``value`` of filter key ``key`` as the game labels it in ``lang`` (a kind's label, the
    field ``fdef``'s ``labels``), else as written."""
    game = _GAME.get()
    if game is not None and key == "kind" and str(value) in game.kinds:
        return _in_language(game.kinds[str(value)].label, lang) or str(value)
    labels = fdef.spec.get("labels") if fdef is not None else None
    if isinstance(labels, Mapping) and value in labels:
        return _in_language(str(labels[value]), lang) or str(value)
    return str(value)


@contextmanager
def _labels_of(game: Any) -> Iterator[None]:
    token = _GAME.set(game)
    try:
        yield
    finally:
        _GAME.reset(token)


def _n(value: Any) -> str:
    return "X" if value == "X" else str(value)


def _filter_words(flt: Any, lang: str) -> str:
    if not isinstance(flt, Mapping) or not flt:
        return ""
    parts = []
    for key, value in flt.items():
        if key == "other":
            continue
        name = ((_field_label(key, value, lang) if key not in _STAT_ZH else None)
                or (_STATE_ZH if lang == "zh" else {}).get(key)
                or (_STAT_ZH if lang == "zh" else _STAT_EN).get(key, key.replace("_", " ")))
        fdef = _field_for(key, value)
        if isinstance(value, Mapping):
            low, high = value.get("min"), value.get("max")
            if lang == "zh":
                parts.append(f"{name}{low}以上" if high is None else f"{name}{high}以下" if low is None
                             else f"{name}{low}至{high}")
            else:
                parts.append(f"{name} {low} or more" if high is None else f"{name} {high} or less"
                             if low is None else f"{name} {low} to {high}")
        elif isinstance(value, bool):
            parts.append((name if value else f"非{name}") if lang == "zh" else (name if value else f"not {name}"))
        elif isinstance(value, list):
            joined = ("或" if lang == "zh" else " or ").join(_value_label(key, v, lang, fdef) for v in value)
            parts.append(f"{name}为{joined}" if lang == "zh" else f"{name} {joined}")
        else:
            parts.append(f"{name}为{_value_label(key, value, lang, fdef)}" if lang == "zh" else f"{name} {value}")
    if not parts:
        return ""
    return "（" + "，".join(parts) + "）" if lang == "zh" else " with " + ", ".join(parts)


def _who(entry: Mapping[str, Any], lang: str) -> str:
    action = entry.get("action")
    target = entry.get("target") or DEFAULT_TARGET.get(str(action), "")
    if target == "self" and action in ("heal", "modify_stats", "destroy", "return_to_hand", "move", "add_poison"):
        target = "this"
    who = _WHO[lang].get(str(target), str(target))
    if target == "attacker" and entry.get("trigger") == "on_damaged":
        who = "造成伤害的生物" if lang == "zh" else "the creature that dealt it"
    other = isinstance(entry.get("filter"), Mapping) and entry["filter"].get("other") is True
    if entry.get("random") is True:
        count = entry.get("count", 1)
        if lang == "zh":
            who = f"随机{count}只" + ("敌方" if "enemy" in str(target) else "己方" if "own" in str(target) else "") + "生物"
        else:
            side = "enemy " if "enemy" in str(target) else "of your " if "own" in str(target) else ""
            who = (f"a random {side}creature" if count == 1 else f"{count} random {side}creatures").replace(
                "a random of your creature", "a random creature of yours")
    if other:
        who = ("其他" + who) if lang == "zh" else who.replace("an enemy", "another enemy").replace(
            "a creature", "another creature").replace("each of your", "each other of your")
    return who + _filter_words(entry.get("filter"), lang)


def _stats(entry: Mapping[str, Any], lang: str) -> str:
    raw = entry.get("stats")
    stats: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
    names = _STAT_ZH if lang == "zh" else _STAT_EN
    sep = "，" if lang == "zh" else " and "
    return sep.join(f"{names.get(k, k)}{v:+d}" if lang == "zh" else f"{v:+d} {names.get(k, k)}"
                    for k, v in stats.items() if isinstance(v, int))


def _cost(cost: Any, lang: str) -> str:
    if not isinstance(cost, Mapping) or not cost:
        return "启动：" if lang == "zh" else "Activate: "
    parts = []
    for key, value in cost.items():
        if key == "mana":
            parts.append(f"支付{_n(value)}点法力" if lang == "zh" else f"pay {_n(value)} mana")
        elif key == "tap" and value:
            parts.append("横置此卡" if lang == "zh" else "tap this card")
        elif key == "pay_life":
            parts.append(f"支付{value}点生命" if lang == "zh" else f"pay {value} life")
        elif key == "discard":
            parts.append(f"丢弃{value}张手牌" if lang == "zh" else f"discard {value} card{'s' if value != 1 else ''}")
        elif key == "sacrifice":
            n = value.get("count", 1) if isinstance(value, Mapping) else value
            parts.append(f"解放{n}只其他己方生物" if lang == "zh" else f"sacrifice {n} other creature{'s' if n != 1 else ''}")
        elif key == "exile_from_graveyard":
            parts.append(f"从墓地除外{value}张卡" if lang == "zh" else f"exile {value} card{'s' if value != 1 else ''} from your graveyard")
    if not parts:
        return "启动：" if lang == "zh" else "Activate: "
    text = ("，" if lang == "zh" else ", ").join(parts)
    return text + ("：" if lang == "zh" else ": ")


def _condition(cond: Any, lang: str) -> str:
    if not isinstance(cond, Mapping) or len(cond) != 1:
        return ""
    ((kind, value),) = cond.items()
    zh = lang == "zh"
    if kind == "previous":
        return "若如此做，" if zh else "if you do, "
    if kind == "summoned_this_turn":
        return "若此卡本回合登场，" if zh else "if this came onto the field this turn, "
    if not isinstance(value, Mapping):
        return ""
    low, high = value.get("min"), value.get("max")
    if low is None and high is None:
        return ""  # no bound yet (an error the checks report): no words rather than "None"
    bound_zh = f"{low}以上" if low is not None else f"{high}以下"
    bound_en = f"{low} or more" if low is not None else f"{high} or fewer"
    if kind == "count":
        zone, side = value.get("zone", "field"), value.get("side", "own")
        what = _filter_words(value.get("filter"), lang)
        if zh:
            return f"若{_SIDE_ZH.get(side, '')}{_ZONE['zh'].get(zone, zone)}的卡{what}有{bound_zh}张，"
        place = "you control" if zone == "field" and side == "own" else f"are in {_SIDE_EN.get(side, '')} {_ZONE['en'].get(zone, zone)}"
        return f"if {bound_en} cards{what} {place}, "
    if kind == "turn":
        return (f"若为第{bound_zh}回合，" if zh else f"if it is turn {low if low is not None else high} "
                f"or {'later' if low is not None else 'earlier'}, ")
    who_zh = {"own": "己方", "opponent": "对方", "each": "双方"}.get(value.get("side", "own"), "")
    who_en = {"own": "your", "opponent": "the opponent's", "each": "each player's"}.get(value.get("side", "own"), "")
    noun = {"life": ("生命值", "life"), "hand": ("手牌数", "hand size"), "damage_pile": ("伤害堆", "damage pile")}.get(
        kind, (kind, kind))
    bound_en = f"{low} or more" if low is not None else f"{high} or less"
    return f"若{who_zh}{noun[0]}在{bound_zh}，" if zh else f"if {who_en} {noun[1]} is {bound_en}, "


def _per(per: Any, lang: str) -> str:
    if not isinstance(per, Mapping):
        return ""
    zone, side = per.get("zone", "field"), per.get("side", "own")
    what = _filter_words(per.get("filter"), lang)
    if lang == "zh":
        return f"（{_SIDE_ZH.get(side, '')}{_ZONE['zh'].get(zone, zone)}每有一张卡{what}）"
    place = "you control" if zone == "field" and side == "own" else f"in {_SIDE_EN.get(side, '')} {_ZONE['en'].get(zone, zone)}"
    return f" for each card{what} {place}"


def _move(entry: Mapping[str, Any], lang: str) -> str:
    src, dst = entry.get("from", "field"), entry.get("to")
    zh = lang == "zh"
    if src == "field":
        who = _who(entry, lang)
        if zh:
            return {"exile": f"将{who}除外", "hand": f"将{who}返回持有者手牌", "graveyard": f"将{who}送入墓地",
                    "deck": f"将{who}洗入持有者卡组", "deck_top": f"将{who}放回卡组顶端",
                    "deck_bottom": f"将{who}放到卡组底部"}.get(str(dst), f"移动{who}")
        return {"exile": f"exile {who}", "hand": f"return {who} to its owner's hand",
                "graveyard": f"put {who} into its owner's graveyard", "deck": f"shuffle {who} into its owner's deck",
                "deck_top": f"put {who} on top of its owner's deck",
                "deck_bottom": f"put {who} under its owner's deck"}.get(str(dst), f"move {who}")
    count = entry.get("count", 1)
    side = entry.get("side", "own")
    what = _filter_words(entry.get("filter"), lang)
    how = entry.get("pick")
    if zh:
        place = _SIDE_ZH.get(side, "") + _ZONE["zh"].get(str(src), str(src))
        if src == "deck_top":
            place = _SIDE_ZH.get(side, "") + (f"卡组顶端{entry['look']}张卡中" if entry.get("look") else "卡组顶端")
        rnd = "随机" if how == "random" else ""
        dest_zh = '加入手牌' if dst == 'hand' else '特殊召唤' if dst == 'field' else '送入' + _ZONE['zh'].get(str(dst), str(dst))
        text = (f"从{place}选择{count}张卡{what}{dest_zh}" if how == "choose"
                else f"从{place}{rnd}将{count}张卡{what}{dest_zh}")
        if dst == "field" and entry.get("ready") is True:
            text += "，该生物本回合可以攻击"
        if src == "deck":
            text += "，之后洗切卡组"
        if entry.get("look"):
            text += "，其余放到卡组底部"
        return text
    cards = f"{count} card{'s' if count != 1 else ''}{what}"
    choice = " of your choice" if how == "choose" else ""
    whose = _SIDE_EN.get(side, "your")
    if src == "deck_top" and entry.get("look"):
        text = f"look at the top {entry['look']} cards of {whose} deck, put {cards} of them{choice}"
    elif src == "deck_top":
        text = f"put the top {cards} of {whose} deck"
    elif src == "deck":
        text = f"search {whose} deck for {cards}{choice} and put {'it' if count == 1 else 'them'}"
    elif src == "hand" and dst == "graveyard":
        text = f"{'the opponent discards' if side == 'opponent' else 'discard'} {cards}{choice}" + (" at random" if how == "random" else "")
        return text
    else:
        text = f"put {cards}{choice}{' at random' if how == 'random' else ''} from {whose} {_ZONE['en'].get(str(src), src)}"
    dest = {"hand": "into the hand", "field": "onto the field", "graveyard": "into the graveyard",
            "exile": "into exile", "deck": "into the deck", "deck_top": "on top of the deck",
            "deck_bottom": "under the deck", "damage_pile": "into the damage pile"}.get(str(dst), str(dst))
    text += f" {dest}"
    if dst == "field" and entry.get("ready") is True:
        text += "; it may attack this turn"
    if src == "deck":
        text += ", then shuffle"
    if entry.get("look"):
        text += " and the rest under the deck"
    return text


def _body(entry: Mapping[str, Any], lang: str) -> str:
    action = entry.get("action")
    if action not in ACTIONS:
        # A step still being written (an option row whose action is not picked yet) or a typo the
        # checker reports: no words, never an error (the live check sends half-built effects).
        return ""
    zh = lang == "zh"
    n = _n(entry.get("amount", 0))
    target = entry.get("target") or DEFAULT_TARGET.get(str(action), "")
    who = _who(entry, lang)
    if action == "draw":
        if target == "self":
            return f"抽{n}张卡" if zh else f"draw {n} card{'s' if n != '1' else ''}"
        return f"{who}抽{n}张卡" if zh else f"{who} draws {n} card{'s' if n != '1' else ''}"
    if action == "damage":
        return f"给予{who}{n}伤害" if zh else f"deal {n} damage to {who}"
    if action == "heal":
        return f"{who}回复{n}点伤害" if zh else f"remove {n} damage from {who}"
    if action == "gain_life":
        return (f"回复{n}点生命" if target == "self" else f"{who}回复{n}点生命") if zh else (
            f"gain {n} life" if target == "self" else f"{who} gains {n} life")
    if ACTIONS[str(action)].static:
        return _static(entry, lang)
    if action == "modify_stats":
        duration = entry.get("duration")
        lasting = "" if duration == "permanent" or entry.get("trigger") == "continuous" else (
            ("此卡在场期间" if zh else " while this is on the field") if duration == "while_on_field" else
            ("直到己方下回合开始" if zh else " until your next turn") if duration == "until_your_next_turn" else
            ("直到回合结束" if zh else " until end of turn"))
        if zh:
            return f"{who}{lasting}{_stats(entry, lang)}"
        verb = "gets" if not (str(target).endswith("s") and target not in ("this",)) or "each" in who else "get"
        return f"{who} {verb} {_stats(entry, lang)}{lasting}"
    if action == "destroy":
        return f"破坏{who}" if zh else f"destroy {who}"
    if action == "return_to_hand":
        return f"将{who}返回持有者手牌" if zh else f"return {who} to its owner's hand"
    if action == "negate":
        return "使其回应的发动或攻击无效" if zh else "negate the activation or attack it answers"
    if action == "add_poison":
        return f"给予{who}{n}个毒素指示物" if zh else f"put {n} poison counter{'s' if n != '1' else ''} on {who}"
    if action == "add_mana":
        return f"本回合获得{n}点法力" if zh else f"gain {n} mana this turn"
    if action == "move":
        return _move(entry, lang)
    if action == "choose":
        return _choose(entry, lang)
    if action == "arrange":
        return (f"查看卡组顶端{n}张卡，以任意顺序放回" if zh
                else f"look at the top {n} cards of your deck and put them back in any order")
    if action == "create_token":
        return _token(entry, target, lang)
    if action == "fusion_summon":
        what = _filter_words(entry.get("filter"), lang)
        if zh:
            return f"将融合素材从手牌或场上送入墓地，从额外卡组融合召唤1只生物{what}"
        return (f"send the materials of a creature{what} in your extra deck from your hand or field to the "
                "graveyard and fusion summon it")
    return ""


_COUNT_WORDS = {"en": {1: "one", 2: "two", 3: "three", 4: "four"}, "zh": {1: "一", 2: "两", 3: "三", 4: "四"}}


def _choose(entry: Mapping[str, Any], lang: str) -> str:
    """"choose one — A; or B" / "选择一项——A；或B": each option's steps joined with "then"."""
    options = entry.get("options")
    if not isinstance(options, Sequence) or isinstance(options, (str, bytes)):
        return ""
    zh = lang == "zh"
    texts = []
    for option in options:
        steps = option if isinstance(option, list) else [option]
        bodies = [_clause(step, lang) for step in steps if isinstance(step, Mapping)]
        texts.append(("，然后" if zh else ", then ").join(b for b in bodies if b))
    count = entry.get("count", 1)
    word = _COUNT_WORDS[lang].get(count, str(count)) if isinstance(count, int) else "1"
    if zh:
        return f"选择{word}项——" + "；".join(texts[:-1]) + "；或" + texts[-1]
    return f"choose {word} — " + "; ".join(texts[:-1]) + "; or " + texts[-1]


def _unless(entry: Mapping[str, Any], lang: str) -> str:
    unless = entry.get("unless")
    if not isinstance(unless, Mapping) or len(unless) != 1:
        return ""
    ((kind, n),) = unless.items()
    target = entry.get("target") or DEFAULT_TARGET.get(str(entry.get("action")), "")
    player = target in ("opponent", "any_player", "each_player")
    if lang == "zh":
        who = "该玩家" if player else "其控制者"
        pay = {"pay_life": f"支付{n}点生命", "mana": f"支付{n}点法力", "discard": f"丢弃{n}张手牌"}.get(str(kind), "")
        return f"，除非{who}{pay}" if pay else ""
    who = "that player" if player else "its controller"
    plural = "s" if n != 1 else ""
    pay = {"pay_life": f"pays {n} life", "mana": f"pays {n} mana",
           "discard": f"discards {n} card{plural}"}.get(str(kind), "")
    return f" unless {who} {pay}" if pay else ""


def _clause(entry: Mapping[str, Any], lang: str) -> str:
    """One entry's words without its trigger: condition, action, "for each", "unless"."""
    body = _body(entry, lang)
    if not body:
        return ""
    return _condition(entry.get("if"), lang) + body + _per(entry.get("per"), lang) + _unless(entry, lang)


def _token(entry: Mapping[str, Any], target: Any, lang: str) -> str:
    raw = entry.get("token")
    token: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
    name = str(token.get("name", "衍生物" if lang == "zh" else "token"))
    stats = "/".join(str(v) for k, v in token.items() if k in _STAT_EN and isinstance(v, int))
    count = entry.get("count", 1)
    if lang == "zh":
        who = {"opponent": "对手", "each_player": "双方各"}.get(str(target), "")
        return f"{who}特殊召唤{count}只{stats}的" + ("衍生物" if name == "衍生物" else f"「{name}」衍生物")
    who = {"opponent": "the opponent creates", "each_player": "each player creates"}.get(str(target), "create")
    noun = "token" if count == 1 else "tokens"
    return f"{who} {count} {stats} {name} {noun}".replace("  ", " ")


_PLAYED = {"creature": ("When this is summoned, ", "此卡召唤时，"),
           "monster": ("When this is first assigned, ", "此卡首次派出时，")}
_CAST = frozenset({"spell", "trap", "magic", "item"})
"""Kinds whose on_play effect is the card itself: no "when" words."""


def _head(entry: Mapping[str, Any], lang: str, kind: str | None) -> str:
    trigger = str(entry.get("trigger"))
    if trigger == "activated":
        head = _cost(entry.get("cost"), lang)
    elif trigger == "on_play" and kind in _CAST:
        head = ""
    elif trigger == "on_play" and kind in _PLAYED:
        head = _PLAYED[kind][lang == "zh"]
    else:
        head = _WHEN[lang][trigger] or _trigger_head(entry, lang)
    return head


def _sentence(head: str, bodies: list[str], lang: str) -> str:
    if lang == "zh":
        return head + "，然后".join(bodies) + "。"
    text = head + ", then ".join(bodies)
    return text[:1].upper() + text[1:] + "."


def entry_text(entry: Mapping[str, Any], lang: str = "en", kind: str | None = None, game: Any = None) -> str:
    """One sentence for one effect entry ("" when the entry breaks the vocabulary); see ``rules_text``."""
    return rules_text([entry], lang, kind, game)


def rules_text(entries: object, lang: str = "en", kind: str | None = None, game: Any = None) -> str:
    """The rules text of a card's ``effects`` list: one sentence per trigger, entries of one
    trigger in a row joined with "then". ``kind``: the card's kind (a spell's on_play effect is
    the spell itself; a creature's says "When this is summoned"). ``game``: the card's game
    definition, whose labels name filter fields and values in Chinese text (``属性为炎`` rather than
    ``attribute为fire``). Raises ValueError for a language other than en and zh."""
    if lang not in _WHEN:
        raise ValueError(f"language {lang!r}; allowed: en, zh")
    if not isinstance(entries, Sequence) or isinstance(entries, (str, bytes)):
        return ""
    with _labels_of(game):
        return _rules_text(entries, lang, kind)


def _rules_text(entries: Sequence[Any], lang: str, kind: str | None) -> str:
    sentences: list[str] = []
    head: str | None = None
    bodies: list[str] = []
    for entry in entries:
        if not isinstance(entry, Mapping) or entry.get("trigger") not in TRIGGERS or entry.get("action") not in ACTIONS:
            continue
        body = _clause(entry, lang)
        if not body:
            continue
        this_head = _head(entry, lang, kind)
        if bodies and this_head == head and entry.get("trigger") != "activated":
            bodies.append(body)
            continue
        if bodies:
            sentences.append(_sentence(head or "", bodies, lang))
        head, bodies = this_head, [body]
    if bodies:
        sentences.append(_sentence(head or "", bodies, lang))
    return ("" if lang == "zh" else " ").join(sentences)


_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
          "twice": 2}
_CIRCLED = {chr(0x2460 + i): i + 1 for i in range(20)}  # ① … ⑳: fusion's mana symbols


def numbers(text: str) -> set[int]:
    """The numbers 2 and above a text names: digits, ① …, and English number words."""
    found = {int(n) for n in re.findall(r"\d+", text)}
    found |= {v for ch, v in _CIRCLED.items() if ch in text}
    found |= {v for w, v in _WORDS.items() if re.search(rf"\b{w}\b", text, re.I)}
    return {n for n in found if n >= 2}


def missing_numbers(card_text: str, entries: object, lang: str, kind: str | None = None,
                    game: Any = None) -> tuple[set[int], str]:
    """Numbers the effects use that the card's text does not mention, and the generated text."""
    generated = rules_text(entries, lang, kind, game)
    if not card_text.strip() or not generated:
        return set(), generated
    return numbers(generated) - numbers(card_text), generated

"""The MUSH exports pasted into real PennMUSH 1.8.8 and TinyMUX 2.14 servers (issue 12).

Every export of the three bundled games and of a stress set is pasted line by line, as a client
would, and every attribute is read back and compared with the card data: the deck object's values
through ``u()`` (the one evaluation softcode gives them) and the base64 originals through ``get()``;
the ``dvorak-mush`` lines through a small stand-in for the Dvorak Engine whose ``$loadcard``
stores ``%0 %1 %2`` with ``@set`` from its action list, which is where the server evaluates them.
"""

from __future__ import annotations

import re
import uuid

import pytest

from tests.services.exports import checkers
from tests.services.exports.mush_servers import SERVERS, missing_reason, reply_problems, running
from workbench.domain.gamedef import parse_definition
from workbench.services.exports import dvorak, mush
from workbench.services.exports.common import sort_cards

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(missing_reason() is not None, reason=missing_reason() or ""),
]

STRESS_RAW = {
    "id": "stress",
    "name": "Stress = Test / [set(me,PWNED:9)] #$",
    "fields": {
        "name": {"type": "string", "required": True, "label": "Name"},
        "text": {"type": "text", "label": "Text"},
        "flavor": {"type": "text", "label": "Flavor"},
        "creator": {"type": "string", "label": "Creator"},
        "tags": {"type": "list", "items": {"type": "string"}, "label": "Tags"},
    },
    "kinds": {
        "thing": {"label": "Thing", "fields": {"power": {"type": "integer", "label": "Power"}}},
        "action": {"label": "Action"},
    },
    "zones": {"main": {"label": "Main", "play": True}},
}

STRESS_TEXTS = [
    "% ; [ ] \\ { } ( ) , ^ $ | #",
    "##",
    "#@",
    "#$",
    "a ## b #@ c #$ d \\## e",
    "%r and %b literals, %t %% %0 %# %n \\%r",
    "runs  of   spaces\tand\t\ttabs \t mixed",
    "  leading and trailing  ",
    "line one\nline two\r\nline three\rline four\n\nafter a blank line",
    "[set(me,PWNED:1)] [pemit(me,PWNED)]",
    "set(me,PWNED:2) at the start",
    "{brace} and {a,b} and }{ unbalanced ( [",
    "融合决斗 暗夜 🐉 👩‍👩‍👧 café ß ü — ×",
    "trailing backslash \\",
    "",
    ("Long [text] 100% ; {b} ## x  y\t| " * 200)[:5000],
    ("融合决斗🐉暗" * 900)[:5000],
]
STRESS_NAMES = ["A = B / C", "x/y=z", "[set(me,PWNED:3)]", "add(1,2)", "融合 🐉", "  spaced  name  ",
                "Name # ## #$", "=start", "/slash", "semi; comma, (paren)"]
DECK_NAME = "set(me,PWNED:4) [set(me,PWNED:5)] %# = / deck"


@pytest.fixture(scope="module")
def stress():
    definition = parse_definition(STRESS_RAW)
    cards = []
    for i, text in enumerate(STRESS_TEXTS):
        cards.append({
            "id": f"stress-{i:02d}",
            "name": f"{STRESS_NAMES[i % len(STRESS_NAMES)]} {i}",
            "kind": "thing" if i % 2 else "action",
            "text": text,
            "flavor": STRESS_TEXTS[i % 13],
            "creator": "Zoë 🂡" if i % 3 else "",
            "tags": ["a b", "ü"] if i % 2 else [],
            **({"power": i} if i % 2 else {}),
        })
    return definition, cards


@pytest.fixture(scope="module", params=SERVERS)
def server(request):
    with running(request.param) as srv:
        yield srv


@pytest.fixture
def session(server):
    with server.session() as s:
        yield s


def _game(bundled, stress, game):
    if game == "stress":
        return stress
    definition, cards, _ = bundled[game]
    return definition, cards


def _object_of(data: bytes) -> str:
    found = [m.group(1) for line in data.decode().splitlines() if (m := checkers.FIND_OR_CREATE.fullmatch(line))]
    assert len(found) == 1, "one find-or-create line"
    return found[0]


def _check_deck_object(s, server, definition, chosen, data, title=None) -> str:
    """Compare what the server stored with the cards; return the object's dbref."""
    errors, attrs = checkers.check_mush(data)
    assert errors == []
    dbref = s.eval(f"locate(me,{_object_of(data)},Tin)")
    assert re.fullmatch(r"#\d+", dbref), f"deck object not found (locate gave {dbref})"
    stored = set(s.eval(f"lattr({dbref})").upper().split()) - {"CREATED", "MODIFIED"}
    assert stored == set(attrs)
    assert s.eval(f"get({dbref}/CARD_COUNT)") == str(len(chosen))
    assert mush.parse_value(s.eval(f"get({dbref}/CARD_FIELDS)")) == mush.field_names(definition)
    for key in [k for k in attrs if k.endswith("_PARTS")] + ["WORKBENCH_EXPORT"]:
        assert s.eval(f"get({dbref}/{key})") == attrs[key], key

    def evaluated(key: str) -> str:
        parts = int(attrs.get(f"{key}_PARTS", "1"))
        return "".join(s.eval(f"u({dbref}/{k})") for k in [key] + [f"{key}_{p}" for p in range(2, parts + 1)])

    def original(key: str) -> list[str]:
        parts = int(attrs.get(f"{key}_UTF8_PARTS", "1"))
        keys = [f"{key}_UTF8"] + [f"{key}_UTF8_{p}" for p in range(2, parts + 1)]
        return mush.parse_value(mush.decode_utf8_value("".join(s.eval(f"get({dbref}/{k})") for k in keys)))

    records = [("DECK_TITLE", [title or definition.name])]
    records += [(f"CARD_{n:03d}", mush.card_record(definition, card)) for n, card in enumerate(chosen, start=1)]
    for key, texts in records:
        exact = [mush.normalise(t) for t in texts]
        shown = [mush.server_text(t, server.kind, server.kind == "pennmush") for t in exact]
        assert evaluated(key) == "|".join(shown), key
        if shown != exact:
            assert original(key) == exact, key
        else:
            assert f"{key}_UTF8" not in attrs
    return dbref


@pytest.mark.parametrize("game", ["warzone", "seth", "fusion", "stress"])
def test_mush_export_survives_the_server(session, server, bundled, stress, game):
    """Every card's fields come back exactly (folded to ASCII on PennMUSH, with the exact text in
    the _UTF8 attributes), and nothing in the card text was run."""
    definition, cards = _game(bundled, stress, game)
    bundle = mush.export_deck_object(definition, cards, server=server.kind)
    data = bundle.files[bundle.main]
    if server.kind == "pennmush":
        data.decode("ascii")  # PennMUSH would turn anything else into ? or mojibake
    assert reply_problems(session.paste(data.decode().splitlines())) == []
    _check_deck_object(session, server, definition, sort_cards(cards), data)
    assert session.eval("get(me/PWNED)") == ""


@pytest.mark.parametrize("who", ["wizard", "designer"])
def test_a_second_paste_updates_the_first_object(server, stress, who):
    """Pasting an edited export again must update the same object, not make a second one, also for
    a player without wizard powers and after the object was dropped in the room; an object whose
    name merely starts with the deck object's is left alone."""
    definition, cards = stress
    deck = {"id": f"again-{uuid.uuid4().hex[:6]}", "name": f"{DECK_NAME} {uuid.uuid4().hex[:6]}",
            "zones": {"main": {c["id"]: 1 + i % 2 for i, c in enumerate(cards[:12])}}}
    first = mush.export_deck_object(definition, cards, deck, server=server.kind)
    obj = _object_of(first.files[first.main])
    with server.session(server.new_player() if who == "designer" else None) as s:
        assert reply_problems(s.paste([f"@create {obj} Extra"])) == []
        decoy = s.eval(f"num({obj} Extra)")
        assert reply_problems(s.paste(first.files[first.main].decode().splitlines())) == []
        chosen = [c for c in cards[:12] for _ in range(1 + cards.index(c) % 2)]
        dbref = _check_deck_object(s, server, definition, chosen, first.files[first.main], deck["name"])
        assert dbref != decoy and s.eval(f"lattr({decoy})").upper().split() in ([], ["CREATED", "MODIFIED"])
        assert reply_problems(s.paste([f"drop {obj}"])) == []

        edited = [dict(c, text=f"edited {c['text']}") if c["id"] == "stress-01" else c for c in cards]
        deck["zones"]["main"].pop("stress-02")
        second = mush.export_deck_object(definition, edited, deck, server=server.kind)
        results = s.paste(second.files[second.main].decode().splitlines())
        assert reply_problems(results) == []
        assert any(r.reply == f"Updating {obj}." for r in results)
        chosen = [c for c in edited[:12] if c["id"] != "stress-02" for _ in range(1 + edited.index(c) % 2)]
        assert _check_deck_object(s, server, definition, chosen, second.files[second.main], deck["name"]) == dbref
        assert s.eval("get(me/PWNED)") == ""


def test_a_client_that_does_not_send_utf8_is_told_at_once(server, stress):
    """TinyMUX reads a client that did not negotiate UTF-8 as Latin-1 (mojibake): the file's first
    command says so before anything is stored. (A PennMUSH file is pure ASCII, so there the
    client's character set does not matter and the file has no such line.)"""
    definition, cards = stress
    bundle = mush.export_deck_object(definition, cards[:2], server=server.kind)
    if server.kind == "pennmush":
        bundle.files[bundle.main].decode("ascii")
        assert mush.UTF8_CHECK not in bundle.files[bundle.main].decode()
        return
    first_command = bundle.files[bundle.main].split(b"\n")[1]
    with server.session(utf8=False) as s:
        assert "does not send UTF-8" in s.paste([first_command])[0].reply
    with server.session() as s:
        assert s.paste([first_command])[0].reply == "Your client sends UTF-8: good."


@pytest.fixture(scope="module")
def engine(server):
    """A stand-in for the Dvorak MUSH Engine, dropped in the room: ``cleardeck`` and
    ``loadcard <title>/<type>/<text>``, each card kept as C_T<n>, C_Y<n>, C_X<n>."""
    name = f"Engine {uuid.uuid4().hex[:8]}"
    with server.session() as s:
        lines = [
            f"@create {name}", f"drop {name}", f"@set {name}=!NO_COMMAND", f"&COUNT {name}=0",
            f"&CMD_CLEAR {name}=$cleardeck:@wipe me/C_*;&COUNT me=0",
            f"&CMD_LOAD {name}=$loadcard */*/*:&COUNT me=[add(v(COUNT),1)];@set me=C_T[v(COUNT)]:%0;"
            "@set me=C_Y[v(COUNT)]:%1;@set me=C_X[v(COUNT)]:%2",
        ]
        results = s.paste(lines)
        assert [r.status for r in results] == ["ok"] * len(lines), results
        dbref = s.eval(f"locate(me,{name},Tn)")
    return dbref


@pytest.mark.parametrize("game", ["warzone", "seth", "fusion", "stress"])
def test_dvorak_mush_survives_the_server(session, server, engine, bundled, stress, game):
    """Each card's title, type and text as the Engine stores them, and the closing @emit shows the
    deck name as written (never run)."""
    definition, cards = _game(bundled, stress, game)
    fold = server.kind == "pennmush"
    title = DECK_NAME if game == "stress" else None
    bundle = dvorak.mush(definition, cards, title, server=server.kind)
    lines = bundle.files[bundle.main].decode().splitlines()
    assert max(len(line.encode()) for line in lines) <= dvorak.MUSH_MAX_LINE_BYTES
    results = session.paste(lines)
    assert reply_problems(results[:-1]) == []
    name = title or definition.name
    assert results[-1].reply == f"{mush.server_text(name, server.kind, fold)} loaded: {len(cards)} cards."
    assert session.wait_for(f"get({engine}/COUNT)", str(len(cards))) == str(len(cards))
    cut = " ".join(n for n in bundle.notes if "was cut" in n)
    for n, card in enumerate(sort_cards(cards), start=1):
        expect_title = dvorak.loadcard_title(card)
        text = dvorak.card_text(definition, card)
        if card.get("flavor"):
            text = f'{text} ("{card["flavor"]}")' if text else f'("{card["flavor"]}")'
        expect_title = mush.server_text(expect_title, server.kind, fold)
        expect_text = mush.server_text(text, server.kind, fold)
        assert session.eval(f"get({engine}/C_T{n})") == expect_title
        assert session.eval(f"get({engine}/C_Y{n})") == dvorak.type_letter(card)
        stored = session.eval(f"get({engine}/C_X{n})")
        if stored != expect_text:
            assert card["id"] in cut and stored.endswith(dvorak.CUT_MARK), card["id"]
            assert expect_text.startswith(stored[: -len(dvorak.CUT_MARK)]), card["id"]
    assert session.eval("get(me/PWNED)") == ""

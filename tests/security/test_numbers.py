"""Issue 13 item 14: non-finite numbers are refused.

``power: 1e400`` was read by Python's JSON as infinity, saved as ``.inf`` and sent back to the
editor as ``Infinity``, which is not JSON, so the editor broke. Every way in refuses them now,
naming the field, and a hand-typed ``.inf`` in a card file makes that file unreadable (listed
with its reason) instead of breaking the JSON of every page that lists it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

GAME = "seth"
CARD = "glass-wasp"


def strict_json(text: str):  # type: ignore[no-untyped-def]
    def refuse(name: str):  # type: ignore[no-untyped-def]
        raise ValueError(f"{name} is not JSON")

    return json.loads(text, parse_constant=refuse)


@pytest.mark.parametrize("power", ["1e400", "-1e400", "Infinity", "-Infinity", "NaN"])
def test_creating_a_card_with_a_non_finite_number_is_refused(client, data_dir: Path, power: str) -> None:
    body = '{"name": "Big Wasp", "kind": "monster", "power": %s, "damage": 1, "health": 1}' % power
    answer = client.post(f"/api/games/{GAME}/cards", data=body, content_type="application/json",
                         headers={"X-CSRF-Token": client.get("/api/csrf").get_json()["csrf_token"]})
    assert answer.status_code == 400
    assert "power" in answer.get_json()["error"] and "finite" in answer.get_json()["error"]
    assert not (data_dir / GAME / "cards" / "big-wasp.yaml").exists()


def test_nested_values_validation_and_decks_refuse_them_too(client) -> None:
    token = client.get("/api/csrf").get_json()["csrf_token"]
    headers = {"X-CSRF-Token": token}
    card = client.get(f"/api/games/{GAME}/cards/{CARD}")
    body = json.dumps(dict(card.get_json()["card"])).replace('"amount": 1', '"amount": 1e400')
    assert "1e400" in body
    put = client.put(f"/api/games/{GAME}/cards/{CARD}", data=body, content_type="application/json",
                     headers={**headers, "If-Match": card.headers["ETag"].strip('"')})
    assert put.status_code == 400 and "effects[0].amount" in put.get_json()["error"]
    check = client.post(f"/api/games/{GAME}/validate", data='{"card": {"name": "x", "kind": "monster", "power": 1e400}}',
                        content_type="application/json", headers=headers)
    assert check.status_code == 400
    deck = client.post(f"/api/games/{GAME}/decks", data='{"name": "Inf", "zones": {"team": {"glass-wasp": 1e400}}}',
                       content_type="application/json", headers=headers)
    assert deck.status_code == 400 and "finite" in deck.get_json()["error"]


def test_the_repository_refuses_them_for_every_caller(repo) -> None:
    from workbench.domain.errors import DataError

    stored = repo.get_card(GAME, CARD)
    with pytest.raises(DataError, match="power is not a finite number"):
        repo.update_card(GAME, CARD, dict(stored.data, power=float("inf")), stored.version)
    with pytest.raises(DataError, match="finite"):
        repo.create_card(GAME, {"name": "Nan", "kind": "monster", "health": float("nan")})


def test_a_hand_typed_inf_makes_the_file_unreadable_not_the_json_invalid(client, data_dir: Path) -> None:
    path = data_dir / GAME / "cards" / f"{CARD}.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("power: 4", "power: .inf"), encoding="utf-8")
    listing = client.get(f"/api/games/{GAME}/cards")
    data = strict_json(listing.get_data(as_text=True))  # valid JSON: no Infinity anywhere
    assert [u["id"] for u in data["unreadable"]] == [CARD] and "finite" in data["unreadable"][0]["error"]
    one = client.get(f"/api/games/{GAME}/cards/{CARD}")
    assert one.status_code == 400 and "finite" in strict_json(one.get_data(as_text=True))["error"]
    assert client.get(f"/games/{GAME}/cards").status_code == 200

"""A goldfish run plays its games in the request, so only a few play at once on the server."""

from __future__ import annotations

import threading

from tests.web.pages_helpers import page_token
from workbench.web import goldfish_slots

URL = "/games/fusion/playtest/goldfish"


def _form(client) -> dict[str, str]:
    client.set_cookie("workbench_lang", "en")
    return {"csrf_token": page_token(client, URL), "deck": "lie-yan-ji-feng", "games": "3", "seed": "1"}


def test_a_goldfish_run_past_the_server_limit_is_refused_at_once_with_retry_after(client, monkeypatch):
    form = _form(client)
    monkeypatch.setattr(goldfish_slots, "_slots", threading.BoundedSemaphore(1))
    with goldfish_slots.goldfish_slot():  # another client's goldfish run holds the only slot
        busy = client.post(URL, data=form)
    body = busy.get_data(as_text=True)
    assert busy.status_code == 429 and busy.headers["Retry-After"] == str(goldfish_slots.RETRY_AFTER_SECONDS)
    assert "the server is playing as many goldfish runs as it plays at once (1 per server process)" in body
    assert 'id="goldfish-form"' in body and 'id="goldfish-speed"' not in body  # the form, to send again
    again = client.post(URL, data=form)
    assert again.status_code == 200 and 'id="goldfish-speed"' in again.get_data(as_text=True)


def test_a_slot_is_given_back_when_the_run_fails(client, monkeypatch):
    from workbench.services.playtest import goldfish
    from workbench.services.playtest.runner import PlaytestError

    form = _form(client)
    monkeypatch.setattr(goldfish_slots, "_slots", threading.BoundedSemaphore(1))
    real = goldfish.development

    def failing(*args, **kwargs):
        raise PlaytestError("the engine gave up")

    monkeypatch.setattr(goldfish, "development", failing)
    failed = client.post(URL, data=form)
    assert failed.status_code == 400 and "the engine gave up" in failed.get_data(as_text=True)
    monkeypatch.setattr(goldfish, "development", real)
    assert client.post(URL, data=form).status_code == 200


def test_the_refusal_reads_in_chinese_too(client, monkeypatch):
    form = _form(client)
    client.set_cookie("workbench_lang", "zh")
    monkeypatch.setattr(goldfish_slots, "_slots", threading.BoundedSemaphore(1))
    with goldfish_slots.goldfish_slot():
        busy = client.post(URL, data=form)
    assert busy.status_code == 429 and "金鱼测试已达上限" in busy.get_data(as_text=True)

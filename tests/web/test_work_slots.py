"""The print form's PDF, an export and an art upload run inside their request: at most
``WORK_SLOTS`` at once per server process, one past that answered 429 with ``Retry-After`` and the
limit named at once (the form kept), so one client cannot take every server thread."""

from __future__ import annotations

import io
import re
import threading

import pytest
from PIL import Image

from tests.web.pages_helpers import page_token
from workbench.web import work_slots


@pytest.fixture
def one_slot_taken(monkeypatch):  # type: ignore[no-untyped-def]
    """The server has one work slot, and another client's request holds it."""
    monkeypatch.setattr(work_slots, "_slots", threading.BoundedSemaphore(1))
    with work_slots.work_slot():
        yield


def _picture() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (400, 300), (10, 120, 200)).save(out, "PNG")
    return out.getvalue()


def _busy(answer) -> str:  # type: ignore[no-untyped-def]
    assert answer.status_code == 429, answer.status_code
    assert answer.headers["Retry-After"] == str(work_slots.RETRY_AFTER_SECONDS)
    return answer.get_data(as_text=True)


def test_a_pdf_past_the_limit_is_refused_at_once_naming_it(client, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    token = page_token(client, "/games/warzone/print")
    form = {"what": "deck", "deck": "iron-bastion", "backs": "none", "csrf_token": token}
    monkeypatch.setattr(work_slots, "_slots", threading.BoundedSemaphore(1))
    with work_slots.work_slot():
        body = _busy(client.post("/games/warzone/print.pdf", data=form))
    assert "PDFs, exports or pictures at once" in body
    answer = client.post("/games/warzone/print.pdf", data=form)
    assert answer.status_code == 200 and answer.data.startswith(b"%PDF")


def test_an_export_past_the_limit_comes_back_as_the_form_with_the_limit(client, one_slot_taken) -> None:  # type: ignore[no-untyped-def]
    token = page_token(client, "/games/seth/export")
    body = _busy(client.post("/games/seth/export", data={"csrf_token": token, "format": "csv"}))
    assert "PDFs, exports or pictures at once" in body
    assert re.search(r'value="csv"\s+checked', body)  # the choice is kept


def test_an_art_upload_past_the_limit_changes_nothing(client, repo, data_dir, one_slot_taken) -> None:  # type: ignore[no-untyped-def]
    token = page_token(client, "/games/warzone/print")
    before = repo.get_card("warzone", "ashcloud-catapult")
    answer = client.post("/games/warzone/cards/ashcloud-catapult/art", headers={"Accept": "application/json"},
                         data={"art": (io.BytesIO(_picture()), "photo.png"), "csrf_token": token},
                         content_type="multipart/form-data")
    _busy(answer)
    assert "PDFs, exports or pictures at once" in answer.get_json()["error"]
    assert repo.get_card("warzone", "ashcloud-catapult").version == before.version
    assert not (data_dir / "warzone" / "art" / "ashcloud-catapult.png").exists()


def test_the_chinese_page_names_the_limit_in_chinese(client, one_slot_taken) -> None:  # type: ignore[no-untyped-def]
    token = page_token(client, "/games/warzone/print")
    answer = client.post("/games/warzone/print.pdf", headers={"Accept-Language": "zh-CN"},
                         data={"what": "deck", "deck": "iron-bastion", "csrf_token": token})
    assert "服务器已在同时制作 2 个 PDF" in _busy(answer)

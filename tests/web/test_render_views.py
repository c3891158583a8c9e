"""Render pages: face PNG with ETag, live preview, art upload, print form, PDF downloads, jobs."""

from __future__ import annotations

import io
import json
import os
import time

from PIL import Image
from pypdf import PdfReader

from .pages_helpers import page_token


def test_face_png_is_cached_and_revalidated(client) -> None:  # type: ignore[no-untyped-def]
    first = client.get("/games/warzone/cards/ashcloud-catapult/face.png")
    assert first.status_code == 200 and first.mimetype == "image/png"
    assert Image.open(io.BytesIO(first.data)).size == (750, 1050)
    etag = first.headers["ETag"]
    again = client.get("/games/warzone/cards/ashcloud-catapult/face.png", headers={"If-None-Match": etag})
    assert again.status_code == 304 and not again.data
    assert client.get("/games/warzone/cards/no-such-card/face.png").status_code == 404


def test_face_changes_when_the_card_changes(client, repo) -> None:  # type: ignore[no-untyped-def]
    etag = client.get("/games/seth/cards/bog-lurker/face.png").headers["ETag"]
    stored = repo.get_card("seth", "bog-lurker")
    repo.update_card("seth", "bog-lurker", dict(stored.data, text="Changed."), stored.version)
    response = client.get("/games/seth/cards/bog-lurker/face.png", headers={"If-None-Match": etag})
    assert response.status_code == 200 and response.headers["ETag"] != etag


def test_preview_renders_an_unsaved_card(client, repo) -> None:  # type: ignore[no-untyped-def]
    token = page_token(client, "/games/fusion/print")
    before = {c.id for c in repo.list_cards("fusion")}
    response = client.post("/games/fusion/preview.png", headers={"X-CSRF-Token": token},
                           json={"card": {"name": "预览", "kind": "magic", "subtype": "quick", "text": "抽一张卡。"}})
    assert response.status_code == 200 and response.mimetype == "image/png"
    assert Image.open(io.BytesIO(response.data)).size == (750, 1050)
    assert {c.id for c in repo.list_cards("fusion")} == before  # nothing saved
    bad = client.post("/games/fusion/preview.png", headers={"X-CSRF-Token": token}, json={"name": "no wrapper"})
    assert bad.status_code == 400 and "card" in bad.json["error"]


def test_preview_needs_the_csrf_token(client) -> None:  # type: ignore[no-untyped-def]
    page_token(client, "/games/fusion/print")
    response = client.post("/games/fusion/preview.png", json={"card": {"name": "x", "kind": "magic"}},
                           headers={"Origin": "http://localhost"})
    assert response.status_code == 403


def test_print_form_lists_cards_decks_and_options(client) -> None:  # type: ignore[no-untyped-def]
    body = client.get("/games/warzone/print?deck=iron-bastion").get_data(as_text=True)
    for needle in ('name="paper"', 'name="card_size"', 'name="bleed"', 'name="backs"', 'name="crop_marks"',
                   'name="back_offset_x"', 'name="calibration"', 'value="iron-bastion" selected',
                   'js/render.js', "100 %"):
        assert needle in body
    assert "<script>" not in body  # no inline scripts under the CSP


def test_pdf_download_of_a_deck(client, repo) -> None:  # type: ignore[no-untyped-def]
    token = page_token(client, "/games/warzone/print")
    response = client.post("/games/warzone/print.pdf", data={"what": "deck", "deck": "iron-bastion", "paper": "letter",
                                                             "backs": "none", "csrf_token": token})
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    assert "attachment" in response.headers["Content-Disposition"]
    reader = PdfReader(io.BytesIO(response.data))
    copies = sum(len(c) for c in repo.deck_cards("warzone", "iron-bastion").values())
    assert len(reader.pages) == -(-copies // 9)
    assert float(reader.pages[0].mediabox.height) == 792.0


def test_pdf_of_a_selection_and_errors(client) -> None:  # type: ignore[no-untyped-def]
    token = page_token(client, "/games/seth/print")

    def post(query: str):  # type: ignore[no-untyped-def]
        return client.post("/games/seth/print.pdf?" + query, data={"csrf_token": token})

    ok = post("what=cards&card=bog-lurker&card=plague-herald&bleed=3")
    assert ok.status_code == 200
    assert "Bog Lurker" in PdfReader(io.BytesIO(ok.data)).pages[0].extract_text()
    assert post("what=cards&cards=nope").status_code == 404
    assert post("what=all&card_size=900x900mm").status_code == 400
    assert post("what=all&bleed=abc").status_code == 400
    for offset in ("nan", "-nan", "inf"):  # float() reads them; a PDF would carry "nan"
        refused = post(f"what=all&back_offset_x={offset}")
        assert refused.status_code == 400 and b"millimetres" in refused.data, offset
    assert post("what=cards&card=bog-lurker&card_size=20x20mm").status_code == 200


def test_a_refused_pdf_shows_the_print_form_again_with_every_value_kept(client) -> None:  # type: ignore[no-untyped-def]
    """Without JavaScript the form posts to print.pdf: a refusal is the form again, not an error
    page whose only link leads away from the options the designer chose."""
    token = page_token(client, "/games/warzone/print")
    options = {"paper": "letter", "card_size": "custom", "custom_w": "61", "custom_h": "89", "bleed": "3",
               "backs": "short", "back_offset_x": "1.5", "back_offset_y": "-2", "crop_marks": ["0"],
               "calibration": "1", "csrf_token": token}
    no_card = client.post("/games/warzone/print.pdf", data=dict(options, what="cards"))
    body = no_card.get_data(as_text=True)
    assert no_card.status_code == 400 and 'id="print-form"' in body
    assert "choose at least one card to print" in body and "Back to the games" not in body
    assert 'id="what-cards" name="what" value="cards" checked' in body
    assert '<option value="letter" selected>' in body and '<option value="custom" selected>' in body
    assert 'name="custom_w" type="number" min="20" max="300" step="0.1" size="5" value="61"' in body
    assert 'value="89"' in body and 'name="bleed" type="number" min="0" max="10" step="0.025" value="3"' in body
    assert '<option value="short" selected>' in body
    assert 'value="1.5"' in body and 'value="-2"' in body
    assert 'name="crop_marks" value="1" >' in body  # cleared stays cleared
    assert 'name="calibration" value="1" checked' in body

    chosen = dict(options, what="cards", card=["ashcloud-catapult"], bleed="20")
    too_much_bleed = client.post("/games/warzone/print.pdf", data=chosen).get_data(as_text=True)
    assert "bleed 20 mm is outside 0-10 mm" in too_much_bleed
    assert 'id="card-ashcloud-catapult" name="card" value="ashcloud-catapult" checked' in too_much_bleed
    assert 'step="0.025" value="20"' in too_much_bleed

    a3 = client.post("/games/warzone/print.pdf", data=dict(options, what="all", paper="a3"))
    assert a3.status_code == 400 and '<option value="a3" selected>a3</option>' in a3.get_data(as_text=True)
    chinese = client.post("/games/warzone/print.pdf", data=dict(options, what="cards"),
                          headers={"Accept-Language": "zh-CN"}).get_data(as_text=True)
    assert 'id="print-form"' in chinese and "choose at least one card" not in chinese


def test_background_job_reports_progress_then_serves_the_pdf(client) -> None:  # type: ignore[no-untyped-def]
    token = page_token(client, "/games/seth/print")
    started = client.post("/games/seth/print/jobs", data={"what": "all", "paper": "a4", "backs": "short"},
                          headers={"X-CSRF-Token": token})
    assert started.status_code == 202
    status_url = started.json["status_url"]
    deadline = time.time() + 60
    while True:
        job = client.get(status_url).json
        assert job["state"] in ("running", "done"), job
        if job["state"] == "done":
            break
        assert time.time() < deadline
        time.sleep(0.1)
    assert job["total"] > 0 and job["done"] == job["total"]
    download = client.get(job["download_url"])
    assert download.status_code == 200 and download.data.startswith(b"%PDF")
    assert client.get("/games/seth/print/jobs/0123456789abcdef").status_code == 404


def test_art_upload_is_checked_re_encoded_and_linked(client, repo, data_dir) -> None:  # type: ignore[no-untyped-def]
    token = page_token(client, "/games/warzone/print")
    picture = io.BytesIO()
    Image.new("RGB", (400, 300), (10, 120, 200)).save(picture, "JPEG")
    response = client.post("/games/warzone/cards/ashcloud-catapult/art", headers={"Accept": "application/json"},
                           data={"art": (io.BytesIO(picture.getvalue()), "photo.jpg"), "csrf_token": token},
                           content_type="multipart/form-data")
    assert response.status_code == 200 and response.json["art"] == "ashcloud-catapult.png"
    stored = data_dir / "warzone" / "art" / "ashcloud-catapult.png"
    assert Image.open(stored).format == "PNG"
    assert repo.get_card("warzone", "ashcloud-catapult").data["art"] == "ashcloud-catapult.png"
    face = Image.open(io.BytesIO(client.get("/games/warzone/cards/ashcloud-catapult/face.png").data)).convert("RGB")
    pixel = face.getpixel((375, 300))  # the middle of the art box shows the (JPEG) picture
    assert all(abs(a - b) <= 4 for a, b in zip(pixel, (10, 120, 200))), pixel
    bad = client.post("/games/warzone/cards/ashcloud-catapult/art", headers={"Accept": "application/json"},
                      data={"art": (io.BytesIO(b"GIF89a not really"), "x.png"), "csrf_token": token},
                      content_type="multipart/form-data")
    assert bad.status_code == 400 and "PNG, JPEG or WebP" in bad.json["error"]


def test_art_page_shows_the_face_and_an_upload_form(client) -> None:  # type: ignore[no-untyped-def]
    body = client.get("/games/seth/cards/bog-lurker/art").get_data(as_text=True)
    assert 'enctype="multipart/form-data"' in body and 'name="csrf_token"' in body
    assert "/games/seth/cards/bog-lurker/face.png" in body
    assert client.get("/games/seth/cards/nope/art").status_code == 404


def test_art_upload_with_a_stale_version_changes_nothing(client, repo, data_dir) -> None:  # type: ignore[no-untyped-def]
    token = page_token(client, "/games/seth/print")
    picture = io.BytesIO()
    Image.new("RGB", (50, 50), "red").save(picture, "PNG")
    response = client.post("/games/seth/cards/bog-lurker/art", headers={"Accept": "application/json"},
                           data={"art": (picture, "a.png"), "csrf_token": token, "version": "stale"},
                           content_type="multipart/form-data")
    assert response.status_code == 412
    assert not (data_dir / "seth" / "art" / "bog-lurker.png").exists()
    assert "art" not in repo.get_card("seth", "bog-lurker").data


def test_a_print_job_is_answered_from_its_status_file_by_a_process_that_did_not_start_it(client, app) -> None:  # type: ignore[no-untyped-def]
    from pathlib import Path

    from workbench.web import render_views

    token = page_token(client, "/games/seth/print")
    started = client.post("/games/seth/print/jobs", data={"what": "all", "paper": "a4", "backs": "short"},
                          headers={"X-CSRF-Token": token})
    status_url = started.json["status_url"]
    job_id = started.json["id"]
    deadline = time.time() + 60
    while client.get(status_url).json["state"] == "running":
        assert time.time() < deadline
        time.sleep(0.1)
    mine = render_views._jobs.pop(job_id)  # as if another server process were asked
    try:
        job = client.get(status_url).json
        assert job["state"] == "done" and job["done"] == job["total"] > 0
        assert client.get(job["download_url"]).data.startswith(b"%PDF")
        assert client.get(status_url.replace("/seth/", "/warzone/")).status_code == 404  # another game's
        status_file = Path(app.config["EXPORT_DIR"]) / "prints" / f"{job_id}.json"
        data = json.loads(status_file.read_text())
        status_file.write_text(json.dumps(dict(data, state="running", finished=None)))
        old = time.time() - render_views.STALE_AFTER_S - 5
        os.utime(status_file, (old, old))  # nobody has written progress for too long
        stale = client.get(status_url).json
        assert stale["state"] == "error" and "stopped" in stale["message"]
        status_file.write_text(json.dumps(dict(data, state="running", finished=None, pid=2**22 + 7)))
        gone = client.get(status_url).json  # rewritten just now, but by no living process
        assert gone["state"] == "error" and "stopped" in gone["message"]
        status_file.write_text(json.dumps(dict(data, state="running", finished=None)))
        assert client.get(status_url).json["state"] == "running"  # this process, recently: still running
    finally:
        render_views._jobs[job_id] = mine


def test_a_ticked_checkbox_beats_its_hidden_default(app) -> None:  # type: ignore[no-untyped-def]
    """The Print form sends ``crop_marks=0`` (hidden) then ``crop_marks=1`` (the box) when it is ticked."""
    from werkzeug.datastructures import MultiDict

    from workbench.web import get_repo
    from workbench.web.render_views import parse_print_request

    form = MultiDict([("what", "all"), ("crop_marks", "0"), ("crop_marks", "1"), ("calibration", "1")])
    cleared = MultiDict([("what", "all"), ("crop_marks", "0")])
    with app.test_request_context():
        definition = get_repo().game("seth")
        assert parse_print_request(form, definition).options.crop_marks is True
        assert parse_print_request(cleared, definition).options.crop_marks is False
        assert parse_print_request(MultiDict([("what", "all")]), definition).options.crop_marks is True


def test_no_form_pairs_a_hidden_default_with_a_checkbox_the_view_reads_first() -> None:
    """Every template's hidden-field-before-checkbox pair is one the last-value rule reads (today: crop marks)."""
    import re
    from pathlib import Path

    templates = Path(__file__).resolve().parents[2] / "templates"
    pairs: set[str] = set()
    for template in templates.rglob("*.html"):
        text = template.read_text()
        hidden = set(re.findall(r'<input type="hidden" name="([a-z_]+)"', text))
        boxes = set(re.findall(r'<input type="checkbox"[^>]* name="([a-z_]+)"', text))
        pairs |= hidden & boxes
    assert pairs == {"crop_marks"}


def test_print_preview_is_a_post_with_the_csrf_token(client) -> None:  # type: ignore[no-untyped-def]
    token = page_token(client, "/games/seth/print")
    answer = client.post("/games/seth/print/preview", data={"what": "deck", "deck": "rot-and-stone", "backs": "none",
                                                            "crop_marks": "0"}, headers={"X-CSRF-Token": token})
    assert answer.status_code == 200
    assert [p["side"] for p in answer.json["pages"]] == ["fronts"] and answer.json["crop_marks"] is False
    assert answer.json["pages"][0]["src"].startswith("data:image/png;base64,")
    assert client.get("/games/seth/print/preview").status_code == 405  # a GET never renders
    assert client.post("/games/seth/print/preview", data={"what": "all"},
                       headers={"Origin": "http://localhost"}).status_code == 403
    empty = client.post("/games/seth/print/preview", data={"what": "cards", "cards": "no-such-card"},
                        headers={"X-CSRF-Token": token})
    assert empty.status_code in (400, 404) and "error" in empty.json


def test_a_custom_card_size_with_a_missing_side_says_so(client) -> None:  # type: ignore[no-untyped-def]
    """Choosing *Custom…* and filling only the width (or nothing) names what is missing, never a
    size nobody typed such as '63xmm'; in Chinese too."""
    token = page_token(client, "/games/seth/print")
    for width, height in (("63", ""), ("", "88"), ("", "")):
        answer = client.post("/games/seth/print/jobs", headers={"X-CSRF-Token": token},
                             data={"what": "all", "card_size": "custom", "custom_w": width, "custom_h": height})
        assert answer.status_code == 400
        error = answer.json["error"]
        assert "xmm" not in error and "width and a height" in error and "20-300 mm" in error, error
    answer = client.post("/games/seth/print/jobs", headers={"X-CSRF-Token": token, "Accept-Language": "zh-CN"},
                         data={"what": "all", "card_size": "custom", "custom_w": "63", "custom_h": ""})
    assert "宽度和高度" in answer.json["error_text"]
    answer = client.post("/games/seth/print/jobs", headers={"X-CSRF-Token": token},
                         data={"what": "all", "card_size": "custom", "custom_w": "63.5", "custom_h": "88.9"})
    assert answer.status_code == 202

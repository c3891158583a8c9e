"""Export and import pages: download an export, dry run an upload, confirm it; CSRF enforced."""

from __future__ import annotations

import io
import re
import zipfile


def _token(client, url):
    page = client.get(url)
    assert page.status_code == 200
    return re.search(r'name="csrf-token" content="([^"]+)"', page.get_data(as_text=True)).group(1)


def test_export_page_lists_formats_and_decks(client):
    page = client.get("/games/seth/export").get_data(as_text=True)
    for fmt in ("lackey", "dvorak-lackey", "mush", "dvorak-mush", "cockatrice", "tts", "csv", "xlsx"):
        assert f'value="{fmt}"' in page
    assert "Skyburn Blitz" in page


def test_export_and_download_a_lackey_zip(client, tmp_path):
    token = _token(client, "/games/seth/export")
    response = client.post("/games/seth/export", data={"csrf_token": token, "format": "lackey",
                                                       "base_url": "https://example.org/seth/"})
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    link = re.search(r'id="download-zip" href="([^"]+)"', page).group(1)
    download = client.get(link)
    assert download.status_code == 200
    assert "attachment" in download.headers["Content-Disposition"]
    with zipfile.ZipFile(io.BytesIO(download.data)) as archive:
        names = archive.namelist()
    assert "seth/plugininfo.txt" in names and "seth/updatelist.txt" in names
    assert (tmp_path / "exports" / "seth" / "lackey" / "seth" / "sets" / "carddata.txt").is_file()


def test_export_errors_show_on_the_form(client):
    token = _token(client, "/games/seth/export")
    response = client.post("/games/seth/export", data={"csrf_token": token, "format": "lackey",
                                                       "base_url": "javascript:alert(1)"})
    assert response.status_code == 400
    assert "must be an http(s) address" in response.get_data(as_text=True)


def test_download_cannot_leave_the_export_folder(client):
    assert client.get("/games/seth/exports/..%2F..%2Fcard_data/seth/game.yaml").status_code == 404
    assert client.get("/games/nope/export").status_code == 404


def test_state_changes_need_the_csrf_token(client):
    client.get("/games/seth/export")  # now the browser has a session cookie
    response = client.post("/games/seth/export", data={"format": "csv"})
    assert response.status_code == 403


def test_import_dry_run_then_confirm(client, repo):
    token = _token(client, "/games/seth/import")
    csv_data = ("Title,Power,Damage,Health,Speed,Race,Element\n"
                "Web Imp,1,2,3,fast,Imp,fire\nBroken,x,1,1,fast,Imp,fire\n").encode()
    response = client.post("/games/seth/import", data={
        "csrf_token": token, "mapping": "Title=name", "file": (io.BytesIO(csv_data), "new.csv")},
        content_type="multipart/form-data")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "1 to create" in page and "1 skipped" in page
    assert "row 3, column B (Power): &#39;x&#39; is not a whole number" in page
    assert "web-imp" not in {c.id for c in repo.list_cards("seth")}  # nothing written yet
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', page.split('id="confirm-form"')[1]))
    done = client.post("/games/seth/import/confirm", data=fields)
    assert done.status_code == 200
    assert "1 created" in done.get_data(as_text=True)
    assert repo.get_card("seth", "web-imp").data["damage"] == 2
    again = client.post("/games/seth/import/confirm", data=fields)  # the upload was used up
    assert again.status_code == 400


def test_confirm_refuses_when_the_cards_changed(client, repo):
    token = _token(client, "/games/seth/import")
    damage = repo.get_card("seth", "ashen-drake").data["damage"]
    data = f"name,damage\nAshen Drake,{damage + 1}\n".encode()
    page = client.post("/games/seth/import", data={"csrf_token": token, "file": (io.BytesIO(data), "c.csv")},
                       content_type="multipart/form-data").get_data(as_text=True)
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', page.split('id="confirm-form"')[1]))
    drake = repo.get_card("seth", "ashen-drake")
    repo.update_card("seth", "ashen-drake", dict(drake.data, health=19), drake.version)
    response = client.post("/games/seth/import/confirm", data=fields)
    assert response.status_code == 409
    assert "changed since this dry run" in response.get_data(as_text=True)
    assert repo.get_card("seth", "ashen-drake").data["damage"] == damage


def test_bad_uploads_get_messages_not_tracebacks(client):
    token = _token(client, "/games/seth/import")
    for name, data, message in [("x.exe", b"MZ", "cannot be imported"),
                                ("x.csv", b"name\n\"open", "line 2"),
                                ("x.xlsx", b"not a zip", "not an XLSX workbook")]:
        response = client.post("/games/seth/import", data={"csrf_token": token, "file": (io.BytesIO(data), name)},
                               content_type="multipart/form-data")
        assert response.status_code == 400
        assert message in response.get_data(as_text=True)


def test_export_pages_link_the_lackey_install_steps_rendered_in_the_app(client):
    """The install guide is a page of the app (/docs/exports), not a file path, and the anchor
    the links use is a heading of that page."""
    page = client.get("/games/fusion/export").get_data(as_text=True)
    link = re.search(r'id="guide-lackey" href="([^"]+)"', page).group(1)
    path, anchor = link.split("#")
    guide = client.get(path)
    assert guide.status_code == 200
    assert f'id="{anchor}"' in guide.get_data(as_text=True)
    cockatrice = re.search(r'id="guide-cockatrice" href="([^"]+)"', page).group(1).split("#")[1]
    assert f'id="{cockatrice}"' in guide.get_data(as_text=True)
    token = _token(client, "/games/fusion/export")
    done = client.post("/games/fusion/export", data={"csrf_token": token, "format": "lackey", "ascii": "yes"})
    assert done.status_code == 200
    text = done.get_data(as_text=True)
    assert re.search(r'id="guide-install" href="([^"]+)"', text).group(1) == link
    assert "个卡名被转为 ASCII" in text  # the ASCII option reached the Lackey export (its note in Chinese: fusion's pages are)


def test_import_page_reads_back_a_cockatrice_deck_the_export_wrote(client, repo):
    """The Export page writes decks as Cockatrice ``.cod``; the Import page takes them back (through
    the deck builder's reader) into the same zones, with a dry run first."""
    from workbench.services.exports.cockatrice import cod

    deck = dict(repo.get_deck("warzone", "iron-bastion").data, id="iron-bastion")
    names = {cid: str(data.get("name", cid)) for cid, data in repo.card_index("warzone").items()}
    data = cod(repo.game("warzone"), deck, names)
    token = _token(client, "/games/warzone/import")
    assert ".cod" in client.get("/games/warzone/import").get_data(as_text=True)
    response = client.post("/games/warzone/import", data={
        "csrf_token": token, "deck_id": "iron-bastion-back", "file": (io.BytesIO(data), "iron-bastion.cod")},
        content_type="multipart/form-data")
    page = response.get_data(as_text=True)
    assert response.status_code == 200, page
    assert "cannot be imported" not in page and "1 to create" in page
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', page.split('id="confirm-form"')[1]))
    done = client.post("/games/warzone/import/confirm", data=fields)
    assert done.status_code == 200
    back = repo.get_deck("warzone", "iron-bastion-back").data
    wanted = {z: {c: n for c, n in content.items() if n} for z, content in deck["zones"].items() if content}
    assert {z: c for z, c in back["zones"].items() if c} == wanted

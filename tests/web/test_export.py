"""A player's data to keep, in Chromium at 1280 and 360 px (issue 42, §5): the settings page's
"Download my data" saves the account's archive as a file, and says so in words when it is
asked for too often; the replay page's "Download record" saves a finished match's record,
named with the match's id, the same record ``/record`` gives."""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from server.harness import Player, Server, play_together
from server.people import signup
from web.helpers import community_server, describe_violations, fits, log_in


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from community_server(tmp_path_factory.mktemp("export-server"))


def finished_match(server: Server) -> tuple[str, str, str]:
    """Two accounts' card game played to its end (unrated): the first's name, the second's,
    the match id."""
    first_name, second_name = f"ann_{secrets.token_hex(3)}", f"ben_{secrets.token_hex(3)}"
    first, second = signup(server, first_name), signup(server, second_name)
    try:
        body = first.post(
            "/api/matches",
            json={"game": "cards", "seats": [{"kind": "person"}, {"kind": "person"}]},
        ).json()
        joined = second.post(
            f"/api/matches/{body['id']}/join", json={"invite": body["invites"][0]["invite"]}
        )
        assert joined.status_code == 200, joined.text
        started = first.post(
            f"/api/matches/{body['id']}/start",
            headers={"Authorization": f"Bearer {body['host_token']}"},
        )
        assert started.status_code == 200, started.text
        said = first.post(f"/api/matches/{body['id']}/chat", json={"text": "have fun"})
        assert said.status_code == 201, said.text
        a = Player(server, body["id"], body["token"]).connect()
        b = Player(server, body["id"], joined.json()["token"]).connect()
        try:
            play_together(a, b)
        finally:
            a.close()
            b.close()
    finally:
        first.close()
        second.close()
    return first_name, second_name, str(body["id"])


@pytest.mark.parametrize("width", [1280, 360])
def test_the_settings_page_downloads_my_data(
    new_page: Any, server: Server, axe_scan: Any, screenshot: Any, tmp_path: Path, width: int
) -> None:
    name, other, match_id = finished_match(server)
    page = new_page(server=server, width=width)
    log_in(page, name)
    page.goto("/#/settings")
    panel = page.get_by_test_id("settings-data")
    expect(panel.get_by_role("heading")).to_have_text("Your data")
    button = panel.get_by_role("button", name="Download my data")
    with page.expect_download() as waiting:
        button.click()
    download = waiting.value
    assert download.suggested_filename.startswith("keltis-data-")
    assert download.suggested_filename.endswith(".json")
    saved = tmp_path / download.suggested_filename
    download.save_as(saved)
    data = json.loads(saved.read_text())
    assert data["format"] == "keltis-export"
    assert data["account"]["name"] == name
    assert [m["id"] for m in data["matches"]] == [match_id]
    assert data["matches"][0]["record"]["actions"]
    assert [c["text"] for c in data["chat"]] == ["have fun"]
    assert other not in json.dumps(data["account"])
    violations = axe_scan(page)
    assert not violations, describe_violations(violations)
    if width == 360:
        fits(page)
    panel.scroll_into_view_if_needed()
    screenshot(page, f"export-settings-{width}")
    if width == 1280:
        # two more this hour are allowed, then the refusal in words, nothing saved
        for _ in range(2):
            with page.expect_download():
                button.click()
        button.click()
        expect(panel.get_by_role("alert")).to_have_text(
            "You downloaded your data several times this hour: try again in an hour."
        )
        screenshot(page, "export-settings-refused")


@pytest.mark.parametrize("width", [1280, 360])
def test_the_replay_page_downloads_the_record(
    new_page: Any, server: Server, screenshot: Any, tmp_path: Path, width: int
) -> None:
    _, _, match_id = finished_match(server)
    page = new_page(server=server, width=width)  # a guest: the record is anyone's once over
    page.goto(f"/#/replay/{match_id}")
    link = page.get_by_test_id("download-record")
    expect(link).to_have_text("Download record")
    with page.expect_download() as waiting:
        link.click()
    download = waiting.value
    assert download.suggested_filename == f"keltis-{match_id}.json"
    saved = tmp_path / download.suggested_filename
    download.save_as(saved)
    record = page.request.get(f"/api/matches/{match_id}/record").json()
    assert json.loads(saved.read_text()) == record
    assert record["format"] == "keltis-record"
    if width == 360:
        fits(page)
    screenshot(page, f"export-replay-{width}")

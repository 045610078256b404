"""The small things players met (issue 42 §7), in the browser: unmuting shows the muted
player's chat again without a reload."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from server.harness import Server
from server.people import signup
from web.test_community import server, unique
from web.test_moderation import log_in, seated_match

__all__ = ["server"]  # the community tests' server: their options, many accounts


def test_unmuting_shows_the_messages_again_without_a_reload(new_page: Any, server: Server) -> None:
    ann_name, bea_name = unique("ann"), unique("bea")
    ann, bea = signup(server, ann_name), signup(server, bea_name)
    match_id = seated_match(server, ann, bea)["id"]
    assert ann.post("/api/me/mutes", json={"name": bea_name}).status_code in (200, 201, 204)
    said = bea.post(f"/api/matches/{match_id}/chat", json={"text": "said while muted"})
    assert said.status_code == 201, said.text
    page = new_page(server=server)
    log_in(page, ann_name, f"/#/match/{match_id}")
    page.wait_for_selector(".game[data-ply]")
    line = page.locator(".chat-log li .chat-text", has_text="said while muted")
    # loaded while muted: the server's history leaves Bea out
    expect(page.locator(".muted-list")).to_be_visible()
    assert line.count() == 0
    page.locator(".muted-list summary").click()
    page.locator(f"[data-unmute='{bea_name}']").click()
    expect(line).to_be_visible()


def test_the_lobby_form_starts_with_play_nows_game_and_players(
    new_page: Any, server: Server
) -> None:
    name = unique("lia")
    signup(server, name)
    page = new_page(server=server)
    log_in(page, name)
    # Play now's first choice on the start page: the board game, three players
    expect(page.locator("input[name=game][value=board]")).to_be_checked()
    play_now_players = page.locator("form[aria-labelledby=play-now-title] select").first
    expect(play_now_players).to_have_value("3")
    page.goto("/#/lobby")
    form = page.get_by_test_id("seek-form")
    expect(form.locator("input[name=seek-game][value=board]")).to_be_checked()
    expect(form.get_by_test_id("seek-players")).to_have_value("3")
    # Play now's last choice (the card game for two, as Play now keeps it) is the form's
    # first too ...
    page.evaluate(
        "() => { localStorage.setItem('keltis.game', 'cards');"
        " localStorage.setItem('keltis.players', '2'); }"
    )
    page.reload()
    expect(form.locator("input[name=seek-game][value=cards]")).to_be_checked()
    expect(form.get_by_test_id("seek-players")).to_have_value("2")
    # ... until the form's own choice, which it keeps.
    form.locator("input[name=seek-game][value=board]").check()
    form.get_by_test_id("seek-players").select_option("4")
    form.get_by_test_id("seek-open").click()
    expect(page.locator("li.seek", has_text=name)).to_be_visible()
    page.reload()
    expect(form.locator("input[name=seek-game][value=board]")).to_be_checked()
    expect(form.get_by_test_id("seek-players")).to_have_value("4")
    page.locator("li.seek", has_text=name).locator("[data-action=cancel]").click()
    expect(page.locator("li.seek", has_text=name)).to_have_count(0)

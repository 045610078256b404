"""The start page's list of this browser's own matches (issue 26, part 2): every match whose
seat token the browser keeps — "Play now" ones too — with the game, the players, whose turn
it is and "Continue"; matches the server no longer knows dropped quietly, finished ones
linking to their replay. The name "Play now" asks for once, and "(you)" in the page's
language after a switch."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from server.harness import Server, create
from web.helpers import describe_violations, wait_finished, ws_messages
from web.pages import BOARD_SHORT, hold_seat, play_my_turn, ply, wait_my_turn

HELD = "keltis.match."


def match_id(page: Any) -> str:
    return str(page.evaluate("location.hash.split('/')[2]"))


def describe(server: Server, match_id: str) -> dict[str, Any]:
    with server.http() as http:
        answer: dict[str, Any] = http.get(f"/api/matches/{match_id}").json()
    return answer


def hand(page: Any) -> list[str]:
    return sorted(
        page.locator(".hand [data-card]").evaluate_all("bs => bs.map(b => b.dataset.card)")
    )


def play_now(page: Any, name: str) -> str:
    """Start a "Play now" match (the board game, two players) as ``name``; its id."""
    page.goto("/")
    page.get_by_label("Your name").fill(name)
    page.get_by_label("the board game").check()
    page.get_by_label("Players").select_option("2")
    with page.expect_request(
        lambda r: r.url.endswith("/api/matches") and r.method == "POST"
    ) as asked:
        page.get_by_test_id("play-now").click()
    assert asked.value.post_data_json["name"] == name
    page.wait_for_selector(".game")
    wait_my_turn(page)
    return match_id(page)


def test_a_play_now_match_is_listed_after_a_reload_and_continued(
    new_page: Any, web_server: Server
) -> None:
    page = new_page()
    page.goto("/")
    name_field = page.get_by_label("Your name")
    expect(name_field).to_have_value("")
    # Asked once: without a name "Play now" starts nothing.
    page.get_by_test_id("play-now").click()
    valid = "document.querySelector('[data-testid=play-now-name]').validity.valid"
    assert page.evaluate(valid) is False
    assert page.evaluate("location.hash") in ("", "#/")

    match = play_now(page, "Ada")
    seats = describe(web_server, match)["seats"]
    assert seats[0]["name"] == "Ada"
    assert "Ada (you)" in page.locator(".player[data-seat='0']").inner_text()

    # A move, then the bot's; the position where it is Ada's turn again is the one to find.
    before = ply(page)
    play_my_turn(page)
    wait_my_turn(page, before)
    position = ply(page)
    cards = hand(page)
    assert int(position) > int(before)

    # To the start page, reload: the match is listed, the name remembered.
    page.locator(".brand").click()
    page.wait_for_selector("[data-testid=play-now]")
    page.reload()
    expect(page.get_by_label("Your name")).to_have_value("Ada")
    entry = page.locator(f".my-matches li[data-match='{match}']")
    expect(entry).to_be_visible()
    text = entry.inner_text()
    assert "Keltis – the board game" in text, text
    summary = describe(web_server, match)
    assert summary["status"] == "running"
    assert summary["to_move"] == 0
    assert "Ada (you)" in text
    assert seats[1]["name"] in text
    assert "Your turn" in text
    # A match still to play comes before the forms that start new ones.
    continue_box = entry.get_by_role("link", name="Continue").bounding_box()
    play_box = page.get_by_test_id("play-now").bounding_box()
    assert continue_box is not None
    assert play_box is not None
    assert continue_box["y"] < play_box["y"]

    # "Continue": the same seat, the same position, the same hand.
    snapshots = len([m for m in ws_messages(page) if m["type"] == "snapshot"])
    entry.get_by_role("link", name="Continue").click()
    page.wait_for_selector(f".game[data-ply='{position}'][data-turn='mine']")
    assert page.evaluate("location.hash") == f"#/match/{match}"
    snapshot = [m for m in ws_messages(page) if m["type"] == "snapshot"][snapshots:][0]
    assert snapshot["seat"] == 0
    assert hand(page) == cards
    assert not page.page_errors, page.page_errors


def test_unknown_matches_are_dropped_and_finished_ones_link_to_their_replay(
    new_page: Any, web_server: Server, axe_scan: Any, screenshot: Any
) -> None:
    page = new_page()
    # A match the server finished (bots only, this browser the host), one waiting for a
    # friend, one it never knew.
    finished = create(
        web_server,
        game="board",
        seats=[{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "easy"}],
        seat=None,
        setup=BOARD_SHORT,
    )
    waiting = create(
        web_server,
        game="cards",
        seats=[{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "level": "easy"}],
        name="Ada",
    )
    wait_finished(web_server, finished["id"])
    hold_seat(page, finished["id"], None, None, host=finished["host_token"])
    hold_seat(page, waiting["id"], 0, waiting["token"], host=waiting["host_token"])
    hold_seat(page, "no-such-match", 0, "no-such-token")
    page.goto("/")
    page.reload()
    page.wait_for_selector(".my-matches")
    expect(page.locator(".my-matches li")).to_have_count(2)
    # The unknown one is gone from the list and from the storage, without a word.
    assert page.evaluate(f"localStorage.getItem('{HELD}no-such-match')") is None
    assert not page.locator(".error").count()

    open_entry = page.locator(f".my-matches li[data-match='{waiting['id']}']")
    assert "Waiting for players" in open_entry.inner_text()
    assert "Ada (you)" in open_entry.inner_text()
    done = page.locator(f".my-matches li[data-match='{finished['id']}']")
    assert "Finished" in done.inner_text()
    assert "(you)" not in done.inner_text()
    # Waiting before finished.
    assert page.locator(".my-matches li").first.get_attribute("data-match") == waiting["id"]
    assert not axe_scan(page), describe_violations(axe_scan(page))
    screenshot(page, "my-matches")
    page.set_viewport_size({"width": 360, "height": 740})
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    screenshot(page, "phone-my-matches")

    done.get_by_role("link", name="Replay").click()
    page.wait_for_selector(".replay")
    assert page.evaluate("location.hash") == f"#/replay/{finished['id']}"
    page.go_back()
    open_entry.get_by_role("link", name="Continue").click()
    page.wait_for_selector(".lobby")
    assert not page.page_errors, page.page_errors


def test_you_is_in_the_page_language_after_a_switch(new_page: Any, web_server: Server) -> None:
    page = new_page()
    match = play_now(page, "Ada")
    before = ply(page)
    play_my_turn(page)
    wait_my_turn(page, before)
    page.get_by_test_id("language").select_option("de")
    page.wait_for_function("() => document.documentElement.lang === 'de'")
    expect(page.locator(".player[data-seat='0'] h3")).to_have_text("Ada (du)")
    assert "(you)" not in page.inner_text("body")
    # The start page's list too, and the name is still there.
    page.locator(".brand").click()
    entry = page.locator(f".my-matches li[data-match='{match}']")
    expect(entry).to_contain_text("Ada (du)")
    expect(entry).to_contain_text("Du bist am Zug")
    assert "(you)" not in page.inner_text("body")
    expect(page.get_by_test_id("play-now-name")).to_have_value("Ada")
    assert not page.page_errors, page.page_errors

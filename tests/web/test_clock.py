"""The turn clock in the browser: every seat and every spectator sees the time the player to
move has left, counted down from what the server said (whatever the page's own clock says);
once it is out the others may hand the late seat to a bot, and its player takes it back.
The new-match form chooses the clock, and the invitation links are at the page's own
address."""

from __future__ import annotations

import re
from typing import Any

from server.harness import Server
from web.pages import BOARD_SHORT, ada_and_bob, hold_seat, play_my_turn, ply, wait_my_turn

#: The turn clock of the test's match: seconds for each decision.
SECONDS = 4
#: A page whose own clock is ten minutes behind: a countdown taken from the deadline and
#: this clock would show ten minutes more.
WRONG_CLOCK = """(() => {
  const Real = Date;
  const shift = -600000;
  class Shifted extends Real {
    constructor(...args) { if (args.length === 0) super(Real.now() + shift); else super(...args); }
    static now() { return Real.now() + shift; }
  }
  globalThis.Date = Shifted;
})();"""
COUNTING = re.compile(rf"^0:0[0-{SECONDS}] left for this move$")


def expect(target: Any) -> Any:
    """Playwright's ``expect`` (imported here: without Playwright the fixtures skip)."""
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(target)


def describe(server: Server, match_id: str) -> dict[str, Any]:
    with server.http() as http:
        summary: dict[str, Any] = http.get(f"/api/matches/{match_id}").json()
    return summary


def stand_in_button(page: Any, seat: int) -> Any:
    return page.locator(f".player[data-seat='{seat}'] button:not(.score)")


def test_the_turn_clock_runs_out_and_a_bot_plays_for_the_late_player(
    new_page: Any, web_server: Server, screenshot: Any
) -> None:
    made, bob_seat = ada_and_bob(web_server, setup=BOARD_SHORT, turn_seconds=SECONDS)
    match_id = made["id"]
    assert describe(web_server, match_id)["options"]["turn_seconds"] == SECONDS

    ada = new_page()
    hold_seat(ada, match_id, 0, made["token"])
    ada.goto(f"/#/match/{match_id}")
    bob = new_page(width=360, height=800)
    hold_seat(bob, match_id, 1, bob_seat["token"])
    bob.goto(f"/#/match/{match_id}")
    watcher = new_page()
    watcher.add_init_script(WRONG_CLOCK)
    watcher.goto(f"/#/watch/{match_id}")
    watcher.wait_for_selector(".game")
    bob.wait_for_selector(".game[data-turn='other']")

    # Ada plays her turn (she may be late: only the others' pages offer a stand-in); then
    # Bob's clock runs, on every page.
    wait_my_turn(ada)
    play_my_turn(ada)
    for page in (ada, bob, watcher):
        clock = page.get_by_test_id("clock")
        expect(clock).to_have_text(COUNTING)
        expect(clock).to_have_attribute("data-seat", "1")
        expect(clock).to_have_attribute("role", "timer")
        expect(page.locator(".player[data-seat='1'] [data-testid='player-clock']")).to_have_text(
            COUNTING
        )
        expect(page.locator(".player[data-seat='0'] [data-testid='player-clock']")).to_have_count(0)
    # Bob is here and has time: no one may hand his seat away yet.
    expect(stand_in_button(ada, 1)).to_have_count(0)
    # It counts down a second at a time.
    expect(ada.get_by_test_id("clock")).to_have_text("0:01 left for this move")
    screenshot(ada, "clock-running-1280")
    screenshot(bob, "clock-running-360")

    for page in (ada, bob, watcher):
        expect(page.get_by_test_id("clock")).to_have_text("out of time")
    expect(ada.get_by_test_id("announce")).to_have_text("Bob: out of time")
    expect(stand_in_button(bob, 1)).to_have_count(0)  # not his own seat
    expect(watcher.locator(".player button:not(.score)")).to_have_count(0)  # nor a spectator
    button = stand_in_button(ada, 1)
    expect(button).to_have_text("Let a bot play for Bob")
    screenshot(ada, "clock-out-1280")
    screenshot(bob, "clock-out-360")

    before = ply(ada)
    button.click()
    expect(ada.locator(".player[data-seat='1'] .status")).to_have_text("a bot plays for them")
    assert describe(web_server, match_id)["seats"][1]["stand_in"] is not None
    # The bot plays Bob's turn; then Ada's clock runs.
    wait_my_turn(ada, before)
    expect(ada.get_by_test_id("clock")).to_have_attribute("data-seat", "0")

    banner = bob.locator(".banner.warn")
    banner.locator("button").click()
    banner.wait_for(state="detached")
    expect(ada.locator(".player[data-seat='1'] .status")).to_have_text("online")
    assert describe(web_server, match_id)["seats"][1]["stand_in"] is None
    for page in (ada, bob, watcher):
        assert not page.page_errors, page.page_errors


def test_the_form_chooses_the_clock_and_links_are_at_the_pages_address(
    new_page: Any, web_servers: Any
) -> None:
    # The server's idea of its address is not the one this page reached it at.
    server = web_servers("--public-url", "http://keltis.invalid")
    page = new_page(server=server)
    page.goto("/#/new")
    page.locator(".create input[type=text]").first.fill("Ada")
    clock = page.get_by_test_id("turn-seconds")
    expect(clock).to_have_value("300")  # five minutes unless chosen
    assert clock.locator("option").all_inner_texts() == [
        "no limit",
        "1 minute",
        "2 minutes",
        "5 minutes",
        "15 minutes",
        "1 hour",
        "24 hours",
    ]
    clock.select_option(label="15 minutes")
    with page.expect_response(
        lambda r: r.url.endswith("/api/matches") and r.request.method == "POST"
    ) as answer:
        page.locator(".create button[type=submit]").click()
    sent = answer.value.request.post_data_json
    assert sent["turn_seconds"] == 900
    made = answer.value.json()
    assert made["match"]["options"]["turn_seconds"] == 900
    assert made["invites"][0]["link"].startswith("http://keltis.invalid/")

    page.wait_for_selector(".lobby")
    origin = page.evaluate("location.origin")
    assert origin == server.base
    invite = made["invites"][0]["invite"]
    expect(page.locator("[data-invite='1']")).to_have_value(
        f"{origin}/#/join/{made['id']}/{invite}"
    )
    expect(page.get_by_test_id("watch-link")).to_have_value(f"{origin}/#/watch/{made['id']}")

    # No limit: null.
    page.goto("/#/new")
    page.get_by_test_id("turn-seconds").select_option(label="no limit")
    with page.expect_request(
        lambda r: r.url.endswith("/api/matches") and r.method == "POST"
    ) as asked:
        page.locator(".create button[type=submit]").click()
    assert asked.value.post_data_json["turn_seconds"] is None
    page.wait_for_selector(".lobby")

    # With bots only no clock is offered (no one could hand a late seat to a bot), and
    # "Play now" sends none: the server's default (none with one person) holds.
    page.goto("/#/new")
    page.locator("select[data-seat='1']").select_option("easy")
    expect(page.get_by_test_id("turn-seconds")).to_have_count(0)
    page.goto("/#/")
    page.get_by_test_id("play-now-name").fill("Ada")
    with page.expect_request(
        lambda r: r.url.endswith("/api/matches") and r.method == "POST"
    ) as asked:
        page.get_by_test_id("play-now").click()
    assert "turn_seconds" not in asked.value.post_data_json
    page.wait_for_selector(".game")
    expect(page.get_by_test_id("clock")).to_have_count(0)
    assert not page.page_errors, page.page_errors

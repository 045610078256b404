"""Quick pairing in the browser (docs/web.md, "Play a person now"): the start page's first
button for a logged-in player (none for a guest), the form with its defaults, the waiting
screen counting who waits, stopping, and two accounts in two browsers paired into one
match that both pages open by themselves — at 1280 and 360 px, with no serious
accessibility violation."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from server.harness import Server
from web.helpers import community_server, fits, no_violations, sign_up, unique


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from community_server(tmp_path_factory.mktemp("pool-server"))


@pytest.mark.parametrize("width", [1280, 360])
def test_two_browsers_are_paired_and_both_open_the_match(
    new_page: Any, server: Server, axe_scan: Any, screenshot: Any, width: int
) -> None:
    guest = new_page(server=server, width=width)
    guest.goto("/")
    expect(guest.get_by_test_id("play-now")).to_be_visible()
    expect(guest.get_by_test_id("play-person")).to_have_count(0)

    ada, bob = new_page(server=server, width=width), new_page(server=server, width=width)
    ada_name, bob_name = unique("ada"), unique("bob")
    sign_up(ada, ada_name)
    sign_up(bob, bob_name)
    # a logged-in player's first button on the start page
    first = ada.locator("main button, main a.button").first
    expect(first).to_have_attribute("data-testid", "play-person")
    expect(first).to_have_text("Play a person now")
    screenshot(ada, f"pool-start-{width}")
    first.click()
    expect(ada).to_have_url("/#/pool")
    # the form's defaults: the board game, 2 players, rated, 30 s a move with a 5-minute bank,
    # people only
    form = ada.get_by_test_id("pool-form")
    expect(form.locator("input[name=pool-game][value=board]")).to_be_checked()
    expect(form.get_by_test_id("pool-players")).to_have_value("2")
    expect(form.get_by_test_id("pool-rated")).to_be_checked()
    expect(form.locator("input[name=pool-time-kind][value=realtime]")).to_be_checked()
    expect(form.get_by_test_id("pool-decision")).to_have_value("30")
    expect(form.get_by_test_id("pool-bank")).to_have_value("300")
    expect(form.get_by_test_id("pool-bots")).to_have_value("0")
    no_violations(axe_scan, ada, "pool form")
    if width == 360:
        fits(ada)
    screenshot(ada, f"pool-form-{width}")

    with ada.expect_request(lambda r: r.url.endswith("/api/pool") and r.method == "POST") as asked:
        form.get_by_test_id("pool-find").click()
    sent = asked.value.post_data_json
    assert sent == {
        "game": "board",
        "players": 2,
        "rated": True,
        "time": {"kind": "realtime", "decision": 30, "bank": 300},
        "bots_after": None,
    }
    waiting = ada.get_by_test_id("pool-waiting")
    expect(waiting).to_be_visible()
    expect(waiting.get_by_test_id("pool-others")).to_have_text(
        "1 player waiting for this game, you included"
    )
    expect(waiting.get_by_test_id("pool-waited")).to_contain_text("second")
    expect(waiting.get_by_test_id("pool-choice")).to_have_text(
        "Keltis – the board game · 2 players · Rated · 30 seconds a move, 5 minutes in the bank"
    )
    no_violations(axe_scan, ada, "pool waiting")
    if width == 360:
        fits(ada)
    screenshot(ada, f"pool-waiting-{width}")

    # stopping: back to the form, the entry gone on the server
    waiting.get_by_test_id("pool-stop").click()
    expect(ada.get_by_test_id("pool-form")).to_be_visible()
    assert ada.request.get("/api/pool").json() == {"entry": None}

    # both look: the second to come is seated with the first, and both pages open the match
    ada.get_by_test_id("pool-find").click()
    expect(ada.get_by_test_id("pool-waiting")).to_be_visible()
    bob.get_by_test_id("play-person").click()
    bob.get_by_test_id("pool-find").click()
    for page in (ada, bob):
        page.wait_for_function("() => location.hash.startsWith('#/match/')", timeout=30_000)
        page.wait_for_selector(".game[data-ply]")
    match_id = ada.evaluate("location.hash").split("/")[2]
    assert bob.evaluate("location.hash") == f"#/match/{match_id}"
    with server.http() as http:
        described = http.get(f"/api/matches/{match_id}").json()
    assert described["rated"] is True
    assert described["status"] == "running"
    assert sorted(s["name"] for s in described["seats"]) == sorted([ada_name, bob_name])
    expect(ada.get_by_test_id("time-control")).to_contain_text("30 seconds a move")
    screenshot(bob, f"pool-paired-{width}")
    for page in (ada, bob, guest):
        assert not page.page_errors, page.page_errors


def test_a_guest_sent_to_the_pool_logs_in_first(new_page: Any, server: Server) -> None:
    page = new_page(server=server)
    page.goto("/#/pool")
    page.wait_for_function("() => location.hash.startsWith('#/login')")
    assert "pool" in page.evaluate("decodeURIComponent(location.hash)")


def test_a_wait_the_server_ended_sends_the_player_back_to_the_form(
    new_page: Any, server: Server
) -> None:
    """The server drops an entry its page stopped asking for; a page that finds its entry
    gone (here: ended from another tab of the account) says so and offers the form again."""
    page = new_page(server=server)
    sign_up(page, unique("cid"))
    page.goto("/#/pool")
    page.get_by_test_id("pool-find").click()
    expect(page.get_by_test_id("pool-waiting")).to_be_visible()
    csrf = page.request.get("/api/sessions/current").json()["csrf"]
    assert page.request.delete("/api/pool", headers={"X-CSRF-Token": csrf}).status == 204
    expect(page.get_by_role("status").filter(has_text="Your wait ended")).to_be_visible()
    expect(page.get_by_test_id("pool-form")).to_be_visible()


def test_an_earlier_pairing_does_not_reopen_its_match(new_page: Any, server: Server) -> None:
    """An account paired earlier (its entry still on the server) that opens Play a person now
    again gets the form, not the old match; a pairing seen by the page forgets its entry."""
    ada, bob = new_page(server=server), new_page(server=server)
    sign_up(ada, unique("ada"))
    sign_up(bob, unique("bob"))
    for page in (ada, bob):
        csrf = page.request.get("/api/sessions/current").json()["csrf"]
        answer = page.request.post(
            "/api/pool", data={"game": "cards"}, headers={"X-CSRF-Token": csrf}
        )
        assert answer.status == 201, answer.text()
    server.logged("pool cards/2/")  # the only cards pool of these tests: paired
    assert ada.request.get("/api/pool").json()["entry"]["status"] == "paired"
    ada.goto("/#/pool")
    expect(ada.get_by_test_id("pool-form")).to_be_visible()
    assert ada.evaluate("location.hash") == "#/pool"
    # a wait this page sees paired opens the match and forgets the entry
    is_leave = lambda r: r.url.endswith("/api/pool") and r.request.method == "DELETE"  # noqa: E731
    with ada.expect_response(is_leave) as left:
        ada.get_by_test_id("pool-find").click()
        bob.goto("/#/pool")
        bob.get_by_test_id("pool-find").click()
        ada.wait_for_function("() => location.hash.startsWith('#/match/')", timeout=30_000)
    assert left.value.status == 204
    assert ada.request.get("/api/pool").json() == {"entry": None}

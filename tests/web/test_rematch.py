"""Saying no to playing again (issue 42 §7): the asked player's **No thanks**, the waiting
player's **Cancel**, each told to the other on the match's page; and, logged in, on any
page by a notice under the header until dismissed."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from server.harness import Server, play_together, player
from server.people import signup
from web.helpers import fits, log_in
from web.pages import BOARD_SHORT, PERSON, ada_and_bob, hold_seat


def finished_pages(new_page: Any, web_server: Server, width: int) -> tuple[str, Any, Any]:
    """A match of Ada and Bob played to its end, each on the final scores in a page of
    their own: its id and the two pages."""
    made, bob = ada_and_bob(web_server, setup=BOARD_SHORT)
    match_id = made["id"]
    ada_page, bob_page = new_page(width=width), new_page(width=width)
    hold_seat(ada_page, match_id, 0, made["token"])
    hold_seat(bob_page, match_id, 1, bob["token"])
    for page in (ada_page, bob_page):
        page.goto(f"/#/match/{match_id}")
        page.wait_for_selector(".game")
    with (
        player(web_server, match_id, made["token"]) as ada,
        player(web_server, match_id, bob["token"]) as bob_client,
    ):
        play_together(ada, bob_client)
    for page in (ada_page, bob_page):
        page.wait_for_selector(".final")
    return match_id, ada_page, bob_page


def status(server: Server, match_id: str) -> str:
    with server.http() as http:
        found: str = http.get(f"/api/matches/{match_id}").json()["status"]
    return found


@pytest.mark.parametrize("width", [360, 1280])
def test_a_rematch_declined_then_one_cancelled(
    new_page: Any, web_server: Server, screenshot: Any, width: int
) -> None:
    match_id, ada_page, bob_page = finished_pages(new_page, web_server, width)
    # Ada asks: she waits in the next match's page, and may cancel
    ada_page.get_by_test_id("play-on").click()
    ada_page.wait_for_function("(old) => !location.hash.endsWith(old)", arg=match_id)
    first = ada_page.evaluate("location.hash").split("/")[2]
    expect(ada_page.get_by_test_id("rematch")).to_contain_text(
        "Waiting for Bob to join the rematch."
    )
    expect(ada_page.get_by_test_id("cancel-rematch")).to_have_text("Cancel")
    # Bob is asked: join, or no thanks
    expect(bob_page.get_by_test_id("play-on")).to_have_text("Join the next match")
    screenshot(bob_page, f"rematch-asked-{width}")
    bob_page.get_by_test_id("no-thanks").click()
    expect(bob_page.get_by_test_id("rematch")).to_have_text("You said no thanks to the rematch.")
    expect(bob_page.get_by_test_id("no-thanks")).to_have_count(0)
    expect(bob_page.get_by_test_id("play-on")).to_have_text("Play again")
    # Ada's page goes back to the finished match, which says who said no
    ada_page.wait_for_function("(id) => location.hash === `#/match/${id}`", arg=match_id)
    expect(ada_page.get_by_test_id("rematch")).to_have_text("Bob said no thanks to a rematch.")
    assert status(web_server, first) == "cancelled"
    screenshot(ada_page, f"rematch-declined-{width}")
    if width == 360:
        fits(ada_page)
        fits(bob_page)

    # Ada asks again, then gives up waiting: Bob's page says so
    ada_page.get_by_test_id("play-on").click()
    ada_page.wait_for_function("(old) => !location.hash.endsWith(old)", arg=match_id)
    second = ada_page.evaluate("location.hash").split("/")[2]
    assert second != first
    expect(bob_page.get_by_test_id("no-thanks")).to_be_visible()
    expect(ada_page.get_by_test_id("cancel-rematch")).to_be_visible()
    screenshot(ada_page, f"rematch-waiting-{width}")
    ada_page.get_by_test_id("cancel-rematch").click()
    ada_page.wait_for_function("(id) => location.hash === `#/match/${id}`", arg=match_id)
    expect(ada_page.get_by_test_id("rematch")).to_have_text("You cancelled the rematch.")
    expect(bob_page.get_by_test_id("rematch")).to_have_text("Ada cancelled the rematch.")
    expect(bob_page.get_by_test_id("no-thanks")).to_have_count(0)
    assert status(web_server, second) == "cancelled"
    for page in (ada_page, bob_page):
        assert not page.page_errors


def test_an_account_learns_of_the_no_on_another_page(
    new_page: Any, web_server: Server, screenshot: Any
) -> None:
    """Logged in, Ada reads Bob's no under the header of the start page (the turn badge's
    polling brings it), in her language, until she dismisses it."""
    ada, bob = signup(web_server, "AdaNo"), signup(web_server, "BobNo")
    try:
        made = ada.post(
            "/api/matches",
            json={"game": "board", "seats": [PERSON, PERSON], "setup": BOARD_SHORT},
        ).json()
        match_id = made["id"]
        joined = bob.post(
            f"/api/matches/{match_id}/join", json={"invite": made["invites"][0]["invite"]}
        ).json()
        ada.post(f"/api/matches/{match_id}/start", headers=_bearer(made["host_token"]))
        with (
            player(web_server, match_id, made["token"]) as a,
            player(web_server, match_id, joined["token"]) as b,
        ):
            play_together(a, b)
        asked = ada.post(f"/api/matches/{match_id}/again", headers=_bearer(made["token"]))
        assert asked.status_code == 201, asked.text
        page = new_page("de", width=360)
        log_in(page, "AdaNo")
        expect(page.get_by_test_id("notices")).to_have_count(0)
        no = bob.delete(f"/api/matches/{match_id}/again", headers=_bearer(joined["token"]))
        assert no.status_code == 200, no.text
        notice = page.get_by_test_id("notices")
        expect(notice).to_contain_text("BobNo hat eine Revanche abgelehnt.", timeout=40_000)
        expect(notice.get_by_role("link")).to_have_attribute("href", f"#/match/{match_id}")
        screenshot(page, "rematch-notice-360")
        fits(page)
        with page.expect_response(lambda r: "/api/me/notices/" in r.url) as dismissed:
            page.get_by_test_id("dismiss-notice").click()
        assert dismissed.value.status == 204
        expect(page.get_by_test_id("notices")).to_have_count(0)
        assert ada.get("/api/me/matches").json()["notices"] == []
        page.reload()
        expect(page.get_by_test_id("account-menu")).to_contain_text("AdaNo")
        expect(page.get_by_test_id("notices")).to_have_count(0)
        # the cancelled rematch (held while it was open) is let go, as a match the server lost
        page.wait_for_function(
            "(id) => localStorage.getItem(`keltis.match.${id}`) === null", arg=asked.json()["id"]
        )
        expect(page.locator(f"li[data-match='{asked.json()['id']}']")).to_have_count(0)
        assert not page.page_errors
    finally:
        ada.close()
        bob.close()


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}

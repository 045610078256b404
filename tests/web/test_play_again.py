"""Playing again between people: after a finished match each person takes their own seat in
the next one from their own page, told of it over the live connection (no new link)."""

from __future__ import annotations

from typing import Any

from server.harness import Server, play_together, player
from web.pages import BOARD_SHORT, ada_and_bob, hold_seat

PERSON = {"kind": "person"}


def test_two_people_play_again_each_from_their_page(new_page: Any, web_server: Server) -> None:
    made, bob = ada_and_bob(web_server, setup=BOARD_SHORT)
    match_id = made["id"]
    ada_page = new_page()
    hold_seat(ada_page, match_id, 0, made["token"])
    ada_page.goto(f"/#/match/{match_id}")
    bob_page = new_page("de")
    hold_seat(bob_page, match_id, 1, bob["token"])
    bob_page.goto(f"/#/match/{match_id}")
    for page in (ada_page, bob_page):
        page.wait_for_selector(".game")
    # the match is played to its end (by the players' own API clients: the pages follow)
    with (
        player(web_server, match_id, made["token"]) as ada,
        player(web_server, match_id, bob["token"]) as bob_client,
    ):
        play_together(ada, bob_client)
    for page in (ada_page, bob_page):
        page.wait_for_selector(".final")
    ada_button = ada_page.locator("[data-testid=play-on]")
    assert ada_button.inner_text() == "Play again"
    ada_button.click()
    ada_page.wait_for_function(
        "(old) => location.hash.startsWith('#/match/') && !location.hash.endsWith(old)",
        arg=match_id,
    )
    next_id = ada_page.evaluate("location.hash").split("/")[2]
    # Bob's page learns of the next match live: its button joins it
    bob_button = bob_page.locator("[data-testid=play-on]")
    bob_page.wait_for_function(
        "() => document.querySelector('[data-testid=play-on]')?.textContent"
        " === 'Bei der nächsten Partie mitspielen'"
    )
    bob_button.click()
    bob_page.wait_for_function("(id) => location.hash === `#/match/${id}`", arg=next_id)
    for page in (ada_page, bob_page):
        page.wait_for_selector(".game:not(.lobby)")
    with web_server.http() as http:
        summary = http.get(f"/api/matches/{next_id}").json()
        old = http.get(f"/api/matches/{match_id}").json()
    assert summary["status"] == "running"
    assert summary["previous"] == match_id
    assert old["next"] == next_id
    assert [s["name"] for s in summary["seats"]] == ["Ada", "Bob"]
    assert all(s["joined"] for s in summary["seats"])
    for page in (ada_page, bob_page):
        assert not page.page_errors

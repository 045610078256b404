"""An account's seat after its password changed in another tab (issue 39, §4.3): the old
token opens nothing, so the page playing it is closed by the server — and, since the
account's session is still good here, the page finds the seat's new token and goes on by
itself."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from server.harness import Server
from web.pages import click_a_move, hold_seat, ply, wait_moved, wait_my_turn
from web.test_community import PASSWORD, held_token, server, sign_up, unique

__all__ = ["server"]  # the module's server fixture, with its limits for accounts


def test_a_page_goes_on_with_the_new_token_after_a_password_change(
    new_page: Any, server: Server
) -> None:
    page = new_page(server=server)
    name = unique("revoke")
    sign_up(page, name)
    made = page.request.post(
        "/api/matches",
        data={"game": "cards", "seats": [{"kind": "person"}, {"kind": "bot", "level": "easy"}]},
        headers={"X-CSRF-Token": page.request.get("/api/sessions/current").json()["csrf"]},
    )
    assert made.status == 201, made.text()
    match_id = made.json()["id"]
    # the seat as the page keeps an account's seat (GET /api/me/matches would give it too,
    # but a poll already under way when the match was made may not have it yet)
    hold_seat(page, match_id, 0, made.json()["token"], account=name)
    page.goto(f"/#/match/{match_id}")
    expect(page.locator(".hand")).to_be_visible()
    old = held_token(page, match_id)
    # the password changes in another tab of this browser (its session goes on; every
    # other session ends): the old token stops, and this page is closed by the server
    csrf = page.request.get("/api/sessions/current").json()["csrf"]
    changed = page.request.post(
        "/api/me/password",
        data={"old": PASSWORD, "new": "a brand new password"},
        headers={"X-CSRF-Token": csrf},
    )
    assert changed.status == 204, changed.text()
    page.wait_for_function(
        "([id, old]) => JSON.parse(localStorage.getItem('keltis.match.' + id)).token !== old",
        arg=[match_id, old],
    )
    # the page opened again with the new token: the player moves on as before
    wait_my_turn(page)
    before = ply(page)
    click_a_move(page)
    wait_moved(page, before)
    expect(page.locator("[role=alert]")).to_have_count(0)
    assert not page.page_errors

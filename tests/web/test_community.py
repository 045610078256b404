"""Players of their own in the browser (issue 28): registering (the guest seats this browser
holds go with the account), logging in and out, the settings; the lobby, where one browser
opens a seek and another joins it, both landing in the rated match, chatting, playing it to
the end, the player page then showing the changed rating; the turn badge; no serious
accessibility violation on the new pages, and each usable 360 px wide."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from server.harness import Server, create, play_together, player
from web.helpers import (
    community_server,
    fits,
    no_violations,
    sign_up,
    unique,
    ws_messages,
)
from web.pages import hold_seat

PASSWORD = "correct horse battery"
AGAINST_A_BOT = [{"kind": "person"}, {"kind": "bot", "level": "easy"}]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from community_server(tmp_path_factory.mktemp("community-server"))


def held_token(page: Any, match_id: str) -> str:
    token: str = page.evaluate(
        "(id) => JSON.parse(localStorage.getItem('keltis.match.' + id)).token", match_id
    )
    return token


def test_register_log_out_log_in_and_the_settings(
    new_page: Any, server: Server, axe_scan: Any, screenshot: Any
) -> None:
    page = new_page(server=server)
    # A guest match first: registering here keeps it.
    guest = create(server, game="cards", seats=AGAINST_A_BOT, name="Guest")
    hold_seat(page, guest["id"], guest["seat"], guest["token"])
    page.goto("/")
    page.get_by_test_id("nav-register").click()
    page.wait_for_selector("[data-testid=register-form]")
    no_violations(axe_scan, page, "register")
    screenshot(page, "community-register")
    name = unique("ada")
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("The password again").fill(PASSWORD + "!")
    page.get_by_role("button", name="Create my account").click()
    expect(page.get_by_test_id("account-error")).to_have_text("The two passwords differ.")
    page.get_by_label("The password again").fill(PASSWORD)
    with page.expect_request(lambda r: r.url.endswith("/api/accounts")) as asked:
        page.get_by_role("button", name="Create my account").click()
    body = asked.value.post_data_json
    assert body["seats"] == [{"match": guest["id"], "token": guest["token"]}]
    assert body["language"] == "en"
    expect(page.get_by_test_id("account-menu")).to_contain_text(name)
    # The guest match is the account's now.
    mine = page.request.get("/api/me/matches").json()
    assert guest["id"] in [m["match"]["id"] for m in mine["running"] + mine["waiting"]]

    # Log out (the account's menu), then log in again: a wrong password first.
    page.get_by_test_id("account-menu").click()
    page.get_by_test_id("log-out").click()
    expect(page.get_by_test_id("nav-login")).to_be_visible()
    assert page.request.get("/api/sessions/current").status == 401
    page.get_by_test_id("nav-login").click()
    page.wait_for_selector("[data-testid=login-form]")
    no_violations(axe_scan, page, "log in")
    screenshot(page, "community-login")
    page.get_by_label("Name", exact=True).fill(name)
    page.get_by_label("Password", exact=True).fill("not the password")
    page.get_by_role("button", name="Log in", exact=True).last.click()
    error = page.get_by_test_id("account-error")
    expect(error).to_be_visible()
    assert error.inner_text()  # the server's own words
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.locator("[data-testid=login-form] button[type=submit]").click()
    expect(page.get_by_test_id("account-menu")).to_contain_text(name)

    # The settings: e-mail saved with the CSRF token, a wrong old password refused.
    page.get_by_test_id("account-menu").click()
    page.get_by_role("link", name="Settings").click()
    page.wait_for_selector("[data-testid=settings-mail]")
    no_violations(axe_scan, page, "settings")
    screenshot(page, "community-settings")
    page.get_by_label("E-mail address").fill("ada@example.org")
    with page.expect_request(lambda r: r.url.endswith("/api/me") and r.method == "PATCH") as patch:
        page.locator("[data-testid=settings-mail] button[type=submit]").click()
    assert patch.value.headers.get("x-csrf-token")
    expect(page.locator("[data-testid=settings-mail] .banner.ok")).to_be_visible()
    assert page.request.get("/api/sessions/current").json()["account"]["email"] == "ada@example.org"
    page.get_by_label("Current password").fill("wrong wrong wrong")
    page.get_by_label("New password").fill("another password")
    page.locator("[data-testid=settings-password] input").nth(2).fill("another password")
    page.locator("[data-testid=settings-password] button[type=submit]").click()
    expect(page.locator("[data-testid=settings-password] .error")).to_be_visible()
    assert not page.page_errors, page.page_errors

    # The same pages at 360 px.
    phone = new_page(server=server, width=360, height=740)
    for route, ready, shot in (
        ("/#/register", "[data-testid=register-form]", "community-register-360"),
        ("/#/login", "[data-testid=login-form]", "community-login-360"),
    ):
        phone.goto(route)
        phone.wait_for_selector(ready)
        fits(phone)
        screenshot(phone, shot)
    # The header's menu on a phone: a button that shows the links.
    phone.get_by_test_id("menu-button").click()
    expect(phone.get_by_test_id("nav-lobby")).to_be_visible()
    fits(phone)
    sign_up(phone, unique("phone"))
    phone.goto("/#/settings")
    phone.wait_for_selector("[data-testid=settings-mail]")
    fits(phone)
    screenshot(phone, "community-settings-360")


def wait_rated(page: Any, name: str, game: str) -> dict[str, Any]:
    """The player's page data once a rated match of ``game`` is counted."""
    for _ in range(200):
        answer: dict[str, Any] = page.request.get(f"/api/players/{name}").json()
        if answer.get("ratings", {}).get(game, {}).get("games"):
            return answer
        page.wait_for_timeout(100)
    raise AssertionError(f"{name} has no rating in {game}: {answer}")


@pytest.mark.slow  # a whole card game between two browsers
def test_a_seek_becomes_a_rated_match_with_chat_then_the_ratings_change(
    new_page: Any, server: Server, axe_scan: Any, screenshot: Any
) -> None:
    ada, bob = new_page(server=server), new_page(server=server)
    ada_name, bob_name = unique("ada"), unique("bob")
    sign_up(ada, ada_name)
    sign_up(bob, bob_name)
    for page in (ada, bob):
        page.get_by_test_id("nav-lobby").click()
        page.wait_for_selector("[data-testid=seeks] h2")
    # Ada opens a seek: the card game, two players, rated, in real time.
    form = ada.get_by_test_id("seek-form")
    form.locator("input[name=seek-game][value=cards]").check()
    form.get_by_test_id("seek-players").select_option("2")
    expect(form.get_by_test_id("seek-rated")).to_be_checked()
    form.locator("input[name=seek-time-kind][value=realtime]").check()
    form.get_by_test_id("seek-decision").select_option("60")
    form.get_by_test_id("seek-bank").select_option("300")
    with ada.expect_request(lambda r: r.url.endswith("/api/seeks") and r.method == "POST") as asked:
        form.get_by_test_id("seek-open").click()
    sent = asked.value.post_data_json
    assert sent["game"] == "cards"
    assert sent["players"] == 2
    assert sent["rated"] is True
    assert sent["time"] == {"kind": "realtime", "decision": 60, "bank": 300}
    assert asked.value.headers.get("x-csrf-token")
    # Bob sees it come, live, with a Join button; Ada's own has Cancel.
    seek_of_ada = bob.locator("li.seek", has_text=ada_name)
    expect(seek_of_ada.locator("[data-action=join]")).to_be_visible()
    expect(
        ada.locator("li.seek", has_text=ada_name).locator("[data-action=cancel]")
    ).to_be_visible()
    no_violations(axe_scan, bob, "lobby")
    no_violations(axe_scan, ada, "lobby, own seek")
    screenshot(bob, "community-lobby")
    phone = new_page(server=server, width=360, height=740)
    sign_up(phone, unique("cleo"))
    phone.goto("/#/lobby")
    expect(phone.locator("li.seek", has_text=ada_name)).to_be_visible()
    fits(phone)
    screenshot(phone, "community-lobby-360")

    # Bob joins: the seek is full, the match starts, and both pages open it.
    seek_of_ada.locator("[data-action=join]").click()
    for page in (ada, bob):
        page.wait_for_function("() => location.hash.startsWith('#/match/')", timeout=30_000)
        page.wait_for_selector(".game[data-ply]")
    match_id = ada.evaluate("location.hash").split("/")[2]
    assert bob.evaluate("location.hash") == f"#/match/{match_id}"
    for page in (ada, bob):
        expect(page.get_by_test_id("time-control")).to_contain_text("Rated")
        expect(page.get_by_test_id("time-control")).to_contain_text(
            "1 minute a move, 5 minutes in the bank"
        )
    with server.http() as http:
        described = http.get(f"/api/matches/{match_id}").json()
    assert described["rated"] is True
    assert sorted(s["name"] for s in described["seats"]) == sorted([ada_name, bob_name])

    # The turn badge of the player to move counts this match and lists it.
    mover = ada if ada.get_attribute(".game", "data-turn") == "mine" else bob
    expect(mover.get_by_test_id("turn-badge")).to_have_attribute("data-count", "1")
    mover.get_by_test_id("turn-badge").click()
    expect(mover.locator(f"#turn-list a[data-match='{match_id}']")).to_be_visible()
    no_violations(axe_scan, mover, "the turn badge's list")
    mover.keyboard.press("Escape")
    expect(mover.locator("#turn-list")).to_have_count(0)

    # Chat: text only, over the live connection; muting hides an author's messages.
    ada.get_by_test_id("chat-input").fill("Good luck, <b>Bob</b>!")
    ada.get_by_test_id("chat-send").click()
    said = bob.locator(".chat-log li .chat-text", has_text="Good luck")
    expect(said).to_have_text("Good luck, <b>Bob</b>!")
    assert bob.locator(".chat-log b").count() == 0
    assert any(m.get("type") == "chat" for m in ws_messages(ada, "sent"))
    bob.get_by_test_id("chat-input").fill("Thanks, Ada")
    bob.keyboard.press("Enter")
    expect(ada.locator(".chat-log li .chat-text", has_text="Thanks, Ada")).to_be_visible()
    no_violations(axe_scan, ada, "a match with chat")
    screenshot(ada, "community-game-chat")
    ada.locator(f"[data-mute='{bob_name}']").first.click()
    expect(ada.locator(".chat-log li .chat-text", has_text="Thanks, Ada")).to_have_count(0)
    assert bob_name in ada.request.get("/api/me/mutes").json()["mutes"]
    ada.locator(".muted-list summary").click()
    ada.locator(f"[data-unmute='{bob_name}']").click()
    expect(ada.locator(".chat-log li .chat-text", has_text="Thanks, Ada")).to_be_visible()
    # A guest spectator reads no players' chat and is asked to log in to chat.
    guest = new_page(server=server)
    guest.goto(f"/#/watch/{match_id}")
    expect(guest.get_by_test_id("chat-guest")).to_be_visible()
    assert guest.locator(".chat-log li .chat-text", has_text="Good luck").count() == 0

    # A logged-in spectator chats in the spectators' channel, which the players never see.
    phone.goto(f"/#/watch/{match_id}")
    phone.wait_for_selector(".game[data-ply]")
    expect(phone.locator("#chat-title")).to_have_text("Spectators' chat")
    phone.get_by_test_id("chat-input").fill("What a game")
    phone.get_by_test_id("chat-send").click()
    expect(phone.locator(".chat-log li .chat-text", has_text="What a game")).to_be_visible()
    assert phone.locator(".chat-log li .chat-text", has_text="Good luck").count() == 0
    fits(phone)
    screenshot(phone, "community-watch-chat-360")

    # The match is played to its end (the seats' own API clients; the players' pages follow,
    # the spectators' are elsewhere).
    guest.close()
    phone.goto("/#/")
    with (
        player(server, match_id, held_token(ada, match_id)) as ada_client,
        player(server, match_id, held_token(bob, match_id)) as bob_client,
    ):
        play_together(ada_client, bob_client)
    for page in (ada, bob):
        # (each page draws every step: on a busy machine that takes its time)
        page.wait_for_selector(".final", timeout=180_000)
    assert ada.locator(".chat-log li .chat-text", has_text="What a game").count() == 0

    # Ada's page: the rating moved from where everyone starts (1500), with its chart; one
    # rated match of ten: provisional, a "?" that says so in words.
    data = wait_rated(ada, ada_name, "cards")
    rating = data["ratings"]["cards"]
    assert rating["games"] == 1
    assert rating["rating"] != 1500
    ada.goto(f"/#/player/{ada_name}")
    shown = ada.get_by_test_id("rating-cards")
    expect(shown).to_contain_text(f"{rating['rating']}?")
    expect(shown.locator(".provisional")).to_have_attribute("title", re.compile("provisional"))
    expect(ada.get_by_test_id("chart-cards")).to_be_visible()
    recent = ada.locator(f"[data-testid=recent] [data-match='{match_id}']")
    expect(recent.get_by_role("link", name="Replay")).to_have_attribute(
        "href", f"#/replay/{match_id}"
    )
    expect(ada.get_by_test_id("opponents")).to_contain_text(bob_name)
    ada.locator(".history summary").click()
    no_violations(axe_scan, ada, "player page")
    screenshot(ada, "community-player")
    phone.goto(f"/#/player/{ada_name}")
    expect(phone.get_by_test_id("chart-cards")).to_be_visible()
    fits(phone)
    screenshot(phone, "community-player-360")

    # The leaderboard lists both; a bot level has a page too.
    bob.get_by_test_id("nav-ratings").click()
    bob.locator("[data-game=cards]").click()
    board = bob.get_by_test_id("leaderboard")
    expect(board.locator(f"tr[data-player='{ada_name}']")).to_be_visible()
    expect(board.locator(f"tr[data-player='{bob_name}']")).to_be_visible()
    no_violations(axe_scan, bob, "leaderboard")
    screenshot(bob, "community-leaderboard")
    phone.goto("/#/ratings/cards")
    expect(phone.get_by_test_id("leaderboard")).to_be_visible()
    fits(phone)
    screenshot(phone, "community-leaderboard-360")
    bob.goto("/#/player/bot:hard")
    expect(bob.locator("h1")).to_have_text("Bot: Hard (Morrigan)")
    no_violations(axe_scan, bob, "a bot's page")
    for page in (ada, bob, phone):
        assert not page.page_errors, page.page_errors


#: In place of the browser's notifications (headless Chromium shows none) and its idea of
#: whether the tab is in the background: what the page would have shown is kept in
#: ``window.notes``; ``window.hiddenTab`` says whether the tab is in the background.
FAKE_NOTIFICATIONS = """
window.notes = [];
window.hiddenTab = false;
function FakeNotification(title, options) {
  window.notes.push({ title, body: options && options.body });
  this.close = () => undefined;
}
FakeNotification.permission = "default";
FakeNotification.requestPermission = async () => (FakeNotification.permission = "granted");
window.Notification = FakeNotification;
Object.defineProperty(Document.prototype, "hidden", {
  get: () => window.hiddenTab,
  configurable: true,
});
"""


def test_the_turn_badge_and_a_notification_in_the_background(
    new_page: Any, server: Server, axe_scan: Any
) -> None:
    page = new_page(server=server)
    page.add_init_script(FAKE_NOTIFICATIONS)
    page.clock.install()
    name = unique("dora")
    sign_up(page, name)
    badge = page.get_by_test_id("turn-badge")
    expect(badge).to_have_attribute("data-count", "0")
    expect(badge).to_have_accessible_name("Your turn in 0 matches")
    # Notifications are asked for with a click (the badge's list), and remembered.
    badge.click()
    expect(page.locator("#turn-list")).to_contain_text("No match is waiting for you.")
    no_violations(axe_scan, page, "the turn badge's list")
    page.get_by_test_id("notify-toggle").check()
    expect(page.get_by_test_id("notify-toggle")).to_be_checked()
    assert page.evaluate("localStorage.getItem('keltis.notify')") == "on"
    page.keyboard.press("Escape")

    # The tab goes into the background; a match starts where it is this account's turn.
    page.evaluate("window.hiddenTab = true; document.dispatchEvent(new Event('visibilitychange'))")
    csrf = page.request.get("/api/sessions/current").json()["csrf"]
    made = page.request.post(
        "/api/matches",
        data={"game": "cards", "seats": AGAINST_A_BOT, "seat": 0},
        headers={"X-CSRF-Token": csrf},
    )
    assert made.status == 201, made.text()
    match_id = made.json()["id"]
    # The next look (a minute later in the background) finds it: the badge, the notification.
    page.clock.fast_forward(61_000)
    expect(badge).to_have_attribute("data-count", "1")
    page.wait_for_function("() => window.notes.length === 1")
    note = page.evaluate("window.notes[0]")
    assert note == {"title": "Keltis: your turn", "body": "1 match is waiting for your move."}
    # Back in the foreground, the badge's list opens the match.
    page.evaluate("window.hiddenTab = false; document.dispatchEvent(new Event('visibilitychange'))")
    badge.click()
    page.locator(f"#turn-list a[data-match='{match_id}']").click()
    page.wait_for_selector(".game[data-turn=mine]")
    assert page.evaluate("location.hash") == f"#/match/{match_id}"
    assert not page.page_errors, page.page_errors


def test_the_new_match_form_makes_a_rated_match_with_a_time_control(
    new_page: Any, server: Server, axe_scan: Any, screenshot: Any
) -> None:
    # A guest has the time control but no "rated" switch.
    guest = new_page(server=server)
    guest.goto("/#/new")
    guest.wait_for_selector(".create form")
    expect(guest.get_by_test_id("new-time")).to_be_visible()
    assert guest.get_by_test_id("rated").count() == 0

    page = new_page(server=server)
    name = unique("erin")
    sign_up(page, name)
    page.goto("/#/new")
    page.wait_for_selector(".create form")
    page.get_by_test_id("rated").check()
    page.locator("input[name=new-time-kind][value=correspondence]").check()
    page.get_by_test_id("new-days").select_option("2")
    expect(page.get_by_test_id("turn-seconds")).to_have_count(0)  # the time control replaces it
    no_violations(axe_scan, page, "the new-match form, logged in")
    screenshot(page, "community-new-match")
    with page.expect_request(
        lambda r: r.url.endswith("/api/matches") and r.method == "POST"
    ) as asked:
        page.get_by_role("button", name="Create the match").click()
    body = asked.value.post_data_json
    assert body["rated"] is True
    assert body["time"] == {"kind": "correspondence", "days": 2}
    assert "turn_seconds" not in body
    page.wait_for_selector(".lobby")
    statement = page.get_by_test_id("time-control")
    expect(statement).to_contain_text("by correspondence: 2 days a move")
    expect(statement).to_contain_text("out of time, a bot plays on and the seat ranks last")
    invite = page.locator("[data-invite='1']").input_value()
    # A guest cannot take a rated match's seat: the server says why, the page offers to log in.
    guest.goto(invite)
    guest.get_by_label("Your name").fill("Fred")
    guest.locator(".join button[type=submit]").click()
    expect(guest.locator(".join .error")).to_be_visible()
    expect(guest.locator(".join a.button", has_text="Log in")).to_be_visible()

    phone = new_page(server=server, width=360, height=740)
    sign_up(phone, unique("finn"))
    phone.goto("/#/new")
    phone.wait_for_selector(".create form")
    phone.get_by_test_id("rated").check()
    fits(phone)
    screenshot(phone, "community-new-match-360")
    for each in (guest, page, phone):
        assert not each.page_errors, each.page_errors

"""The moves' tools in the page: a move typed in notation (a wrong one refused with the rule's
reason in the player's language, the game going on), hints, taking a move back, and watching
as a spectator (no hand, no hidden card)."""

from __future__ import annotations

from typing import Any

from keltis.catalogs import catalog_json
from server.harness import Server
from web.helpers import ws_messages
from web.pages import (
    BOARD_SHORT,
    click_a_move,
    hold_seat,
    open_match,
    play_my_turn,
    ply,
    wait_moved,
    wait_my_turn,
    wait_my_turn_at,
)

AGAINST_A_BOT = [{"kind": "person"}, {"kind": "bot", "level": "easy"}]


def test_a_typed_move_that_breaks_a_rule_is_refused_with_its_reason_in_the_players_language(
    new_page: Any, web_server: Server, screenshot: Any
) -> None:
    page = new_page(lang="pl")
    open_match(page, web_server, game="board", seats=AGAINST_A_BOT, setup=BOARD_SHORT)
    wait_my_turn(page)
    start = ply(page)
    field = page.get_by_test_id("type-move")
    # Not a card at all.
    field.fill("Q9")
    field.press("Enter")
    error = page.get_by_test_id("error")
    polish = catalog_json("pl", "Polski")["messages"]
    assert error.inner_text() == polish["refuse.not_a_move.board"]
    # A card that is not in the hand (B-10): the rule's id and its Polish reason.
    field.fill("B10")
    field.press("Enter")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=error]')?.innerText.includes('B10')"
    )
    text = error.inner_text()
    assert polish["refuse.not_in_hand"].replace("{card}", "B10") in text
    # the rule in words, its id only in the link that opens its section over the game
    assert not text.startswith("B-"), text
    link = error.locator("[data-rule-link]")
    assert link.get_attribute("data-rule-link") == "B-10"
    assert link.inner_text() == polish["rules.link"].replace("{id}", "B-10")
    screenshot(page, "refused-move")
    link.click()
    page.get_by_test_id("rules-dialog").wait_for()
    page.wait_for_function("() => document.activeElement?.id === 'B-10'")
    assert page.locator("[data-testid=rules-dialog] #B-10").is_visible()
    page.keyboard.press("Escape")
    page.get_by_test_id("rules-dialog").wait_for(state="detached")
    assert ply(page) == start
    # The game goes on: a typed legal move is played.
    field.fill("G1")
    field.press("Enter")
    wait_moved(page, start)
    assert page.locator(".player[data-seat='0'] .row-line").first.locator(".card").count() == 1
    assert not page.page_errors


def test_hints_and_taking_a_move_back(new_page: Any, web_server: Server) -> None:
    page = new_page()
    open_match(page, web_server, game="board", seats=AGAINST_A_BOT, setup=BOARD_SHORT)
    wait_my_turn(page)
    page.get_by_role("button", name="Hint").click()
    hints = page.locator(".hints li")
    hints.first.wait_for()
    assert "chance to win" in hints.first.inner_text()
    hand = sorted(
        page.locator(".hand [data-card]").evaluate_all("bs => bs.map(b => b.dataset.card)")
    )
    # One whole turn (a lay, a figure perhaps, a draw), then the bot's.
    made = play_my_turn(page)
    wait_my_turn_at(page, made + 2)
    # Each "Take back" undoes one decision of mine, and the bots' moves after it: first the
    # draw (and the bot's whole turn), then the rest of my turn, back to the start.
    for undone in range(1, made + 1):
        page.get_by_role("button", name="Take back").click()
        page.wait_for_function(
            "(p) => document.querySelector('.game')?.dataset.ply === p", arg=str(made - undone)
        )
    wait_my_turn(page)
    again = sorted(
        page.locator(".hand [data-card]").evaluate_all("bs => bs.map(b => b.dataset.card)")
    )
    assert again == hand
    assert not page.page_errors


def test_a_spectator_sees_the_game_but_no_hand(new_page: Any, web_server: Server) -> None:
    player = new_page()
    answer = open_match(player, web_server, game="board", seats=AGAINST_A_BOT, setup=BOARD_SHORT)
    wait_my_turn(player)
    watcher = new_page(lang="es")
    watcher.goto("/#" + answer["watch"].split("#", 1)[1])
    watcher.wait_for_selector(".game")
    before = ply(player)
    click_a_move(player)
    wait_moved(player, before)
    watcher.wait_for_function(
        "(p) => Number(document.querySelector('.game').dataset.ply) >= p", arg=int(before) + 1
    )
    assert watcher.locator(".hand").count() == 0
    assert watcher.locator(".option, .card-button").count() == 0
    spanish = catalog_json("es", "Español")["messages"]
    assert spanish["web.spectating"] in watcher.inner_text("body")
    for message in ws_messages(watcher):
        view = message.get("view")
        if view is not None:
            assert view["viewer"] is None
            assert view["hand"] is None
            assert view["legal"] == []
    own = set(BOARD_SHORT["hands"][0]) | set(BOARD_SHORT["hands"][1])
    shown = set(watcher.locator("[data-card]").evaluate_all("bs => bs.map(b => b.dataset.card)"))
    assert not shown & own


def test_an_unknown_match_or_a_stale_seat_is_said_once_not_retried(
    new_page: Any, web_server: Server
) -> None:
    page = new_page(lang="hu")
    hungarian = catalog_json("hu", "Magyar")["messages"]
    page.goto("/#/match/no-such-match")
    error = page.locator(".error")
    error.wait_for()
    assert error.inner_text() == hungarian["server.no_match"].replace("{id}", "no-such-match")
    assert page.locator("a.button[href='#/']").inner_text() == hungarian["web.home"]
    # A seat token the server does not know (its database was replaced, say).
    answer = open_match(page, web_server, game="board", seats=AGAINST_A_BOT, setup=BOARD_SHORT)
    hold_seat(page, answer["id"], 0, "not-a-token")
    page.goto(f"/#/match/{answer['id']}")
    error.wait_for()
    assert error.inner_text() == hungarian["server.bad_token"]
    hellos = [m for m in ws_messages(page, "sent") if m["type"] == "hello"]
    errors = [m for m in ws_messages(page) if m["type"] == "error"]
    assert len(errors) == 2  # one for each: no connecting again and again
    assert len(hellos) == 3  # the unknown match, the real seat, the stale token
    assert not page.page_errors


def test_switching_language_mid_game_words_the_servers_answers_anew(
    new_page: Any, web_server: Server
) -> None:
    page = new_page()
    open_match(page, web_server, game="board", seats=AGAINST_A_BOT, setup=BOARD_SHORT)
    wait_my_turn(page)
    hellos = len([m for m in ws_messages(page, "sent") if m["type"] == "hello"])
    with page.expect_websocket() as opened:  # the page says hello again, in Polish
        page.get_by_test_id("language").select_option("pl")
    opened.value.wait_for_event("framereceived")  # the snapshot that answers it
    page.wait_for_function("() => document.documentElement.lang === 'pl'")
    polish = catalog_json("pl", "Polski")["messages"]
    page.get_by_test_id("type-move").fill("Q9")
    page.get_by_test_id("type-move").press("Enter")
    page.get_by_test_id("error").wait_for()
    assert page.get_by_test_id("error").inner_text() == polish["refuse.not_a_move.board"]
    sent = [m for m in ws_messages(page, "sent") if m["type"] == "hello"]
    assert len(sent) == hellos + 1
    assert sent[-1]["lang"] == "pl"
    # A new hello is no lost connection: no warning was shown, and the seat is still ours.
    assert page.locator(".banner.warn").count() == 0
    assert page.get_attribute(".game", "data-turn") == "mine"

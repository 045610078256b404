"""One source for what the client shows (issue 40 §4, §2.7): the scoring tables of the rules
pages and the board are the server's (``GET /api/games``, each game's ``tables``), never
numbers of the client's own; a refused move shows the wire's ``reason`` beside its rule, not
a message the client cuts ``"B-10: "`` from; the rules pages say what a player needs and
leave our notes on sources to docs/rules.

To tell the client's own numbers from the server's, these tests hand the page other tables
(and another reason) than the real server sends: whatever the page shows then came from the
answer, not from the client."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from keltis.catalogs import catalog_json
from server.harness import Server
from web.pages import BOARD_SHORT, open_match, wait_my_turn

AGAINST_A_BOT = [{"kind": "person"}, {"kind": "bot", "level": "easy"}]

#: Tables no rulebook has: a page showing these shows what the server said.
OTHER_TABLES: dict[str, dict[str, Any]] = {
    "board": {
        "row_values": [0, -5, -4, -1, 1, 2, 4, 5, 8, 12],
        "wish_points": [-6, -2, 1, 3, 7, 11],
        "goal_row": 7,
        "goal_figures": 6,
    },
    "cards": {
        "row_points": [0, -6, -5, -1, 1, 3, 4, 5, 9, 13],
        "wish_points": [-5, -2, 1, 5, 8, 12],
        "wish_stones": [1, 2, 3, 4, 5, 6, 7, 8, 9],
    },
}


def signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def serve_other_tables(page: Any) -> None:
    """The page's ``GET /api/games`` answered with :data:`OTHER_TABLES` as the tables."""

    def handle(route: Any) -> None:
        response = route.fetch()
        body = response.json()
        for game in body["games"]:
            game["tables"] = OTHER_TABLES[game["name"]]
        route.fulfill(response=response, json=body)

    page.route("**/api/games", handle)


def last_cells(rows: Any) -> list[str]:
    return [str(text).split()[-1] for text in rows.all_inner_texts()]


def test_the_rules_pages_show_the_servers_tables(new_page: Any) -> None:
    page = new_page()
    serve_other_tables(page)
    page.goto("/#/rules/board")
    page.locator('[id="B-21"] table').wait_for()
    board = OTHER_TABLES["board"]
    values = board["row_values"][1:]
    # the path's stones and their values (B-2), and what a figure scores there (B-21)
    assert page.locator('[id="B-2"] .row-value').all_text_contents() == [signed(v) for v in values]
    path = page.locator('[id="B-21"] table tbody tr').all_inner_texts()
    assert [row.split()[1:] for row in path] == [[signed(v), signed(2 * v)] for v in values]
    assert last_cells(page.locator('[id="B-23"] table tbody tr')) == [
        signed(p) for p in board["wish_points"]
    ]
    page.goto("/#/rules/cards")
    page.locator('[id="C-16"] table').wait_for()
    cards = OTHER_TABLES["cards"]
    assert last_cells(page.locator('[id="C-16"] table tbody tr')) == [
        signed(p) for p in cards["row_points"][1:]
    ]
    assert last_cells(page.locator('[id="C-18"] table tbody tr')) == [
        signed(p) for p in cards["wish_points"]
    ]
    assert not page.page_errors


def test_the_board_shows_the_servers_row_values_and_goal(new_page: Any, web_server: Server) -> None:
    page = new_page()
    serve_other_tables(page)
    open_match(page, web_server, game="board", seats=AGAINST_A_BOT, setup=BOARD_SHORT)
    wait_my_turn(page)
    values = OTHER_TABLES["board"]["row_values"]
    assert page.locator(".board .row-value").all_text_contents() == [signed(v) for v in values[1:]]
    # each stone's name for a screen reader says its value too
    stone = str(page.locator("[data-stone=G8]").get_attribute("aria-label"))
    assert f"(value {values[8]})" in stone
    assert str(page.locator(".board .goal-label").text_content()).endswith("0/6")
    assert not page.page_errors


def test_a_refused_move_shows_the_wires_reason_beside_its_rule(
    new_page: Any, web_server: Server
) -> None:
    """The reason shown is the wire's ``reason``: here the server's answer is given another
    one, and another text after the rule's id in ``message``; the page shows the field."""
    page = new_page(lang="pl")
    polish = catalog_json("pl", "Polski")["messages"]
    told: list[dict[str, Any]] = []

    def route(socket: Any) -> None:
        server = socket.connect_to_server()

        def from_server(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "error" and data.get("rule"):
                told.append(dict(data))
                data["message"] = f"{data['rule']}: a message no client cuts"
                data["reason"] = f"{data['reason']} (reason)"
            socket.send(json.dumps(data))

        server.on_message(from_server)

    page.route_web_socket(re.compile(r"/api/matches/[^/]+/live$"), route)
    open_match(page, web_server, game="board", seats=AGAINST_A_BOT, setup=BOARD_SHORT)
    wait_my_turn(page)
    field = page.get_by_test_id("type-move")
    field.fill("B10")  # not in the hand: B-10
    field.press("Enter")
    error = page.get_by_test_id("error")
    error.locator("[data-rule-link]").wait_for()
    reason = polish["refuse.not_in_hand"].replace("{card}", "B10")
    # what the server sent: the rule, the reason alone, and the two together in the message
    assert told[0]["rule"] == "B-10"
    assert told[0]["reason"] == reason
    assert told[0]["message"] == f"B-10: {reason}"
    # what the page shows: the reason field, then the link to the rule
    link = error.locator("[data-rule-link]")
    assert link.get_attribute("data-rule-link") == "B-10"
    assert error.inner_text() == f"{reason} (reason) {link.inner_text()}"
    assert not page.page_errors


@pytest.mark.parametrize("lang", ["en", "de", "cs", "sk", "hu", "pl", "es"])
def test_the_dark_stones_rule_says_what_a_player_needs_not_our_sources(
    new_page: Any, lang: str
) -> None:
    """B-4 on the rules page: the dark stones, without the note that our board is a
    reconstruction (that stays in docs/rules/board.md)."""
    page = new_page(lang=lang)
    page.goto("/#/rules/board/B-4")
    rule = page.locator('[id="B-4"] p')
    rule.wait_for()
    text = rule.inner_text()
    assert text == catalog_json(lang, lang)["messages"]["rules.board.places"]
    assert "keltis" not in text.lower()
    assert not re.search(r"re[ck]onstru|Rekonstru|rekonštru", text), text

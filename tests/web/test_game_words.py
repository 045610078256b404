"""A game's words in the page (issue 40 §2.1, §2.4, §2.5, §2.10): a typed move that is no move
names only its own game's moves; the move words a player reads and types are their language's
(the notation's English ones are read too), with no English move word outside the box to type
in; the winner named in a form that fits any player; the matches page lists the player's own
matches as the start page does."""

from __future__ import annotations

import re
from typing import Any

from keltis.catalogs import catalog_json
from server.harness import Server
from web.helpers import ws_messages
from web.pages import (
    BOARD_SHORT,
    CARDS_SHORT,
    ENGLISH_MOVE_WORD,
    OUTSIDE_THE_BOX,
    click_a_move,
    open_match,
    ply,
    wait_moved,
    wait_my_turn,
)

AGAINST_A_BOT = [{"kind": "person"}, {"kind": "bot", "level": "easy"}]


def messages(lang: str) -> dict[str, Any]:
    return catalog_json(lang, lang)["messages"]  # type: ignore[no-any-return]


def first_word(words: dict[str, Any], notation: str) -> str:
    return str(words[f"move.word.{notation}"]).split()[0]


def type_move(page: Any, text: str) -> None:
    page.get_by_test_id("type-move").fill(text)
    page.get_by_test_id("type-move").press("Enter")


def no_english_move_word(page: Any) -> None:
    text = page.evaluate(OUTSIDE_THE_BOX)
    assert not ENGLISH_MOVE_WORD.findall(text), ENGLISH_MOVE_WORD.findall(text)


def test_the_card_game_says_its_own_moves_in_spanish_and_reads_them(
    new_page: Any, web_server: Server, screenshot: Any
) -> None:
    page = new_page(lang="es", width=390, height=844)
    open_match(page, web_server, game="cards", seats=AGAINST_A_BOT, setup=CARDS_SHORT, name="Lucía")
    wait_my_turn(page)
    spanish = messages("es")
    # §2.1: no move at all is answered with the card game's moves, none of the board game's.
    type_move(page, "xyz")
    error = page.get_by_test_id("error")
    error.wait_for()
    assert error.inner_text() == spanish["refuse.not_a_move.cards"]
    assert "grande" not in error.inner_text()
    assert " >G" not in error.inner_text()
    # §2.4: the help under the box lists the Spanish words it reads.
    help_text = page.locator(".type-help").inner_text()
    for notation in ("draw", "pass", "wish"):
        assert re.search(rf"\b{first_word(spanish, notation)}\b", help_text), notation
    no_english_move_word(page)
    screenshot(page, "cards-es-not-a-move")
    # A whole game by clicking: at every decision no English move word outside the box.
    made = 0
    while not page.locator(".final").count():
        assert made < 200, "the game did not end"
        no_english_move_word(page)
        before = ply(page)
        click_a_move(page)
        made += 1
        wait_my_turn(page, before)
    # §2.10: the winner's word fits Lucía as well as anyone.
    final = page.locator(".final").inner_text()
    assert "ganador" not in final
    if page.locator(".final tr.winner").count():
        assert page.locator(".win-mark").first.inner_text().strip() == f"★ {spanish['web.winner']}"
    no_english_move_word(page)
    screenshot(page, "cards-es-final")


def test_polish_move_words_are_read_and_said_in_the_board_game(
    new_page: Any, web_server: Server, screenshot: Any
) -> None:
    page = new_page(lang="pl")
    open_match(page, web_server, game="board", seats=AGAINST_A_BOT, setup=BOARD_SHORT)
    wait_my_turn(page)
    polish = messages("pl")
    draw = first_word(polish, "draw")
    assert draw == "dobierz"
    # A Polish word where a card must be played: refused, the move repeated in Polish.
    type_move(page, draw)
    error = page.get_by_test_id("error")
    error.wait_for()
    assert f"nie {draw} " in f"{error.inner_text()} ", error.inner_text()
    sent = [m for m in ws_messages(page, "sent") if m["type"] == "act"]
    assert sent[-1]["action"] == "draw"  # sent as the notation
    no_english_move_word(page)
    # The help lists the Polish words the box reads.
    help_text = page.locator(".type-help").inner_text()
    for notation in ("draw", "pass", "big", "small"):
        assert re.search(rf"\b{first_word(polish, notation)}\b", help_text), notation
    # Lay a card (a new row: the figure's choice comes, in Polish words), then type the draw.
    before = ply(page)
    page.locator(".card-button.playable").first.click()
    page.locator(".option").first.click()
    wait_moved(page, before)
    while page.locator("[data-prompt]").count():
        no_english_move_word(page)
        before = ply(page)
        page.locator("[data-prompt]").first.click()
        wait_moved(page, before)
    assert page.get_attribute(".game", "data-turn") == "mine"
    no_english_move_word(page)
    screenshot(page, "board-pl-draw-phase")
    before = ply(page)
    type_move(page, "Dobierz")
    wait_moved(page, before)
    assert [m for m in ws_messages(page, "sent") if m["type"] == "act"][-1]["action"] == "draw"
    assert not page.get_by_test_id("error").count()


def test_the_matches_page_lists_the_players_own_matches(
    new_page: Any, web_server: Server, screenshot: Any
) -> None:
    page = new_page(lang="pl")
    made = open_match(page, web_server, game="board", seats=AGAINST_A_BOT, setup=BOARD_SHORT)
    wait_my_turn(page)
    page.goto("/#/matches")
    mine = page.get_by_test_id("my-matches")
    mine.wait_for()
    row = mine.locator(f"[data-match='{made['id']}']")
    assert row.count() == 1
    assert row.locator("a.button").get_attribute("href") == f"#/match/{made['id']}"
    # The same list as the start page's, from the same source.
    page.goto("/#/")
    page.get_by_test_id("my-matches").wait_for()
    assert page.locator(f"[data-testid=my-matches] [data-match='{made['id']}']").count() == 1
    page.goto("/#/matches")
    page.get_by_test_id("public-running").wait_for()
    # A public list never repeats a match listed as the player's own.
    assert page.locator(f"[data-testid^=public-] [data-match='{made['id']}']").count() == 0
    screenshot(page, "matches-pl")

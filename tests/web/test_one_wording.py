"""One wording of a move (issue 26 §4): the page words moves and events from the labels the
server sends, so outside the move box (where a player may read and type notation) a game
screen shows no notation (``G7``, ``*5``, ``RX``) and no English colour initial, in any of
the server's languages — during a game (the log, "since your last move", the table, the
piles) and on the final screen; and the language list is the server's."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from keltis.i18n import LANGUAGES
from server.harness import Server
from web.helpers import ws_messages
from web.pages import open_match, play_my_turn, play_to_the_end, wait_my_turn
from web.test_since_last_move import GAMES, THREE, settle

#: A card in notation: a colour letter and a value or X, or a point card.
NOTATION = re.compile(r"(?<![\w*])(?:[GYRPB](?:10|[0-9]|X)|\*(?:10|[0-9]))(?!\w)")
#: A colour's English initial standing alone ("draw G", "the G pile").
INITIAL = re.compile(r"(?<!\w)[GYRPB](?!\w)")

#: The text a person sees, less the move box (the options with their notation, the field
#: to type a move in); the language is switched by the page's own menu.
VISIBLE_TEXT = """() => {
  const box = document.querySelector('.moves');
  if (box) box.style.display = 'none';
  const text = document.body.innerText;
  if (box) box.style.display = '';
  return text;
}"""


def texts_in_every_language(page: Any) -> dict[str, str]:
    out: dict[str, str] = {}
    for lang in LANGUAGES:
        page.select_option("[data-testid=language]", lang)
        page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
        page.wait_for_function(
            "() => !document.body.innerText.match(/\\b(web|ev|act)\\.[a-z_]+/)", timeout=5000
        )
        out[lang] = page.evaluate(VISIBLE_TEXT)
    return out


def choose_language(page: Any, lang: str, timeout: float = 30) -> None:
    """Switch the page to ``lang`` before playing on: the page says its hello again in that
    language and the answer, a snapshot, draws the game anew, letting go of a card chosen
    before it came (on a busy machine a click could fall in between and wait for options
    that never show), so this waits for that snapshot."""
    if page.evaluate("document.documentElement.lang") == lang:
        return
    snapshots = sum(m["type"] == "snapshot" for m in ws_messages(page))
    page.select_option("[data-testid=language]", lang)
    page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
    deadline = time.monotonic() + timeout
    while sum(m["type"] == "snapshot" for m in ws_messages(page)) <= snapshots:
        assert time.monotonic() < deadline, f"no snapshot came after switching to {lang}"
        page.wait_for_timeout(50)  # Playwright takes in the socket's frames while it waits


def assert_worded(texts: dict[str, str], where: str) -> None:
    for lang, text in texts.items():
        for pattern in (NOTATION, INITIAL):
            found = pattern.findall(text) and [
                text[max(0, m.start() - 40) : m.end() + 40] for m in pattern.finditer(text)
            ]
            assert not found, f"{where}, {lang}: {found[:5]}"


@pytest.mark.parametrize(("game", "setup"), GAMES)
def test_no_notation_and_no_colour_initial_outside_the_move_box(
    new_page: Any, web_server: Server, game: str, setup: dict[str, Any]
) -> None:
    page = new_page()
    open_match(page, web_server, game=game, seats=THREE, setup=setup)
    wait_my_turn(page)
    for _ in range(3):
        play_my_turn(page)
        settle(page)
    # Something of every kind to word: lays, discards, draws, the others' turns.
    kinds = {
        e["type"] for m in ws_messages(page) if m["type"] == "step" for e in m["step"]["events"]
    }
    assert {"lay", "discard", "draw_deck"} <= kinds | {"discard"}, kinds
    assert page.locator("[data-testid=since] li").count() >= 1
    assert "draw_pile" in kinds or "lay_onto" in kinds or game == "board"
    assert_worded(texts_in_every_language(page), f"{game}, during the game")
    choose_language(page, "en")
    play_to_the_end(page)
    assert_worded(texts_in_every_language(page), f"{game}, the final screen")


def test_the_language_menu_lists_the_server_languages(new_page: Any, web_server: Server) -> None:
    page = new_page(lang="hu")
    page.goto("/")
    page.wait_for_selector("[data-testid=language]")
    offered = page.eval_on_selector_all(
        "[data-testid=language] option", "options => options.map(o => o.value)"
    )
    served = page.evaluate("async () => Object.keys(await (await fetch('/api/catalogs')).json())")
    assert offered == served == list(LANGUAGES)
    assert page.evaluate("document.documentElement.lang") == "hu"


@pytest.mark.parametrize(("game", "setup"), GAMES)
def test_a_score_shows_its_parts_which_add_up_to_it(
    new_page: Any, web_server: Server, game: str, setup: dict[str, Any]
) -> None:
    """Tapping a player's score shows what it is made of as it stands (−4 at the start: no
    wish stone), the parts adding up to the score shown, for every seat, as the game goes."""
    page = new_page()
    open_match(page, web_server, game=game, seats=THREE, setup=setup)
    wait_my_turn(page)
    for turn in range(3):
        scores = page.locator("[data-testid=score]")
        assert scores.count() == 3
        for seat in range(3):
            button = scores.nth(seat)
            button.click()
            assert button.get_attribute("aria-expanded") == "true"
            parts = page.locator(f"#parts-{seat}")
            points = [
                int(p)
                for p in parts.locator("dd").evaluate_all("dds => dds.map(d => d.dataset.points)")
            ]
            *each, total = points
            assert total == int(button.inner_text()), (turn, seat, points)
            assert sum(each) == total, (turn, seat, points)
            if turn == 0:
                assert total == -4  # nothing yet but no wish stone: its line says so
                assert parts.locator("dd").nth(len(each) - 1).get_attribute("data-points") == "-4"
            button.click()
            assert parts.count() == 0
        play_my_turn(page)
        settle(page)


def test_a_refused_move_in_the_card_game_links_to_its_rule(
    new_page: Any, web_server: Server
) -> None:
    """A card game's refusal says the rule in words; its link opens the rules over the game
    at that rule's section, and the game is still there after."""
    page = new_page(lang="de")
    setup = dict(GAMES)["cards"]
    open_match(page, web_server, game="cards", seats=THREE, setup=setup)
    wait_my_turn(page)
    field = page.get_by_test_id("type-move")
    field.fill("BX")  # a closing card not in the hand
    field.press("Enter")
    link = page.locator("[data-testid=error] [data-rule-link]")
    link.wait_for()
    rule = link.get_attribute("data-rule-link")
    assert rule is not None
    assert rule.startswith("C-")
    assert not page.get_by_test_id("error").inner_text().startswith("C-")
    snapshots = [m for m in ws_messages(page) if m["type"] == "snapshot"]
    link.click()
    page.get_by_test_id("rules-dialog").wait_for()
    page.wait_for_function("(id) => document.activeElement?.id === id", arg=rule)
    page.keyboard.press("Escape")
    page.get_by_test_id("rules-dialog").wait_for(state="detached")
    assert page.locator(".game").get_attribute("data-turn") == "mine"
    # the same connection: no new snapshot (a reconnection would bring one)
    assert [m for m in ws_messages(page) if m["type"] == "snapshot"] == snapshots

"""Everyone can play: no serious accessibility violation on any main screen (axe-core), a
whole turn by keyboard alone, the phone-width layout (360 px), and the page in another
language with every visible string translated."""

from __future__ import annotations

import re
from typing import Any

import pytest

from keltis.catalogs import catalog_json
from server.harness import Server
from web.helpers import describe_violations
from web.pages import (
    BOARD_SHORT,
    CARDS_SHORT,
    open_match,
    play_to_the_end,
    ply,
    wait_moved,
    wait_my_turn,
    wait_my_turn_at,
)

AGAINST_A_BOT = [{"kind": "person"}, {"kind": "bot", "level": "easy"}]


def no_violations(axe_scan: Any, page: Any, screen: str) -> None:
    violations = axe_scan(page)
    assert not violations, f"{screen}:\n{describe_violations(violations)}"


def test_no_serious_accessibility_violation_on_the_main_screens(
    new_page: Any, web_server: Server, axe_scan: Any, screenshot: Any
) -> None:
    page = new_page()
    page.goto("/")
    page.wait_for_selector("[data-testid=play-now]")
    no_violations(axe_scan, page, "start page")
    screenshot(page, "start-page")
    page.goto("/#/new")
    page.wait_for_selector(".create form")
    no_violations(axe_scan, page, "new match")
    page.goto("/#/matches")
    page.wait_for_selector(".matches h2")
    no_violations(axe_scan, page, "matches")
    for game, setup in (("board", BOARD_SHORT), ("cards", CARDS_SHORT)):
        open_match(page, web_server, game=game, seats=AGAINST_A_BOT, setup=setup)
        wait_my_turn(page)
        no_violations(axe_scan, page, f"{game} game")
        page.locator(".card-button.playable").first.click()
        no_violations(axe_scan, page, f"{game} game, a card chosen")
        play_to_the_end(page)
        no_violations(axe_scan, page, f"{game} final scores")
        page.locator(".final-buttons button").nth(1).click()  # the replay
        page.wait_for_selector(".replay[data-ply='0']")
        no_violations(axe_scan, page, f"{game} replay")


def test_a_whole_turn_by_keyboard_alone(new_page: Any, web_server: Server) -> None:
    page = new_page()
    open_match(page, web_server, game="board", seats=AGAINST_A_BOT, setup=BOARD_SHORT)
    wait_my_turn(page)
    start = ply(page)

    def tab_to(selector: str) -> None:
        """Tab (only) until the focused element matches ``selector``, then press Enter."""
        for _ in range(120):
            page.keyboard.press("Tab")
            if page.evaluate("(s) => document.activeElement?.matches(s) ?? false", selector):
                page.keyboard.press("Enter")
                return
        raise AssertionError(f"Tab never reached {selector}")

    # Play a card: the first playable card of the hand, then its first move.
    tab_to(".card-button.playable")
    tab_to(".option")
    wait_moved(page, start)
    # A first card of a colour asks which figure: the prompt on the board.
    made = 1
    page.wait_for_selector("[data-prompt], .pile.deck .pile-button")
    if page.locator("[data-prompt]").count():
        before = ply(page)
        tab_to("[data-prompt]")
        made += 1
        wait_moved(page, before)
    # Draw: the draw pile is a button.
    page.wait_for_selector(".pile.deck .pile-button")
    tab_to(".pile.deck .pile-button")
    made += 1
    # The turn passed to the bot (a lay and a draw at least) and came back: the keyboard
    # played a whole turn.
    wait_my_turn_at(page, int(start) + made + 2)
    steps = page.locator(".log li").all_inner_texts()
    assert any(text.strip().startswith(f"{int(start) + 1}.") for text in steps)
    # Number keys choose the listed moves too.
    page.locator(".card-button.playable").first.focus()
    page.keyboard.press("Enter")
    before = ply(page)
    page.keyboard.press("1")
    wait_moved(page, before)
    assert not page.page_errors


@pytest.mark.parametrize("game", ["board", "cards"])
def test_the_phone_width_layout(
    new_page: Any, web_server: Server, screenshot: Any, game: str
) -> None:
    page = new_page(width=360, height=740)
    page.goto("/")
    page.wait_for_selector("[data-testid=play-now]")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    screenshot(page, "phone-start-page")
    setup = BOARD_SHORT if game == "board" else CARDS_SHORT
    open_match(page, web_server, game=game, seats=AGAINST_A_BOT, setup=setup)
    wait_my_turn(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    # Every card of the hand fits the width.
    for box in page.locator(".hand .card-button").evaluate_all(
        "bs => bs.map(b => b.getBoundingClientRect().right)"
    ):
        assert box <= 360
    # The hand is on the first screen, right under the board (or, in the card game, above the
    # rows), with the piles after it.
    tops = page.evaluate(
        """() => Object.fromEntries(['.board-wrap', '.moves', '.piles', '.players']
            .map(s => [s, document.querySelector(s)?.getBoundingClientRect().top ?? null]))"""
    )
    first = page.locator(".hand .card-button").first.bounding_box()
    assert first is not None
    assert first["y"] + 0.6 * first["height"] < 740  # most of the first row in sight
    assert tops[".moves"] < tops[".piles"]
    if game == "board":
        assert tops[".board-wrap"] < tops[".moves"]
        assert tops[".piles"] < tops[".players"]
    else:
        assert tops[".moves"] < tops[".players"] < tops[".piles"]
    screenshot(page, f"phone-{game}")
    play_to_the_end(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    screenshot(page, f"phone-{game}-final")


def english_texts(lang: str) -> list[str]:
    """The English texts of the interface that ``lang`` words differently: each message's
    text without parameters (its longest fixed part), if that part is long enough to be
    recognised in a page."""
    english = catalog_json("en", "English")["messages"]
    other = catalog_json(lang, lang)["messages"]
    found = []
    for key, text in english.items():
        if other.get(key) == text:
            continue
        forms = text["forms"] if isinstance(text, dict) else [text]
        for form in forms:
            parts = [p.strip(" :.,;–()") for p in re.split(r"\{[^}]*\}", form)]
            part = max(parts, key=len)
            if len(part) >= 5 and not part.isdigit():
                found.append(part)
    return sorted(set(found))


def test_every_visible_string_is_translated_after_a_language_switch(
    new_page: Any, web_server: Server, screenshot: Any
) -> None:
    page = new_page()
    page.goto("/")
    page.wait_for_selector("[data-testid=play-now]")
    english = english_texts("de")
    assert any(text in page.inner_text("body") for text in english), "the page is not English"
    page.get_by_test_id("language").select_option("de")
    page.wait_for_function("() => document.documentElement.lang === 'de'")

    def untranslated() -> list[str]:
        body = page.inner_text("body")
        return [text for text in english if re.search(rf"(?<!\w){re.escape(text)}(?!\w)", body)]

    assert not untranslated(), "English on the German start page"
    page.goto("/#/new")
    page.wait_for_selector(".create form")
    assert not untranslated(), "English on the German new-match page"
    for game, setup in (("board", BOARD_SHORT), ("cards", CARDS_SHORT)):
        open_match(page, web_server, game=game, seats=AGAINST_A_BOT, setup=setup, name="Ada")
        wait_my_turn(page)
        page.locator(".card-button.playable").first.click()
        assert not untranslated(), f"English in the German {game} game"
        screenshot(page, f"german-{game}")
        play_to_the_end(page)
        assert not untranslated(), f"English in the German {game} final scores"
    # The choice stays: a new page comes in German.
    page.reload()
    page.wait_for_function("() => document.documentElement.lang === 'de'")

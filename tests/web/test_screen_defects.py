"""Defects a first player found on the game screens (issue 26), each checked as a player meets
it: the final scores fit their box in every language and at every width and come into view
when the game ends; two equal cards are two cards; the instruction line speaks to the player
to move only; the tab's title; taking a move back says what was taken back; the replay's
controls, labels and list of moves."""

from __future__ import annotations

import re
from typing import Any

import pytest

from server.harness import Server, create
from web.helpers import artifacts_dir, wait_finished, ws_messages
from web.pages import (
    BOARD_SHORT,
    CARDS_SHORT,
    ada_and_bob,
    click_a_move,
    hold_seat,
    open_match,
    play_my_turn,
    ply,
    wait_moved,
    wait_my_turn,
    wait_my_turn_at,
)

LANGUAGES = ["en", "de", "cs", "sk", "hu", "pl", "es"]
BOTS = [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "random"}]
SHORT = {"board": BOARD_SHORT, "cards": CARDS_SHORT}

#: How far the final table and its box reach beyond what they show, and whether every
#: total (the last cell of each row) lies inside the box and the window.
FINAL_FIT = """() => {
  const box = document.querySelector('.final');
  const table = box.querySelector('table');
  const right = Math.min(box.getBoundingClientRect().right, document.documentElement.clientWidth);
  const totals = [...table.querySelectorAll('tbody tr')].map(
    (tr) => tr.lastElementChild.getBoundingClientRect().right);
  return {
    box: box.scrollWidth - box.clientWidth,
    table: table.scrollWidth - table.clientWidth,
    page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    totals_hidden: totals.filter((r) => r > right + 0.5).length,
    rows: totals.length,
  };
}"""

#: Whether the final scores' table lies wholly inside the window.
FINAL_IN_VIEW = """() => {
  const table = document.querySelector('.final table');
  if (!table) return false;
  const r = table.getBoundingClientRect();
  return r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0
    && r.right <= document.documentElement.clientWidth;
}"""


@pytest.fixture(scope="module")
def finished(web_server: Server) -> dict[str, str]:
    """A finished match of each game (bots, short set-ups): game → match id."""
    made = {
        game: create(web_server, game=game, seats=BOTS, seat=None, setup=setup)["id"]
        for game, setup in SHORT.items()
    }
    for match_id in made.values():
        wait_finished(web_server, match_id, timeout=60)
    return made


# -- 1. the final table fits ----------------------------------------------------------------


@pytest.mark.parametrize("width", [360, 1280])
def test_the_final_table_shows_every_total_in_every_language(
    new_page: Any, finished: dict[str, str], width: int
) -> None:
    page = new_page(width=width, height=800)
    wide: list[str] = []
    for game, match_id in finished.items():
        page.goto(f"/#/watch/{match_id}")
        page.wait_for_selector(".final table")
        for lang in LANGUAGES:
            page.select_option("[data-testid=language]", lang)
            page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
            fit = page.evaluate(FINAL_FIT)
            assert fit["rows"] == 2
            if fit["box"] > 0 or fit["table"] > 0 or fit["page"] > 0 or fit["totals_hidden"]:
                wide.append(f"{game} {lang} {width}px: {fit}")
            if lang == "de":
                page.locator(".final-wrap").screenshot(
                    path=str(artifacts_dir() / f"final-{game}-de-{width}.png")
                )
    assert not wide, "\n".join(wide)
    assert not page.page_errors


# -- 2. the final scores come into view -----------------------------------------------------


def test_the_final_scores_come_into_view_when_the_game_ends(
    new_page: Any, web_server: Server
) -> None:
    page = new_page(width=360, height=740)
    open_match(
        page, web_server, game="board", seats=[{"kind": "person"}, BOTS[0]], setup=BOARD_SHORT
    )
    wait_my_turn(page)
    while not page.locator(".final").count():
        # The player looks at the board between moves (the top of the page).
        page.evaluate("window.scrollTo(0, 0)")
        before = ply(page)
        click_a_move(page)
        wait_my_turn(page, before)
    page.wait_for_function(FINAL_IN_VIEW, timeout=5_000)
    assert page.evaluate("document.activeElement.id") == "final-title"
    assert not page.page_errors


# -- 3. two equal cards -----------------------------------------------------------------------

TWO_G7 = {
    "hands": [
        ["G7", "G7", "Y1", "Y2", "R3", "R4", "P5", "P6"],
        ["G4", "G5", "Y3", "Y4", "R1", "R2", "P1", "B1"],
    ],
    "deck": ["B2", "B3", "P2", "P3", "R5", "R6"],
}


def test_a_claim_with_two_equal_cards_is_listed_once(new_page: Any, web_server: Server) -> None:
    page = new_page()
    open_match(page, web_server, game="cards", seats=[{"kind": "person"}, BOTS[0]], setup=TWO_G7)
    wait_my_turn(page)
    page.locator(".hand [data-card='G7']").first.click()
    assert page.locator(".option[data-action='wish G7 G7']").count() == 1
    actions = page.locator(".option").evaluate_all("bs => bs.map(b => b.dataset.action)")
    assert len(actions) == len(set(actions)), actions
    assert not page.page_errors


def test_choosing_one_of_two_equal_cards_chooses_that_one(
    new_page: Any, web_server: Server
) -> None:
    page = new_page()
    open_match(page, web_server, game="cards", seats=[{"kind": "person"}, BOTS[0]], setup=TWO_G7)
    wait_my_turn(page)
    sevens = page.locator(".hand [data-card='G7']")
    assert sevens.count() == 2
    sevens.first.click()
    assert page.locator(".card-button.selected").count() == 1
    assert sevens.first.get_attribute("aria-pressed") == "true"
    assert sevens.nth(1).get_attribute("aria-pressed") == "false"
    # The other seven instead: it alone is chosen.
    sevens.nth(1).click()
    assert page.locator(".card-button.selected").count() == 1
    assert sevens.nth(1).get_attribute("aria-pressed") == "true"
    assert not page.page_errors


# -- 4. the instruction line, 5. the tab's title ------------------------------------------


def test_only_the_player_to_move_is_told_what_to_do(new_page: Any, web_server: Server) -> None:
    created, bob = ada_and_bob(web_server, setup=BOARD_SHORT)
    match_id = created["id"]
    pages = {}
    for who, seat, token in (("ada", 0, created["token"]), ("bob", 1, bob["token"])):
        page = new_page()
        hold_seat(page, match_id, seat, token)
        page.goto(f"/#/match/{match_id}")
        pages[who] = page
    watcher = new_page()
    watcher.goto(f"/#/watch/{match_id}")
    pages["watcher"] = watcher
    for page in pages.values():
        page.wait_for_selector(".game .moves .instruction")
    said = {who: page.locator(".moves .instruction").inner_text() for who, page in pages.items()}
    assert said["ada"].startswith("Ada: play a card"), said
    assert said["bob"] == "Ada is choosing a move. This page tells you when it is your turn."
    assert said["watcher"] == "Ada is choosing a move."
    for who in ("bob", "watcher"):
        assert "your row" not in said[who]
    for page in pages.values():
        assert not page.page_errors


def test_the_tab_title_names_the_game_once(
    new_page: Any, web_server: Server, finished: dict[str, str]
) -> None:
    page = new_page()
    page.goto(f"/#/watch/{finished['board']}")
    page.wait_for_selector(".final")
    page.wait_for_function("() => document.title !== 'Keltis – Start page'")
    assert page.title() == "Keltis – the board game"
    page.select_option("[data-testid=language]", "de")
    page.wait_for_function("() => document.title.includes('Brettspiel')")
    assert page.title() == "Keltis – das Brettspiel"
    # The player to move: the turn first.
    player = new_page()
    open_match(player, web_server, game="cards", seats=[{"kind": "person"}, BOTS[0]], setup=TWO_G7)
    wait_my_turn(player)
    assert player.title() == "▶ Your turn – Keltis"
    assert not page.page_errors


# -- 6. taking a move back says what was taken back -----------------------------------------


def test_take_back_says_what_was_taken_back(new_page: Any, web_server: Server) -> None:
    page = new_page()
    open_match(
        page,
        web_server,
        game="board",
        seats=[{"kind": "person"}, BOTS[0]],
        name="Ada",
        setup=BOARD_SHORT,
    )
    wait_my_turn(page)
    made = play_my_turn(page)
    wait_my_turn_at(page, made + 2)
    at = int(ply(page))
    log = page.locator(".log li").all_inner_texts()
    page.get_by_role("button", name="Take back").click()
    page.wait_for_selector("[data-testid=undone]")
    back = int(ply(page))
    assert back < at
    told = page.get_by_test_id("undone")
    count = at - back
    assert told.locator("p").inner_text() == f"{count} moves taken back:"
    # The moves listed are the log's lines that went, oldest first.
    listed = [line.strip() for line in told.locator("li").all_inner_texts()]
    gone = [line.split(".", 1)[1].strip() for line in reversed(log[:count])]
    assert listed == gone
    assert "Ada" in listed[0]
    page.wait_for_function(
        "() => document.querySelector('[data-testid=announce]').textContent.includes('taken back')"
    )
    # The next move clears it.
    before = ply(page)
    click_a_move(page)
    wait_moved(page, before)
    assert page.locator("[data-testid=undone]").count() == 0
    assert not page.page_errors


# -- 7. the replay -------------------------------------------------------------------------


def open_replay(page: Any, match_id: str) -> None:
    page.goto(f"/#/replay/{match_id}")
    page.wait_for_selector(".replay[data-ply='0']")


def test_the_replay_controls_draw_their_own_icons(new_page: Any, finished: dict[str, str]) -> None:
    page = new_page()
    open_replay(page, finished["board"])
    controls = page.locator(".replay-controls")
    assert controls.locator("button svg.icon").count() == 4
    for glyph in "⏮⏭◀▶":
        assert glyph not in controls.inner_text()
    assert not page.page_errors


def test_a_replay_says_nothing_of_presence(new_page: Any, finished: dict[str, str]) -> None:
    page = new_page()
    open_replay(page, finished["cards"])
    assert page.locator(".player").count() == 2
    # Who is a bot, online or away now means nothing in a replay.
    statuses = page.locator(".player .status").all_inner_texts()
    assert not [s for s in statuses if s.strip()], statuses
    assert not page.page_errors


def test_a_replay_lists_every_move_to_click(
    new_page: Any, web_server: Server, finished: dict[str, str], screenshot: Any
) -> None:
    page = new_page(width=1280, height=900)
    match_id = finished["board"]
    with web_server.http() as http:
        total = len(http.get(f"/api/matches/{match_id}/record").json()["actions"])
    open_replay(page, match_id)
    moves = page.locator(".replay-move")
    assert moves.count() == total + 1
    page.wait_for_function(
        "() => ![...document.querySelectorAll('.replay-move')].some(b => b.innerText.includes('…'))"
    )
    moves.nth(3).click()
    page.wait_for_selector(".replay[data-ply='3']")
    assert moves.nth(3).get_attribute("aria-current") == "step"
    step = page.locator(".replay-step").inner_text()
    assert moves.nth(3).inner_text().split(".", 1)[1].strip().endswith(step)
    page.keyboard.press("End")
    page.wait_for_selector(f".replay[data-ply='{total}']")
    assert moves.nth(total).get_attribute("aria-current") == "step"
    # The list keeps the move shown in sight.
    page.wait_for_function(
        """() => { const list = document.querySelector('.replay-moves').getBoundingClientRect();
          const item = document.querySelector('.replay-move[aria-current]').getBoundingClientRect();
          return item.top >= list.top - 1 && item.bottom <= list.bottom + 1; }"""
    )
    screenshot(page, "replay-moves")
    assert not page.page_errors


# -- 8. hints in words, numbers in the page's language -----------------------------------


def test_a_hint_in_words_with_its_card_marked_and_a_button_to_play_it(
    new_page: Any, web_server: Server
) -> None:
    page = new_page(lang="de")
    open_match(page, web_server, game="cards", seats=[{"kind": "person"}, BOTS[0]], setup=TWO_G7)
    wait_my_turn(page)
    page.locator(".tools button").first.click()  # "Tipp" (found by place: a German page)
    hints = page.locator(".hints li")
    hints.first.wait_for()
    answer = next(m for m in reversed(ws_messages(page)) if m["type"] == "hints")
    best = answer["hints"][0]["action"]
    text = hints.first.inner_text()
    assert best not in text, text  # in words, not notation
    # German numbers: a decimal comma in the margin (+1,5), a percent sign after a space.
    assert re.search(r"[+−-]?\d+,\d", text), text
    assert re.search(r"\d\s%", text), text
    assert page.locator(".card-button.hinted").count() >= 1
    before = ply(page)
    hints.first.locator("button").click()
    wait_moved(page, before)
    steps = [m for m in ws_messages(page) if m["type"] == "step"]
    assert steps[0]["step"]["action"]["notation"] == best
    assert not page.page_errors

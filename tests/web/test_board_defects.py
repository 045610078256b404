"""The board game's board as a first player found it (issue 26): every seat's marker in sight on
the score track, a press on a figure that stands on a target stone plays that stone's move,
stones reached by Tab and the focus kept after a move, and the phone (360 x 740): figures
large enough to read, prompts beside the hand and never over a stone a move leads to."""

from __future__ import annotations

from typing import Any

from server.harness import Server
from web.helpers import ws_messages
from web.pages import BOARD_SHORT, open_match, ply, wait_moved, wait_my_turn

PERSON = {"kind": "person"}
BOT = {"kind": "bot", "level": "easy"}
EMPTY = "........."
#: A four-player position some turns in: all four figures on green's first stone (player 2's
#: the big one), player 1's purple figure on row 6 and blue on row 8, a clover on green's
#: second stone. Player 1 holds G5 (a lay onto the clover: its move can take blue to row 9,
#: the top row) and Y1 (a first yellow card: big or small figure?).
FOUR_SOME_TURNS_IN = {
    "hands": [
        ["G5", "G6", "Y1", "Y2", "R1", "R2", "Y0", "R0"],
        ["G7", "G8", "R3", "R4", "Y5", "Y6", "P2", "P0"],
        ["G9", "G10", "R5", "R6", "Y7", "Y8", "P1", "B0"],
        ["G7", "G8", "R3", "R4", "Y9", "Y10", "P9", "P10"],
    ],
    "rows": [
        {
            "G": ["G3"],
            "P": ["P3", "P4", "P5", "P6", "P7", "P8"],
            "B": ["B3", "B4", "B5", "B6", "B7", "B8", "B9", "B10"],
        },
        {"G": ["G4"], "Y": ["Y3", "Y4"]},
        {"G": ["G2"]},
        {"G": ["G1"]},
    ],
    "big": [None, "G", None, None],
    "tiles": {"G": ".C.......", "Y": EMPTY, "R": EMPTY, "P": EMPTY, "B": EMPTY},
    "deck": ["R7", "R8", "R9", "R10", "Y9", "Y10", "P9", "P10", "B1", "B2"],
}
FOUR = [PERSON, BOT, BOT, BOT]

#: For each element matching the selector: its box, and whether the point at its centre hits
#: it (or something inside it) — what a player sees there.
BOXES = """(selector) => [...document.querySelectorAll(selector)].map((el) => {
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
  return {x: r.x, y: r.y, width: r.width, height: r.height,
          seen: !!hit && (hit === el || el.contains(hit)),
          key: el.dataset.seat ?? el.dataset.stone ?? el.textContent};
})"""


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def focused(page: Any, selector: str) -> bool:
    return bool(page.evaluate("(s) => document.activeElement?.matches(s) ?? false", selector))


def tab_to(page: Any, selector: str, key: str = "Tab") -> None:
    """Press ``key`` (Tab or Shift+Tab) until the focused element matches ``selector``."""
    for _ in range(80):
        page.keyboard.press(key)
        if focused(page, selector):
            return
    raise AssertionError(f"{key} never reached {selector}")


def focus_not_lost(page: Any) -> None:
    """The focus is on a control of the page, not fallen back to the document."""
    page.wait_for_function(
        "() => { const a = document.activeElement;"
        " return !!a && a !== document.body && a !== document.documentElement; }",
        timeout=5_000,
    )


def focus_reaches(page: Any, selector: str) -> None:
    """Until the focused element matches ``selector`` (5 s), else fail naming where it is."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(
            "(s) => document.activeElement?.matches(s) ?? false", arg=selector, timeout=5_000
        )
    except PlaywrightTimeout as error:  # say where the focus is instead
        where = page.evaluate("() => document.activeElement?.outerHTML.slice(0, 120)")
        raise AssertionError(f"the focus never reached {selector}: it is on {where}") from error


def in_viewport(page: Any, selector: str) -> None:
    """Until the element is wholly in the window (a prompt is scrolled to when it appears)."""
    page.wait_for_function(
        """(s) => { const el = document.querySelector(s); if (!el) return false;
          const r = el.getBoundingClientRect();
          return r.top >= 0 && r.bottom <= innerHeight
            && r.left >= 0 && r.right <= innerWidth; }""",
        arg=selector,
    )


def last_action(page: Any) -> str:
    return str([m for m in ws_messages(page, "sent") if m["type"] == "act"][-1]["action"])


def test_every_seats_marker_is_in_sight_on_the_score_track_at_the_start(
    new_page: Any, web_server: Server, screenshot: Any
) -> None:
    page = new_page()
    open_match(page, web_server, game="board", seats=FOUR, seed=26, name="Ada")
    wait_my_turn(page)
    page.locator(".score-track").scroll_into_view_if_needed()
    markers = page.evaluate(BOXES, ".track-marker")
    assert len(markers) == 4
    scores = {round(m["x"]) for m in markers}
    assert len(scores) == 1  # everyone on 0: four markers on one spot of the track
    assert all(m["seen"] for m in markers), markers
    for i, a in enumerate(markers):
        for b in markers[i + 1 :]:
            assert not overlap(a, b), (a, b)
    screenshot(page, "board-defects-track")


def test_a_press_on_a_figure_standing_on_a_target_stone_plays_that_stones_move(
    new_page: Any, web_server: Server
) -> None:
    setup = {
        "hands": [
            ["G5", "G6", "Y1", "R1", "R2", "P1", "B1", "B2"],
            ["G1", "G2", "R3", "R4", "Y5", "Y6", "P2", "B3"],
        ],
        "rows": [{}, {"G": ["G4"]}],  # player 2's figure on green's first stone
        "deck": ["Y7", "Y8", "R5", "R6"],
    }
    for width, height in ((1280, 900), (360, 740)):
        page = new_page(width=width, height=height)
        open_match(page, web_server, game="board", seats=[PERSON, BOT], setup=setup)
        wait_my_turn(page)
        start = ply(page)
        page.locator(".card-button[data-card='G5']").click()
        stone = page.locator(".stone.target[data-stone='G1']")
        stone.wait_for()
        figure = page.locator(".figure").first  # player 2's, on G1
        box = figure.bounding_box()
        assert box is not None
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.wait_for_function(
            "(b) => document.querySelector('.game').dataset.ply !== b", arg=start, timeout=10_000
        )
        assert last_action(page) == "G5"
        assert not page.page_errors


def test_stones_are_reached_by_tab_played_by_enter_or_space_and_the_focus_stays(
    new_page: Any, web_server: Server
) -> None:
    page = new_page()
    open_match(page, web_server, game="board", seats=[PERSON, BOT], setup=BOARD_SHORT)
    wait_my_turn(page)
    for key in ("Enter", " "):
        start = ply(page)
        tab_to(page, ".card-button.playable")
        page.keyboard.press("Enter")  # the card chosen
        assert focused(page, ".card-button.selected")
        # The focus ring and the chosen card's ring are not the same colour.
        rings = page.evaluate(
            """() => { const s = getComputedStyle(document.activeElement);
              return [s.outlineColor, s.borderTopColor, s.outlineStyle]; }"""
        )
        assert rings[2] != "none", rings
        assert rings[0] != rings[1], rings
        # The stones come before the hand: back to them.
        tab_to(page, ".stone.target", "Shift+Tab")
        stone = page.evaluate("() => document.activeElement.dataset.stone")
        assert stone
        page.keyboard.press(key)
        wait_moved(page, start)
        assert last_action(page)[0] == stone[0]
        # After the move the focus is on the next decision (the big-or-small prompt or the draw
        # pile), not on the document: the next Tab goes on from there.
        # (While the answer is on its way the focus waits on the board: the prompt or the pile
        # that comes with it takes it over then.)
        focus_not_lost(page)
        focus_reaches(page, "[data-prompt], .pile-button")
        if focused(page, "[data-prompt]"):
            before = ply(page)
            page.keyboard.press("Enter")
            wait_moved(page, before)
            focus_not_lost(page)
            focus_reaches(page, ".pile-button")
        before = ply(page)
        page.keyboard.press("Enter")  # draw
        wait_moved(page, before)
        focus_not_lost(page)
        wait_my_turn(page, before)
        focus_not_lost(page)
    assert not page.page_errors


def prompt_in_sight_over_no_target(page: Any) -> None:
    """The board's prompt is in the window and covers none of the stones its moves lead to."""
    in_viewport(page, ".board-prompt")
    prompt = page.locator(".board-prompt").bounding_box()
    assert prompt is not None
    for target in page.evaluate(BOXES, ".stone.target"):
        assert not overlap(prompt, target), (prompt, target)


def test_the_phone_figures_are_readable_and_prompts_sit_by_the_hand(
    new_page: Any, web_server: Server, screenshot: Any
) -> None:
    page = new_page(width=360, height=740)
    open_match(page, web_server, game="board", seats=FOUR, setup=FOUR_SOME_TURNS_IN)
    wait_my_turn(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    figures = page.evaluate(BOXES, ".figure")
    assert len(figures) == 7
    for figure in figures:
        assert figure["width"] >= 12, figure
        assert figure["height"] >= 12, figure
    numbers = page.evaluate(BOXES, ".board .figure-num")
    for number in numbers:
        assert number["height"] >= 8, number
    screenshot(page, "board-defects-phone")

    # A lay onto the clover, chosen at the hand: the clover's prompt is in sight and covers none
    # of the stones its moves lead to (blue's top stone among them).
    start = ply(page)
    page.locator(".card-button[data-card='G5']").click()
    page.locator(".option[data-action='G5']").click()
    wait_moved(page, start)
    page.locator("[data-prompt='pass']").wait_for()
    targets = page.evaluate(BOXES, ".stone.target")
    assert {t["key"] for t in targets} == {"G3", "P7", "B9"}
    prompt_in_sight_over_no_target(page)
    screenshot(page, "board-defects-phone-clover")
    # The clover's move to the top row, pressed on the stone.
    before = ply(page)
    page.locator(".stone.target[data-stone='B9']").click()
    wait_moved(page, before)
    before = ply(page)
    page.locator(".pile.deck .pile-button").click()  # draw
    wait_my_turn(page, before)

    # A first yellow card, laid from the hand: the big-or-small prompt is in sight of the hand.
    page.locator(".card-button[data-card='Y1']").click()
    before = ply(page)
    page.locator(".option[data-action='Y1']").click()
    wait_moved(page, before)
    page.locator("[data-prompt]").first.wait_for()
    in_viewport(page, ".board-prompt")
    in_viewport(page, ".moves h2")
    screenshot(page, "board-defects-phone-figure")
    assert not page.page_errors


def test_a_four_player_board_at_a_desktop_width(
    new_page: Any, web_server: Server, screenshot: Any
) -> None:
    """Not a check, a look: the four-player position at 1280 px, with the clover's prompt."""
    page = new_page(width=1280, height=900)
    open_match(page, web_server, game="board", seats=FOUR, setup=FOUR_SOME_TURNS_IN)
    wait_my_turn(page)
    screenshot(page, "board-defects-desktop")
    start = ply(page)
    page.locator(".card-button[data-card='G5']").click()
    page.locator(".stone.target[data-stone='G2']").click()
    wait_moved(page, start)
    page.locator("[data-prompt='pass']").wait_for()
    prompt_in_sight_over_no_target(page)
    screenshot(page, "board-defects-desktop-clover")
    assert not page.page_errors

"""What a newcomer met in a game (issue 40 §2): the others' moves in one line beside the
prompt, on a phone within the first screen (§2.2); every card of the hand marked with what it
can do at every decision, by a mark of its own and in words (§2.3); the board and the
players' panels without overlap or clipping in all seven languages at 1280 and 360 px (§2.6);
a score's breakdown brought into view on a phone (§2.8); a new match's page that does not
begin with the last match's event in the screen reader's live region (§2.9)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from server.harness import Server
from web.helpers import artifacts_dir, ws_messages
from web.pages import (
    BOARD_SHORT,
    CARDS_SHORT,
    LAYOUT_PROBLEMS,
    ada_and_bob,
    click_a_move,
    open_match,
    ply,
    wait_moved,
    wait_my_turn,
)
from web.test_since_last_move import BOARD_THREE, CARDS_THREE, THREE, settle

LANGUAGES = ["en", "de", "cs", "sk", "hu", "pl", "es"]
PERSON = {"kind": "person"}
BOT = {"kind": "bot", "level": "random"}
#: A time control, so that the clock with its bank shows in the status line and the panel.
TIME = {"kind": "realtime", "decision": 60, "bank": 300}
SETUPS = {"board": BOARD_THREE, "cards": CARDS_THREE}


def shown_view(page: Any) -> dict[str, Any]:
    """The position the page shows: the view of the last snapshot or step it received."""
    views = [m["view"] for m in ws_messages(page) if m["type"] in ("snapshot", "step")]
    return dict(views[-1])


# -- §2.2 the others' moves beside the prompt -----------------------------------------------

#: The one-line summary: where it is, the seats of its turns and their words; the panel's.
SINCE = """() => {
  const line = document.querySelector('[data-testid=since-line]');
  const panel = document.querySelector('[data-testid=since]');
  const box = line && line.getBoundingClientRect();
  return {
    line: line && [...line.querySelectorAll('.since-turn')].map(
      (s) => [Number(s.dataset.seat), s.textContent.replace(/^\\s*·\\s*/, '')]),
    panel: panel && [...panel.querySelectorAll('li')].map(
      (li) => [Number(li.dataset.seat), li.textContent]),
    in_first_screen: !!box && box.top >= 0 && box.bottom <= window.innerHeight,
    in_moves: !!line && !!line.closest('.moves'),
  };
}"""


def received(page: Any) -> dict[str, Any]:
    """What the page shows and the last messages it received (seat and ply of each step),
    for an assertion's message."""
    return {
        "ply": page.get_attribute(".game", "data-ply"),
        "turn": page.get_attribute(".game", "data-turn"),
        "final": page.locator(".final").count(),
        "messages": [
            (m["type"], m.get("step", {}).get("seat"), m.get("view", {}).get("ply"))
            for m in ws_messages(page)[-8:]
        ],
    }


@pytest.mark.parametrize(("game", "lang"), [("board", "pl"), ("cards", "es")])
def test_the_others_moves_are_told_beside_the_prompt_on_a_phone(
    new_page: Any, web_server: Server, game: str, lang: str
) -> None:
    page = new_page(lang=lang, width=390, height=844)
    open_match(page, web_server, game=game, seats=THREE, setup=SETUPS[game])
    settle(page)
    for _ in range(2):
        # One whole turn of this player's, then the two bots' turns.
        seat_moves = 0
        while page.get_attribute(".game", "data-turn") == "mine":
            assert seat_moves < 12, "this player's turn did not end"
            before = ply(page)
            click_a_move(page)
            wait_moved(page, before)
            seat_moves += 1
        settle(page)
        # A turn starts: the page is looked at from its top.
        page.evaluate("window.scrollTo(0, 0)")
        since = page.evaluate(SINCE)
        assert since["line"], ("no summary of the others' moves beside the prompt", received(page))
        assert since["in_moves"], since
        assert since["in_first_screen"], since
        # One entry per other player's turn, as in the panel, each with that turn's words.
        assert [seat for seat, _ in since["line"]] == [seat for seat, _ in since["panel"]]
        assert all(seat != 0 for seat, _ in since["line"])
        for (_, short), (_, full) in zip(since["line"], since["panel"], strict=True):
            words = short.split(": ", 1)[1]
            assert words, short
            assert all(part in full for part in words.split(", ")), (short, full)
    page.screenshot(path=str(artifacts_dir() / f"since-line-{game}-{lang}.png"))
    # Its button goes to the panel: the panel in view, its heading focused.
    page.get_by_test_id("since-more").click()
    page.wait_for_function(
        """() => { const r = document.querySelector('[data-testid=since]').getBoundingClientRect();
          return r.top >= 0 && r.top < window.innerHeight; }"""
    )
    assert page.evaluate("document.activeElement.id") == "since-title"
    assert not page.page_errors


# -- §2.3 what each card of the hand can do ---------------------------------------------------

#: Each card of the hand: its card, what the page says it can do, its mark's glyph, its name.
HAND = """() => [...document.querySelectorAll('.hand .card-button')].map((b) => ({
  card: b.dataset.card, fit: b.dataset.fit ?? null, disabled: b.disabled,
  mark: b.querySelector('.fit-mark')?.textContent ?? null, label: b.getAttribute('aria-label'),
}))"""
MARKS = {"lay": "✓", "discard": "↓", "none": "✕"}
WORDS = {"lay": "can be laid", "discard": "can only be discarded", "none": "cannot be played now"}


def fits(view: dict[str, Any]) -> dict[str, str] | None:
    """What each card of the hand can do by the view's legal moves: laid (a lay plays it),
    only discarded (only discards or claims play it), nothing — None where no move plays a
    card (a draw, a figure's choice)."""
    legal = view["legal"]
    if not any(move["cards"] for move in legal):
        return None
    out = {}
    for card in view["hand"]:
        kinds = {move["kind"] for move in legal if card in move["cards"]}
        out[card] = "lay" if "lay" in kinds else "discard" if kinds else "none"
    return out


#: The card game's short deal with a closing card in the first hand: it cannot start a row
#: (C-10), so at the first decision it can only be discarded.
CARDS_CLOSING = {
    **CARDS_SHORT,
    "hands": [["G1", "G2", "GX", "Y4", "Y5", "R6", "P7", "*3"], CARDS_SHORT["hands"][1]],
}


@pytest.mark.parametrize(("game", "setup"), [("board", BOARD_SHORT), ("cards", CARDS_CLOSING)])
def test_every_card_of_the_hand_says_what_it_can_do_at_every_decision(
    new_page: Any, web_server: Server, game: str, setup: dict[str, Any]
) -> None:
    page = new_page()
    open_match(page, web_server, game=game, seats=[PERSON, BOT], setup=setup)
    wait_my_turn(page)
    seen: set[str] = set()
    decisions = 0
    while not page.locator(".final").count():
        settle(page)
        if page.locator(".final").count():
            break
        expected = fits(shown_view(page))
        hand = page.evaluate(HAND)
        if expected is None:
            # Not a decision that plays a card: no card claims to be playable.
            assert all(c["fit"] is None and c["mark"] is None for c in hand), hand
        else:
            decisions += 1
            for c in hand:
                fit = expected[c["card"]]
                seen.add(fit)
                assert c["fit"] == fit, (c, fit)
                # Not by colour or greying alone: a mark of its own shape, and in words.
                assert c["mark"] == MARKS[fit], c
                assert WORDS[fit] in c["label"], c
                assert c["disabled"] == (fit == "none"), c
            legend = page.get_by_test_id("fit-legend").inner_text()
            assert all(WORDS[f] in legend for f in {expected[c["card"]] for c in hand})
            if "discard" in {c["fit"] for c in hand} and game == "cards":
                page.locator(".hand").screenshot(
                    path=str(artifacts_dir() / f"hand-marks-{game}.png")
                )
        before = ply(page)
        click_a_move(page)
        wait_moved(page, before)
    assert decisions >= 3
    # The card game's closing card cannot start a row (C-10): only discarded.
    if game == "cards":
        assert "discard" in seen
    assert "lay" in seen
    assert not page.page_errors


# -- §2.6 no overlap, no clipping -------------------------------------------------------------


@pytest.mark.parametrize("width", [1280, 360])
@pytest.mark.parametrize("game", ["board", "cards"])
def test_the_board_and_the_panels_fit_in_every_language(
    new_page: Any, web_server: Server, game: str, width: int
) -> None:
    page = new_page(width=width, height=900)
    open_match(page, web_server, game=game, seats=THREE, setup=SETUPS[game], time=TIME)
    settle(page)
    # A turn played, so that rows hold cards and the others' moves are marked.
    while page.get_attribute(".game", "data-turn") == "mine":
        before = ply(page)
        click_a_move(page)
        wait_moved(page, before)
    settle(page)
    page.wait_for_selector("[data-testid=player-clock]")
    found: list[str] = []
    for lang in LANGUAGES:
        page.select_option("[data-testid=language]", lang)
        page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
        found += [f"{game} {lang} {width}px: {p}" for p in page.evaluate(LAYOUT_PROBLEMS)]
        if lang == "pl":
            page.screenshot(
                path=str(artifacts_dir() / f"layout-{game}-pl-{width}.png"), full_page=True
            )
    assert not found, "\n".join(found)
    assert not page.page_errors


# -- §2.8 the score's breakdown in view ---------------------------------------------------------


def test_a_scores_breakdown_opens_in_view_on_a_phone(new_page: Any, web_server: Server) -> None:
    page = new_page(width=390, height=844)
    open_match(page, web_server, game="board", seats=[PERSON, BOT], setup=BOARD_SHORT)
    wait_my_turn(page)
    score = page.locator(".player[data-seat='1'] [data-testid=score]")
    # The button at the window's bottom edge, where the breakdown would open below it.
    score.evaluate(
        "(b) => window.scrollBy(0, b.getBoundingClientRect().bottom - window.innerHeight + 2)"
    )
    bottom = score.evaluate("(b) => window.innerHeight - b.getBoundingClientRect().bottom")
    assert 0 <= bottom < 10
    score.click()
    page.wait_for_function(
        """() => { const r = document.querySelector("[data-testid=parts]").getBoundingClientRect();
          return r.top >= 0 && r.bottom <= window.innerHeight; }""",
        timeout=5_000,
    )
    assert not page.page_errors


# -- §2.9 the live region on a new match ------------------------------------------------------


def test_a_new_match_does_not_begin_with_the_last_ones_event(
    new_page: Any, web_server: Server
) -> None:
    page = new_page()
    open_match(page, web_server, game="board", seats=[PERSON, BOT], setup=BOARD_SHORT)
    wait_my_turn(page)
    before = ply(page)
    click_a_move(page)
    wait_moved(page, before)
    announce = page.get_by_test_id("announce")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=announce]').textContent !== ''"
    )
    said = announce.text_content()
    # Another match, where this page's player is to move and nothing has happened yet.
    # (followed inside the page, as "Play again" does: a new page would start empty anyway)
    made, _ = ada_and_bob(web_server)
    page.evaluate(
        "([key, value]) => localStorage.setItem(key, value)",
        [f"keltis.match.{made['id']}", json.dumps({"seat": made["seat"], "token": made["token"]})],
    )
    page.evaluate("(id) => { location.hash = `#/match/${id}`; }", made["id"])
    page.wait_for_selector(".game[data-ply='0'][data-turn='mine']")
    assert said
    assert announce.text_content() != said
    assert announce.text_content() == ""
    assert not page.page_errors

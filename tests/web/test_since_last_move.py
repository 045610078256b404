"""What the others did since a player's last decision (issue 26 §1): at every decision of a
person playing two bots, the marks on the board or table (``data-marks`` on the game, one
stable text per mark, docs/web.md) are exactly what the steps' events this page received
since that seat's previous decision say, each drawn where it belongs; the "Since your last
move" panel has one line per other player's turn and plays them back ("Show again", no
animation under reduced motion); a spectator sees the round up to the player to move; a
replay marks the move shown; no card the page may not see is ever marked."""

from __future__ import annotations

import time
from typing import Any

import pytest

from server.harness import Server
from web.helpers import ws_messages
from web.pages import click_a_move, open_match, ply, wait_moved

PERSON = {"kind": "person"}
#: (a random bot lays, discards and takes from the piles alike; an easy one mostly discards)
THREE = [PERSON, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "easy"}]
#: Three hands of a short game (a draw pile of fifteen: five rounds), a card on two discard
#: piles to be taken.
DECK = ["B3", "B4", "P3", "P4", "R5", "R7", "Y7", "Y8", "G8", "B5", "B6", "P5", "P6", "R8", "R9"]
BOARD_THREE = {
    "hands": [
        ["G1", "G2", "G3", "Y4", "Y5", "R6", "P7", "B8"],
        ["G4", "G5", "Y1", "Y2", "R1", "R2", "P1", "B1"],
        ["G6", "G7", "Y3", "Y6", "R3", "R4", "P2", "B2"],
    ],
    "discards": {"Y": ["Y9"], "B": ["B9"]},
    "deck": DECK,
}
CARDS_THREE = {
    "hands": [
        ["G1", "G2", "G3", "Y4", "Y5", "R6", "P7", "*3"],
        ["G4", "G5", "Y1", "Y2", "R1", "R2", "P1", "B1"],
        ["G6", "G7", "Y3", "Y6", "R3", "R4", "P2", "*5"],
    ],
    "discards": {"Y": ["Y9"], "B": ["B9"]},
    "deck": DECK,
}
GAMES = [("board", BOARD_THREE), ("cards", CARDS_THREE)]


def settle(page: Any, timeout: float = 30) -> None:
    """Until the page shows its player's decision in the last position it received (the
    bots wait for it), or the final scores."""
    deadline = time.monotonic() + timeout
    while True:
        if page.locator(".final").count():
            return
        views = [m["view"] for m in ws_messages(page) if m["type"] in ("snapshot", "step")]
        game = page.locator(".game")
        if (
            views
            and game.get_attribute("data-turn") == "mine"
            and game.get_attribute("data-ply") == str(views[-1]["ply"])
        ):
            return
        assert time.monotonic() < deadline, "no decision of this page came"
        time.sleep(0.05)


def log_of(messages: list[Any]) -> list[dict[str, Any]]:
    """The steps a page knows from its messages: the last snapshot's log and the steps after."""
    steps: list[dict[str, Any]] = []
    for m in messages:
        if m["type"] == "snapshot":
            steps = list(m["log"])
        elif m["type"] == "step":
            steps.append(m["step"])
    return steps


def since(log: list[dict[str, Any]], seat: int | None, current: int) -> list[dict[str, Any]]:
    """The steps to mark: a player's since their own last one; a spectator's since the player
    to move ended their previous turn."""
    if seat is not None:
        mine = [i for i, s in enumerate(log) if s["seat"] == seat]
        return log[mine[-1] + 1 :] if mine else log
    ends = [
        i
        for i in range(len(log) - 1)
        if log[i]["seat"] == current and log[i + 1]["seat"] != current
    ]
    return log[ends[-1] + 1 :] if ends else log


def turns(steps: list[dict[str, Any]]) -> list[int]:
    """The seat of each turn (a run of one seat's steps)."""
    seats: list[int] = []
    for step in steps:
        if not seats or seats[-1] != step["seat"]:
            seats.append(step["seat"])
    return seats


def marks(steps: list[dict[str, Any]]) -> list[str]:
    """The marks of a batch as docs/web.md writes them, from its events alone."""
    out: list[str] = []
    moves: dict[tuple[int, str], int] = {}  # (seat, path) -> index in out
    spans: dict[tuple[int, str], tuple[int, int]] = {}
    for step in steps:
        seat = step["seat"]
        reached: tuple[str, int] | None = None
        tile = False
        for e in step["events"]:
            kind = e["type"]
            if kind == "moved":
                key = (seat, e["path"])
                reached = (e["path"], e["row"])
                low, high = spans.get(key, (e["row"] - 1, e["row"]))
                spans[key] = (min(low, e["row"] - 1), max(high, e["row"]))
                if key not in moves:
                    moves[key] = len(out)
                    out.append("")
                out[moves[key]] = f"move {seat} {e['path']} {spans[key][0]}-{spans[key][1]}"
            elif kind in ("points", "wish", "clover"):
                tile = True
            elif kind == "lay":
                out.append(f"lay {seat} {e['card']}")
            elif kind == "lay_onto":
                out.append(f"lay {seat} {e['card']} {e['onto']}")
            elif kind == "discard":
                out.append(f"discard {seat} {e['card']}")
            elif kind == "draw_pile":
                out.append(f"take {seat} {e['card']}")
            elif kind == "claim":
                out.append(f"claim {seat} {e['value']} {e['first']} {e['second']}")
        if tile and reached:
            out.append(f"tile {seat} {reached[0]}{reached[1]}")
    return out


def shown(page: Any) -> list[str]:
    text = page.get_attribute(".game", "data-marks") or ""
    return [m for m in text.split(" | ") if m]


def assert_drawn(page: Any, mark: str) -> None:
    """The mark is drawn where it belongs: stones, a seat's row, a pile, a wish stone."""
    kind, seat, *rest = mark.split()
    if kind == "move":
        path, span = rest
        low, high = map(int, span.split("-"))
        for row in range(max(low + 1, 1), high + 1):
            marked = page.get_attribute(f"[data-stone='{path}{row}']", "data-marked") or ""
            assert f"move:{seat}" in marked.split(), (mark, row, marked)
    elif kind == "tile":
        marked = page.get_attribute(f"[data-stone='{rest[0]}']", "data-marked") or ""
        assert f"tile:{seat}" in marked.split(), (mark, marked)
    elif kind == "lay":
        assert page.locator(f".player[data-seat='{seat}'] [data-mark='{mark}']").count() >= 1, mark
    elif kind in ("discard", "take"):
        assert page.locator(f".pile [data-mark='{mark}']").count() >= 1, mark
    elif kind == "claim":
        assert page.locator(f".wish[data-mark='{mark}']").count() == 1, mark
        assert page.locator(f".pile [data-mark='{mark}']").count() == 2, mark


def seen_cards(messages: list[Any]) -> set[str]:
    """Every card the steps' events this page received name as laid, discarded or taken."""
    cards: set[str] = set()
    for step in log_of(messages):
        for e in step["events"]:
            if e["type"] in ("lay", "lay_onto", "discard", "draw_pile"):
                cards.add(e["card"])
            if e["type"] == "claim":
                cards.update((e["first"], e["second"]))
    return cards


def card_of(mark: str) -> list[str]:
    kind, _seat, *rest = mark.split()
    if kind in ("lay", "discard", "take"):
        return [rest[0]]
    if kind == "claim":
        return rest[1:3]
    return []


@pytest.mark.parametrize(("game", "setup"), GAMES, ids=[g for g, _ in GAMES])
def test_every_decision_shows_what_the_others_did(
    new_page: Any, web_server: Server, game: str, setup: dict[str, Any]
) -> None:
    page = new_page()
    answer = open_match(page, web_server, game=game, seats=THREE, setup=setup, name="Ada")
    watcher = new_page()
    watcher.goto(f"/#/watch/{answer['id']}")
    watcher.wait_for_selector(".game")
    seat = answer["seat"]
    decisions = with_marks = 0
    kinds: set[str] = set()
    while True:
        settle(page)
        if page.locator(".final").count():
            break
        messages = ws_messages(page)
        log = log_of(messages)
        batch = since(log, seat, seat)
        expected = marks(batch)
        assert shown(page) == expected, f"decision {decisions} at ply {ply(page)}"
        for mark in expected:
            assert_drawn(page, mark)
            kinds.add(mark.split()[0])
        # Only the receiver's own events: no card it may not see (another's draw) is marked.
        assert all(c in seen_cards(messages) for m in expected for c in card_of(m))
        assert not any(
            e.get("card")
            for s in batch
            if s["seat"] != seat
            for e in s["events"]
            if e["type"] == "draw_deck"
        )
        # The panel: one line per other player's turn, said with the log's sentences.
        lines = page.locator(".since li")
        assert lines.count() == len(turns(batch))
        for n, who in enumerate(turns(batch)):
            assert lines.nth(n).get_attribute("data-seat") == str(who)
        with_marks += bool(expected)
        # A spectator sees the round up to the player to move (here: this player).
        watcher.wait_for_function(
            "(n) => document.querySelector('.game').dataset.ply === n", arg=ply(page)
        )
        watched = ws_messages(watcher)
        assert shown(watcher) == marks(since(log_of(watched), None, seat))
        before = ply(page)
        click_a_move(page)
        decisions += 1
        wait_moved(page, before)
        assert decisions < 80, "the game did not end"
    assert decisions >= 3
    assert with_marks >= 2
    assert kinds & {"lay", "discard", "take"}
    assert not page.page_errors
    assert not watcher.page_errors
    # A replay marks the move shown.
    log = log_of(ws_messages(watcher))
    page.goto(f"/#/replay/{answer['id']}")
    page.wait_for_selector(".replay[data-ply='0']")
    assert shown(page) == []
    page.get_by_test_id("replay-next").click()
    page.wait_for_selector(".replay[data-ply='1']")
    assert shown(page) == marks([log[0]])
    for mark in marks([log[0]]):
        assert_drawn(page, mark)


#: A three-player board game at the person's second turn: two bots' turns to play back.
def _second_turn(page: Any, web_server: Server) -> None:
    open_match(page, web_server, game="board", seats=THREE, setup=BOARD_THREE)
    seat = 0
    while True:
        settle(page)
        log = log_of(ws_messages(page))
        if len(turns(since(log, seat, seat))) >= 2 and any(s["seat"] == seat for s in log):
            return
        before = ply(page)
        click_a_move(page)
        wait_moved(page, before)


#: The playback now: the turn shown, its seat in the panel, the marks lit and faded, pulses.
NOW = """() => ({
  playing: document.querySelector("[data-testid='since']").dataset.playing,
  seat: document.querySelector('.since li.now')?.dataset.seat,
  now: document.querySelectorAll('.mark-now').length,
  dim: document.querySelectorAll('.mark-dim').length,
  pulses: document.getAnimations().filter((a) => a.animationName === 'mark-pulse').length,
})"""


@pytest.mark.parametrize("still", [False, True], ids=["motion", "reduced-motion"])
def test_show_again_plays_the_turns_back(new_page: Any, web_server: Server, still: bool) -> None:
    page = new_page()
    if still:
        page.emulate_media(reduced_motion="reduce")
    _second_turn(page, web_server)
    panel = page.get_by_test_id("since")
    assert panel.locator("h2").inner_text() == "Since your last move"
    assert panel.locator("li").count() == 2
    page.get_by_test_id("show-again").click()
    # Each turn in order (read at once: the playback goes on while the test looks).
    for n, who in enumerate(("1", "2")):
        page.wait_for_selector(f"[data-testid='since'][data-playing='{n}']")
        seen = page.evaluate(NOW)
        if seen["playing"] != str(n):
            continue  # (a slow machine: the next turn came before the look)
        assert seen["seat"] == who
        assert seen["now"] >= 1
        assert seen["dim"] >= 1
        assert (seen["pulses"] == 0) if still else (seen["pulses"] > 0)
    # Then all marks alike again.
    page.wait_for_selector("[data-testid='since']:not([data-playing])")
    assert page.locator(".mark-now, .mark-dim").count() == 0
    assert not page.page_errors


def test_cards_taken_from_a_discard_pile_are_captioned(new_page: Any, web_server: Server) -> None:
    setup = {**BOARD_THREE, "known": [[], ["B1"], []]}
    page = new_page()
    open_match(page, web_server, game="board", seats=THREE, setup=setup)
    known = page.locator(".player[data-seat='1'] [data-testid='known']")
    assert known.inner_text().startswith("Taken from the discard piles:")
    assert page.locator(".player[data-seat='0'] [data-testid='known']").count() == 0

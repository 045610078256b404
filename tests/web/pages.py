"""What a person does in the browser client, for the end-to-end tests: open a match this
browser holds a seat of, play a turn by clicking (or by keyboard alone), play on to the final
scores. Every move goes through the page's own buttons, stones and piles."""

from __future__ import annotations

import json
import re
from typing import Any

from server.harness import Server, create, join, start
from web.helpers import ws_messages

#: Hands of a short game: the set-ups below give each player 8 cards and the draw pile a few,
#: so a whole game is a handful of turns (B-20 / C-: the game ends with the last card drawn).
BOARD_SHORT = {
    "hands": [
        ["G1", "G2", "G3", "Y4", "Y5", "R6", "P7", "B8"],
        ["G4", "G5", "Y1", "Y2", "R1", "R2", "P1", "B1"],
    ],
    "deck": ["B2", "B3", "P2", "P3", "R3", "R4"],
}
CARDS_SHORT = {
    "hands": [
        ["G1", "G2", "G3", "Y4", "Y5", "R6", "P7", "*3"],
        ["G4", "G5", "Y1", "Y2", "R1", "R2", "P1", "B1"],
    ],
    "deck": ["B2", "B3", "P2", "P3", "R3", "R4"],
}

PERSON = {"kind": "person"}

#: The JavaScript test of "the page shows a new position where it is my turn, or the end".
MY_TURN_OR_OVER = """(before) => {
  if (document.querySelector('.final')) return true;
  const game = document.querySelector('.game');
  return !!game && game.dataset.turn === 'mine' && game.dataset.ply !== before
    && !document.querySelector('.banner.warn');
}"""


def hold_seat(page: Any, match_id: str, seat: int | None, token: str | None, **more: Any) -> None:
    """Put a seat's token where the client keeps it (as creating the match in it would;
    ``more``: what a creator keeps besides, ``host``, ``invites``, ``watch``)."""
    page.goto("/")
    page.evaluate(
        "([key, value]) => localStorage.setItem(key, value)",
        [f"keltis.match.{match_id}", json.dumps({"seat": seat, "token": token, **more})],
    )


def ada_and_bob(server: Server, **body: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """A board game (unless ``body`` says otherwise) between two people, Ada (seat 0, who
    creates it) and Bob (seat 1, who joins by his invite), started: the creation's answer
    and Bob's join answer."""
    made = create(server, **{"game": "board", "seats": [PERSON, PERSON], "name": "Ada", **body})
    bob = join(server, made["id"], made["invites"][0]["invite"], "Bob")
    start(server, made["id"], made["host_token"])
    return made, bob


def open_match(page: Any, server: Server, **body: Any) -> dict[str, Any]:
    """Create a match through the API (seat 0 this page's), open it in ``page``."""
    answer = create(server, **body)
    hold_seat(page, answer["id"], answer["seat"], answer["token"])
    page.goto(f"/#/match/{answer['id']}")
    page.wait_for_selector(".game, .lobby")
    return answer


def ply(page: Any) -> str:
    return str(page.get_attribute(".game", "data-ply"))


def wait_my_turn(page: Any, before: str = "") -> None:
    page.wait_for_function(MY_TURN_OR_OVER, arg=before)


def wait_moved(page: Any, before: str) -> None:
    """Until the page shows another position than the one at ply ``before``."""
    page.wait_for_function("(b) => document.querySelector('.game').dataset.ply !== b", arg=before)


def wait_my_turn_at(page: Any, at_least: int) -> None:
    """Until it is this page's decision at ply ``at_least`` or later (others may already
    have moved when the test asks, so a ply, not a change, is waited for)."""
    page.wait_for_function(
        "(n) => { const g = document.querySelector('.game');"
        " return g.dataset.turn === 'mine' && Number(g.dataset.ply) >= n; }",
        arg=at_least,
    )


def play_my_turn(page: Any) -> int:
    """Click this page's decisions until its turn is over; how many were made.

    The turn is over when it is no longer this page's decision or another seat has moved
    since: a fast bot may answer before the page is asked, and its turn must not be taken
    for the next decision of this one (which would play on through several turns)."""
    seat = next(m["seat"] for m in reversed(ws_messages(page)) if m["type"] == "snapshot")
    seen = len(ws_messages(page))
    made = 0
    while True:
        before = ply(page)
        click_a_move(page)
        made += 1
        wait_moved(page, before)
        others = [
            m for m in ws_messages(page)[seen:] if m["type"] == "step" and m["step"]["seat"] != seat
        ]
        if others or page.get_attribute(".game", "data-turn") != "mine":
            return made


def click_a_move(page: Any) -> None:
    """One decision by clicking, as a person would: a prompt on the board, else a playable
    card and then its first option, else a highlighted pile or stone, else the first option."""
    if page.locator("[data-prompt]").count():
        page.locator("[data-prompt]").first.click()
    elif page.locator(".card-button.selected").count():
        page.locator(".option").first.click()
    elif page.locator(".card-button.playable").count():
        page.locator(".card-button.playable").first.click()
        page.locator(".option").first.click()
    elif page.locator(".pile.deck .pile-button").count():
        page.locator(".pile.deck .pile-button").click()
    elif page.locator(".pile-button.target").count():
        page.locator(".pile-button.target").first.click()
    elif page.locator(".stone.target").count():
        page.locator(".stone.target").first.click()
    else:
        page.locator(".option").first.click()


def play_to_the_end(page: Any, limit: int = 200) -> int:
    """Click moves until the final scores show; the number of decisions made."""
    made = 0
    wait_my_turn(page)
    while not page.locator(".final").count():
        assert made < limit, "the game did not end"
        before = ply(page)
        click_a_move(page)
        made += 1
        wait_my_turn(page, before)
    return made


#: What overlaps or is cut on a game's page (issue 40: the newcomer and layout tests), as
#: "what: element" lines: the page wider than the window; a path's heading overlapping another
#: or outside the board; in the game's head, the lesson's box, the players' panels, the moves,
#: the piles, the wish stones and the final scores: an element reaching outside its panel (the
#: lesson's box scrolls its words inside: below its bottom is allowed), an element that cuts
#: its own content (overflow hidden), two siblings on top of each other.
LAYOUT_PROBLEMS = """() => {
  const problems = [];
  const say = (text) => problems.push(text);
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth) say(`page ${root.scrollWidth} > ${root.clientWidth}`);
  const name = (e) => `${e.tagName.toLowerCase()}.${(e.getAttribute('class') || '').trim()}`
    + ` "${(e.textContent || '').trim().slice(0, 40)}"`;
  const shown = (e) => {
    if (e.closest('.sr-only, svg, dl.parts, [hidden]')) return false;
    const s = getComputedStyle(e);
    const r = e.getBoundingClientRect();
    return s.display !== 'none' && s.visibility !== 'hidden' && r.width > 1 && r.height > 1;
  };
  const meet = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
    && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  // (an inline element that wraps is one box per line: its boxes, not the box around them)
  const over = (k, l) => [...k.getClientRects()].some(
    (a) => [...l.getClientRects()].some((b) => meet(a, b)));
  const board = document.querySelector('svg.board')?.getBoundingClientRect();
  const heads = board ? [...document.querySelectorAll('svg.board text.path-head')] : [];
  heads.forEach((e, i) => {
    const r = e.getBoundingClientRect();
    if (r.left < board.left - 0.5 || r.right > board.right + 0.5) say(`outside: ${name(e)}`);
    for (const f of heads.slice(i + 1)) if (over(e, f)) say(`overlap: ${name(e)} / ${name(f)}`);
  });
  const panels = '.game-head, .tutor, .player, .moves, .piles, .wish-row, .final-wrap';
  for (const panel of document.querySelectorAll(panels)) {
    const p = panel.getBoundingClientRect();
    const scrolls = panel.classList.contains('tutor');
    for (const e of panel.querySelectorAll('*')) {
      if (!shown(e)) continue;
      const r = e.getBoundingClientRect();
      if (r.left < p.left - 1 || r.right > p.right + 1
        || (!scrolls && (r.top < p.top - 1 || r.bottom > p.bottom + 1))) {
        say(`outside ${name(panel).slice(0, 30)}: ${name(e)}`);
      }
      const s = getComputedStyle(e);
      if (s.overflowX !== 'visible' && e.scrollWidth > e.clientWidth + 1) say(`cut: ${name(e)}`);
      const kids = [...e.children].filter(
        (k) => shown(k) && getComputedStyle(k).position !== 'absolute');
      kids.forEach((k, i) => {
        for (const l of kids.slice(i + 1)) if (over(k, l)) say(`overlap: ${name(k)} / ${name(l)}`);
      });
    }
  }
  return problems;
}"""

#: An English word of the notation (none of the six other languages writes one).
ENGLISH_MOVE_WORD = re.compile(r"\b(draw|pass|big|small|wish)\b")
#: The page's visible text outside the box to type a move in (the box keeps the notation).
OUTSIDE_THE_BOX = """() => {
  const box = document.querySelector('form.type-move');
  if (box) box.style.display = 'none';
  const text = document.querySelector('main').innerText;
  if (box) box.style.display = '';
  return text;
}"""

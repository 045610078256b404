"""A newcomer's first games (issue 40, "Done when"): in a fresh browser context that speaks
the page's language — Polish for the board game, Spanish for the card game, each on a
390×844 phone and at 1280 px — a person who knows nothing of Keltis completes the guided
lesson from the start page, goes back to the start page and plays a real game against a
medium bot to its final scores, and at every one of their decisions the page

- shows no English move word (draw, pass, big, small, wish) in its visible text outside the
  box to type a move in (which reads the notation);
- has nothing overlapping or cut: the page no wider than the window, and in the game's head,
  the lesson's panel, the players' panels, the moves, the piles and the wish stones no
  element outside its panel, none cutting its own content, no two siblings on each other;
- tells what the others did since the player's last decision within the first screen (the
  page scrolled to its top), each of their turns by its seat.
"""

from __future__ import annotations

from typing import Any

import pytest

from keltis.i18n import Translator
from server.harness import Server
from web.helpers import artifacts_dir, ws_messages
from web.pages import (
    ENGLISH_MOVE_WORD,
    LAYOUT_PROBLEMS,
    OUTSIDE_THE_BOX,
    click_a_move,
    ply,
    wait_my_turn,
)
from web.test_tutorial import follow, start_lesson

#: The seats whose turns the one-line summary of the others' moves tells where it lies within
#: the first screen (the page at its top; none where it lies below), and where it lies; null
#: where there is none.
OTHERS_IN_FIRST_SCREEN = """() => {
  const keep = window.scrollY;
  window.scrollTo({ top: 0, behavior: 'instant' });
  const line = document.querySelector('[data-testid=since-line]');
  let told = null;
  if (line) {
    const box = line.getBoundingClientRect();
    const inside = box.top >= 0 && box.bottom <= window.innerHeight;
    const turns = [...line.querySelectorAll('.since-turn')];
    told = { seats: inside ? turns.map((s) => Number(s.dataset.seat)) : [],
      top: Math.round(box.top), bottom: Math.round(box.bottom) };
  }
  window.scrollTo({ top: keep, behavior: 'instant' });
  return told;
}"""


def others_since_my_last_decision(page: Any, me: int = 0) -> set[int]:
    """The seats that played since this seat's last move, from the steps the page received."""
    steps = [m["step"] for m in ws_messages(page) if m.get("type") == "step"]
    others: set[int] = set()
    for step in reversed(steps):
        if step["seat"] == me:
            break
        others.add(step["seat"])
    return others


class Decisions:
    """The checks at each decision, and what they found."""

    def __init__(self, page: Any, label: str) -> None:
        self.page = page
        self.label = label
        self.count = 0
        self.found: list[str] = []
        self.shot = False  # the page of the first problem was kept

    def check(self, page: Any, step: int | None = None) -> None:
        self.count += 1
        where = f"{self.label} decision {self.count} (ply {ply(page)})"
        words = ENGLISH_MOVE_WORD.findall(page.evaluate(OUTSIDE_THE_BOX))
        if words:
            self.found.append(f"{where}: English move words {sorted(set(words))}")
        self.found += [f"{where}: {problem}" for problem in page.evaluate(LAYOUT_PROBLEMS)]
        others = others_since_my_last_decision(page)
        if others:
            told = page.evaluate(OTHERS_IN_FIRST_SCREEN)
            if told is None:
                self.found.append(f"{where}: the others' moves {sorted(others)} not told")
            elif not others <= set(told["seats"]):
                self.found.append(f"{where}: the others' moves {sorted(others)} not in the "
                                  f"first screen (told there: {told})")  # fmt: skip
        first_problem = bool(self.found) and not self.shot
        if self.count in (1, 5) or first_problem:
            self.shot = self.shot or first_problem
            page.screenshot(path=str(artifacts_dir() / f"newcomer-{self.label}-{self.count}.png"))


def play_a_real_game(
    page: Any, decisions: Decisions, game: str, name: str, limit: int = 400
) -> int:
    """From the start page: "Play now", the game against one medium bot, to the final scores,
    checking at every decision; the decisions made."""
    page.wait_for_selector("[data-testid=play-now]")
    page.get_by_test_id("play-now-name").fill(name)
    page.locator(f"input[name=game][value={game}]").check()
    page.locator("form:has([data-testid=play-now]) select").first.select_option("2")
    page.get_by_test_id("play-now").click()
    page.wait_for_selector(".game")
    made = 0
    wait_my_turn(page)
    while not page.locator(".final").count():
        assert made < limit, "the game did not end"
        decisions.check(page)
        before = ply(page)
        click_a_move(page)
        made += 1
        wait_my_turn(page, before)
    return made


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "lang", "width", "height"),
    [
        ("board", "pl", 1280, 800),
        ("board", "pl", 390, 844),
        ("cards", "es", 390, 844),
        ("cards", "es", 1280, 800),
    ],
)
def test_a_newcomer_learns_the_game_and_plays_a_real_one(
    new_page: Any, plain_server: Server, game: str, lang: str, width: int, height: int
) -> None:
    tr = Translator(lang)
    page = new_page(lang=lang, width=width, height=height, server=plain_server)
    decisions = Decisions(page, f"{game}-{lang}-{width}")
    # the lesson, from the start page, each step's piece clicked
    start_lesson(page, game)
    follow(page, shoot=decisions.check)
    assert page.locator("[data-testid=tutor]").get_attribute("data-done") == "true"
    page.screenshot(path=str(artifacts_dir() / f"newcomer-{decisions.label}-lesson-done.png"))
    # back to the start page, and a real game against a medium bot
    page.get_by_test_id("tutor-home").click()
    made = play_a_real_game(page, decisions, game, "Ola" if lang == "pl" else "Lucía")
    assert made > 10
    assert tr("web.play_again") in page.locator(".final-wrap").inner_text()
    page.screenshot(path=str(artifacts_dir() / f"newcomer-{decisions.label}-final.png"))
    assert not decisions.found, "\n".join(decisions.found[:40])
    assert not page.page_errors

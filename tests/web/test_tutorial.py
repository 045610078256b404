"""The guided first games in the browser ("Learn to play", docs/web.md), against a server as
people run it (no ``--allow-setup``: the set-up comes by the tutorial's name): a person who
has never played opens the lesson from the start page and does what each step says — finds
the piece the step marks (``data-tutor``) and clicks it — through to the final "you finished"
step, in English and in another language, on a desktop and on a phone; the moves sent are the
script's. An off-script move is explained and never sent; the lesson starts again on request;
an unknown lesson is refused in the page's language."""

from __future__ import annotations

import time
from typing import Any

import pytest

from keltis.i18n import Translator
from keltis.server.tutorials import TUTORIALS
from server.harness import Server
from web.helpers import artifacts_dir, ws_messages
from web.pages import click_a_move, ply

#: Until it is the page's decision with a step (or free play) shown, or the lesson is done.
READY = """() => {
  const tutor = document.querySelector('[data-testid=tutor]');
  const game = document.querySelector('.game');
  if (!tutor || !game) return false;
  if (tutor.dataset.done) return true;
  return game.dataset.turn === 'mine' && !!(tutor.dataset.step || tutor.dataset.free)
    && (!tutor.dataset.step || !!document.querySelector('[data-tutor]'));
}"""


def start_lesson(page: Any, name: str) -> None:
    page.goto("/")
    page.locator(f"[data-tutorial={name}]").click()
    page.wait_for_selector("[data-testid=tutor]")


def acts(page: Any) -> list[str]:
    return [m["action"] for m in ws_messages(page, "sent") if m.get("type") == "act"]


def follow(page: Any, shoot: Any = None, limit: int = 120) -> int:
    """Click what the steps mark until the final step; the steps seen. ``shoot(page, n)`` is
    called once at each step ``n`` shown."""
    seen: set[int] = set()
    for _ in range(limit):
        page.wait_for_function(READY)
        tutor = page.locator("[data-testid=tutor]")
        if tutor.get_attribute("data-done"):
            return len(seen)
        step = tutor.get_attribute("data-step")
        before = ply(page)
        if step is None:  # free play after the script: any move
            click_a_move(page)
            page.wait_for_function(
                "(b) => document.querySelector('.game').dataset.ply !== b"
                " || !!document.querySelector('.final')",
                arg=before,
            )
            continue
        if shoot and int(step) not in seen:
            shoot(page, int(step))
        seen.add(int(step))
        target = page.locator("[data-tutor]").first
        is_card = "card-button" in (target.get_attribute("class") or "")
        target.click()
        if is_card:  # chosen: the step now marks the move's option (and stone)
            page.wait_for_function(
                "() => !!document.querySelector('[data-tutor]:not(.card-button)')"
            )
        else:
            page.wait_for_function(
                "(b) => document.querySelector('.game').dataset.ply !== b", arg=before
            )
    raise AssertionError("the lesson did not end")


@pytest.mark.parametrize(
    ("name", "lang", "width"),
    [("board", "en", 1280), ("cards", "en", 1280), ("board", "de", 360), ("cards", "cs", 360)],
)
def test_a_newcomer_completes_the_guided_first_game(
    new_page: Any, plain_server: Server, screenshot: Any, name: str, lang: str, width: int
) -> None:
    lesson = TUTORIALS[name]
    tr = Translator(lang)
    page = new_page(lang=lang, width=width, height=800 if width > 400 else 740, server=plain_server)
    start_lesson(page, name)
    page.wait_for_function(READY)
    first = page.locator("[data-testid=tutor-text]").inner_text()
    assert first == tr(lesson.steps[0].key)

    def shoot(page: Any, n: int) -> None:
        if n in (1, 2, 5, 11):
            screenshot(page, f"tutorial-{name}-{lang}-{width}-step{n}")
            # what the player sees now (a whole-page picture moves the sticky panel)
            view = artifacts_dir() / f"tutorial-{name}-{lang}-{width}-step{n}-view.png"
            page.screenshot(path=str(view))

    steps = follow(page, shoot)
    assert steps == len(lesson.steps)
    tutor = page.locator("[data-testid=tutor]")
    assert tutor.get_attribute("data-done") == "true"
    assert tr("tutorial.done.title") in tutor.inner_text()
    assert page.locator("[data-testid=tutor-text]").inner_text() == tr(lesson.done_key)
    assert page.locator(".final").count() == 1
    screenshot(page, f"tutorial-{name}-{lang}-{width}-done")
    # what went to the server is the script, move by move (no hidden card was needed)
    scripted = [s.move for s in lesson.steps]
    assert acts(page)[: len(scripted)] == scripted
    assert not page.page_errors


@pytest.mark.parametrize("name", sorted(TUTORIALS))
def test_an_off_script_move_is_explained_and_not_played(
    new_page: Any, plain_server: Server, screenshot: Any, name: str
) -> None:
    lesson = TUTORIALS[name]
    page = new_page(server=plain_server)
    start_lesson(page, name)
    page.wait_for_function(READY)
    first = page.url
    wanted = lesson.steps[0].point.split(":")[1]
    other = page.locator(f".card-button.playable:not([data-card='{wanted}'])").first
    other.click()
    page.locator(".option").first.click()
    wrong = page.locator("[data-testid=tutor-wrong]")
    wrong.wait_for()
    assert "Not now" in wrong.inner_text()
    time.sleep(0.3)
    assert acts(page) == []  # the client sent nothing
    assert ply(page) == "0"
    assert page.locator(".game").get_attribute("data-turn") == "mine"
    # a move typed in the box is checked the same way
    page.locator("[data-testid=type-move]").fill("-R4" if name == "board" else "-G3")
    page.locator(".type-move button[type=submit]").click()
    time.sleep(0.3)
    assert acts(page) == []
    screenshot(page, f"tutorial-{name}-off-script")
    # the lesson's own move goes through
    page.locator(f".card-button[data-card='{wanted}']").click()
    page.locator("[data-tutor]:not(.card-button)").first.click()
    page.wait_for_function("() => document.querySelector('.game').dataset.ply !== '0'")
    assert acts(page) == [lesson.steps[0].move]
    assert page.locator("[data-testid=tutor-wrong]").count() == 0
    # start again: a new match at the first step
    page.locator("[data-testid=tutor-restart]").click()
    page.wait_for_function("(url) => location.href !== url && location.hash.startsWith('#/match/')",
                           arg=first)  # fmt: skip
    # at the first step once the script has come (until then the page may show free play)
    page.wait_for_selector("[data-testid=tutor][data-step='1']")
    assert page.locator("[data-testid=tutor]").get_attribute("data-step") == "1"
    # and it can be left for the start page, where it is offered again
    page.locator("[data-testid=tutor-leave]").click()
    page.wait_for_selector(f"[data-tutorial={name}]")


def test_an_unknown_lesson_is_refused_in_the_pages_language(
    new_page: Any, plain_server: Server
) -> None:
    page = new_page(lang="pl", server=plain_server)
    page.goto("/#/learn/chess")
    error = page.locator("[data-testid=learn-error]")
    error.wait_for()
    assert error.inner_text() == Translator("pl")("tutorial.unknown", name="chess")

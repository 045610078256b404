"""The guided first games in the browser ("Learn to play", docs/web.md), against a server as
people run it (no ``--allow-setup``: the set-up comes by the tutorial's name): a person who
has never played opens the lesson from the start page and does what each step says — finds
the piece the step marks (``data-tutor``) and clicks it — through to the final "you finished"
step, in English and in other languages, on a desktop and on phones; the moves sent are the
script's. At every step the lesson's panel takes at most a quarter of the screen and the
marked piece is in sight below it; the panel folds to its heading and opens again. The
player is named as they asked, else by the language's "you". A legal off-script move is
explained and never sent; a move the rules refuse is the engine's to refuse, with the rule's
words and link, as in a real game. The lesson starts again on request; an unknown lesson is
refused in the page's language."""

from __future__ import annotations

from typing import Any

import pytest

from keltis.core.errors import IllegalActionError
from keltis.i18n import Translator
from keltis.server.tutorials import TUTORIALS
from server.harness import Server
from server.test_tutorials import bots_move, new_match
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


#: Whether the lesson's panel takes at most a quarter of the screen and one of the pieces it
#: marks is in sight: inside the window, below the panel, and on top where its middle is.
SEEN = """() => {
  const panel = document.querySelector('[data-testid=tutor]').getBoundingClientRect();
  if (panel.height > 0.25 * window.innerHeight + 1) return false;
  return [...document.querySelectorAll('[data-tutor]')].some((el) => {
    const box = el.getBoundingClientRect();
    if (box.top < panel.bottom - 1 || box.bottom > window.innerHeight + 1) return false;
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return !!hit && (el === hit || el.contains(hit));
  });
}"""


def panel_and_piece(page: Any) -> str:
    """What the page shows of the panel and the marked pieces (said when SEEN fails)."""
    return str(
        page.evaluate("""() => ({
      window: [window.innerWidth, window.innerHeight, window.scrollY],
      panel: document.querySelector('[data-testid=tutor]').getBoundingClientRect().toJSON(),
      marked: [...document.querySelectorAll('[data-tutor]')].map((el) =>
        [el.tagName, el.getAttribute('class'), el.getBoundingClientRect().toJSON()]),
    })""")
    )


def assert_seen(page: Any) -> None:
    try:
        page.wait_for_function(SEEN, timeout=5000)
    except Exception as error:
        raise AssertionError(
            f"panel too tall or piece out of sight: {panel_and_piece(page)}"
        ) from error


def follow(page: Any, shoot: Any = None, limit: int = 120, until: int | None = None) -> int:
    """Click what the steps mark until the final step (or until step ``until`` is shown);
    the steps seen. ``shoot(page, n)`` is called once at each step ``n`` shown."""
    seen: set[int] = set()
    for _ in range(limit):
        page.wait_for_function(READY)
        tutor = page.locator("[data-testid=tutor]")
        if tutor.get_attribute("data-done"):
            return len(seen)
        step = tutor.get_attribute("data-step")
        if until is not None and step == str(until):
            return len(seen)
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


def seat_names(page: Any, server: Server) -> list[str]:
    """The names of the seats of the match the page shows, as the server has them."""
    match_id = page.evaluate("() => location.hash.split('/')[2]")
    with server.http() as http:
        summary = http.get(f"/api/matches/{match_id}").json()
    return [seat["name"] for seat in summary["seats"]]


@pytest.mark.parametrize(
    ("name", "lang", "width", "height"),
    [
        ("board", "en", 1280, 800),
        ("cards", "en", 1280, 800),
        ("board", "pl", 1280, 800),
        ("cards", "es", 390, 844),
        ("board", "de", 390, 844),
        ("cards", "cs", 360, 740),
    ],
)
def test_a_newcomer_completes_the_guided_first_game(
    new_page: Any,
    plain_server: Server,
    screenshot: Any,
    name: str,
    lang: str,
    width: int,
    height: int,
) -> None:
    lesson = TUTORIALS[name]
    tr = Translator(lang)
    page = new_page(lang=lang, width=width, height=height, server=plain_server)
    start_lesson(page, name)
    page.wait_for_function(READY)
    first = page.locator("[data-testid=tutor-text]").inner_text()
    assert first == tr(lesson.steps[0].key)
    # a player who gave no name is the language's "you", never the server's "Player"
    assert seat_names(page, plain_server)[0] == tr("name.you")

    told: list[int] = []

    def shoot(page: Any, n: int) -> None:
        # the panel leaves room for the table: a quarter of the screen at most, and the
        # piece it marks in sight below it
        assert_seen(page)
        # the bot's moves since the player's last one are told in the lesson's box, where
        # the eye is, and not again below the board
        since = page.locator("[data-testid=since-line]")
        if since.count():
            assert page.locator("[data-testid=tutor] [data-testid=since-line]").count() == 1
            assert since.count() == 1
            assert since.locator(".since-turn[data-seat='1']").count() == 1
            if not told:
                screenshot(page, f"tutorial-{name}-{lang}-{width}-since")
            told.append(n)
        if n == 2:  # folded to its heading line, and open again
            toggle = page.locator("[data-testid=tutor-toggle]")
            toggle.click()
            page.locator("[data-testid=tutor-text]").wait_for(state="hidden")
            folded = page.locator("[data-testid=tutor]").bounding_box()
            assert folded["height"] <= 56, folded
            assert toggle.inner_text() == tr("tutorial.unfold")
            assert toggle.get_attribute("aria-expanded") == "false"
            screenshot(page, f"tutorial-{name}-{lang}-{width}-folded")
            toggle.click()
            page.locator("[data-testid=tutor-text]").wait_for()
            assert toggle.get_attribute("aria-expanded") == "true"
            assert_seen(page)
        if n in (1, 2, 5, 11):
            screenshot(page, f"tutorial-{name}-{lang}-{width}-step{n}")
            # what the player sees now (a whole-page picture moves the sticky panel)
            view = artifacts_dir() / f"tutorial-{name}-{lang}-{width}-step{n}-view.png"
            page.screenshot(path=str(view))

    steps = follow(page, shoot)
    assert steps == len(lesson.steps)
    assert told, "the bot's moves were never told in the lesson's box"
    tutor = page.locator("[data-testid=tutor]")
    assert tutor.get_attribute("data-done") == "true"
    assert tr("tutorial.done.title") in tutor.inner_text()
    assert page.locator("[data-testid=tutor-text]").inner_text() == tr(lesson.done_key)
    assert page.locator(".final").count() == 1
    final = page.locator(".final").inner_text()
    assert tr("name.you") in final
    assert "Player" not in final
    # named "you", the player's own panel does not say "you" twice ("Ty (ty)")
    assert page.locator(".player.me h3").inner_text().strip() == tr("name.you")
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
    page.goto("/")
    page.evaluate("() => localStorage.setItem('keltis.name', 'Ada')")
    start_lesson(page, name)
    page.wait_for_function(READY)
    assert seat_names(page, plain_server)[0] == "Ada"  # the name the player gave
    first = page.url
    wanted = lesson.steps[0].point.split(":")[1]
    other = page.locator(f".card-button.playable:not([data-card='{wanted}'])").first
    other.click()
    page.locator(".option").first.click()
    wrong = page.locator("[data-testid=tutor-wrong]")
    wrong.wait_for()
    assert "Not now" in wrong.inner_text()
    assert "allowed by the rules" in wrong.inner_text()
    assert ply(page) == "0"
    assert page.locator(".game").get_attribute("data-turn") == "mine"
    # a legal move typed in the box is checked the same way, in any spelling the engine reads
    clicked = wrong.inner_text()
    page.locator("[data-testid=type-move]").fill("- g5" if name == "board" else "- g7")
    page.locator(".type-move button[type=submit]").click()
    page.wait_for_function(
        "(before) => document.querySelector('[data-testid=tutor-wrong]').innerText !== before",
        arg=clicked,
    )
    assert "allowed by the rules" in wrong.inner_text()
    screenshot(page, f"tutorial-{name}-off-script")
    # the lesson's own move goes through, and it is the only one sent
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


def engine_refusal(name: str, step: int, move: str) -> Any:
    """The engine's refusal of ``move`` at the lesson's step ``step`` (1-based), the script
    played up to it as the server plays it."""
    lesson = TUTORIALS[name]
    match = new_match(lesson)
    for done in lesson.steps[: step - 1]:
        bots_move(match, lesson)
        match.submit(0, done.move)
    bots_move(match, lesson)
    with pytest.raises(IllegalActionError) as refused:
        match.submit(0, move)
    return refused.value


def type_move(page: Any, move: str) -> None:
    page.locator("[data-testid=type-move]").fill(move)
    page.locator(".type-move button[type=submit]").click()


def assert_refused_as_in_a_game(page: Any, lang: str, error: Any, move: str) -> None:
    """The page says the engine's reason in ``lang`` with a link to its rule, the move went
    to the server (it alone refuses), and the lesson does not call it "allowed"."""
    shown = page.locator("[data-testid=error]")
    shown.wait_for()
    assert Translator(lang).reason(error) in shown.inner_text()
    assert shown.locator("[data-rule-link]").get_attribute("data-rule-link") == error.rule
    assert page.locator("[data-testid=tutor-wrong]").count() == 0
    assert acts(page)[-1] == move


@pytest.mark.parametrize(("name", "lang"), [("board", "pl"), ("cards", "es")])
def test_a_move_the_rules_refuse_is_refused_as_in_a_real_game(
    new_page: Any, plain_server: Server, screenshot: Any, name: str, lang: str
) -> None:
    """No green 2 in the hand: not "allowed by the rules, but not now" — the engine's refusal,
    in words and with its rule's link; the lesson goes on at the same step."""
    page = new_page(lang=lang, server=plain_server)
    start_lesson(page, name)
    page.wait_for_function(READY)
    type_move(page, "G2")
    assert_refused_as_in_a_game(page, lang, engine_refusal(name, 1, "G2"), "G2")
    assert ply(page) == "0"
    assert page.locator("[data-testid=tutor]").get_attribute("data-step") == "1"
    screenshot(page, f"tutorial-{name}-{lang}-refused")
    if name == "board":
        # right after discarding the red 1, its pile is no pile to draw from (B-15)
        at = next(n for n, s in enumerate(TUTORIALS[name].steps, 1) if s.key.endswith("take_back"))
        follow(page, until=at)
        type_move(page, "draw R")
        assert_refused_as_in_a_game(page, lang, engine_refusal(name, at, "draw R"), "draw R")
        assert page.locator("[data-testid=tutor]").get_attribute("data-step") == str(at)


def test_an_unknown_lesson_is_refused_in_the_pages_language(
    new_page: Any, plain_server: Server
) -> None:
    page = new_page(lang="pl", server=plain_server)
    page.goto("/#/learn/chess")
    error = page.locator("[data-testid=learn-error]")
    error.wait_for()
    assert error.inner_text() == Translator("pl")("tutorial.unknown", name="chess")

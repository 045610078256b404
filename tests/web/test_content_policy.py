"""The browser client works under its content policy (docs/server.md, "Headers"): the start
page has no inline script, every screen renders and plays — the live WebSocket included —
without one violation of the policy in Chromium, and the policy is really in force (an
inline script is refused, and so is framing the client)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from keltis.server.guards import CLIENT_POLICY
from server.harness import Server
from web.pages import BOARD_SHORT, CARDS_SHORT, open_match, play_to_the_end

#: Every violation of the page's content policy, kept in the page (an init script: it runs
#: before the client's own, and the policy does not apply to it).
WATCH_VIOLATIONS = """
window.__violations = [];
document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(
  `${e.violatedDirective}: ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`));
"""

#: The client's screens that need no match, and what shows each has rendered.
SCREENS = [
    ("#/", ".home"),
    ("#/new", ".create"),
    ("#/matches", ".matches"),
    ("#/lobby", ".lobby-page"),
    ("#/ratings", ".ratings-page"),
    ("#/ratings/cards", ".ratings-page"),
    ("#/player/bot:easy", ".player-page"),
    ("#/rules/board", "#main"),
    ("#/rules/cards", "#main"),
    ("#/login", ".account-page"),
    ("#/register", ".account-page"),
]


def violations(page: Any) -> list[str]:
    """The policy's violations on ``page`` — reported to the page's script, or by Chromium
    on its console — and the page's script errors."""
    seen: list[str] = list(page.evaluate("() => window.__violations || []"))
    seen += [m.text for m in page.console_messages if "Content Security Policy" in m.text]
    seen += [str(error) for error in page.page_errors]
    return seen


def watched_page(new_page: Callable[..., Any], **options: Any) -> Any:
    page = new_page(**options)
    page.add_init_script(WATCH_VIOLATIONS)
    return page


def test_the_start_page_has_no_inline_script_and_carries_the_policy(
    new_page: Callable[..., Any],
) -> None:
    page = watched_page(new_page)
    response = page.goto("/")
    assert response is not None
    assert response.headers["content-security-policy"] == CLIENT_POLICY
    assert "'unsafe-inline'" not in CLIENT_POLICY
    assert "'unsafe-eval'" not in CLIENT_POLICY
    assert response.headers["x-frame-options"] == "DENY"
    page.wait_for_selector(".home")
    assert page.locator("script:not([src])").count() == 0
    assert violations(page) == []


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_screen_renders_under_the_policy(new_page: Callable[..., Any], lang: str) -> None:
    page = watched_page(new_page, lang=lang)
    page.goto("/")
    for hash_, shown in SCREENS:
        page.evaluate("(h) => { location.hash = h; }", hash_)
        page.wait_for_selector(shown)
        page.wait_for_load_state("networkidle")
        assert violations(page) == [], hash_


@pytest.mark.parametrize(
    ("game", "setup"), [("board", BOARD_SHORT), ("cards", CARDS_SHORT)], ids=["board", "cards"]
)
def test_a_whole_game_and_its_replay_under_the_policy(
    new_page: Callable[..., Any],
    web_server: Server,
    screenshot: Callable[[Any, str], Path],
    game: str,
    setup: dict[str, Any],
) -> None:
    page = watched_page(new_page)
    answer = open_match(
        page,
        web_server,
        game=game,
        seats=[{"kind": "person"}, {"kind": "bot", "level": "easy"}],
        name="Ada",
        setup=setup,
    )
    page.wait_for_selector(f".game-{game}")
    # the live WebSocket connects under the policy ('self' admits ws: to the same host)
    assert any(f.direction == "received" for f in page.ws_frames)
    screenshot(page, f"content-policy-{game}")
    assert play_to_the_end(page) >= 1
    page.goto(f"/#/replay/{answer['id']}")
    page.wait_for_selector(".replay[data-ply='0']")
    page.keyboard.press("End")
    page.wait_for_selector(".replay .final")
    screenshot(page, f"content-policy-{game}-replay")
    assert violations(page) == []


def test_the_policy_is_in_force(new_page: Callable[..., Any], web_server: Server) -> None:
    """A check of the checks: Chromium applies the policy, so the tests above would see a
    violation if the client made one."""
    page = watched_page(new_page)
    page.goto("/")
    page.wait_for_selector(".home")
    # an inline script (as an injected one would be) does not run, and is reported
    page.evaluate(
        """() => { const s = document.createElement('script');
                   s.textContent = 'window.__ran = true'; document.body.append(s); }"""
    )
    page.wait_for_function("() => window.__violations.length > 0")
    assert page.evaluate("() => window.__ran === undefined")
    assert page.evaluate("() => window.__violations")[0].startswith("script-src-elem: inline")
    # no page may frame the client (frame-ancestors 'none')
    framing = watched_page(new_page)
    framing.set_content(f"<iframe src='{web_server.base}/'></iframe>")
    framing.wait_for_function(
        "() => !!document.querySelector('iframe')", polling=100, timeout=10_000
    )
    framing.wait_for_timeout(500)
    inner = [f for f in framing.frames if f is not framing.main_frame]
    assert len(inner) == 1
    assert not inner[0].url.startswith(web_server.base)  # Chromium's error page instead
    assert any("frame-ancestors" in m.text for m in framing.console_messages)

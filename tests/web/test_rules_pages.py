"""The "How to play" pages (web/src/rules.tsx, issue 31 §1): a page per game whose every rule of
the specification has a section with the rule's id as its element id, addressable as
``#/rules/board/B-10``; in all seven languages, with no message left untranslated and no move
notation; pictures and tables that fit a 360 px phone; reachable from the start page, from a
Rules button over a running game (the game and its WebSocket stay) and from the final
scores."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from keltis.messages import MESSAGES
from server.harness import Server, create
from web.helpers import describe_violations, wait_finished, ws_messages
from web.pages import (
    BOARD_SHORT,
    CARDS_SHORT,
    click_a_move,
    open_match,
    ply,
    wait_moved,
    wait_my_turn,
)

ROOT = Path(__file__).resolve().parents[2]
CLIENT = ROOT / "web" / "src"
#: The specification the rule ids come from: ../shared/RULES.md beside the checkout; where a
#: checkout has none, the developers' rules pages, which carry the same ids.
RULES_MD = ROOT.parent / "shared" / "RULES.md"
DEV_RULES = [ROOT / "docs" / "rules" / "board.md", ROOT / "docs" / "rules" / "cards.md"]
LANGUAGES = ["en", "de", "cs", "sk", "hu", "pl", "es"]
GAMES = {"board": "B", "cards": "C"}
BOT = {"kind": "bot", "level": "easy"}

#: Move notation a player never has to read on these pages: a card (G7, B10, RX), a point card
#: (*5), a move of the terminal's notation (>G).
NOTATION = [re.compile(r"\b[GYRPB](?:\d|10|X)\b"), re.compile(r"\*\d"), re.compile(r">[GYRPB]\b")]
#: A message key shown instead of its text.
MESSAGE_KEY = re.compile(
    r"\b(?:rules|web|title|act|score|board|name|screen)\.[a-z_]+(?:\.[a-z_]+)*\b"
)

#: The page's texts that are words (headings, paragraphs, captions, table headings, links), in
#: document order, for comparing a language with English.
TEXTS = """() => [...document.querySelectorAll(
  'main h1, main h2, main h3, main p, main li, main figcaption, main caption, main thead th, main a'
)].map((e) => e.innerText.trim()).filter((s) => /[A-Za-zÀ-ž]{3}/.test(s))"""

#: Whether the element with this id lies in the window (its top inside it) and the page has
#: scrolled to reach it.
IN_VIEW = """(id) => {
  const el = document.getElementById(id);
  if (!el) return false;
  const top = el.getBoundingClientRect().top;
  return top >= -1 && top < window.innerHeight / 2 && window.scrollY > 0;
}"""


def rule_ids() -> dict[str, list[str]]:
    """Every rule id of the specification by game: {"board": ["B-1", …], "cards": ["C-1", …]}."""
    sources = [RULES_MD] if RULES_MD.is_file() else DEV_RULES
    text = "\n".join(path.read_text(encoding="utf-8") for path in sources)
    found = sorted(set(re.findall(r"\*\*([BC]-\d+)\b", text)), key=lambda r: (r[0], int(r[2:])))
    ids = {game: [r for r in found if r[0] == letter] for game, letter in GAMES.items()}
    assert len(ids["board"]) == 24, ids
    assert len(ids["cards"]) == 19, ids
    return ids


def last_cells(rows: Any) -> list[str]:
    """The last cell's text of each table row (the points)."""
    return [str(text).split()[-1] for text in rows.all_inner_texts()]


def open_rules(page: Any, game: str, lang: str | None = None, place: str = "") -> None:
    page.goto(f"/#/rules/{game}{'/' + place if place else ''}")
    page.wait_for_selector(f".rules-{game} [data-rule]")
    if lang:
        page.select_option("[data-testid=language]", lang)
        page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)


# -- without a browser ----------------------------------------------------------------------


def _client_sources() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(CLIENT.glob("*.ts*")))


def test_every_rules_message_is_used_by_the_client_and_exists() -> None:
    source = _client_sources()
    # "rules.x.y" literally, or a template such as `rules.title.${game}`
    named = re.findall(r"[\"'`]((?:rules\.|web\.how_to_play)[^\"'`\s]*)[\"'`]", source)
    literal = {n for n in named if "${" not in n}
    templates = [
        re.compile(re.sub(r"\\\$\\\{[^}]*\\\}", r"\\w+", re.escape(n)) + "$")
        for n in named
        if "${" in n
    ]
    declared = {k for k in MESSAGES if k.startswith("rules.") or k == "web.how_to_play"}
    assert len(declared) > 80
    assert literal - declared == set(), "the client names rules messages nobody declared"
    unused = {k for k in declared if k not in literal and not any(t.match(k) for t in templates)}
    assert unused == set(), f"rules messages the client never shows: {sorted(unused)}"


def test_every_rule_id_has_its_block_in_the_client() -> None:
    source = (CLIENT / "rules.tsx").read_text(encoding="utf-8")
    blocks = set(re.findall(r'<Rule ctx=\{ctx\} id="([BC]-\d+)"', source))
    for game, ids in rule_ids().items():
        assert set(ids) <= blocks, (game, sorted(set(ids) - blocks))


# -- in the browser -------------------------------------------------------------------------


@pytest.mark.parametrize("game", list(GAMES))
def test_every_rule_id_of_the_specification_has_its_section(new_page: Any, game: str) -> None:
    page = new_page()
    open_rules(page, game)
    for rule in rule_ids()[game]:
        found = page.locator(f'[id="{rule}"]')
        assert found.count() == 1, rule
        assert found.is_visible(), rule
        # its heading carries a link to its own address
        assert (
            page.locator(f'[id="{rule}"] a.rule-id').get_attribute("href")
            == f"#/rules/{game}/{rule}"
        )
    assert not page.page_errors


def test_a_rule_address_scrolls_its_section_into_view(new_page: Any, screenshot: Any) -> None:
    page = new_page(height=700)
    open_rules(page, "board", place="B-10")
    page.wait_for_function(IN_VIEW, arg="B-10", timeout=5_000)
    assert page.evaluate("document.activeElement.id") == "B-10"
    screenshot(page, "rules-board-B-10")
    # the contents lead to a part: the address says where, and that part comes into view
    page.locator(".rules-contents a[href='#/rules/board/scoring']").click()
    page.wait_for_function("() => location.hash === '#/rules/board/scoring'")
    page.wait_for_function(IN_VIEW, arg="scoring", timeout=5_000)
    # and a rule's own link, followed from elsewhere on the page
    page.goto("/#/rules/cards/C-13")
    page.wait_for_function(IN_VIEW, arg="C-13", timeout=5_000)
    assert not page.page_errors


@pytest.mark.parametrize("game", list(GAMES))
def test_every_language_words_the_whole_page_without_notation(
    new_page: Any, game: str, screenshot: Any
) -> None:
    page = new_page(width=360, height=740)
    open_rules(page, game)
    english = page.evaluate(TEXTS)
    assert len(english) > 40
    problems: list[str] = []
    for lang in LANGUAGES:
        if lang != "en":
            page.select_option("[data-testid=language]", lang)
            page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
        text = page.locator("main").inner_text()
        for pattern in (MESSAGE_KEY, *NOTATION):
            problems += [f"{lang}: {m.group(0)!r}" for m in pattern.finditer(text)]
        problems += [f"{lang}: a placeholder left" for s in ("{", "}") if s in text]
        if lang != "en":
            texts = page.evaluate(TEXTS)
            same = [
                a
                for a, b in zip(english, texts, strict=False)
                if a == b and not a.startswith("Keltis")
            ]
            problems += [f"{lang}: still English: {s!r}" for s in same]
        wide = page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        if wide > 0:
            problems.append(f"{lang}: {wide} px wider than a 360 px phone")
        if lang in ("en", "de") or game == "cards":
            screenshot(page, f"rules-{game}-{lang}-360")
    assert not problems, "\n".join(problems)
    assert not page.page_errors


def test_the_pictures_are_the_games_own_pieces(new_page: Any, screenshot: Any) -> None:
    page = new_page()
    open_rules(page, "board", lang="de")
    # cards as the hand shows them, a path with its stones, tiles and figures, the score track
    assert page.locator('[id="B-1"] .card').count() == 5
    assert page.locator('[id="B-2"] svg .stone').count() == 9
    assert page.locator('[id="B-2"] svg .figure.big').count() == 1
    assert page.locator('[id="B-3"] svg .tile').count() == 5
    assert page.locator('[id="B-22"] svg.score-track').count() == 1
    # the tables: the path values with the big figure's double, the wish stones
    path = page.locator('[id="B-21"] table tbody tr')
    assert path.count() == 9
    assert path.nth(0).inner_text().split() == ["1", "-4", "-8"]
    assert path.nth(8).inner_text().split() == ["9", "+10", "+20"]
    wishes = page.locator('[id="B-23"] table tbody tr')
    assert last_cells(wishes) == ["-4", "-3", "+2", "+3", "+6", "+10"]
    # every picture has a name for screen readers
    unnamed = page.evaluate(
        "() => [...document.querySelectorAll('.rules [role=img]')]"
        ".filter((e) => !e.getAttribute('aria-label')).length"
    )
    assert unnamed == 0
    screenshot(page, "rules-board-de-1280")
    open_rules(page, "cards")
    rows = page.locator('[id="C-16"] table tbody tr')
    assert last_cells(rows) == ["-4", "-3", "-2", "+1", "+2", "+3", "+6", "+7", "+10"]
    wishes = page.locator('[id="C-18"] table tbody tr')
    assert last_cells(wishes) == ["-4", "-1", "0", "+4", "+6", "+10"]
    assert page.locator('[id="C-4"] .wish').count() == 9
    assert not page.page_errors


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_the_rules_pages_and_dialog_pass_axe(
    new_page: Any, web_server: Server, axe_scan: Any, lang: str
) -> None:
    page = new_page(lang=lang)
    for game in GAMES:
        open_rules(page, game)
        found = axe_scan(page)
        assert not found, describe_violations(found)
    open_match(page, web_server, game="board", seats=[{"kind": "person"}, BOT], setup=BOARD_SHORT)
    wait_my_turn(page)
    page.locator("[data-testid=rules-button]").click()
    page.locator("[data-testid=rules-dialog]").wait_for()
    found = axe_scan(page)
    assert not found, describe_violations(found)


def test_the_start_page_links_to_each_games_rules(new_page: Any) -> None:
    page = new_page(lang="pl")
    page.goto("/")
    page.wait_for_selector("[data-rules-link]")
    links = page.locator("[data-rules-link]")
    assert links.count() == 2
    page.locator("[data-rules-link=cards]").click()
    page.wait_for_selector(".rules-cards")
    assert page.evaluate("location.hash") == "#/rules/cards"
    assert page.locator("h1").inner_text() == "Jak grać w Keltis – grę karcianą"
    # and from one game's rules to the other's
    page.locator("[data-testid=rules-other]").click()
    page.wait_for_selector(".rules-board")
    assert not page.page_errors


def test_the_rules_open_over_a_running_game_and_escape_closes_them(
    new_page: Any, web_server: Server, screenshot: Any
) -> None:
    page = new_page(width=1280, height=800)
    sockets: list[Any] = []
    page.on("websocket", lambda socket: sockets.append(socket))
    made = open_match(
        page, web_server, game="board", seats=[{"kind": "person"}, BOT], setup=BOARD_SHORT
    )
    wait_my_turn(page)
    before = ply(page)
    sent = len(ws_messages(page, "sent"))
    page.locator("[data-testid=rules-button]").click()
    dialog = page.locator("[data-testid=rules-dialog]")
    dialog.wait_for()
    assert page.evaluate("document.querySelector('dialog').open")
    # the focus is in the dialog, on its close button
    assert page.evaluate("document.activeElement.dataset.testid") == "rules-close"
    assert dialog.locator('[id="B-13"]').count() == 1
    # inside the dialog the contents only scroll: the address stays the game's
    dialog.locator(".rules-contents a[href='#/rules/board/scoring']").click()
    page.wait_for_function(
        "() => { const r = document.getElementById('scoring').getBoundingClientRect();"
        " return r.top >= 0 && r.top < window.innerHeight; }"
    )
    assert page.evaluate("location.hash") == f"#/match/{made['id']}"
    # keys pressed over the rules never reach the game (1–9 would play a move)
    page.keyboard.press("1")
    screenshot(page, "rules-dialog-board")
    page.keyboard.press("Escape")
    dialog.wait_for(state="detached")
    # the game is still there, on the same position, and the focus back on the button
    assert page.locator(".game").count() == 1
    assert ply(page) == before
    assert page.evaluate("document.activeElement.dataset.testid") == "rules-button"
    assert [m["type"] for m in ws_messages(page, "sent")[sent:] if m["type"] != "ping"] == []
    # the close button closes it too, and the game plays on over the same connection
    page.locator("[data-testid=rules-button]").click()
    dialog.wait_for()
    page.locator("[data-testid=rules-close]").click()
    dialog.wait_for(state="detached")
    click_a_move(page)
    wait_moved(page, before)
    assert len(sockets) == 1, [s.url for s in sockets]
    assert not sockets[0].is_closed()
    assert not page.page_errors


def test_the_rules_button_is_on_the_card_game_too_and_fits_a_phone(
    new_page: Any, web_server: Server, screenshot: Any
) -> None:
    page = new_page(width=360, height=740, lang="hu")
    open_match(page, web_server, game="cards", seats=[{"kind": "person"}, BOT], setup=CARDS_SHORT)
    wait_my_turn(page)
    page.locator("[data-testid=rules-button]").click()
    dialog = page.locator("[data-testid=rules-dialog]")
    dialog.wait_for()
    assert dialog.locator('[id="C-8"]').count() == 1
    assert dialog.locator("h2").first.inner_text() == "Keltis – A kártyajáték: játékleírás"
    box = dialog.bounding_box()
    assert box is not None
    assert box["width"] <= 360
    body = dialog.locator(".rules-dialog-body")
    assert body.evaluate("(b) => b.scrollWidth - b.clientWidth") <= 0
    screenshot(page, "rules-dialog-cards-hu-360")
    page.keyboard.press("Escape")
    dialog.wait_for(state="detached")
    assert page.locator(".game").count() == 1
    assert not page.page_errors


@pytest.mark.parametrize("game", list(GAMES))
def test_the_final_scores_link_to_the_rules(new_page: Any, web_server: Server, game: str) -> None:
    setup = BOARD_SHORT if game == "board" else CARDS_SHORT
    made = create(
        web_server,
        game=game,
        seats=[BOT, {"kind": "bot", "level": "random"}],
        seat=None,
        setup=setup,
    )
    wait_finished(web_server, made["id"], timeout=60)
    page = new_page()
    page.goto(f"/#/watch/{made['id']}")
    link = page.locator(".final-buttons [data-testid=final-rules]")
    link.wait_for()
    assert link.get_attribute("href") == f"#/rules/{game}"
    link.click()
    page.wait_for_selector(f".rules-{game}")
    assert not page.page_errors

"""The review of a finished game in the browser (issue 41, docs/web.md "The review"): asked
for from the final screen or the replay, its progress while the server computes it, then the
players' accuracy, marks and luck, the win-chance graph with its table, the decisions with
their marks, and at the decision chosen the position as its player saw it with the move played
and the better one drawn on it — by keyboard, in two languages, at 1280 and 360 px."""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest

from keltis.wire import validate
from server.harness import WAIT, Server, play_together, player
from web.conftest import WEB_SERVER_OPTIONS
from web.helpers import describe_violations
from web.pages import BOARD_SHORT, CARDS_SHORT, ada_and_bob, hold_seat

#: A review that takes a moment, not minutes (ServerConfig.review_budget).
TINY_BUDGET = "iterations=16,width=2,luck_playouts=2"

#: The words of the marks in English and German (the page shows a symbol and a word; the
#: same words as ``keltis review``'s table: review.mark.*).
MARK_WORDS = {
    "en": {
        "best": "best",
        "good": "good",
        "inaccuracy": "inaccuracy",
        "mistake": "mistake",
        "blunder": "blunder",
    },
    "de": {
        "best": "beste Wahl",
        "good": "gute Wahl",
        "inaccuracy": "Ungenauigkeit",
        "mistake": "Fehler",
        "blunder": "Patzer",
    },
}

#: The page wider than the window (a horizontal scroll bar).
OVERFLOW = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"


@pytest.fixture(scope="module")
def review_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The browser tests' server with a tiny review budget."""
    folder = tmp_path_factory.mktemp("review-server")
    running = Server(
        f"sqlite:///{folder / 'server.sqlite3'}",
        *WEB_SERVER_OPTIONS,
        "--review-budget",
        TINY_BUDGET,
    ).start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
def finished(review_server: Server) -> dict[str, Any]:
    """A short board game between Ada and Bob, played to its end: the creation's answer."""
    made, bob = ada_and_bob(review_server, setup=BOARD_SHORT)
    with (
        player(review_server, made["id"], made["token"]) as ada,
        player(review_server, made["id"], bob["token"]) as bob_client,
    ):
        play_together(ada, bob_client)
    return made


@pytest.fixture(scope="module")
def finished_cards(review_server: Server) -> dict[str, Any]:
    """A short card game between Ada and Bob, played to its end."""
    made, bob = ada_and_bob(review_server, game="cards", setup=CARDS_SHORT)
    with (
        player(review_server, made["id"], made["token"]) as ada,
        player(review_server, made["id"], bob["token"]) as bob_client,
    ):
        play_together(ada, bob_client)
    return made


def the_review(server: Server, made: dict[str, Any]) -> dict[str, Any]:
    """The review as the server holds it (the page must show the same): asked for here if no
    test before this one asked (the tests may run in any order, or alone), then polled until
    the server has it."""
    address = f"/api/matches/{made['id']}/review"
    headers = {"Authorization": f"Bearer {made['token']}"}
    deadline = time.monotonic() + 2 * WAIT
    with server.http() as http:
        answer = http.get(address, headers=headers).json()
        if answer["status"] == "none":
            answer = http.post(address, headers=headers).json()
        while answer["status"] in ("queued", "running"):
            assert time.monotonic() < deadline, f"the review is stuck: {answer}"
            time.sleep(0.05)
            answer = http.get(address, headers=headers).json()
    assert answer["status"] == "done", answer
    review: dict[str, Any] = answer["review"]
    return review


def wait_done(page: Any) -> None:
    page.wait_for_selector("main.review[data-status=done] .review-move")


def current(page: Any) -> int:
    return int(page.get_attribute(".review-move[aria-current]", "data-index"))


def check_position(page: Any, server: Server, match_id: str, decision: dict[str, Any]) -> None:
    """The decision's position is shown with the move played and the better one drawn where
    the seat's own view (the server's replay) says they go: the cards each plays lifted in
    the hand, the stone its figure reaches, the pile it discards to or draws from."""
    page.wait_for_selector(f".review-position[data-index='{decision['index']}'][data-loaded]")
    with server.http() as http:
        answer = http.get(
            f"/api/matches/{match_id}/replay",
            params={"ply": decision["index"], "seat": decision["seat"]},
        ).json()
    legal = {move["notation"]: move for move in answer["view"]["legal"]}
    advised = page.eval_on_selector_all(
        ".review-position [data-advice]",
        "(els) => els.map((e) => [e.dataset.card || e.dataset.stone || e.dataset.pile,"
        " e.dataset.advice])",
    )
    moves = [("played", legal[decision["played"]["action"]])]
    if decision["best"]["action"] != decision["played"]["action"]:
        assert page.locator(".review-position .legend-better").count() == 1
        moves.append(("better", legal[decision["best"]["action"]]))
    else:
        assert page.locator(".review-position .legend-best").count() == 1
        assert all(kind == "played" for _, kind in advised), advised
    for kind, move in moves:
        places = list(move["cards"])
        figure = move["preview"].get("figure")
        if figure and not figure["overflow"]:
            places.append(f"{figure['path']}{max(figure['to'], 1)}")
        if move["kind"] in ("draw", "discard"):
            places.append(move["pile"])
        for place in places:
            assert [place, kind] in advised or [place, "both"] in advised, (kind, move, advised)


def test_the_review_from_the_final_screen(
    new_page: Any, review_server: Server, finished: dict[str, Any], axe_scan: Any, screenshot: Any
) -> None:
    page = new_page(server=review_server)
    hold_seat(page, finished["id"], 0, finished["token"])
    page.goto(f"/#/match/{finished['id']}")
    page.wait_for_selector(".final")
    page.locator("[data-testid=open-review]").click()
    page.wait_for_function("(id) => location.hash === `#/review/${id}`", arg=finished["id"])
    wait_done(page)
    review = the_review(review_server, finished)
    decisions = review["decisions"]
    assert decisions, "a game between two people has decisions"

    # the budget in one sentence, the players with their accuracy and marks
    budget = page.inner_text("[data-testid=review-budget]")
    assert "Each move was judged on 16 playouts" in budget
    rows = page.locator("[data-testid=review-summaries] tbody tr")
    assert rows.count() == 2
    for summary in review["summaries"]:
        row = page.locator(f"[data-testid=review-summaries] tr[data-seat='{summary['seat']}']")
        cells = row.locator("td").all_inner_texts()
        assert cells[0] == str(round(summary["accuracy"]))
        marks = summary["marks"]
        assert cells[1:4] == [
            str(marks["inaccuracy"]),
            str(marks["mistake"]),
            str(marks["blunder"]),
        ]
        assert ["Ada", "Bob"][summary["seat"]] in row.inner_text()

    # the move list: every decision with its mark as a symbol and a word
    moves = page.locator(".review-move")
    assert moves.count() == len(decisions)
    for n, decision in enumerate(decisions):
        item = moves.nth(n)
        assert item.get_attribute("data-mark") == decision["mark"]
        assert MARK_WORDS["en"][decision["mark"]] in item.inner_text()
        assert f"Turn {decision['turn'] + 1}" in item.inner_text()
    page.wait_for_function(
        "() => !document.querySelector('.review-move-text')?.textContent.includes('…')"
    )

    # the graph: a dot per decision, a line per player with two decisions or more; its table
    assert page.locator(".win-graph circle.graph-decision").count() == len(decisions)
    lines = sum(1 for seat in review["seats"] if sum(d["seat"] == seat for d in decisions) > 1)
    assert page.locator(".win-graph .graph-own-line").count() == lines
    turns = page.locator(".win-graph .graph-turn text").all_text_contents()
    assert turns[0] == "1"
    assert [int(n) for n in turns] == sorted(int(n) for n in turns)
    page.locator(".review-numbers summary").click()
    table_rows = page.locator("[data-testid=graph-table] tbody tr")
    assert table_rows.count() == len(decisions) + len(review["luck"])

    # the keyboard: End, Home, the arrows; the decision chosen is said and shown
    page.locator(".review-move").first.focus()
    page.keyboard.press("End")
    assert current(page) == decisions[-1]["index"]
    page.wait_for_selector(f".review-position[data-index='{decisions[-1]['index']}']")
    page.keyboard.press("Home")
    assert current(page) == decisions[0]["index"]
    page.keyboard.press("ArrowRight")
    assert current(page) == decisions[1]["index"]
    said = decisions[1]
    page.wait_for_function(
        "(turn) => document.querySelector('[data-testid=announce]').textContent.startsWith(turn)",
        arg=f"Turn {said['turn'] + 1}, {['Ada', 'Bob'][said['seat']]}:",
    )
    focused = page.evaluate("() => document.activeElement.dataset.index")
    assert focused == str(said["index"]), "the focus follows the decision chosen in the list"
    page.keyboard.press("ArrowLeft")
    assert current(page) == decisions[0]["index"]

    # the position of a decision: the move played (and a better one) drawn on the table
    for n, decision in enumerate(decisions[:8]):
        moves.nth(n).click()
        check_position(page, review_server, finished["id"], decision)

    violations = axe_scan(page)
    assert not violations, describe_violations(violations)
    assert page.evaluate(OVERFLOW) <= 0
    screenshot(page, "review-en-1280")
    assert not page.page_errors


def test_the_review_in_german_on_a_phone_from_the_replay(
    new_page: Any, review_server: Server, finished: dict[str, Any], axe_scan: Any, screenshot: Any
) -> None:
    page = new_page(lang="de", width=360, height=780, server=review_server)
    hold_seat(page, finished["id"], 1, None)  # Bob's browser knows the match, not the seat
    page.goto(f"/#/replay/{finished['id']}")
    page.locator("[data-testid=open-review]").click()
    wait_done(page)
    review = the_review(review_server, finished)
    decisions = review["decisions"]
    assert page.inner_text("main.review h1").startswith("Analyse")
    assert "Jeder Zug wurde mit 16 Probespielen" in page.inner_text("[data-testid=review-budget]")
    first = page.locator(".review-move").first
    assert MARK_WORDS["de"][decisions[0]["mark"]] in first.inner_text()
    assert f"Zug {decisions[0]['turn'] + 1}" in first.inner_text()
    page.keyboard.press("End")
    assert current(page) == decisions[-1]["index"]
    page.wait_for_selector(f".review-position[data-index='{decisions[-1]['index']}'] svg.board")
    # the players' table is wider than a phone: its arrows scroll it, not the decisions
    region = page.locator(".review-summaries .table-scroll")
    region.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Home")
    assert current(page) == decisions[-1]["index"]
    assert region.evaluate("(e) => e.scrollWidth > e.clientWidth")
    legend = page.inner_text("[data-testid=review-legend]")
    assert "Durchgezogener Rahmen: der gespielte Zug" in legend
    assert page.evaluate(OVERFLOW) <= 0, "no horizontal scroll at 360 px"
    violations = axe_scan(page)
    assert not violations, describe_violations(violations)
    screenshot(page, "review-de-360")
    assert not page.page_errors


def test_the_progress_while_the_server_reviews(
    new_page: Any, review_server: Server, finished: dict[str, Any]
) -> None:
    """While the review is queued or running the page shows a bar and the same in words, and
    asks again about once a second (the server's answers are held here at step 3 of 10)."""
    page = new_page(server=review_server)
    asked: list[str] = []

    def running(route: Any) -> None:
        body = {"status": "running", "done": 3, "total": 10, "review": None}
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

    page.route(f"**/api/matches/{finished['id']}/review", running)
    page.on(
        "request",
        lambda request: asked.append(request.method) if request.url.endswith("/review") else None,
    )
    page.goto(f"/#/review/{finished['id']}")
    page.wait_for_selector("[data-testid=review-progress][data-done='3']")
    assert page.inner_text("[data-testid=review-progress] [role=status]") == (
        "Reviewing the game: step 3 of 10"
    )
    bar = page.locator("[data-testid=review-progress] progress")
    assert (bar.get_attribute("value"), bar.get_attribute("max")) == ("3", "10")
    # it asks again, and again (GET only: the review was asked for already)
    for _ in range(2):
        with page.expect_request(lambda request: request.url.endswith("/review")):
            pass
    assert asked[0] == "GET"
    assert asked.count("GET") >= 3
    assert "POST" not in asked


def test_a_review_the_page_cannot_have_says_why(new_page: Any, review_server: Server) -> None:
    """An unfinished match has no review (a review during play would be a hint): the page
    says so in the player's language, and shows no review."""
    made, _ = ada_and_bob(review_server, setup=BOARD_SHORT)
    page = new_page(lang="de", server=review_server)
    hold_seat(page, made["id"], 0, made["token"])
    page.goto(f"/#/review/{made['id']}")
    error = page.wait_for_selector("main.review [role=alert]")
    with review_server.http() as http:
        refused = http.get(
            f"/api/matches/{made['id']}/review",
            headers={"Authorization": f"Bearer {made['token']}", "Accept-Language": "de"},
        )
    assert refused.status_code == 409
    assert error.inner_text() == refused.json()["error"]["message"]
    assert page.locator(".review-move").count() == 0


def test_the_big_swings_of_luck_in_words_and_on_the_graph(
    new_page: Any, review_server: Server, finished: dict[str, Any]
) -> None:
    """The biggest swings of luck beyond their own error are told in words and marked on the
    graph: the server's review, with one draw made to cost its drawer 18 points and the deal
    to give Bob 12, while a larger swing of 30 points lies within its error of 40 and is not
    told (a review document still, served in the server's place); each player's luck is shown
    with its error."""
    review = copy.deepcopy(the_review(review_server, finished))
    draws = [e for e in review["luck"] if e["kind"] == "draw"]
    draw = next(e for e in draws if e["seat"] == 0)
    draw.update(before=[0.6, 0.4], after=[0.42, 0.58], swing=[-0.18, 0.18], error=[0.05, 0.05])
    noisy = next(e for e in draws if e is not draw)
    noisy.update(before=[0.3, 0.7], after=[0.6, 0.4], swing=[0.3, -0.3], error=[0.4, 0.4])
    for event in draws:
        if event is not draw and event is not noisy:
            event.update(swing=[0.0, 0.0], after=event["before"], error=[0.01, 0.01])
    deal = review["luck"][0]
    assert deal["kind"] == "deal"
    deal.update(before=[0.5, 0.5], after=[0.38, 0.62], swing=[-0.12, 0.12], error=[0.03, 0.03])
    review["summaries"][0].update(luck=-0.3, luck_error=0.2)
    validate("review", review)
    body = json.dumps({"status": "done", "done": 1, "total": 1, "review": review})
    page = new_page(server=review_server)
    page.route(
        f"**/api/matches/{finished['id']}/review",
        lambda route: route.fulfill(status=200, content_type="application/json", body=body),
    )
    page.goto(f"/#/review/{finished['id']}")
    wait_done(page)
    told = page.locator("[data-testid=review-swings] li").all_inner_texts()
    assert told[:2] == [
        f"Turn {draw['turn'] + 1}: the card drawn from the draw pile cost Ada 18 points of win"
        " chance",
        "The deal gave Bob 12 points of win chance",
    ]
    assert len(told) == 2  # the noisy swing is not told
    for event in (draw, deal):
        assert page.locator(f".graph-swing[data-index='{event['index']}']").count() == 1
    assert page.locator(f".graph-swing[data-index='{noisy['index']}']").count() == 0
    luck = page.locator("[data-testid=review-summaries] [data-testid=luck]").all_inner_texts()
    assert luck[0] == "-30 (±20)"


def test_the_review_of_a_card_game(
    new_page: Any, review_server: Server, finished_cards: dict[str, Any], screenshot: Any
) -> None:
    """The card game's review: every decision's position with the move played and the better
    one on the hand and the piles, stepped through with the arrow keys."""
    page = new_page(lang="pl", server=review_server)
    page.goto(f"/#/review/{finished_cards['id']}")
    wait_done(page)
    decisions = the_review(review_server, finished_cards)["decisions"]
    assert page.inner_text("main.review h1") == "Analiza: Keltis – gra karciana"
    page.locator(".review-move").first.focus()
    for n, decision in enumerate(decisions):
        if n:
            page.keyboard.press("ArrowRight")
        assert current(page) == decision["index"]
        check_position(page, review_server, finished_cards["id"], decision)
    assert page.evaluate(OVERFLOW) <= 0
    screenshot(page, "review-cards-pl-1280")
    assert not page.page_errors


def test_a_review_that_failed_says_so(
    new_page: Any, review_server: Server, finished: dict[str, Any]
) -> None:
    """A review whose computation failed is said to have failed, and not asked for again
    (the server keeps a failed review as it is)."""
    page = new_page(lang="de", server=review_server)
    asked: list[str] = []
    body = json.dumps({"status": "failed", "done": 4, "total": 10, "review": None})
    page.route(
        f"**/api/matches/{finished['id']}/review",
        lambda route: route.fulfill(status=200, content_type="application/json", body=body),
    )
    page.on(
        "request",
        lambda request: asked.append(request.method) if request.url.endswith("/review") else None,
    )
    page.goto(f"/#/review/{finished['id']}")
    alert = page.wait_for_selector("main.review[data-status=failed] [role=alert]")
    assert alert.inner_text() == "Die Analyse ist fehlgeschlagen."
    assert page.locator("[data-testid=review-progress]").count() == 0
    assert asked == ["GET"]

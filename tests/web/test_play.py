"""Whole games in the browser: the board game and the card game against bots, clicked to the
final scores (short set-ups: a draw pile of six cards), the final scores checked against the
server's record, then the replay stepped through and "play again"."""

from __future__ import annotations

from typing import Any

import pytest

from server.harness import Server
from web.pages import BOARD_SHORT, CARDS_SHORT, open_match, play_to_the_end


@pytest.mark.parametrize(
    ("game", "setup"), [("board", BOARD_SHORT), ("cards", CARDS_SHORT)], ids=["board", "cards"]
)
def test_a_whole_game_against_a_bot_by_clicking(
    new_page: Any, web_server: Server, screenshot: Any, game: str, setup: dict[str, Any]
) -> None:
    page = new_page()
    answer = open_match(
        page,
        web_server,
        game=game,
        seats=[{"kind": "person"}, {"kind": "bot", "level": "easy"}],
        name="Ada",
        setup=setup,
    )
    screenshot(page, f"{game}-game")
    made = play_to_the_end(page)
    assert made >= 3
    final = page.locator(".final")
    screenshot(page, f"{game}-final")
    with web_server.http() as http:
        record = http.get(f"/api/matches/{answer['id']}/record").json()
    scores = record["result"]["scores"]
    rows = final.locator("tbody tr")
    assert rows.count() == 2
    for seat, score in enumerate(scores):
        assert rows.nth(seat).locator("td").last.inner_text().strip() == str(score)
    assert "Ada" in rows.nth(0).inner_text()
    winners = record["result"]["winners"]
    assert final.locator("tr.winner").count() == len(winners)
    # The replay: every step, forward and back, with the board or table shown.
    page.get_by_role("button", name="Replay").click()
    page.wait_for_selector(".replay[data-ply='0']")
    total = len(record["actions"])
    page.get_by_test_id("replay-next").click()
    page.wait_for_selector(".replay[data-ply='1']")
    assert page.locator(".replay-step").inner_text().startswith("Ada")
    page.keyboard.press("End")
    page.wait_for_selector(f".replay[data-ply='{total}']")
    assert page.locator(".replay .final").count() == 1
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector(f".replay[data-ply='{total - 1}']")
    screenshot(page, f"{game}-replay")
    # Play again: a new match with the same seats.
    page.go_back()
    page.wait_for_selector(".final")
    page.get_by_role("button", name="Play again").click()
    page.wait_for_function(f"() => !location.hash.includes('{answer['id']}')")
    page.wait_for_selector(f".game-{game}")
    assert page.locator(".player").count() == 2
    assert not page.page_errors

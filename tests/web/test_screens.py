"""The screens the README shows: a three-player game of each kind some turns in, at a
desktop size. The screenshots (``readme-board.png``, ``readme-cards.png`` in the artifacts)
are what docs/images/ holds; copy them there when the client's look changes."""

from __future__ import annotations

from typing import Any

import pytest

from server.harness import Server
from web.pages import click_a_move, open_match, ply, wait_moved, wait_my_turn


@pytest.mark.parametrize("game", ["board", "cards"])
def test_a_three_player_game_some_turns_in(
    new_page: Any, web_server: Server, screenshot: Any, game: str
) -> None:
    page = new_page(width=1280, height=1000)
    open_match(
        page,
        web_server,
        game=game,
        seats=[
            {"kind": "person"},
            {"kind": "bot", "level": "easy"},
            {"kind": "bot", "level": "easy"},
        ],
        name="Ada",
        seed=2008,
    )
    for _ in range(24):
        wait_my_turn(page)
        before = ply(page)
        click_a_move(page)
        wait_moved(page, before)
    wait_my_turn(page)
    if page.locator(".card-button.playable").count():
        page.locator(".card-button.playable").nth(1).click()
    assert page.locator(".player").count() == 3
    assert page.locator(".log li").count() >= 24
    page.evaluate("window.scrollTo(0, 0)")
    # The whole page as an artifact, and what a screen shows first as the README's picture.
    shot = screenshot(page, f"{game}-three-players")
    page.screenshot(path=str(shot.with_name(f"readme-{game}.png")))

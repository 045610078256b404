"""A player who went away: the others see it, hand the seat to a bot from the page, the bot
plays it, and the player, back, takes the seat back from the banner."""

from __future__ import annotations

from typing import Any

from server.harness import create, join, start
from web.pages import (
    BOARD_SHORT,
    hold_seat,
    play_my_turn,
    ply,
    wait_my_turn,
    wait_my_turn_at,
)


def test_a_bot_stands_in_for_an_away_player_who_then_takes_the_seat_back(
    new_page: Any, web_servers: Any
) -> None:
    server = web_servers("--away-after", "0")
    made = create(
        server,
        game="board",
        seats=[{"kind": "person"}, {"kind": "person"}],
        name="Ada",
        setup=BOARD_SHORT,
    )
    bob = join(server, made["id"], made["invites"][0]["invite"], "Bob")
    start(server, made["id"], made["host_token"])

    bob_page = new_page(server=server)
    hold_seat(bob_page, made["id"], 1, bob["token"])
    bob_page.goto(f"/#/match/{made['id']}")
    bob_page.wait_for_selector(".game[data-turn='other']")
    ada = new_page(server=server)
    hold_seat(ada, made["id"], 0, made["token"])
    ada.goto(f"/#/match/{made['id']}")
    wait_my_turn(ada)
    bob_page.close()  # Bob goes away

    stand_in = ada.locator(".player[data-seat='1'] button:not(.score)")
    stand_in.wait_for()
    assert "Bob" in stand_in.inner_text()
    stand_in.click()
    ada.wait_for_function(
        "() => document.querySelector(\".player[data-seat='1'] .status\")?.innerText"
        " === 'a bot plays for them'"
    )
    # Ada's turn, then the bot's for Bob: the game goes on without Bob.
    start_ply = int(ply(ada))
    decisions = play_my_turn(ada)
    wait_my_turn_at(ada, start_ply + decisions + 2)

    back = new_page(server=server)
    hold_seat(back, made["id"], 1, bob["token"])
    back.goto(f"/#/match/{made['id']}")
    banner = back.locator(".banner.warn")
    banner.wait_for()
    banner.locator("button").click()
    banner.wait_for(state="detached")
    ada.wait_for_function(
        "() => document.querySelector(\".player[data-seat='1'] .status\")?.innerText === 'online'"
    )
    assert not ada.page_errors
    assert not back.page_errors

"""A dropped connection and a restarted server: the page says it lost the connection,
connects again by itself with the seat's token and plays on from where it was."""

from __future__ import annotations

from typing import Any

from web.pages import BOARD_SHORT, click_a_move, open_match, ply, wait_moved, wait_my_turn


def test_the_page_reconnects_after_the_server_is_killed_and_started_again(
    new_page: Any, web_servers: Any, screenshot: Any
) -> None:
    server = web_servers()
    page = new_page(server=server)
    open_match(
        page,
        server,
        game="board",
        seats=[{"kind": "person"}, {"kind": "bot", "level": "easy"}],
        name="Ada",
        setup=BOARD_SHORT,
    )
    wait_my_turn(page)
    hand = page.locator(".hand [data-card]").count()
    before = ply(page)
    click_a_move(page)
    wait_moved(page, before)
    at = ply(page)

    server.kill()
    page.wait_for_selector(".banner.warn")
    screenshot(page, "connection-lost")
    again = web_servers(database=server.database, port=server.port)
    page.wait_for_selector(".banner.ok")
    assert ply(page) == at
    assert page.locator(".hand [data-card]").count() in (hand - 1, hand)
    # Still this seat's player: the next decision is taken.
    wait_my_turn(page)
    before = ply(page)
    click_a_move(page)
    wait_moved(page, before)
    assert not page.page_errors
    del again

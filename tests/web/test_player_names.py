"""Players' names in the player's language (issue 40 §3.8): once an account is deleted, the
server keeps ``(deleted)`` in its place — a sentinel, the same in every language — and every
page that shows it says "(gelöschtes Konto)", "(usunięte konto)", … instead, with no link to
a player page that no longer exists: the match page (its final table, the players' panels,
the chat), the start page's list of matches, the replay and the player page. The player
page's own words are the language's too: "Ratings" is "Wertungen", not "leaderboard"."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from server.harness import Server, play_together, player
from server.people import PASSWORD, Member, signup
from web.pages import hold_seat
from web.test_community import server, unique

__all__ = ["server"]  # the community tests' server: their options, many accounts

#: What each language's player reads in place of a deleted account's name.
DELETED_WORDS = {"de": "(gelöschtes Konto)", "pl": "(usunięte konto)"}
SENTINEL = "(deleted)"


def played_then_deleted(server: Server) -> tuple[Member, str, dict[str, Any]]:
    """Two accounts play a card game to its end, chatting; then the first one deletes
    itself. The second (logged in), the match's id, and the second's seat and token."""
    ada, bob = signup(server, unique("ada")), signup(server, unique("bob"))
    made = ada.post(
        "/api/matches", json={"game": "cards", "seats": [{"kind": "person"}, {"kind": "person"}]}
    )
    assert made.status_code == 201, made.text
    body = made.json()
    joined = bob.post(
        f"/api/matches/{body['id']}/join", json={"invite": body["invites"][0]["invite"]}
    )
    assert joined.status_code == 200, joined.text
    started = ada.post(
        f"/api/matches/{body['id']}/start",
        headers={"Authorization": f"Bearer {body['host_token']}"},
    )
    assert started.status_code == 200, started.text
    match_id, ada_token, bob_token = body["id"], body["token"], joined.json()["token"]
    for token, text in ((ada_token, "Viel Glück!"), (bob_token, "Danke")):
        said = ada.post(
            f"/api/matches/{match_id}/chat",
            json={"text": text},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert said.status_code == 201, said.text
    with (
        player(server, match_id, ada_token) as first,
        player(server, match_id, bob_token) as second,
    ):
        play_together(first, second)
    assert ada.request("DELETE", "/api/me", json={"password": PASSWORD}).status_code == 204
    ada.close()
    return bob, match_id, {"seat": 1, "token": bob_token}


def no_sentinel_and_no_link(page: Any, words: str) -> None:
    """The page shows the words, never the sentinel, and links to no page of it."""
    expect(page.locator("main")).to_contain_text(words)
    assert SENTINEL not in page.locator("body").inner_text()
    assert page.locator(f"a[data-player='{SENTINEL}'], a[href*='deleted']").count() == 0
    assert page.get_by_role("link", name=words).count() == 0


@pytest.mark.slow  # a whole card game between two accounts, then four pages in two languages
def test_a_deleted_account_is_named_in_the_readers_language(
    new_page: Any, server: Server, screenshot: Any
) -> None:
    bob, match_id, seat = played_then_deleted(server)
    try:
        with server.http() as http:
            described = http.get(f"/api/matches/{match_id}").json()
        assert described["seats"][0]["name"] == SENTINEL  # the stored value stays the sentinel
        for lang, words in DELETED_WORDS.items():
            page = new_page(lang=lang, server=server)
            logged = page.request.post(
                "/api/sessions", data={"name": bob.name, "password": PASSWORD}
            )
            assert logged.status == 200, logged.text()
            hold_seat(page, match_id, seat["seat"], seat["token"])

            # The match page: the final table, the players' panels and the chat.
            page.goto(f"/#/match/{match_id}")
            final = page.locator(".final")
            expect(final).to_contain_text(words)
            expect(final).to_contain_text(bob.name)
            expect(page.locator(".players")).to_contain_text(words)
            line = page.locator(".chat-log li", has_text="Viel Glück!")
            expect(line.locator(".chat-name")).to_have_text(words)
            # nobody to mute or report behind a deleted account
            assert line.locator("[data-mute], [data-testid=chat-report]").count() == 0
            no_sentinel_and_no_link(page, words)
            screenshot(page, f"deleted-account-match-{lang}")

            # The start page's list of this browser's matches.
            page.goto("/#/")
            mine = page.locator(f"[data-testid=my-matches] li[data-match='{match_id}']")
            expect(mine.locator(".mine-who")).to_contain_text(words)
            no_sentinel_and_no_link(page, words)

            # The replay: the players' panels; at its end the last move, the list of all
            # moves and the final table.
            page.goto(f"/#/replay/{match_id}")
            expect(page.locator(".players")).to_contain_text(words)
            page.locator("main.replay[data-ply='0']").wait_for()
            page.keyboard.press("End")
            page.locator("main.replay:not([data-ply='0'])").wait_for()
            expect(page.locator(".replay .final")).to_contain_text(words)
            expect(page.locator("ol.replay-moves")).to_contain_text(f"{words}: ")
            no_sentinel_and_no_link(page, words)
            screenshot(page, f"deleted-account-replay-{lang}")

            # The player page of the one who stayed: the match, against the deleted account.
            page.goto(f"/#/player/{bob.name}")
            recent = page.locator(f"[data-testid=recent] [data-match='{match_id}']")
            expect(recent).to_contain_text(words)
            no_sentinel_and_no_link(page, words)
            assert not page.page_errors, page.page_errors
    finally:
        bob.close()


def test_the_player_pages_ratings_heading_in_german(new_page: Any, server: Server) -> None:
    page = new_page(lang="de", server=server)
    page.goto("/#/player/bot:hard")
    expect(page.locator("#player-ratings")).to_have_text("Wertungen")
    expect(page.locator("h1")).to_contain_text("Bot")
    assert not page.page_errors, page.page_errors

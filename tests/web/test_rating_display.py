"""Ratings people read, in Chromium at 1280 and 360 px (issue 42, §6): a rated match's final
screen shows each seat's new rating and its change once the server has rated it; a
provisional rating carries a "?" that says why in words; the lobby shows the seeker's rating;
the lists of matches (my matches, the turn badge's list, a player's recent matches) say rated
or not and the time control, "by correspondence" included."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from server.harness import Server
from server.people import rated_cards_played, signup
from web.helpers import community_server, describe_violations, fits, log_in, unique
from web.pages import hold_seat

CHANGE = re.compile(r"^[+−±]\d+$")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from community_server(tmp_path_factory.mktemp("rating-display-server"))


def rated(page: Any, match_id: str) -> dict[str, Any]:
    for _ in range(300):
        answer: dict[str, Any] = page.request.get(f"/api/matches/{match_id}/ratings").json()
        if answer["state"] == "rated":
            return answer
        page.wait_for_timeout(100)
    raise AssertionError(f"{match_id} was not rated: {answer}")


@pytest.mark.parametrize("width", [1280, 360])
def test_the_final_screen_shows_each_seats_rating_change(
    new_page: Any, server: Server, axe_scan: Any, screenshot: Any, width: int
) -> None:
    ada_name, bob_name = unique("ada"), unique("bob")
    ada, bob = signup(server, ada_name), signup(server, bob_name)
    try:
        body = rated_cards_played(server, ada, bob)
    finally:
        ada.close()
        bob.close()
    page = new_page(server=server, width=width)
    log_in(page, ada_name)
    hold_seat(page, body["id"], body["seat"], body["token"])
    page.goto(f"/#/match/{body['id']}")
    page.wait_for_selector(".final")
    changes = rated(page, body["id"])
    box = page.get_by_test_id("rating-changes")
    expect(box).to_have_attribute("data-state", "rated")
    expect(box.get_by_role("heading")).to_have_text("New ratings")
    rows = box.locator("li")
    expect(rows).to_have_count(2)
    for seat in changes["seats"]:
        row = box.locator(f"li[data-seat='{seat['seat']}']")
        expect(row).to_contain_text(seat["name"])
        # the new rating with its "?" (one rated match of ten), and the signed change
        value = row.locator(".rating-value")
        expect(value).to_have_attribute("data-rating", str(seat["after"]))
        expect(value).to_have_attribute("data-provisional", "true")
        expect(value.locator(".provisional")).to_have_attribute(
            "title", re.compile("fewer than 10 rated matches")
        )
        change = row.locator(".rating-change")
        text = change.inner_text()
        assert CHANGE.match(text), text
        assert int(text.replace("−", "-").lstrip("+±")) == seat["change"]
        assert seat["before"] == 1500
        assert seat["after"] == 1500 + seat["change"]
        expect(change).to_have_attribute("aria-label", re.compile(r"was 1500"))
    # the "?" in words below the list: a phone has no pointer to hover its title with
    expect(box.get_by_test_id("provisional-note")).to_have_text(
        "? provisional: fewer than 10 rated matches so far, so it may still move a lot"
    )
    violations = axe_scan(page)
    assert not violations, describe_violations(violations)
    if width == 360:
        fits(page)
    box.scroll_into_view_if_needed()
    screenshot(page, f"rating-final-{width}")


def test_the_lobby_and_the_lists_say_rating_rated_and_time(
    new_page: Any, server: Server, axe_scan: Any, screenshot: Any
) -> None:
    ada_name, bob_name = unique("ada"), unique("bob")
    ada, bob = signup(server, ada_name), signup(server, bob_name)
    try:
        finished = rated_cards_played(server, ada, bob)
        wide, phone = new_page(server=server), new_page(server=server, width=360)
        rating = rated(wide, finished["id"])
        ada_after = next(s["after"] for s in rating["seats"] if s["name"] == ada_name)

        # the lobby: Ada's seek with her rating (provisional: one rated match)
        seek = ada.post("/api/seeks", json={"players": 2, "game": "cards", "rated": True})
        assert seek.status_code == 201, seek.text
        for page in (wide, phone):
            log_in(page, bob_name)
            page.goto("/#/lobby")
            item = page.locator(f"[data-seek='{seek.json()['id']}']")
            shown = item.get_by_test_id("seek-rating")
            expect(shown).to_contain_text(f"({ada_after}?")
            expect(
                item.get_by_test_id("match-rated").or_(item.locator(".tag.rated"))
            ).to_be_visible()
        violations = axe_scan(wide)
        assert not violations, describe_violations(violations)
        screenshot(wide, "rating-lobby-1280")
        fits(phone)
        screenshot(phone, "rating-lobby-360")
        ada.delete(f"/api/seeks/{seek.json()['id']}")

        # Ada's own matches: a correspondence match against a bot, her turn (the badge's
        # list) and the finished rated one (the list on the matches page)
        made = ada.post(
            "/api/matches",
            json={
                "game": "cards",
                "seats": [{"kind": "person"}, {"kind": "bot", "level": "random"}],
                "time": {"kind": "correspondence", "days": 3},
            },
        )
        assert made.status_code == 201, made.text
        letter = made.json()["id"]
        for page in (wide, phone):
            log_in(page, ada_name)
            hold_seat(page, finished["id"], finished["seat"], finished["token"])
            page.goto("/#/matches")
            mine = page.get_by_test_id("my-matches")
            done = mine.locator(f"li[data-match='{finished['id']}']")
            expect(done.get_by_test_id("match-rated")).to_have_text("Rated")
            expect(done.get_by_test_id("match-time")).to_have_text("no time control")
            post = mine.locator(f"li[data-match='{letter}']")
            expect(post.get_by_test_id("match-rated")).to_have_text("Unrated")
            expect(post.get_by_test_id("match-time")).to_have_text(
                "by correspondence: 3 days a move"
            )
        screenshot(wide, "rating-my-matches-1280")
        fits(phone)
        screenshot(phone, "rating-my-matches-360")
        for page in (wide, phone):
            badge = page.get_by_test_id("turn-badge")
            expect(badge).to_have_attribute("data-count", "1")
            badge.click()
            listed = page.locator("#turn-list li", has=page.locator(f"[data-match='{letter}']"))
            expect(listed.get_by_test_id("match-time")).to_have_text(
                "by correspondence: 3 days a move"
            )
            expect(listed.get_by_test_id("match-rated")).to_have_text("Unrated")
        screenshot(wide, "rating-badge-1280")
        fits(phone)
        screenshot(phone, "rating-badge-360")

        # the player page: the rating with its "?", the recent match rated, no time control
        wide.goto(f"/#/player/{ada_name}")
        shown = wide.get_by_test_id("rating-cards")
        expect(shown).to_have_attribute("data-rating", str(ada_after))
        expect(shown).to_contain_text(f"{ada_after}?")
        recent = wide.locator(f"[data-testid=recent] [data-match='{finished['id']}']")
        expect(recent.get_by_test_id("match-rated")).to_have_text("Rated")
        expect(recent.get_by_test_id("match-time")).to_have_text("no time control")
        # its chart's grid at round ratings (1500, 1550: not a range's odd tenths)
        ticks = wide.locator("[data-testid=chart-cards] .chart-tick text").all_text_contents()
        assert 2 <= len(ticks) <= 4, ticks
        assert all(int(v) % 10 == 0 for v in ticks), ticks
        screenshot(wide, "rating-player-1280")
        # the leaderboard: the same number, with its "?"
        wide.goto("/#/ratings/cards")
        row = wide.locator(f"tr[data-player='{ada_name}'] .rating-value")
        expect(row).to_have_attribute("data-rating", str(ada_after))
        expect(row.locator(".provisional")).to_be_visible()
        expect(wide.get_by_test_id("provisional-note")).to_be_visible()
        violations = axe_scan(wide)
        assert not violations, describe_violations(violations)
        screenshot(wide, "rating-leaderboard-1280")
    finally:
        ada.close()
        bob.close()

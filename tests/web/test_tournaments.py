"""Tournaments in the browser (docs/web.md, "Tournaments"): the list and the form that
creates one; a tournament's page live — joining, the round starting by itself with the
player's own match highlighted and opening it, the standings and, once it is over, the
final table with a link to every match; usable 360 px wide, no serious accessibility
violation."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from playwright.sync_api import expect

from server.harness import Player, Server, play_together
from web.helpers import community_server, fits, no_violations, sign_up, unique


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from community_server(tmp_path_factory.mktemp("tournament-server"))


def csrf(page: Any) -> str:
    answer = page.request.get("/api/sessions/current")
    assert answer.ok, answer.text()
    return str(answer.json()["csrf"])


def test_create_join_play_and_the_final_table(
    new_page: Any, server: Server, axe_scan: Any, screenshot: Any
) -> None:
    ada, bob = new_page(server=server), new_page(server=server)
    ada_name, bob_name = unique("ada"), unique("bob")
    sign_up(ada, ada_name)
    sign_up(bob, bob_name)
    # The form: a tournament tomorrow, its choices as sent.
    ada.get_by_test_id("nav-tournaments").click()
    form = ada.get_by_test_id("tournament-form")
    form.get_by_test_id("tournament-name").fill("Sunday Cup")
    form.locator("input[name=tournament-game][value=cards]").check()
    form.get_by_test_id("tournament-size").select_option("3")
    form.get_by_test_id("tournament-rounds").select_option("4")
    tomorrow = (datetime.now() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    form.get_by_test_id("tournament-starts").fill(tomorrow)
    with ada.expect_request(
        lambda r: r.url.endswith("/api/tournaments") and r.method == "POST"
    ) as asked:
        form.get_by_test_id("tournament-create").click()
    sent = asked.value.post_data_json
    assert sent["name"] == "Sunday Cup"
    assert sent["game"] == "cards"
    assert sent["players"] == 3
    assert sent["rounds"] == 4
    assert sent["rated"] is True
    expect(ada.locator("h1")).to_have_text("Sunday Cup")
    expect(ada.get_by_test_id("tournament-status")).to_contain_text("Starts")
    # A refused name says why, in words.
    ada.goto("/#/tournaments")
    form.get_by_test_id("tournament-name").fill("<Cup>")
    form.get_by_test_id("tournament-create").click()
    expect(ada.get_by_test_id("tournament-error")).to_contain_text("letters, digits")
    # The list shows the upcoming one to Bob, live.
    bob.get_by_test_id("nav-tournaments").click()
    expect(bob.get_by_test_id("tournaments-upcoming")).to_contain_text("Sunday Cup")
    # One that starts in a few seconds (made through the API: the form's clock has minutes).
    starts = (datetime.now(UTC) + timedelta(seconds=15)).isoformat()
    made = ada.request.post(
        "/api/tournaments",
        data={"name": "Quick Cup", "game": "cards", "rounds": 1, "starts_at": starts},
        headers={"X-CSRF-Token": csrf(ada)},
    )
    assert made.status == 201, made.text()
    tournament_id = made.json()["id"]
    expect(bob.get_by_test_id("tournaments-upcoming")).to_contain_text("Quick Cup")
    for page in (ada, bob):
        page.goto(f"/#/tournaments/{tournament_id}")
        page.get_by_test_id("tournament-join").click()
        expect(page.get_by_test_id("tournament-joined")).to_be_visible()
        expect(page.get_by_test_id("tournament-withdraw")).to_be_visible()
    expect(ada.get_by_test_id("tournament-players")).to_contain_text(bob_name)
    screenshot(ada, "tournament-upcoming")
    # The round starts by itself: each sees its own match highlighted, live.
    for page in (ada, bob):
        expect(page.get_by_test_id("tournament-status")).to_contain_text("Round 1 of 1")
        expect(page.get_by_test_id("my-match")).to_be_visible()
        expect(page.locator(".tournament-tables li.mine")).to_have_count(1)
    no_violations(axe_scan, ada, "a running tournament")
    screenshot(ada, "tournament-running")
    phone = new_page(server=server, width=360, height=740)
    phone.goto(f"/#/tournaments/{tournament_id}")
    expect(phone.get_by_test_id("tournament-tables")).to_be_visible()
    fits(phone)
    screenshot(phone, "tournament-running-360")
    # Ada's link opens her seat in the match.
    href = ada.get_by_test_id("my-match").get_attribute("href")
    assert href is not None
    assert href.startswith("#/match/")
    match_id = href.split("/")[-1]
    ada.get_by_test_id("my-match").click()
    expect(ada.locator("[data-testid=board], .game")).not_to_have_count(0)
    # Both play it to the end (through the live API, with their seats' tokens).
    tokens = []
    for page in (ada, bob):
        mine = page.request.get("/api/me/matches").json()
        found = [m for group in mine.values() for m in group if m["match"]["id"] == match_id]
        assert len(found) == 1
        tokens.append(found[0]["token"])
    players = [Player(server, match_id, token).connect() for token in tokens]
    try:
        play_together(*players)
    finally:
        for p in players:
            p.close()
    # The tournament ends by itself: the final table, a link to the match's replay.
    bob.goto(f"/#/tournaments/{tournament_id}")
    expect(bob.get_by_test_id("tournament-status")).to_contain_text("Finished")
    standings = bob.get_by_test_id("tournament-standings")
    expect(standings.locator("h2")).to_have_text("Final standings and all matches")
    expect(standings.locator("tbody tr")).to_have_count(2)
    expect(standings.locator(f"a[href='#/replay/{match_id}']")).to_have_count(2)
    expect(bob.get_by_test_id("tournament-join")).to_have_count(0)
    no_violations(axe_scan, bob, "a finished tournament")
    screenshot(bob, "tournament-finished")
    phone.goto(f"/#/tournaments/{tournament_id}")
    expect(phone.get_by_test_id("tournament-standings")).to_be_visible()
    fits(phone)
    screenshot(phone, "tournament-finished-360")
    bob.goto("/#/tournaments")
    expect(bob.get_by_test_id("tournaments-finished")).to_contain_text("Quick Cup")
    assert not ada.page_errors
    assert not bob.page_errors


@pytest.mark.parametrize(
    ("lang", "title", "login"),
    [
        ("en", "Tournaments", "Log in to create a tournament or to join one."),
        ("de", "Turniere", "Melde dich an, um ein Turnier anzulegen oder einem beizutreten."),
        ("cs", "Turnaje", "Po přihlášení můžeš založit turnaj nebo se do něj zapojit."),
    ],
)
def test_the_list_for_a_guest_at_360(
    new_page: Any,
    server: Server,
    axe_scan: Any,
    screenshot: Any,
    lang: str,
    title: str,
    login: str,
) -> None:
    page = new_page(server=server, width=360, height=740, lang=lang)
    page.goto("/#/tournaments")
    expect(page.locator("h1")).to_have_text(title)
    expect(page.get_by_text(login)).to_be_visible()
    expect(page.get_by_test_id("nav-tournaments")).to_have_attribute("aria-current", "page")
    fits(page)
    no_violations(axe_scan, page, f"the tournaments, a guest ({lang})")
    screenshot(page, f"tournaments-guest-360-{lang}")

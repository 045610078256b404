"""Fair play in the browser (docs/server.md, "Hints and take-backs", "Time controls"): the
new-match form offers hints between people only as every player's agreement (off unless
chosen), the join page says what joining agrees to, and a match with a time control offers
no stand-in for an away player."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from server.harness import create, join, start
from web.pages import CARDS_SHORT, hold_seat, wait_my_turn


def _create_from_the_form(page: Any) -> Any:
    """Submit the new-match form: the answer (its request holds what was sent)."""
    with page.expect_response(
        lambda r: r.url.endswith("/api/matches") and r.request.method == "POST"
    ) as answer:
        page.locator(".create button[type=submit]").click()
    return answer.value


def test_hints_between_people_are_agreed_before_joining(
    new_page: Any, web_server: Any, screenshot: Any
) -> None:
    page = new_page()
    page.goto("/#/new")
    page.locator(".create input[type=text]").first.fill("Ada")
    agreed = page.get_by_test_id("hints-agreed")  # a friend in seat 2: people play
    expect(agreed).not_to_be_checked()
    answer = _create_from_the_form(page)
    assert answer.request.post_data_json["hints"] is False
    assert answer.json()["match"]["options"]["hints"] is False
    page.wait_for_selector(".lobby")
    expect(page.get_by_test_id("hints-agreed")).to_have_count(0)

    page.goto("/#/new")
    page.locator(".create input[type=text]").first.fill("Ada")
    page.get_by_test_id("hints-agreed").check()
    answer = _create_from_the_form(page)
    assert answer.request.post_data_json["hints"] is True
    made = answer.json()
    assert made["match"]["options"]["hints_agreed"] is True
    page.wait_for_selector(".lobby")
    expect(page.get_by_test_id("hints-agreed")).to_have_text(
        "Hints on: by joining, every player agrees to them"
    )

    # whoever is invited reads it before taking the seat, in their own language
    bob = new_page(lang="es")
    bob.goto(f"/#/join/{made['id']}/{made['invites'][0]['invite']}")
    expect(bob.get_by_test_id("hints-agreed")).to_have_text(
        "Sugerencias activadas: al unirse, cada jugador las acepta"
    )
    screenshot(bob, "join-hints-agreed")

    # against bots only, the plain choice of hints (on unless turned off)
    page.goto("/#/new")
    page.locator("select[data-seat='1']").select_option("easy")
    expect(page.get_by_test_id("hints-agreed")).to_have_count(0)
    assert not page.page_errors
    assert not bob.page_errors


def test_a_timed_match_offers_no_stand_in_for_an_away_player(
    new_page: Any, web_servers: Any
) -> None:
    server = web_servers("--away-after", "0")
    made = create(
        server,
        game="cards",
        seats=[{"kind": "person"}, {"kind": "person"}],
        name="Ada",
        setup=CARDS_SHORT,
        time={"kind": "correspondence", "days": 1},
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
    bob_page.close()  # Bob goes away: with a time control, only his clock decides
    expect(ada.locator(".player[data-seat='1'] .status")).to_have_text("away")
    expect(ada.locator(".player[data-seat='1'] button:not(.score)")).to_have_count(0)
    assert not ada.page_errors

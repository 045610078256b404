"""Two people in two browsers: invited by link, joined through the page, started by the host;
each sees its own hand and never the other's — not in the page, not in any WebSocket frame."""

from __future__ import annotations

from typing import Any

from server.harness import Server, create
from web.helpers import ws_messages
from web.pages import hold_seat, ply, wait_moved

#: Each hand holds both copies of its cards, so a card of one hand cannot be anywhere else:
#: until played, it may show up in its owner's page only.
HANDS = [
    ["G1", "G1", "Y2", "Y2", "R3", "R3", "P4", "P4"],
    ["G6", "G6", "Y7", "Y7", "R8", "R8", "B9", "B9"],
]
SETUP = {"hands": HANDS, "deck": ["B1", "B2", "B3", "B4", "P5", "P6", "P7", "P8", "G2", "G3"]}


def cards_in(message: Any) -> set[str]:
    """Every string anywhere in a message (cards are strings such as "G6")."""
    found: set[str] = set()
    if isinstance(message, dict):
        for value in message.values():
            found |= cards_in(value)
    elif isinstance(message, list):
        for value in message:
            found |= cards_in(value)
    elif isinstance(message, str):
        found.add(message)
    return found


def hand_in_page(page: Any) -> list[str]:
    return sorted(
        page.locator(".hand [data-card]").evaluate_all("bs => bs.map(b => b.dataset.card)")
    )


def test_two_people_see_their_own_hands_and_never_the_other(
    new_page: Any, web_server: Server, axe_scan: Any, screenshot: Any
) -> None:
    created = create(
        web_server,
        game="board",
        seats=[{"kind": "person"}, {"kind": "person"}],
        name="Ada",
        setup=SETUP,
    )
    match_id = created["id"]
    ada = new_page()
    hold_seat(
        ada,
        match_id,
        0,
        created["token"],
        host=created["host_token"],
        invites=created["invites"],
        watch=created["watch"],
    )
    ada.goto(f"/#/match/{match_id}")
    ada.wait_for_selector(".lobby")
    link = ada.locator("[data-invite='1']").input_value()
    assert link.endswith(f"#/join/{match_id}/{created['invites'][0]['invite']}")
    assert not axe_scan(ada), "the lobby has accessibility violations"
    screenshot(ada, "lobby")

    bob = new_page(lang="de")
    bob.goto(link)
    bob.locator(".join input").fill("Bob")  # (a German page: found by place, not by words)
    bob.locator(".join button[type=submit]").click()
    bob.wait_for_selector(".lobby")
    ada.get_by_role("button", name="Start the match").click()
    ada.wait_for_selector(".game[data-turn='mine']")
    bob.wait_for_selector(".game[data-turn='other']")

    assert hand_in_page(ada) == sorted(HANDS[0])
    assert hand_in_page(bob) == sorted(HANDS[1])
    assert "Bob" in ada.locator(".player[data-seat='1']").inner_text()

    # A few turns each, by clicking.
    for _ in range(3):
        for me, other in ((ada, bob), (bob, ada)):
            me.wait_for_selector(".game[data-turn='mine']")
            before = ply(me)
            me.locator(".card-button.playable").first.click()
            me.locator(".option").first.click()
            wait_moved(me, before)
            if me.locator("[data-prompt]").count():
                me.locator("[data-prompt]").first.click()
            me.wait_for_selector(".pile.deck .pile-button")
            me.locator(".pile.deck .pile-button").click()
            me.wait_for_selector(".game[data-turn='other']")
            other.wait_for_selector(".game[data-turn='mine']")
    screenshot(ada, "two-people-ada")
    screenshot(bob, "two-people-bob")

    played = {
        seat: {
            m["step"]["action"]["notation"].lstrip("-")
            for m in ws_messages(ada)
            if m["type"] == "step" and m["step"]["seat"] == seat
        }
        for seat in (0, 1)
    }
    for page, mine, theirs, seat in ((ada, HANDS[0], HANDS[1], 1), (bob, HANDS[1], HANDS[0], 0)):
        secret = set(theirs) - played[seat]
        assert secret, "the test must leave cards unplayed"
        frames = ws_messages(page)
        assert frames, "the page got no WebSocket frames"
        for message in frames:
            leaked = cards_in(message) & secret
            assert not leaked, f"{leaked} of the other hand in a frame: {message}"
            view = message.get("view")
            if view is not None:
                assert view["viewer"] == (0 if page is ada else 1)
        page_text = page.content()
        for card in secret:
            assert f'data-card="{card}"' not in page_text
        assert set(hand_in_page(page)) <= set(mine) | {
            "B1",
            "B2",
            "B3",
            "B4",
            "P5",
            "P6",
            "P7",
            "P8",
            "G2",
            "G3",
        }
    assert not ada.page_errors
    assert not bob.page_errors

"""Friends, challenges and vacation in the browser (issue 42 §3, §4): one player follows
another by name on the friends page and challenges them; the other sees the challenge in the
header's badge, accepts it and lands in the match; Follow and Challenge on a player's page;
the vacation on the settings page, and an opponent's match view saying "on vacation until";
the friends page and the settings' new sections in all seven languages at 360 and 1280 px: no
message key left, nothing sideways, no serious accessibility violation."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from server.harness import Server
from web.test_community import fits, server, sign_up, unique

__all__ = ["server"]  # the community tests' server: their options, many accounts

LANGS = ["en", "de", "cs", "sk", "hu", "pl", "es"]
#: A message key the page would show for a message the catalogs lack.
KEY = re.compile(r"\b(?:web|friends|challenge|vacation)\.[a-z_]+(?:\.[a-z_]+)*\b")


def no_keys(page: Any) -> None:
    text = page.locator("body").inner_text()
    assert not KEY.findall(text), KEY.findall(text)


def test_follow_challenge_and_accept_in_two_browsers(
    new_page: Any, server: Server, screenshot: Any
) -> None:
    ann_name, bea_name = unique("ann"), unique("bea")
    ann, bea = new_page(server=server), new_page(server=server)
    sign_up(ann, ann_name)
    sign_up(bea, bea_name)
    ann.goto("/#/friends")
    expect(ann.get_by_test_id("following-none")).to_be_visible()
    ann.get_by_test_id("follow-name").fill(bea_name)
    ann.get_by_test_id("follow-button").click()
    followed = ann.locator(f'[data-followed="{bea_name}"]')
    # bea has a page open: the header asked for her challenges, which counts as online
    expect(followed).to_have_attribute("data-online", "yes")
    expect(followed.get_by_test_id("followed-online")).to_have_text("online")
    # a name that does not exist: the server's words
    ann.get_by_test_id("follow-name").fill("nobody_like_this")
    ann.get_by_test_id("follow-button").click()
    expect(ann.get_by_test_id("follow-error")).to_contain_text("nobody_like_this")
    followed.get_by_test_id("challenge").click()
    form = ann.get_by_test_id("challenge-form")
    form.get_by_label("Keltis – the card game").check()
    form.get_by_test_id("challenge-send").click()
    mine = ann.get_by_test_id("my-challenges")
    expect(mine).to_contain_text(bea_name)
    screenshot(ann, "friends-challenger-1280")
    # bea: the badge (asked for on every page), then the friends page with the challenge
    bea.goto("/#/lobby")
    badge = bea.get_by_test_id("challenge-badge")
    expect(badge).to_have_text(re.compile("1"))
    expect(badge).to_have_attribute("aria-label", "1 challenge waits for your answer")
    # the lobby's public list (loaded: no "Loading" left in it) never shows it
    expect(bea.get_by_test_id("seeks").locator("p[role=status]")).to_have_count(0)
    expect(bea.locator(".seek", has_text=ann_name)).to_have_count(0)
    badge.click()
    challenge = bea.get_by_test_id("challenges").locator(".challenge")
    expect(challenge).to_contain_text(f"{ann_name} challenges you to Keltis – the card game")
    screenshot(bea, "friends-challenged-1280")
    challenge.get_by_test_id("challenge-accept").click()
    expect(bea).to_have_url(re.compile(r"#/match/"))
    match_id = bea.url.rsplit("/", 1)[-1]
    expect(bea.locator(".players")).to_contain_text(ann_name)
    expect(bea.get_by_test_id("challenge-badge")).to_have_count(0)
    # ann, waiting on the friends page, was taken to the match as it started (live)
    expect(ann).to_have_url(re.compile(rf"#/match/{match_id}$"))
    expect(ann.locator(".players")).to_contain_text(bea_name)
    # and sees bea playing it, with a Watch link
    ann.goto("/#/friends")
    expect(ann.locator(f'[data-followed="{bea_name}"] [data-watch="{match_id}"]')).to_be_visible()
    assert not ann.page_errors
    assert not bea.page_errors


def test_decline_and_the_player_page_buttons(new_page: Any, server: Server) -> None:
    ann_name, bea_name = unique("ann"), unique("bea")
    ann, bea = new_page(server=server), new_page(server=server)
    sign_up(ann, ann_name)
    sign_up(bea, bea_name)
    ann.goto(f"/#/player/{bea_name}")
    follow = ann.get_by_test_id("follow")
    expect(follow).to_have_text("Follow")
    follow.click()
    expect(follow).to_have_text("Stop following")
    expect(follow).to_have_attribute("aria-pressed", "true")
    ann.get_by_test_id("challenge-link").click()
    expect(ann).to_have_url(re.compile(rf"#/friends/challenge/{bea_name}$"))
    form = ann.get_by_test_id("challenge-form")
    expect(form).to_contain_text(f"Challenge {bea_name}")
    form.get_by_test_id("challenge-send").click()
    expect(ann.get_by_test_id("my-challenges")).to_contain_text(bea_name)
    bea.goto("/#/friends")
    bea.get_by_test_id("challenge-decline").click()
    expect(bea.get_by_test_id("challenges")).to_contain_text("Nobody is challenging you now.")
    ann.reload()
    expect(ann.get_by_test_id("challenges")).to_be_visible()
    expect(ann.get_by_test_id("my-challenges")).to_have_count(0)


def test_vacation_on_the_settings_page_and_in_the_opponent_s_match(
    new_page: Any, server: Server, screenshot: Any
) -> None:
    ann_name, bea_name = unique("ann"), unique("bea")
    ann, bea = new_page(server=server), new_page(server=server, width=360)
    sign_up(ann, ann_name)
    sign_up(bea, bea_name)
    # a correspondence match between them (a challenge accepted, through the API)
    made = ann.request.post(
        "/api/challenges",
        data={"to": bea_name, "time": {"kind": "correspondence", "days": 3}},
        headers={"X-CSRF-Token": _csrf(ann)},
    )
    assert made.status == 201, made.text()
    accepted = bea.request.post(
        f"/api/challenges/{made.json()['id']}/accept", data={}, headers={"X-CSRF-Token": _csrf(bea)}
    )
    assert accepted.status == 200, accepted.text()
    match_id = accepted.json()["match"]
    ann.goto("/#/settings")
    section = ann.get_by_test_id("settings-vacation")
    expect(section.get_by_test_id("vacation-left")).to_have_text(
        "You have 30 days of vacation left this year."
    )
    section.get_by_test_id("vacation-days").fill("3")
    section.get_by_test_id("vacation-start").click()
    expect(section.get_by_test_id("vacation-on")).to_contain_text("You are on vacation until")
    expect(section.get_by_test_id("vacation-left")).to_have_text(
        "You have 27 days of vacation left this year."
    )
    screenshot(ann, "settings-vacation-1280")
    # bea's match view says so for ann's seat (the description read on her next page)
    bea.goto("/")
    bea.goto(f"/#/match/{match_id}")
    seat = bea.locator("article.player", has_text=ann_name)
    expect(seat.locator(".status")).to_contain_text("on vacation until", timeout=15_000)
    fits(bea)
    screenshot(bea, "match-vacation-360")
    section.get_by_test_id("vacation-end").click()
    expect(section.get_by_test_id("vacation-left")).to_have_text(
        "You have 29 days of vacation left this year."
    )
    expect(section.get_by_test_id("vacation-form")).to_be_visible()
    # the friends section: hide whether I'm online
    hide = ann.get_by_test_id("hide-online")
    hide.check()
    expect(ann.get_by_test_id("announce")).to_have_text("Saved.")
    ann.reload()
    expect(ann.get_by_test_id("hide-online")).to_be_checked()


def _csrf(page: Any) -> str:
    """The session's CSRF token, as the page's own requests send it."""
    answer = page.request.get("/api/sessions/current")
    assert answer.status == 200, answer.text()
    token: str = answer.json()["csrf"]
    return token


@pytest.mark.parametrize("width", [360, 1280])
def test_the_friends_page_and_settings_in_every_language(
    new_page: Any, server: Server, axe_scan: Any, screenshot: Any, width: int
) -> None:
    me, other = unique("me"), unique("fr")
    page = new_page(server=server, width=width)
    sign_up(new_page(server=server), other)
    sign_up(page, me)
    page.goto("/#/friends")
    page.get_by_test_id("follow-name").fill(other)
    page.get_by_test_id("follow-button").click()
    expect(page.locator(f'[data-followed="{other}"]')).to_be_visible()
    page.locator(f'[data-followed="{other}"]').get_by_test_id("challenge").click()
    for lang in LANGS:
        page.evaluate("(lang) => localStorage.setItem('keltis.lang', lang)", lang)
        page.goto("/#/friends")
        page.reload()
        expect(page.locator("html")).to_have_attribute("lang", lang)
        expect(page.locator(f'[data-followed="{other}"]')).to_be_visible()
        page.locator(f'[data-followed="{other}"]').get_by_test_id("challenge").click()
        expect(page.get_by_test_id("challenge-form")).to_be_visible()
        no_keys(page)
        fits(page, width)
        if lang in ("en", "hu"):
            screenshot(page, f"friends-{lang}-{width}")
        violations = axe_scan(page)
        assert not violations, violations
        page.goto("/#/settings")
        expect(
            page.get_by_test_id("settings-vacation").get_by_test_id("vacation-left")
        ).to_be_visible()
        expect(
            page.get_by_test_id("settings-friends").get_by_test_id("hide-online")
        ).to_be_visible()
        no_keys(page)
        fits(page, width)
        if lang == "pl":
            screenshot(page, f"settings-friends-{lang}-{width}")
    assert not page.page_errors

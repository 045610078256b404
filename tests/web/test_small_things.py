"""The small things players met (issue 42 §7), in the browser: unmuting shows the muted
player's chat again without a reload; the lobby's seek form starts with Play now's game and
players; the registration form says in words what a name may contain and clears an error
once it is fixed; deleting the account ends on a page saying it is gone; the unsubscribe
page has the site's look and a way back to the start page; the account's time zone comes
from the browser and is changed in the settings (at 360 and 1280 px)."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from playwright.sync_api import expect

from keltis.server import db
from keltis.server.accounts import AccountStore
from server.harness import Server
from server.people import PASSWORD, signup
from web.test_community import server, unique
from web.test_moderation import fits, log_in, no_violations, seated_match

__all__ = ["server"]  # the community tests' server: their options, many accounts


def test_unmuting_shows_the_messages_again_without_a_reload(new_page: Any, server: Server) -> None:
    ann_name, bea_name = unique("ann"), unique("bea")
    ann, bea = signup(server, ann_name), signup(server, bea_name)
    match_id = seated_match(server, ann, bea)["id"]
    assert ann.post("/api/me/mutes", json={"name": bea_name}).status_code in (200, 201, 204)
    said = bea.post(f"/api/matches/{match_id}/chat", json={"text": "said while muted"})
    assert said.status_code == 201, said.text
    page = new_page(server=server)
    log_in(page, ann_name, f"/#/match/{match_id}")
    page.wait_for_selector(".game[data-ply]")
    line = page.locator(".chat-log li .chat-text", has_text="said while muted")
    # loaded while muted: the server's history leaves Bea out
    expect(page.locator(".muted-list")).to_be_visible()
    assert line.count() == 0
    page.locator(".muted-list summary").click()
    page.locator(f"[data-unmute='{bea_name}']").click()
    expect(line).to_be_visible()


def test_the_lobby_form_starts_with_play_nows_game_and_players(
    new_page: Any, server: Server
) -> None:
    name = unique("lia")
    signup(server, name)
    page = new_page(server=server)
    log_in(page, name)
    # Play now's first choice on the start page: the board game, three players
    expect(page.locator("input[name=game][value=board]")).to_be_checked()
    play_now_players = page.locator("form[aria-labelledby=play-now-title] select").first
    expect(play_now_players).to_have_value("3")
    page.goto("/#/lobby")
    form = page.get_by_test_id("seek-form")
    expect(form.locator("input[name=seek-game][value=board]")).to_be_checked()
    expect(form.get_by_test_id("seek-players")).to_have_value("3")
    # Play now's last choice (the card game for two, as Play now keeps it) is the form's
    # first too ...
    page.evaluate(
        "() => { localStorage.setItem('keltis.game', 'cards');"
        " localStorage.setItem('keltis.players', '2'); }"
    )
    page.reload()
    expect(form.locator("input[name=seek-game][value=cards]")).to_be_checked()
    expect(form.get_by_test_id("seek-players")).to_have_value("2")
    # ... until the form's own choice, which it keeps.
    form.locator("input[name=seek-game][value=board]").check()
    form.get_by_test_id("seek-players").select_option("4")
    form.get_by_test_id("seek-open").click()
    expect(page.locator("li.seek", has_text=name)).to_be_visible()
    page.reload()
    expect(form.locator("input[name=seek-game][value=board]")).to_be_checked()
    expect(form.get_by_test_id("seek-players")).to_have_value("4")
    page.locator("li.seek", has_text=name).locator("[data-action=cancel]").click()
    expect(page.locator("li.seek", has_text=name)).to_have_count(0)


def test_the_registration_form_says_the_rule_and_clears_a_fixed_error(
    new_page: Any, server: Server, axe_scan: Any, screenshot: Any
) -> None:
    taken = unique("tia")
    signup(server, taken).close()
    for width in (360, 1280):
        page = new_page(server=server, width=width)
        page.goto("/#/register")
        form = page.get_by_test_id("register-form")
        expect(form.locator("#name-help")).to_contain_text("the letters A to Z without accents")
        expect(form.locator("#password-help")).to_contain_text("not a common password")
        error = page.get_by_test_id("account-error")
        name, password, again = (
            form.get_by_test_id(f"register-{field}") for field in ("name", "password", "again")
        )
        # a common password: refused with its reason, gone once the password changes
        name.fill(unique("tom"))
        password.fill("password")
        again.fill("password")
        form.locator("button[type=submit]").click()
        expect(error).to_have_text(
            "That password is one of the most common ones, the first that anyone tries:"
            " choose another."
        )
        expect(password).to_have_attribute("aria-invalid", "true")
        no_violations(axe_scan, page, f"the registration form's error, {width} px")
        fits(page, width)
        screenshot(page, f"small-things-register-error-{width}")
        password.press_sequentially("X9")
        expect(error).to_have_count(0)
        # two passwords that differ: gone once they agree
        password.fill("a fine password of my own")
        again.fill("a fine password")
        form.locator("button[type=submit]").click()
        expect(error).to_have_text("The two passwords differ.")
        again.press("End")
        again.press_sequentially(" of my ow")
        expect(error).to_have_count(1)
        again.press_sequentially("n")
        expect(error).to_have_count(0)
        # a name taken: stays while the name is not one the rule allows, gone once it is
        name.fill(taken)
        form.locator("button[type=submit]").click()
        expect(error).to_contain_text(f"The name {taken} is taken")
        expect(name).to_have_attribute("aria-invalid", "true")
        name.fill("no spaces here")
        expect(error).to_have_count(1)
        name.fill(unique("tom"))
        expect(error).to_have_count(0)
        screenshot(page, f"small-things-register-{width}")
    german = new_page(server=server, lang="de")
    german.goto("/#/register")
    expect(german.locator("#name-help")).to_contain_text("die Buchstaben A bis Z")


def test_deleting_the_account_says_it_is_gone(
    new_page: Any, server: Server, axe_scan: Any, screenshot: Any
) -> None:
    for width, lang in ((360, "en"), (1280, "en"), (1280, "de")):
        name = unique("del")
        signup(server, name).close()
        page = new_page(server=server, width=width, lang=lang)
        log_in(page, name, "/#/settings")
        form = page.get_by_test_id("settings-delete")
        form.locator("input[type=password]").fill(PASSWORD)
        form.locator("button[type=submit]").click()
        page.wait_for_function("() => location.hash === '#/deleted'")
        gone = page.get_by_test_id("deleted")
        if lang == "en":
            expect(page.locator("h1")).to_have_text("Account deleted")
            expect(gone).to_contain_text(f"The account {name} is deleted.")
            expect(gone).to_contain_text("Finished matches stay")
        else:
            expect(page.locator("h1")).to_have_text("Konto gelöscht")
            expect(gone).to_contain_text(f"Das Konto {name} ist gelöscht.")
        expect(page.get_by_test_id("account-menu")).to_have_count(0)
        no_violations(axe_scan, page, f"the page after deleting, {width} px, {lang}")
        fits(page, width)
        screenshot(page, f"small-things-deleted-{width}-{lang}")
        gone.locator("a[href='#/']").click()
        page.wait_for_function("() => location.hash === '#/' || location.hash === ''")
        expect(page.get_by_test_id("play-now")).to_be_visible()
        with server.http() as http:
            assert http.get(f"/api/players/{name}").status_code == 404


def unsubscribe_address(server: Server, name: str) -> str:
    """The address of ``name``'s unsubscribe link, as its e-mails carry it."""
    engine = db.make_engine(server.database)
    try:
        with engine.connect() as connection:
            account_id = connection.execute(
                sa.select(db.accounts.c.id).where(db.accounts.c.name == name)
            ).scalar_one()
        token = AccountStore(engine).derive(f"unsubscribe:{account_id}")
    finally:
        engine.dispose()
    return f"/api/unsubscribe/{account_id}/{token}"


def test_the_unsubscribe_page_has_the_sites_look_and_a_way_back(
    new_page: Any, server: Server, axe_scan: Any, screenshot: Any
) -> None:
    for width, lang in ((360, "en"), (1280, "en"), (1280, "hu")):
        name = unique("uns")
        member = signup(server, name)
        address = unsubscribe_address(server, name)
        page = new_page(server=server, width=width, lang=lang)
        assert member.get("/api/sessions/current").json()["account"]["email_turns"] is True
        page.goto(address)
        # the client's own style sheet and header: the green bar with the brand
        expect(page.locator("header.top .brand")).to_be_visible()
        bar = page.evaluate(
            "() => getComputedStyle(document.querySelector('header.top')).backgroundColor"
        )
        assert bar not in ("rgba(0, 0, 0, 0)", "transparent"), bar
        assert page.evaluate(
            "() => [...document.styleSheets].some((s) => (s.href || '').includes('/assets/'))"
        )
        assert page.page_errors == []
        no_violations(axe_scan, page, f"the unsubscribe page, {width} px, {lang}")
        fits(page, width)
        screenshot(page, f"small-things-unsubscribe-{width}-{lang}")
        page.locator("form button[type=submit]").click()
        expect(page.get_by_test_id("unsubscribe")).to_contain_text(
            "Done: you get no more e-mails" if lang == "en" else "Kész"
        )
        assert member.get("/api/sessions/current").json()["account"]["email_turns"] is False
        screenshot(page, f"small-things-unsubscribed-{width}-{lang}")
        back = page.get_by_test_id("unsubscribe-home")
        if lang == "en":
            expect(back).to_have_text("Back to the start page")
        back.click()
        expect(page.get_by_test_id("play-now")).to_be_visible()
        member.close()
    # a wrong link: the same look, the way back, no button
    page = new_page(server=server, width=360)
    page.goto("/api/unsubscribe/nobody/nothing")
    expect(page.locator("header.top .brand")).to_be_visible()
    expect(page.get_by_test_id("unsubscribe")).to_contain_text("not valid")
    expect(page.locator("form")).to_have_count(0)
    expect(page.get_by_test_id("unsubscribe-home")).to_be_visible()


def zoned_page(browser: Any, server: Server, zone: str, width: int = 1280) -> Any:
    """A page in a fresh browser context whose clock is in ``zone``."""
    context = browser.new_context(
        base_url=server.base,
        locale="en",
        timezone_id=zone,
        viewport={"width": width, "height": 900},
    )
    return context.new_page()


def test_the_time_zone_comes_from_the_browser_and_is_changed_in_the_settings(
    browser: Any, server: Server, axe_scan: Any, screenshot: Any
) -> None:
    # registering through the form: the browser's time zone goes with it
    page = zoned_page(browser, server, "Europe/Prague")
    try:
        page.goto("/#/register")
        form = page.get_by_test_id("register-form")
        form.get_by_test_id("register-name").fill(unique("zed"))
        form.get_by_test_id("register-password").fill("a fine password of my own")
        form.get_by_test_id("register-again").fill("a fine password of my own")
        form.locator("button[type=submit]").click()
        expect(page.get_by_test_id("account-menu")).to_be_visible()
        account = page.request.get("/api/sessions/current").json()["account"]
        assert account["time_zone"] == "Europe/Prague"
    finally:
        page.context.close()
    # an account without one gets the browser's on its first visit to the settings
    for width in (360, 1280):
        name = unique("zoe")
        signup(server, name).close()
        page = zoned_page(browser, server, "America/New_York", width)
        try:
            log_in(page, name, "/#/settings")
            panel = page.get_by_test_id("settings-time-zone")
            choice = panel.get_by_test_id("time-zone")
            expect(choice).to_have_value("America/New_York")
            page.wait_for_function(
                "() => fetch('/api/sessions/current').then((r) => r.json())"
                ".then((a) => a.account.time_zone === 'America/New_York')"
            )
            # changed and saved: the server keeps it, a reload shows it
            choice.select_option("Asia/Tokyo")
            panel.locator("button[type=submit]").click()
            expect(panel.locator("[role=status]")).to_have_text("Saved.")
            account = page.request.get("/api/sessions/current").json()["account"]
            assert account["time_zone"] == "Asia/Tokyo"
            page.reload()
            expect(page.get_by_test_id("time-zone")).to_have_value("Asia/Tokyo")
            no_violations(axe_scan, page, f"the settings' time zone, {width} px")
            fits(page, width)
            page.get_by_test_id("settings-time-zone").scroll_into_view_if_needed()
            screenshot(page, f"small-things-time-zone-{width}")
        finally:
            page.context.close()

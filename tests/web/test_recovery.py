"""Getting back into an account in the browser (issue 39, §4.1, §4.2): "Forgot your
password?" on the log-in page, the page that asks for the link, the link's page that sets a
new password and the one that confirms an address, and the settings saying whether the
address is confirmed (its link sent again) — against a real ``keltis serve`` that e-mails
through a real SMTP server on this machine, each link read from its e-mail.

Every page in all seven languages at 360 and 1280 px: its words the catalog's (no message
key shown), the server's refusals in the same language, nothing wider than the screen. The
whole way once, in English: register with an address, confirm it, forget the password, set a
new one, log in with it."""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from keltis.i18n import LANGUAGES, Translator
from keltis.server.recovery import RESET_MINUTES
from server.harness import Server, free_port
from server.test_mail import Inbox, link_token, serving
from web.conftest import WEB_SERVER_OPTIONS
from web.helpers import describe_violations

PASSWORD = "correct horse battery"
NEW_PASSWORD = "a brand new password"
#: A message key shown instead of its text.
MESSAGE_KEY = re.compile(r"\b(?:web|account|mail|server)\.[a-z_]+(?:\.[a-z_]+)*\b")
#: A link's secret that no link has (a page shows the server's refusal of it).
NO_LINK = "A" * 32


@pytest.fixture(scope="module")
def inbox() -> Iterator[Inbox]:
    """A real SMTP server on this machine, keeping what it receives."""
    with serving(Inbox(free_port())) as box:
        yield box


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, inbox: Inbox) -> Iterator[Server]:
    """The browser tests' server, e-mailing through ``inbox``, with as many accounts,
    log-ins and e-mails from one address as the tests make."""
    folder: Path = tmp_path_factory.mktemp("recovery-server")
    running = Server(
        f"sqlite:///{folder / 'server.sqlite3'}",
        *WEB_SERVER_OPTIONS,
        "--signup-rate",
        "1000",
        "--login-rate",
        "1000",
        "--mail-rate",
        "6000",
        "--smtp-host",
        "127.0.0.1",
        "--smtp-port",
        str(inbox.port),
    ).start()
    try:
        yield running
    finally:
        running.stop()


def fits(page: Any, width: int) -> None:
    """Nothing on the page is wider than the screen."""
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def worded(page: Any, t: Translator) -> str:
    """The page's main text, checked for message keys shown instead of their words."""
    text: str = page.locator("main").inner_text()
    assert not MESSAGE_KEY.search(text), (t.lang, text)
    return text


def no_violations(axe_scan: Any, page: Any, screen: str) -> None:
    violations = axe_scan(page)
    assert not violations, f"{screen}:\n{describe_violations(violations)}"


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_pages_in_every_language(
    new_page: Any, server: Server, screenshot: Any, lang: str
) -> None:
    t = Translator(lang)
    for width in (360, 1280):
        page = new_page(lang=lang, width=width, height=800, server=server)
        # the log-in page's link to the page that asks for a new password
        page.goto("/#/login")
        link = page.get_by_test_id("forgot-link")
        expect(link).to_have_text(t("web.account.forgot"))
        link.click()
        form = page.get_by_test_id("forgot-form")
        expect(form).to_be_visible()
        expect(page.locator("main h1")).to_have_text(t("web.forgot.title"))
        assert t("web.forgot.intro") in worded(page, t)
        fits(page, width)
        screenshot(page, f"recovery-forgot-{lang}-{width}")
        # asked for a name nobody has: the answer any name gets
        form.get_by_label(t("web.forgot.who")).fill(f"nobody_{secrets.token_hex(3)}")
        form.locator("button[type=submit]").click()
        sent = page.get_by_test_id("forgot-sent")
        expect(sent.locator(".banner")).to_have_text(t("web.forgot.sent", count=RESET_MINUTES))
        assert t("web.forgot.no_mail") in worded(page, t)
        fits(page, width)
        screenshot(page, f"recovery-forgot-sent-{lang}-{width}")

        # a link's page to set a new password: a link that is none, refused in words
        page.goto(f"/#/reset/{NO_LINK}")
        form = page.get_by_test_id("reset-form")
        expect(page.locator("main h1")).to_have_text(t("web.reset.title"))
        form.get_by_label(t("web.settings.password_new")).fill(NEW_PASSWORD)
        form.get_by_label(t("web.account.password_again")).fill(NEW_PASSWORD)
        form.locator("button[type=submit]").click()
        error = page.get_by_test_id("account-error")
        expect(error.locator(".error")).to_have_text(t("account.bad_link"))
        expect(error.get_by_role("link")).to_have_text(t("web.account.forgot"))
        worded(page, t)
        fits(page, width)
        screenshot(page, f"recovery-reset-{lang}-{width}")

        # a link's page to confirm an address: the same
        page.goto(f"/#/confirm/{NO_LINK}")
        form = page.get_by_test_id("confirm-form")
        expect(page.locator("main h1")).to_have_text(t("web.confirm.title"))
        assert t("web.confirm.text") in worded(page, t)
        form.get_by_role("button", name=t("web.confirm.button")).click()
        expect(page.get_by_test_id("account-error")).to_have_text(t("account.bad_link"))
        fits(page, width)
        screenshot(page, f"recovery-confirm-{lang}-{width}")
        assert not page.page_errors, page.page_errors


def test_register_confirm_forget_and_set_a_new_password(
    new_page: Any, server: Server, inbox: Inbox, axe_scan: Any, screenshot: Any
) -> None:
    name = f"ada_{secrets.token_hex(3)}"
    address = f"{name}@example.org"
    page = new_page(server=server)
    # register with an address: a link to confirm it goes there
    page.goto("/#/register")
    form = page.get_by_test_id("register-form")
    form.get_by_label("Name", exact=True).fill(name)
    form.get_by_label("Password", exact=True).fill(PASSWORD)
    form.get_by_label("The password again").fill(PASSWORD)
    form.get_by_label("E-mail address (if you like)").fill(address)
    form.get_by_role("button", name="Create my account").click()
    expect(page.get_by_test_id("account-menu")).to_contain_text(name)
    first = inbox.wait(address, 1, "confirm")
    assert f"{server.base}/#/confirm/" in first.get_content()

    # the settings say it is not confirmed; asking again at once is refused in words
    page.goto("/#/settings")
    status = page.get_by_test_id("email-status")
    expect(status).to_have_attribute("data-confirmed", "no")
    expect(status).to_contain_text("Not confirmed yet")
    no_violations(axe_scan, page, "settings, unconfirmed")
    screenshot(page, "recovery-settings-unconfirmed")
    status.get_by_test_id("email-resend").click()
    expect(status.locator(".error")).to_contain_text("A link went to this address")

    # the link's page: opening it changes nothing, its button confirms
    page.goto(f"/#/confirm/{link_token(first, 'confirm')}")
    expect(page.get_by_test_id("confirm-form")).to_be_visible()
    no_violations(axe_scan, page, "confirm")
    assert page.request.get("/api/sessions/current").json()["account"]["email_confirmed"] is False
    page.get_by_role("button", name="Confirm my address").click()
    expect(page.get_by_test_id("confirm-done")).to_contain_text(f"Done: {address} is confirmed.")
    screenshot(page, "recovery-confirmed")
    page.goto("/#/settings")
    expect(page.get_by_test_id("email-status")).to_have_attribute("data-confirmed", "yes")
    expect(page.get_by_test_id("email-resend")).to_have_count(0)

    # a new address asks again
    page.get_by_label("E-mail address").fill(f"new_{address}")
    page.locator("[data-testid=settings-mail] button[type=submit]").click()
    expect(page.locator("[data-testid=settings-mail] .banner.ok")).to_have_text(
        f"Saved. To confirm new_{address}, click the link we are sending to it."
    )
    expect(page.get_by_test_id("email-status")).to_have_attribute("data-confirmed", "no")
    second = inbox.wait(f"new_{address}", 1, "confirm")
    page.goto(f"/#/confirm/{link_token(second, 'confirm')}")
    page.get_by_role("button", name="Confirm my address").click()
    expect(page.get_by_test_id("confirm-done")).to_be_visible()

    # log out, and forget the password: the log-in page's link
    page.goto("/")
    page.get_by_test_id("account-menu").click()
    page.get_by_test_id("log-out").click()
    expect(page.get_by_test_id("nav-login")).to_be_visible()
    page.get_by_test_id("nav-login").click()
    page.get_by_test_id("forgot-link").click()
    form = page.get_by_test_id("forgot-form")
    no_violations(axe_scan, page, "forgot")
    form.get_by_label("Name or e-mail address").fill(f"NEW_{address.upper()}")
    form.get_by_role("button", name="Send me the link").click()
    expect(page.get_by_test_id("forgot-sent")).to_contain_text("a link is on its way")
    no_violations(axe_scan, page, "forgot, sent")
    mail = inbox.wait(f"new_{address}", 1, "reset")
    text = mail.get_content()
    assert f"{server.base}/#/reset/" in text
    assert f"works once, for {RESET_MINUTES} minutes" in text
    token = link_token(mail, "reset")

    # the link's page: two passwords that differ, then the new one
    page.goto(f"/#/reset/{token}")
    form = page.get_by_test_id("reset-form")
    no_violations(axe_scan, page, "reset")
    form.get_by_label("New password").fill(NEW_PASSWORD)
    form.get_by_label("The password again").fill(NEW_PASSWORD + "!")
    form.get_by_role("button", name="Set the new password").click()
    expect(page.get_by_test_id("account-error")).to_contain_text("The two passwords differ.")
    form.get_by_label("The password again").fill(NEW_PASSWORD)
    form.get_by_role("button", name="Set the new password").click()
    done = page.get_by_test_id("reset-done")
    expect(done).to_contain_text("Your password is changed")
    no_violations(axe_scan, page, "reset, done")
    screenshot(page, "recovery-reset-done")
    # log in with it (the old one is refused)
    done.get_by_role("link", name="Log in").click()
    login = page.get_by_test_id("login-form")
    login.get_by_label("Name", exact=True).fill(name)
    login.get_by_label("Password", exact=True).fill(PASSWORD)
    login.locator("button[type=submit]").click()
    expect(page.get_by_test_id("account-error")).to_be_visible()
    login.get_by_label("Password", exact=True).fill(NEW_PASSWORD)
    login.locator("button[type=submit]").click()
    expect(page.get_by_test_id("account-menu")).to_contain_text(name)

    # the link works once
    page.goto(f"/#/reset/{token}")
    form = page.get_by_test_id("reset-form")
    form.get_by_label("New password").fill("yet another password")
    form.get_by_label("The password again").fill("yet another password")
    form.get_by_role("button", name="Set the new password").click()
    expect(page.get_by_test_id("account-error")).to_contain_text("This link is not valid")
    # and the session stays: the refused link ended nothing
    assert page.request.get("/api/sessions/current").status == 200
    assert not page.page_errors, page.page_errors

"""Reports, blocks and moderation in the browser (issue 39 §5): a player reports a chat line
from the match, a player from their page and from a finished match, and blocks and unblocks
them; a moderator (``keltis admin grant-moderator``) finds the report with the chat line in
context on the moderation page, warns, mutes and closes it, and reads the log; the warned
player sees the warning on their next page. The report dialog and the moderation page in all
seven languages at 360 and 1280 px: no message key left, nothing sideways, no serious
accessibility violation."""

from __future__ import annotations

import re
import subprocess
import sys
from typing import Any

import pytest
import sqlalchemy as sa
from playwright.sync_api import expect

from keltis.server import db
from keltis.server.store import now
from server.harness import WAIT, Server, play_together, player
from server.people import PASSWORD, Member, signup
from web.helpers import describe_violations
from web.pages import CARDS_SHORT
from web.test_community import server, unique

__all__ = ["server"]  # the community tests' server: their options, many accounts

LANGS = ["en", "de", "cs", "sk", "hu", "pl", "es"]
#: A message key the page would show for a message the catalogs lack.
KEY = re.compile(r"\b(?:web|report|block|moderation|chat)\.[a-z_]+(?:\.[a-z_]+)*\b")


def grant(server: Server, name: str) -> None:
    """``keltis admin grant-moderator NAME`` on the server's database."""
    done = subprocess.run(
        [sys.executable, "-m", "keltis", "admin", "--db", server.database, "grant-moderator", name],
        capture_output=True,
        text=True,
        timeout=WAIT,
        check=False,
    )
    assert done.returncode == 0, done.stderr


def log_in(page: Any, name: str, route: str = "/") -> None:
    """``page``'s browser logs in as ``name`` (the session cookie lands in it), then opens
    ``route``."""
    answer = page.request.post("/api/sessions", data={"name": name, "password": PASSWORD})
    assert answer.status == 200, answer.text()
    page.goto(route)
    expect(page.get_by_test_id("account-menu")).to_contain_text(name)


def no_violations(axe_scan: Any, page: Any, screen: str) -> None:
    violations = axe_scan(page)
    assert not violations, f"{screen}:\n{describe_violations(violations)}"


def fits(page: Any, width: int) -> None:
    """Nothing on the page is wider than the screen."""
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def no_keys(page: Any, where: str) -> None:
    """The page shows no message key (a message the catalogs lack)."""
    text = page.locator("body").inner_text()
    found = KEY.findall(text)
    assert not found, f"{where}: {found}"


def seated_match(server: Server, ann: Member, bea: Member, **body: Any) -> dict[str, Any]:
    """A started two-seat match of Ann (the creator) and Bea (invited): the creation's
    answer with Bea's token."""
    made = ann.post(
        "/api/matches",
        json={"game": "cards", "seats": [{"kind": "person"}] * 2, "setup": CARDS_SHORT, **body},
    )
    assert made.status_code == 201, made.text
    answer = made.json()
    joined = bea.post(
        f"/api/matches/{answer['id']}/join", json={"invite": answer["invites"][0]["invite"]}
    )
    assert joined.status_code == 200, joined.text
    started = ann.post(
        f"/api/matches/{answer['id']}/start",
        headers={"Authorization": f"Bearer {answer['host_token']}"},
    )
    assert started.status_code == 200, started.text
    return {**answer, "bea_token": joined.json()["token"]}


def flag(server: Server, first: str, second: str, matches: list[str]) -> None:
    """A flag of rated results for the accounts ``first`` and ``second`` (as the rating's
    transaction writes one)."""
    engine = db.make_engine(server.database)
    try:
        with engine.begin() as connection:
            ids = dict(
                connection.execute(
                    sa.select(db.accounts.c.name, db.accounts.c.id).where(
                        db.accounts.c.name.in_([first, second])
                    )
                ).all()
            )
            a, b = sorted([ids[first], ids[second]])
            connection.execute(
                db.rating_flags.insert().values(
                    reason="same_address",
                    account_a=a,
                    account_b=b,
                    address="127.0.0.1",
                    matches=matches,
                    created_at=now(),
                    updated_at=now(),
                )
            )
    finally:
        engine.dispose()


def test_a_report_reaches_a_moderator_who_acts_and_the_log_says_so(
    new_page: Any, server: Server, axe_scan: Any, screenshot: Any
) -> None:
    ann_name, bea_name, mod_name = unique("ann"), unique("bea"), unique("mod")
    ann, bea, mod = (signup(server, n) for n in (ann_name, bea_name, mod_name))
    grant(server, mod_name)
    made = seated_match(server, ann, bea)
    match_id = made["id"]
    assert ann.post(f"/api/matches/{match_id}/chat", json={"text": "good luck"}).status_code == 201
    insult = bea.post(f"/api/matches/{match_id}/chat", json={"text": "you play like a potato"})
    assert insult.status_code == 201, insult.text

    # Ann reports Bea's chat line from the match: the dialog quotes it.
    page = new_page(server=server)
    log_in(page, ann_name)
    page.goto(f"/#/match/{match_id}")
    line = page.locator(".chat-log li", has_text="you play like a potato")
    expect(line).to_be_visible()
    assert (
        page.locator(".chat-log li", has_text="good luck").get_by_test_id("chat-report").count()
        == 0
    )
    line.get_by_test_id("chat-report").click()
    dialog = page.get_by_test_id("report-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("blockquote")).to_have_text("you play like a potato")
    expect(dialog.locator("input[data-reason=chat_abuse]")).to_be_checked()
    dialog.get_by_test_id("report-text").fill("insults in the chat")
    no_violations(axe_scan, page, "the report dialog")
    screenshot(page, "moderation-report-chat-line")
    with page.expect_request(lambda r: r.url.endswith("/api/reports")) as asked:
        dialog.get_by_test_id("report-send").click()
    sent = asked.value.post_data_json
    assert sent == {
        "name": bea_name,
        "reason": "chat_abuse",
        "text": "insults in the chat",
        "match": match_id,
        "chat_line": insult.json()["id"],
    }
    assert asked.value.headers.get("x-csrf-token")
    expect(page.get_by_test_id("report-sent")).to_be_visible()
    page.get_by_role("button", name="Close", exact=True).click()
    expect(dialog).to_have_count(0)

    # From Bea's page: Report (the reason required) and Block / Unblock.
    page.goto(f"/#/player/{bea_name}")
    actions = page.get_by_test_id("player-actions")
    expect(actions).to_be_visible()
    actions.get_by_test_id("report").click()
    dialog = page.get_by_test_id("report-dialog")
    dialog.get_by_test_id("report-send").click()
    expect(dialog.get_by_test_id("report-error")).to_have_text("Choose why you report this player.")
    dialog.locator("input[data-reason=other]").check()
    dialog.get_by_test_id("report-text").fill("x" * 10)
    dialog.get_by_test_id("report-text").fill("")
    dialog.get_by_test_id("report-send").click()  # "other" needs a text: the browser asks
    expect(page.get_by_test_id("report-sent")).to_have_count(0)
    dialog.get_by_test_id("report-text").fill("a name that insults")
    dialog.locator("input[data-reason=offensive_name]").check()
    dialog.get_by_test_id("report-send").click()
    expect(page.get_by_test_id("report-sent")).to_be_visible()
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    actions.get_by_test_id("block").click()
    expect(actions.get_by_test_id("block")).to_have_attribute("aria-pressed", "true")
    expect(actions.get_by_test_id("blocked-note")).to_be_visible()
    assert page.request.get("/api/me/blocks").json() == {"blocks": [bea_name]}
    screenshot(page, "moderation-player-blocked")
    actions.get_by_test_id("block").click()
    expect(actions.get_by_test_id("block")).to_have_attribute("aria-pressed", "false")
    assert page.request.get("/api/me/blocks").json() == {"blocks": []}
    # one's own page offers neither
    page.goto(f"/#/player/{ann_name}")
    expect(page.locator("h1")).to_have_text(ann_name)
    expect(page.get_by_test_id("player-actions")).to_have_count(0)

    # The match is played to its end: its final scores offer Report too.
    with (
        player(server, match_id, made["token"]) as first,
        player(server, match_id, made["bea_token"]) as second,
    ):
        play_together(first, second)
    page.goto(f"/#/match/{match_id}")
    page.wait_for_selector(".final")
    page.get_by_test_id("report-match").click()
    dialog = page.get_by_test_id("report-dialog")
    dialog.locator("input[data-reason=stalling]").check()
    with page.expect_request(lambda r: r.url.endswith("/api/reports")) as asked:
        dialog.get_by_test_id("report-send").click()
    assert asked.value.post_data_json == {
        "name": bea_name,
        "reason": "stalling",
        "text": "",
        "match": match_id,
    }
    expect(page.get_by_test_id("report-sent")).to_be_visible()
    page.keyboard.press("Escape")

    # Ann is no moderator: the page says so, and her menu has no link to it.
    page.goto("/#/moderation")
    expect(page.get_by_test_id("moderation-only")).to_be_visible()
    page.get_by_test_id("account-menu").click()
    expect(page.get_by_test_id("nav-moderation")).to_have_count(0)

    # The moderator: the link in the menu, the queue, the line in context.
    moderator = new_page(server=server)
    log_in(moderator, mod_name)
    moderator.get_by_test_id("account-menu").click()
    moderator.get_by_test_id("nav-moderation").click()
    moderator.wait_for_selector("[data-testid=reports]")
    card = moderator.locator("[data-report]", has_text="insults in the chat")
    expect(card).to_be_visible()
    expect(card.locator("h3")).to_contain_text(f"{ann_name} reported {bea_name}")
    expect(card.locator("li.reported")).to_contain_text("you play like a potato")
    expect(card.locator("[data-testid=context] li")).to_have_count(2)
    expect(card).to_contain_text("3 open reports about this player")
    no_violations(axe_scan, moderator, "the moderation page")
    screenshot(moderator, "moderation-reports")
    # no reason, no action
    card.locator("[data-action=warn]").click()
    expect(card.locator(".error")).to_have_text("Say why first.")
    card.get_by_test_id("why").fill("Insults are not allowed here.")
    card.locator("[data-action=warn]").click()
    expect(card.locator(".banner.ok")).to_have_text("Done.")
    card.get_by_test_id("mute-minutes").select_option("60")
    card.get_by_test_id("why").fill("Cool off for an hour.")
    card.locator("[data-action=mute]").click()
    expect(card.locator("[data-state=muted]")).to_be_visible()
    refused = bea.post(f"/api/matches/{match_id}/chat", json={"text": "why?"})
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "chat.muted"
    card.get_by_test_id("why").fill("Warned and muted.")
    card.locator("[data-action=close]").click()
    expect(moderator.locator("[data-report]", has_text="insults in the chat")).to_have_count(0)
    moderator.get_by_test_id("show-closed").check()
    closed = moderator.locator("[data-report]", has_text="insults in the chat")
    expect(closed.get_by_test_id("closed")).to_have_text(f"Closed by {mod_name}: Warned and muted.")

    # The log: who did what, and why.
    moderator.locator("[data-tab=log]").click()
    rows = moderator.locator("[data-testid=log] tbody tr")
    expect(rows.first).to_contain_text("closed a report")
    texts = [rows.nth(i).inner_text() for i in range(3)]
    assert [t.split("\t")[1] for t in texts] == [mod_name] * 3
    assert "Warned and muted." in texts[0]
    assert "muted" in texts[1]
    assert "Cool off for an hour." in texts[1]
    assert "Insults are not allowed here." in texts[2]
    no_violations(axe_scan, moderator, "the moderation log")
    screenshot(moderator, "moderation-log")

    # Bea's next page shows the warning, until she has read it.
    warned = new_page(server=server)
    log_in(warned, bea_name)
    banner = warned.get_by_test_id("warnings")
    expect(banner).to_contain_text("Insults are not allowed here.")
    no_violations(axe_scan, warned, "a warning")
    screenshot(warned, "moderation-warning")
    banner.get_by_test_id("warning-read").click()
    expect(warned.get_by_test_id("warnings")).to_have_count(0)
    warned.reload()
    expect(warned.get_by_test_id("account-menu")).to_be_visible()
    expect(warned.get_by_test_id("warnings")).to_have_count(0)
    for page_ in (page, moderator, warned):
        assert not page_.page_errors, page_.page_errors
    for member in (ann, bea, mod):
        member.close()


@pytest.fixture(scope="module")
def accounts(server: Server) -> dict[str, str]:
    """A moderator, a reporter and a reported account with an open report (its chat line)
    and a flag, for the pages in every language."""
    names = {"mod": unique("mod"), "ann": unique("ann"), "bea": unique("bea")}
    members = {role: signup(server, name) for role, name in names.items()}
    grant(server, names["mod"])
    made = seated_match(server, members["ann"], members["bea"])
    line = members["bea"].post(
        f"/api/matches/{made['id']}/chat", json={"text": "nobody wants you here"}
    )
    reported = members["ann"].post(
        "/api/reports",
        json={
            "name": names["bea"],
            "reason": "chat_abuse",
            "text": "a long explanation " * 12,
            "chat_line": line.json()["id"],
        },
    )
    assert reported.status_code == 201, reported.text
    flag(server, names["ann"], names["bea"], [made["id"]])
    members["mod"].post("/api/moderation/warn", json={"name": names["bea"], "reason": "Be kind."})
    for member in members.values():
        member.close()
    return names


@pytest.mark.parametrize("lang", LANGS)
def test_the_report_dialog_and_the_moderation_page_in_every_language(
    new_page: Any,
    server: Server,
    accounts: dict[str, str],
    axe_scan: Any,
    screenshot: Any,
    lang: str,
) -> None:
    for width, height in ((360, 740), (1280, 900)):
        page = new_page(lang=lang, width=width, height=height, server=server)
        log_in(page, accounts["ann"], f"/#/player/{accounts['bea']}")
        page.get_by_test_id("report").click()
        dialog = page.get_by_test_id("report-dialog")
        expect(dialog).to_be_visible()
        assert dialog.locator("input[type=radio]").count() == 5
        no_keys(page, f"report dialog {lang} {width}")
        fits(page, width)
        if width == 360:
            no_violations(axe_scan, page, f"report dialog {lang}")
        screenshot(page, f"moderation-report-{lang}-{width}")
        page.keyboard.press("Escape")

        moderator = new_page(lang=lang, width=width, height=height, server=server)
        log_in(moderator, accounts["mod"], "/#/moderation")
        moderator.wait_for_selector("[data-testid=reports] [data-report]")
        expect(moderator.locator("li.reported").first).to_contain_text("nobody wants you here")
        for tab, ready in (
            ("reports", "[data-testid=reports]"),
            ("flags", "[data-testid=flags]"),
            ("log", "[data-testid=log]"),
        ):
            moderator.goto(f"/#/moderation/{tab}")
            moderator.wait_for_selector(ready)
            no_keys(moderator, f"moderation {tab} {lang} {width}")
            fits(moderator, width)
            if width == 360 and tab == "reports":
                no_violations(axe_scan, moderator, f"moderation {lang}")
            screenshot(moderator, f"moderation-{tab}-{lang}-{width}")
        assert not page.page_errors, page.page_errors
        assert not moderator.page_errors, moderator.page_errors
        page.context.close()
        moderator.context.close()


def test_the_lobby_hides_the_seeks_of_players_one_blocked(new_page: Any, server: Server) -> None:
    """Ann blocked Bea: the lobby shows Ann neither Bea's seek nor one Bea sits in, while
    Cat sees both; Ann's own seek stays in her list even after Bea took a place in it, and
    once Ann unblocks Bea her seeks come back."""
    ann_name, bea_name, cat_name = unique("ann"), unique("bea"), unique("cat")
    ann, bea, cat = (signup(server, n) for n in (ann_name, bea_name, cat_name))
    by_bea = bea.post("/api/seeks", json={"game": "cards", "players": 2})
    assert by_bea.status_code == 201, by_bea.text
    by_cat = cat.post("/api/seeks", json={"game": "board", "players": 3})
    assert by_cat.status_code == 201, by_cat.text
    assert bea.post(f"/api/seeks/{by_cat.json()['id']}/join").status_code == 200
    by_ann = ann.post("/api/seeks", json={"game": "cards", "players": 3})
    assert by_ann.status_code == 201, by_ann.text
    assert bea.post(f"/api/seeks/{by_ann.json()['id']}/join").status_code == 200
    assert ann.post("/api/me/blocks", json={"name": bea_name}).status_code == 204

    seek = "[data-seek='{}']".format
    page = new_page(server=server)
    log_in(page, ann_name, "/#/lobby")
    expect(page.locator(seek(by_ann.json()["id"]))).to_be_visible()  # her own: shown
    expect(page.locator(seek(by_bea.json()["id"]))).to_have_count(0)
    expect(page.locator(seek(by_cat.json()["id"]))).to_have_count(0)  # Bea sits in it

    other = new_page(server=server)
    log_in(other, cat_name, "/#/lobby")
    for made in (by_ann, by_bea, by_cat):
        expect(other.locator(seek(made.json()["id"]))).to_be_visible()

    page.goto(f"/#/player/{bea_name}")
    page.get_by_test_id("player-actions").get_by_test_id("block").click()  # unblock
    expect(page.get_by_test_id("block")).to_have_attribute("aria-pressed", "false")
    page.goto("/#/lobby")
    expect(page.locator(seek(by_bea.json()["id"]))).to_be_visible()
    expect(page.locator(seek(by_cat.json()["id"]))).to_be_visible()


def test_a_moderator_suspends_from_a_report_and_lifts_the_suspension(
    new_page: Any, server: Server
) -> None:
    """The report card's Suspend becomes "Lift suspension" once the account is suspended;
    lifting it lets the account log in again, and both are in the log."""
    ann_name, bea_name, mod_name = unique("ann"), unique("bea"), unique("mod")
    ann, bea, _ = (signup(server, n) for n in (ann_name, bea_name, mod_name))
    grant(server, mod_name)
    made = ann.post(
        "/api/reports", json={"name": bea_name, "reason": "other", "text": "spam in the lobby"}
    )
    assert made.status_code == 201, made.text
    moderator = new_page(server=server)
    log_in(moderator, mod_name, "/#/moderation")
    card = moderator.locator(f"[data-report='{made.json()['id']}']")
    card.get_by_test_id("why").fill("Spam.")
    card.locator("[data-action=suspend]").click()
    expect(card.locator("[data-state=suspended]")).to_be_visible()
    expect(card.locator("[data-action=suspend]")).to_have_count(0)
    with server.http() as http:
        login = {"name": bea_name, "password": PASSWORD}
        assert http.post("/api/sessions", json=login).status_code == 403
        card.get_by_test_id("why").fill("Talked it over.")
        card.locator("[data-action=unsuspend]").click()
        expect(card.locator("[data-state=suspended]")).to_have_count(0)
        expect(card.locator("[data-action=suspend]")).to_be_visible()
        assert http.post("/api/sessions", json=login).status_code == 200
    moderator.locator("[data-tab=log]").click()
    rows = moderator.locator("[data-testid=log] tbody tr")
    expect(rows.first).to_contain_text("suspension lifted")
    expect(rows.first).to_contain_text("Talked it over.")
    assert not moderator.page_errors, moderator.page_errors
    for member in (ann, bea):
        member.close()

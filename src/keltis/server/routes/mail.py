"""The one-click unsubscribe of the turn e-mails (docs/server.md, "Being told it is your
turn"): ``POST /api/unsubscribe/{account}/{token}`` turns them off (RFC 8058: what a mail
program sends when its reader clicks "unsubscribe"), ``GET`` the same address shows a small
page with the button that posts it — a link opened (or fetched by a mail scanner) changes
nothing by itself.

The token is the account's unsubscribe secret (:meth:`keltis.server.mail.Mailer.token`),
compared in constant time; a wrong token and an unknown account get the same ``403``.
"""

from __future__ import annotations

import asyncio
import html

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from keltis.i18n import Translator
from keltis.server.answers import error_response
from keltis.server.bodies import IdText
from keltis.server.routes.deps import Lang, Master

router = APIRouter()

#: The page's policy: no script, no outside resource; its one form posts back here.
PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'"

_PAGE = """<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>{title}</title>
<style>body{{font-family:sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;\
line-height:1.5}}button{{font-size:1rem;padding:.5rem 1rem}}</style>
</head>
<body>
<main>
<h1>{title}</h1>
<p>{text}</p>
{form}
</main>
</body>
</html>
"""

_FORM = """<form method="post">
<input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit">{button}</button>
</form>"""


def _page(lang: str, text_key: str, form: bool, status: int = 200) -> HTMLResponse:
    """A small page in ``lang``: the title, the text of ``text_key`` and perhaps the
    button."""
    translate = Translator(lang)
    body = _PAGE.format(
        lang=lang,
        title=html.escape(translate("mail.unsubscribe.title")),
        text=html.escape(translate(text_key)),
        form=_FORM.format(button=html.escape(translate("mail.unsubscribe.button"))) if form else "",
    )
    return HTMLResponse(
        body,
        status_code=status,
        headers={"Content-Security-Policy": PAGE_POLICY, "Cache-Control": "no-store"},
    )


def _wants_page(request: Request) -> bool:
    """Whether the request comes from a browser's form (it asks for HTML, not JSON)."""
    accept = request.headers.get("accept", "")
    return "text/html" in accept and "application/json" not in accept


@router.get("/api/unsubscribe/{account}/{token}", tags=["accounts"], response_class=HTMLResponse)
async def unsubscribe_page(account: IdText, token: IdText, master: Master, lang: Lang) -> Response:
    """The page an unsubscribe link opens: its button turns the turn e-mails off (opening
    it changes nothing)."""
    if not await asyncio.to_thread(master.mailer.token_ok, account, token):
        return _page(lang, "mail.bad_unsubscribe", form=False, status=403)
    return _page(lang, "mail.unsubscribe.text", form=True)


@router.post("/api/unsubscribe/{account}/{token}", tags=["accounts"])
async def unsubscribe(
    account: IdText, token: IdText, request: Request, master: Master, lang: Lang
) -> Response:
    """Turn off the account's e-mails about its turns (RFC 8058's one-click POST; any
    body is ignored): ``{"email_turns": false}``, or a page saying so to a browser's form.
    A wrong token or an unknown account: ``403`` ``mail.bad_unsubscribe``."""
    done = await asyncio.to_thread(master.mailer.unsubscribe, account, token)
    page = _wants_page(request)
    if not done:
        if page:
            return _page(lang, "mail.bad_unsubscribe", form=False, status=403)
        return error_response(403, "mail.bad_unsubscribe", lang)
    if page:
        return _page(lang, "mail.unsubscribe.done", form=False)
    return JSONResponse({"email_turns": False})

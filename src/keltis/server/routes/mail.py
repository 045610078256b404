"""The one-click unsubscribe of the turn e-mails (docs/server.md, "Being told it is your
turn"): ``POST /api/unsubscribe/{account}/{token}`` turns them off (RFC 8058: what a mail
program sends when its reader clicks "unsubscribe"), ``GET`` the same address shows a small
page with the button that posts it — a link opened (or fetched by a mail scanner) changes
nothing by itself. The page has the site's look (the client's style sheet and header) and a
way back to the start page; it runs no script.

The token is the account's unsubscribe secret (:meth:`keltis.server.mail.Mailer.token`),
compared in constant time; a wrong token and an unknown account get the same ``403``.
"""

from __future__ import annotations

import asyncio
import html
import re
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from keltis.i18n import Translator
from keltis.server.answers import error_response
from keltis.server.bodies import IdText
from keltis.server.routes.client import STATIC_DIR
from keltis.server.routes.deps import Lang, Master

router = APIRouter()

#: The page's policy: no script; the client's own style sheet (or the page's few lines of
#: style where no client is built) and icon; its one form posts back here.
PAGE_POLICY = (
    "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self'; form-action 'self'"
)

#: The built client's style sheet as its start page links it (Vite names it by its hash).
_STYLESHEET = re.compile(r'<link rel="stylesheet"[^>]*href="(/assets/[A-Za-z0-9._-]+\.css)"')

#: The look without a built client (a checkout before ``npm run build``).
_FALLBACK_STYLE = """<style>body{{font-family:sans-serif;margin:0;line-height:1.5}}\
main{{max-width:32rem;margin:2rem auto;padding:0 1rem}}.top{{padding:.6rem 1rem}}\
button{{font-size:1rem;padding:.5rem 1rem}}</style>"""

# The client's header (web/src/header.tsx: the brand leading to the start page) and a page
# as its account pages are laid out, so the page looks like the rest of the site.
_PAGE = """<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<meta name="robots" content="noindex">
<title>{title} · Keltis</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
{style}
</head>
<body>
<header class="top">
<a href="/" class="brand" aria-label="{home}"><span aria-hidden="true">☘</span> \
<span class="brand-name">Keltis</span></a>
</header>
<main id="main" class="account-page">
<h1>{title}</h1>
<section class="panel narrow" data-testid="unsubscribe">
<p>{text}</p>
{form}
<p><a class="button" href="/" data-testid="unsubscribe-home">{back}</a></p>
</section>
</main>
</body>
</html>
"""

_FORM = """<form method="post">
<input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit" class="primary">{button}</button>
</form>"""


def _style(request: Request) -> str:
    """The ``<link>`` to the built client's style sheet (read from its start page: its name
    changes with each build), or a few lines of style where no client is built."""
    config = request.app.state.config
    static = Path(config.static_dir) if config.static_dir is not None else STATIC_DIR
    try:
        found = _STYLESHEET.search((static / "index.html").read_text(encoding="utf-8"))
    except OSError:
        found = None
    if found is None:
        return _FALLBACK_STYLE.format()
    return f'<link rel="stylesheet" href="{html.escape(found[1])}">'


def _page(
    request: Request, lang: str, text_key: str, form: bool, status: int = 200
) -> HTMLResponse:
    """A page in ``lang`` with the site's look: the title, the text of ``text_key``, perhaps
    the button, and the way back to the start page."""
    translate = Translator(lang)
    body = _PAGE.format(
        lang=lang,
        style=_style(request),
        home=html.escape(translate("web.home")),
        title=html.escape(translate("mail.unsubscribe.title")),
        text=html.escape(translate(text_key)),
        form=_FORM.format(button=html.escape(translate("mail.unsubscribe.button"))) if form else "",
        back=html.escape(translate("mail.unsubscribe.home")),
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
async def unsubscribe_page(
    account: IdText, token: IdText, request: Request, master: Master, lang: Lang
) -> Response:
    """The page an unsubscribe link opens: its button turns the turn e-mails off (opening
    it changes nothing)."""
    if not await asyncio.to_thread(master.mailer.token_ok, account, token):
        return _page(request, lang, "mail.bad_unsubscribe", form=False, status=403)
    return _page(request, lang, "mail.unsubscribe.text", form=True)


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
            return _page(request, lang, "mail.bad_unsubscribe", form=False, status=403)
        return error_response(403, "mail.bad_unsubscribe", lang)
    if page:
        return _page(request, lang, "mail.unsubscribe.done", form=False)
    return JSONResponse({"email_turns": False})

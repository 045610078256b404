"""Refusals, worded in the client's language: one shape for the HTTP API and the live
WebSocket alike.

A refusal is ``{"code": …, "message": …}`` (under ``"error"`` in an HTTP answer, with
``"type": "error"`` on the WebSocket); a move refused by a rule adds the rule's id (``rule``)
and the message without it (``reason``), so that no client cuts the id off the text. The match
service raises :class:`RefusedError` with the message key, and the layer that answers words it
for its client (:func:`refusal_json`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fastapi.responses import JSONResponse
from starlette.requests import HTTPConnection

from keltis.core.errors import IllegalActionError, KeltisError, RecordError
from keltis.i18n import Translator
from keltis.server import guards, textcheck


class RefusedError(Exception):
    """A client's request is refused: ``key`` (a message key) and ``params`` word it;
    ``status`` is the HTTP status it answers a request with (the WebSocket has none)."""

    def __init__(self, key: str, /, status: int = 409, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.status = status
        self.params = params

    def text(self, translate: Translator) -> str:
        """The reason in the client's language."""
        return translate(self.key, **self.params)


class BadSetupError(RefusedError):
    """A new match's game, variant, seed or set-up that the rules core refuses (``cause``):
    a ``server.bad_request`` saying what is wrong, in the client's language where the rules
    core words it."""

    def __init__(self, cause: Exception) -> None:
        super().__init__("server.bad_request", status=400)
        self.cause = cause

    def text(self, translate: Translator) -> str:
        return translate(self.key, detail=worded(self.cause, translate))


def worded(error: Exception, translate: Translator) -> str:
    """What was wrong with a request: translated where the rules core words it (a refusal's
    key, also under a record's "bad set-up"), else the error's English."""
    cause: BaseException = error
    while isinstance(cause, RecordError) and isinstance(cause.__cause__, KeltisError):
        cause = cause.__cause__
    if isinstance(cause, KeltisError) and cause.key:
        return translate.refusal(cause)
    return str(error)


def refusal_json(error: Exception, lang: str) -> dict[str, Any]:
    """The ``code`` and ``message`` of a refused request or move; a move refused by a rule
    adds the rule's id (``rule``: ``B-13``), where the rules page explains it, and the
    reason alone (``reason``: ``message`` without ``"B-13: "``)."""
    translate = Translator(lang)
    if isinstance(error, RefusedError):
        return {"code": error.key, "message": error.text(translate)}
    if isinstance(error, KeltisError):
        code = f"refuse.{error.key}" if error.key else "refuse"
        out = {"code": code, "message": translate.refusal(error)}
        if isinstance(error, IllegalActionError):
            out["rule"] = error.rule  # the rules page's anchor for the rule that refused it
            out["reason"] = translate.reason(error)
        return out
    return {"code": "server.bad_request", "message": translate("server.bad_request", detail=error)}


def request_lang(connection: HTTPConnection) -> str:
    """The first of the request's ``Accept-Language`` entries that we speak (else ``en``)."""
    return guards.request_lang(connection.headers)


def error_response(status: int, key: str, lang: str, **params: Any) -> JSONResponse:
    """``{"error": {"code": key, "message": …}}`` in the client's language."""
    return JSONResponse(guards.error_json(key, lang, **params), status_code=status)


def refusal_response(error: Exception, lang: str, status: int) -> JSONResponse:
    """A refused request or move as an HTTP answer (:func:`refusal_json` under
    ``"error"``)."""
    return JSONResponse({"error": refusal_json(error, lang)}, status_code=status)


def bad_request(status: int, lang: str, detail: object) -> JSONResponse:
    """A ``server.bad_request`` answer saying what is wrong (``detail``: English)."""
    return error_response(status, "server.bad_request", lang, detail=detail)


def printable(text: str, limit: int = 40) -> str:
    """``text`` cut to ``limit`` characters, each character no name may hold (control and
    formatting characters, lone surrogates, line separators:
    :func:`keltis.server.textcheck.refused`) shown as U+FFFD: safe to repeat in a
    message."""
    return "".join("\ufffd" if textcheck.refused(c) else c for c in text[:limit])


def invalid_request(errors: Sequence[Any], lang: str) -> JSONResponse:
    """A request that could not be read into its route's parameters (FastAPI's validation
    ``errors``): ``400`` ``server.bad_name`` where a name was refused
    (:class:`~keltis.server.textcheck.NameCheck`), ``server.reserved_name`` where a player
    took a deleted account's name, else ``server.bad_request`` saying where and what."""
    for error in errors:
        if error.get("type") == textcheck.BAD_NAME:
            return error_response(400, "server.bad_name", lang, limit=error["ctx"]["limit"])
        if error.get("type") == textcheck.RESERVED_NAME:
            return error_response(400, "server.reserved_name", lang)
    problems = "; ".join(
        f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg', '')}" for e in errors
    )
    return error_response(400, "server.bad_request", lang, detail=problems)

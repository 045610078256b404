"""What every JSON text a client sends must be, before anything reads it: HTTP bodies and
live WebSocket messages alike.

JSON as Python reads it takes more than the server can use safely: ``NaN`` and
``Infinity``, nesting deep enough to exhaust the parser's recursion (about 2 KB of
brackets), and ``\\ud800``-style escapes that give lone surrogates, which no UTF-8 text can
hold (a name or a ``ref`` holding one could not be stored in PostgreSQL nor sent back).
:func:`parse_message` refuses each with a message key, so the client is told in its
language."""

from __future__ import annotations

import json
from typing import Any

#: How deeply a client's JSON may nest (objects and arrays). No request of the protocol
#: needs more than three levels; an explicit set-up, four.
MAX_DEPTH = 32


class BadMessageError(ValueError):
    """A client's text is no JSON the server takes: ``key`` and ``params`` word why."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def parse_message(text: str | bytes) -> Any:
    """``text`` parsed as JSON, or :class:`BadMessageError`: ``server.bad_json`` (not JSON,
    not UTF-8, or ``NaN``/``Infinity``), ``server.too_deep`` (more than :data:`MAX_DEPTH`
    levels) or ``server.bad_text`` (a string or key with a lone surrogate)."""
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise BadMessageError("server.too_deep", limit=MAX_DEPTH) from None
    except UnicodeDecodeError:
        raise BadMessageError("server.bad_json", detail="not UTF-8 text") from None
    except ValueError as error:
        raise BadMessageError("server.bad_json", detail=str(error)) from None
    _check(data)
    return data


def _check(data: Any) -> None:
    """Walk ``data`` (iteratively: its depth is not yet known to be safe)."""
    pending: list[tuple[Any, int]] = [(data, 1)]
    while pending:
        item, depth = pending.pop()
        if isinstance(item, str):
            if not _utf8(item):
                raise BadMessageError("server.bad_text")
            continue
        if not isinstance(item, (dict, list)):
            continue
        if depth > MAX_DEPTH:
            raise BadMessageError("server.too_deep", limit=MAX_DEPTH)
        if isinstance(item, dict):
            for key, value in item.items():
                if not _utf8(key):
                    raise BadMessageError("server.bad_text")
                pending.append((value, depth + 1))
        else:
            pending.extend((value, depth + 1) for value in item)


def _utf8(text: str) -> bool:
    """Whether ``text`` can be written as UTF-8 (holds no lone surrogate)."""
    if text.isascii():
        return True
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True

"""The one check of every name, id and chat message a request brings (docs/server.md,
"Limits"), made before anything is looked up or stored.

Some characters belong in no name, id or chat line: control characters (a NUL, which
PostgreSQL's text cannot even hold, a line break, an escape), format characters (the
right-to-left override U+202E shows "evil" as "live"; zero-width characters make two names
look alike), lone surrogates, and the line and paragraph separators U+2028 and U+2029 (a
chat message is one line). :func:`refused_character` finds them, for names
(:func:`name_ok`), for chat (:func:`keltis.server.chat.checked_text`) and for ids.

:class:`NameCheck` and :class:`IdCheck` apply it to a request's fields and path parameters
(the types in :mod:`keltis.server.bodies`): a request they refuse is answered ``400``
``server.bad_name`` (a name) or ``server.bad_request`` (an id, a token, an invite, a
language) by :func:`keltis.server.answers.invalid_request`, and nothing is looked up.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from pydantic_core import PydanticCustomError

from keltis.names import reserved_name

#: The Unicode categories no name, id or chat message may hold: control characters (Cc:
#: U+0000-U+001F, U+007F-U+009F), format characters (Cf: the bidirectional controls U+061C,
#: U+200E, U+200F, U+202A-U+202E, U+2066-U+2069; the zero-width U+200B-U+200D, U+2060,
#: U+FEFF, U+180E; soft hyphens, tags and the other invisible ones), lone surrogates (Cs),
#: and the line and paragraph separators (Zl: U+2028, Zp: U+2029).
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})

#: The error type of a name refused by :class:`NameCheck` (answered ``server.bad_name``).
BAD_NAME = "bad_name"
#: The error type of an id refused by :class:`IdCheck` (answered ``server.bad_request``).
BAD_ID = "bad_id"
#: The error type of a player's name nobody may take, a deleted account's sentinel
#: (:func:`keltis.names.reserved_name`; answered ``server.reserved_name``).
RESERVED_NAME = "reserved_name"


def refused(char: str) -> bool:
    """Whether the character ``char`` is one of those no name, id or chat message holds."""
    return unicodedata.category(char) in REFUSED_CATEGORIES


def refused_character(text: str) -> str | None:
    """The first character of ``text`` that no name, id or chat message may hold
    (:data:`REFUSED_CATEGORIES`), or ``None``."""
    for char in text:
        if refused(char):
            return char
    return None


def code_point(char: str) -> str:
    """``char`` named safely: ``U+202E``."""
    return f"U+{ord(char):04X}"


def name_ok(name: str, limit: int) -> bool:
    """Whether ``name`` may name a player: 1 to ``limit`` characters, not only spaces, none
    that :func:`refused_character` refuses."""
    return 0 < len(name) <= limit and not name.isspace() and refused_character(name) is None


@dataclass(frozen=True)
class NameCheck:
    """A validator of a name field or path parameter: :func:`name_ok` with ``limit``, else
    the error :data:`BAD_NAME` (``limit`` in its context)."""

    limit: int
    player: bool = False
    """A player's name in a match (a guest's, a bot's), not an account's to look up: the
    name a deleted account's seats show (:data:`keltis.names.DELETED_NAME`) is refused too
    (:data:`RESERVED_NAME`), so that nobody passes for one."""

    def __call__(self, value: str) -> str:
        if not name_ok(value, self.limit):
            raise PydanticCustomError(
                BAD_NAME,
                "a name is 1 to {limit} characters of text, without control characters, "
                "invisible formatting characters or line separators",
                {"limit": self.limit},
            )
        if self.player and reserved_name(value):
            raise PydanticCustomError(
                RESERVED_NAME, "the name {name} is kept for deleted accounts", {"name": value}
            )
        return value


@dataclass(frozen=True)
class IdCheck:
    """A validator of an id, a token, an invite or a code (a field or a path parameter): 1
    to ``limit`` characters, none that :func:`refused_character` refuses; else the error
    :data:`BAD_ID`. Whether the id names anything is for its route to say (``404``)."""

    limit: int

    def __call__(self, value: str) -> str:
        if not value or len(value) > self.limit:
            raise PydanticCustomError(
                BAD_ID, "not an id: 1 to {limit} characters", {"limit": self.limit}
            )
        char = refused_character(value)
        if char is not None:
            raise PydanticCustomError(
                BAD_ID, "not an id: it holds {char}", {"char": code_point(char)}
            )
        return value


def schema(limit: int) -> dict[str, object]:
    """The OpenAPI schema of a text field of 1 to ``limit`` characters."""
    return {"type": "string", "minLength": 1, "maxLength": limit}

"""Players' names as a record keeps them and as a player reads them.

When an account is deleted (``DELETE /api/me``), the server replaces its name with
:data:`DELETED_NAME` wherever it stays: in the finished matches' records, seats, chat and in
reports. The stored value is a sentinel, the same in every language, that no player can
have: an account's name is letters, digits, ``_`` and ``-`` only, and a guest's or a bot's
name that is the sentinel is refused (``keltis.server.textcheck``). What a player reads in
its place is the message ``name.deleted`` in their language (:func:`shown_name` here, its
twin ``playerWords`` in web/src/names.ts for the browser).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from keltis.i18n import Translator

#: The name that replaces a deleted account's in the matches it played, its chat lines and
#: the reports that name it (web/src/names.ts holds the same string).
DELETED_NAME: Final = "(deleted)"


def is_deleted(name: str) -> bool:
    """Whether ``name`` is the sentinel of a deleted account."""
    return name == DELETED_NAME


def reserved_name(name: str) -> bool:
    """Whether nobody may take ``name`` (a guest's or a bot's): the sentinel, in any case
    and with any spaces around it, which a reader could not tell from a deleted account."""
    return name.strip().casefold() == DELETED_NAME


def shown_name(t: Translator, name: str) -> str:
    """``name`` as a player reads it: a deleted account's as ``name.deleted`` in ``t``'s
    language, any other unchanged."""
    return t("name.deleted") if is_deleted(name) else name

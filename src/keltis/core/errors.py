"""The errors of the rules core. All are ``ValueError`` subclasses with readable messages."""

from __future__ import annotations

import traceback
from collections.abc import Mapping

from keltis.core.refusals import render


def _english(message: str, key: str, params: Mapping[str, str | int]) -> str:
    """The English message: the refusal template of ``key`` if there is one, else ``message``."""
    words = render(key, params) if key else None
    return message if words is None else words


class KeltisError(ValueError):
    """Base class of every error the rules core raises on bad input.

    ``key`` and ``params`` say why as data, for interfaces that word it in the player's
    language (:meth:`keltis.i18n.Translator.refusal`): ``key`` names the reason
    (``row_ascending``), ``params`` holds its values — card, action and typed texts as they
    are, numbers, a colour as its index 0-4 under ``colour``, a seat as its 0-based index
    under ``owner``. The message is English: for a ``key`` declared in
    :mod:`keltis.core.refusals` it is that template filled with ``params`` — the very words
    of the English catalog — and ``message`` is not needed; an error without such a key
    shows ``message``.
    """

    def __init__(
        self, message: str = "", *, key: str = "", params: Mapping[str, str | int] | None = None
    ) -> None:
        self.key = key
        self.params: dict[str, str | int] = dict(params or {})
        super().__init__(_english(message, key, self.params))


class NotationError(KeltisError):
    """A text could not be read as a card or an action."""


class IllegalActionError(KeltisError):
    """An action breaks a rule. ``rule`` is the rule id (``B-13``, ``C-10`` …).

    The message starts with the rule id, e.g. ``"B-13: your red row is descending: 7 is
    higher than 5"``; ``detail`` is the part after it. The state is unchanged when this is
    raised. ``key`` and ``params`` (and when ``message`` is needed): see
    :class:`KeltisError`.
    """

    def __init__(
        self,
        rule: str,
        message: str = "",
        *,
        key: str = "",
        params: Mapping[str, str | int] | None = None,
    ) -> None:
        self.key = key
        self.params = dict(params or {})
        self.rule = rule
        self.detail = _english(message, key, self.params)
        ValueError.__init__(self, f"{rule}: {self.detail}")


class SetupError(KeltisError):
    """An explicit set-up or position is inconsistent (cards missing, duplicated, …)."""


class RecordError(KeltisError):
    """A game record could not be read or replayed. ``line`` is the 1-based line, if known."""

    def __init__(self, message: str, *, line: int | None = None, action: int | None = None):
        where = []
        if line is not None:
            where.append(f"line {line}")
        if action is not None:
            where.append(f"action {action}")
        prefix = f"{', '.join(where)}: " if where else ""
        super().__init__(prefix + message)
        self.line = line
        self.action = action


class BotFailedError(RuntimeError):
    """A bot failed: it raised, or chose an action that is not legal. The match is unchanged.
    (Raised by :mod:`keltis.match`, which mypyc compiles and where it cannot be defined.)"""

    def __init__(self, message: str, seat: int) -> None:
        super().__init__(message)
        self.seat = seat


def raised_at(error: BaseException) -> str:
    """Where ``error`` was raised, as ``" (file:line)"`` for a message, or ``""`` when its
    traceback holds no frame."""
    frames = traceback.extract_tb(error.__traceback__)
    return f" ({frames[-1].filename}:{frames[-1].lineno})" if frames else ""

"""The errors of the rules core. All are ``ValueError`` subclasses with readable messages."""

from __future__ import annotations

from collections.abc import Mapping


class KeltisError(ValueError):
    """Base class of every error the rules core raises on bad input.

    The message is English. ``key`` and ``params`` say the same thing as data, for interfaces
    that word it in the player's language (:meth:`keltis.i18n.Translator.refusal`): ``key``
    names the reason (``row_ascending``), ``params`` holds its values — card, action and
    typed texts as they are, numbers, a colour as its index 0-4 under ``colour``, a seat as
    its 0-based index under ``owner``. An error without a ``key`` is shown in English.
    """

    def __init__(
        self, message: str = "", *, key: str = "", params: Mapping[str, str | int] | None = None
    ) -> None:
        super().__init__(message)
        self.key = key
        self.params: dict[str, str | int] = dict(params or {})


class NotationError(KeltisError):
    """A text could not be read as a card or an action."""


class IllegalActionError(KeltisError):
    """An action breaks a rule. ``rule`` is the rule id (``B-13``, ``C-10`` …).

    The message starts with the rule id, e.g. ``"B-13: red row is descending; 7 > 5"``.
    The state is unchanged when this is raised. ``key`` and ``params``: see
    :class:`KeltisError`.
    """

    def __init__(
        self,
        rule: str,
        message: str,
        *,
        key: str = "",
        params: Mapping[str, str | int] | None = None,
    ) -> None:
        super().__init__(f"{rule}: {message}", key=key, params=params)
        self.rule = rule
        self.detail = message


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

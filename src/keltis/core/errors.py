"""The errors of the rules core. All are ``ValueError`` subclasses with readable messages."""

from __future__ import annotations

from collections.abc import Mapping


class KeltisError(ValueError):
    """Base class of every error the rules core raises on bad input."""


class NotationError(KeltisError):
    """A text could not be read as a card or an action."""


class IllegalActionError(KeltisError):
    """An action breaks a rule. ``rule`` is the rule id (``B-13``, ``C-10`` …).

    The message starts with the rule id, e.g. ``"B-13: red row is descending; 7 > 5"``.
    The state is unchanged when this is raised.

    ``key`` and ``params`` say the same thing as data, for interfaces that translate it
    (:meth:`keltis.i18n.Translator.refusal`): ``key`` names the refusal (``row_ascending``),
    ``params`` holds its values — card and action texts in notation, numbers, colours as
    indices 0-4 (``-1``: the point-card pile) under ``colour``, and seats as 0-based
    indices under ``owner``.
    """

    def __init__(
        self,
        rule: str,
        message: str,
        *,
        key: str = "",
        params: Mapping[str, str | int] | None = None,
    ) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.detail = message
        self.key = key
        self.params: dict[str, str | int] = dict(params or {})


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

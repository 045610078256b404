"""The commands a player may type instead of a move: one table, one entry per command.

A command is a word (with aliases) and a handler that gets the running session and the rest
of the line. Adding a command is adding one :class:`Command` to :data:`COMMANDS`.

Handlers use the session's public side only (``view()``, ``say()``, ``t``, ``screen``,
``redraw()``, ``show_help()``, ``quit()``) and so see what the human to move may see, nothing
more.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from keltis.tui.app import PlaySession


@dataclass(frozen=True)
class Command:
    """A typed command: its word, other words for it, its help message key and its handler."""

    name: str
    aliases: tuple[str, ...]
    help_key: str
    """Message key (``keltis.i18n``) of the one-line description shown by ``help``."""
    run: Callable[[PlaySession, str], None]

    @property
    def words(self) -> tuple[str, ...]:
        """Every word that calls this command."""
        return (self.name, *self.aliases)


def _help(session: PlaySession, _argument: str) -> None:
    session.show_help()


def _redraw(session: PlaySession, _argument: str) -> None:
    session.redraw()


def _quit(session: PlaySession, _argument: str) -> None:
    session.quit()


def _undo(session: PlaySession, _argument: str) -> None:
    session.undo()


#: Search budget of the ``hint`` command: playouts, and at most this many seconds.
HINT_ITERATIONS = 600
HINT_SECONDS = 3.0


def _hint(session: PlaySession, _argument: str) -> None:
    """The best few moves for the human to decide, from a search that sees only their view."""
    from keltis.bots.hints import hints  # here: the search loads when a hint is first asked

    view = session.view()
    if view is None or not view.legal:
        return
    t = session.t
    if len(view.legal) == 1:  # nothing to weigh: no search
        only = view.legal[0]
        label = session.screen.action_label(view, only)
        session.say(t("msg.hint_only", move=str(only), label=label))
        return
    session.say(t("msg.thinking"))
    found = hints(view, count=3, iterations=HINT_ITERATIONS, seconds=HINT_SECONDS, seed=view.turn)
    for hint in found:
        label = session.screen.action_label(view, hint.action)
        session.say(
            t(
                "msg.hint",
                move=str(hint.action),
                label=label,
                win=f"{hint.win:.0%}",
                spread=f"{hint.spread:.0%}",
                margin=f"{hint.margin:+.1f}",
                count=hint.playouts,
            )
        )


COMMANDS: Final[tuple[Command, ...]] = (
    Command("help", ("?", "h"), "cmd.help", _help),
    Command("redraw", ("r", "board"), "cmd.redraw", _redraw),  # the word: not a game's name
    Command("hint", (), "cmd.hint", _hint),
    Command("undo", ("u", "back"), "cmd.undo", _undo),
    Command("quit", ("q", "exit"), "cmd.quit", _quit),
)


def find_command(text: str, commands: tuple[Command, ...] = COMMANDS) -> tuple[Command, str] | None:
    """The command ``text`` calls, with the rest of the line; ``None`` if it is no command."""
    word, _, rest = text.strip().partition(" ")
    word = word.lower()
    for command in commands:
        if word in command.words:
            return command, rest.strip()
    return None

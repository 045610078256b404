"""Stepping through a recorded game: the position after each move, drawn with the game's
screen from the spectator's view.

:class:`Positions` replays a record once, narrated, and keeps every position's spectator
view (``view(None)``: hands and the draw pile only as counts) and every step (the action and
what everyone saw it do). Going back or jumping is then a look-up, so a 300-move game steps
as fast as a 3-move one. :class:`ReplayViewer` is the interactive ``keltis replay``: one
screen per position, the move that led there in words, and keys to move on, back, to a move
number, to the first or last position, or to quit. :func:`render_position` draws one
position for ``keltis replay --at N``.

Nothing here sees a hidden card: a screen is drawn from the spectator's view and the moves
are told from spectator events. After the last move of a finished game the screen adds the
final score table, never the hands.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TextIO

from rich.console import Group, RenderableType
from rich.text import Text

from keltis.core.protocol import Outcome, View
from keltis.i18n import Translator
from keltis.match import Step, spectator_positions
from keltis.record import GameRecord
from keltis.tui.lines import read_line, screen_rule
from keltis.tui.screen import GameScreen, TurnNote
from keltis.tui.style import DIM, EMPHASIS, ERROR_STYLE, Output

#: Exit status after Ctrl-C (as ``keltis play``).
EXIT_INTERRUPTED = 130

#: Turns of the last-moves list offered to a screen laid out for the terminal's size (it
#: shows as many as fit).
FITTED_TURNS = 8

#: Words for each way to move through the positions (typed in any case; Enter = next).
NEXT_WORDS = frozenset({"", "n", "next", "+"})
BACK_WORDS = frozenset({"b", "p", "back", "prev", "previous", "-"})
FIRST_WORDS = frozenset({"f", "first", "start", "s"})
LAST_WORDS = frozenset({"l", "last", "end", "e"})
QUIT_WORDS = frozenset({"q", "quit", "exit"})
REDRAW_WORDS = frozenset({"r", "redraw"})
HELP_WORDS = frozenset({"h", "?", "help"})


@dataclass
class Positions:
    """Every position of a replayed record: ``views[k]`` is the spectator's view after ``k``
    actions (``views[0]`` the start), ``steps[k - 1]`` the action that led there."""

    record: GameRecord
    views: list[View]
    steps: list[Step]
    outcome: Outcome | None
    """The outcome once the game is over (``None`` if the record stops before the end)."""
    _phrases: dict[int, str] = field(default_factory=dict, repr=False)

    @classmethod
    def build(cls, record: GameRecord, lines: Sequence[int] | None = None) -> Positions:
        """Replay ``record`` (left unchanged) once; a bad action raises ``RecordError``
        naming its line."""
        views, steps, match = spectator_positions(record, lines)
        return cls(record, views, steps, match.outcome() if match.over else None)

    @property
    def last(self) -> int:
        """The number of actions, which is the last position's number."""
        return len(self.steps)

    @property
    def over(self) -> bool:
        """Whether the record reaches the end of the game."""
        return self.outcome is not None

    def phrase(self, t: Translator, index: int) -> str:
        """What action ``index`` (0-based) did, in words everyone may read."""
        phrase = self._phrases.get(index)
        if phrase is None:
            phrase = self._phrases[index] = t.events(list(self.steps[index].events))
        return phrase

    def notes(self, t: Translator, ply: int, turns: int) -> list[TurnNote]:
        """The last ``turns`` turns before position ``ply`` (each a run of one seat's
        actions), as the game's "last moves" list shows them."""
        notes: list[TurnNote] = []
        for index in range(ply - 1, -1, -1):
            step = self.steps[index]
            if not notes or notes[0].seat != step.seat:
                if len(notes) == turns:
                    break
                notes.insert(0, TurnNote(step.seat))
            notes[0].moves.insert(0, str(step.action))
            notes[0].phrases.insert(0, self.phrase(t, index))
        return notes


def move_line(positions: Positions, ply: int, screen: GameScreen, t: Translator) -> str:
    """Which position this is, and what the move that led there did."""
    if ply == 0:
        return t("replay.start", count=positions.last)
    step = positions.steps[ply - 1]
    return t(
        "replay.move",
        number=ply,
        total=positions.last,
        name=screen.seat_name(step.seat),
        move=str(step.action),
        what=positions.phrase(t, ply - 1),
    )


def under_screen(
    positions: Positions, ply: int, screen: GameScreen, t: Translator
) -> list[RenderableType]:
    """What follows the table of position ``ply``: the move that led here, and after the
    last move the final scores (or a note that the record stops before the end)."""
    parts: list[RenderableType] = [
        Text(""),
        Text(move_line(positions, ply, screen, t), style=EMPHASIS),
    ]
    if ply == positions.last:
        if positions.outcome is not None:
            parts += [Text(""), screen.results(positions.outcome)]
        else:
            parts.append(Text(t("replay.stops"), style=EMPHASIS))
    return parts


def render_position(
    positions: Positions, ply: int, screen: GameScreen, t: Translator
) -> RenderableType:
    """The whole screen of position ``ply`` (as ``keltis replay --at`` prints it): the table
    from the spectator's view, the last moves, then :func:`under_screen`."""
    view = positions.views[ply]
    notes = positions.notes(t, ply, view.num_players + 1)
    return Group(screen.render(view, notes), *under_screen(positions, ply, screen, t))


class ReplayViewer:
    """The interactive replay: a screen per position, keys to move through them."""

    def __init__(
        self,
        positions: Positions,
        screen: GameScreen,
        output: Output,
        t: Translator,
        stdin: TextIO,
        *,
        start: int = 0,
    ) -> None:
        self.positions = positions
        self.screen = screen
        self.output = output
        self.console = output.console
        self.t = t
        self.stdin = stdin
        self.ply = start

    def run(self) -> int:
        """Show positions until ``q``, the end of the input or Ctrl-C; the exit status."""
        try:
            self.draw()
            while True:
                if not self.command(self.read("> ")):
                    return 0
        except EOFError:
            self.console.print()
            return 0
        except KeyboardInterrupt:
            self.console.print()
            return EXIT_INTERRUPTED

    def command(self, text: str) -> bool:
        """Carry out one typed line; ``False`` to stop."""
        t = self.t
        word = text.strip().lower()
        last = self.positions.last
        if word in QUIT_WORDS:
            return False
        if word in NEXT_WORDS:
            if self.ply == last:
                self.say(t("replay.at_end"), ERROR_STYLE)
            else:
                self.go(self.ply + 1)
        elif word in BACK_WORDS:
            if self.ply == 0:
                self.say(t("replay.at_start"), ERROR_STYLE)
            else:
                self.go(self.ply - 1)
        elif word in FIRST_WORDS:
            self.go(0)
        elif word in LAST_WORDS:
            self.go(last)
        elif word in REDRAW_WORDS:
            self.draw()
        elif word in HELP_WORDS:
            self.say(t("replay.keys"))
        elif word.isdigit():
            number = int(word)
            if number > last:
                self.say(t("replay.no_move", number=number, total=last), ERROR_STYLE)
            else:
                self.go(number)
        else:
            self.say(t("replay.unknown", text=text.strip()), ERROR_STYLE)
        return True

    def go(self, ply: int) -> None:
        """Show position ``ply``."""
        self.ply = ply
        self.draw()

    def draw(self) -> None:
        """Draw the current position, then the keys. On a terminal the screen is laid out
        for its size where the game's screens can do that (``GameScreen.fit``), leaving room
        for the lines under it and the prompt."""
        self.clear()
        positions, ply, screen, t = self.positions, self.ply, self.screen, self.t
        fit = None if self.output.plain else getattr(screen, "fit", None)
        if fit is None:
            self.console.print(render_position(positions, ply, screen, t))
            self.say(t("replay.keys"), DIM)
            return
        below = Group(*under_screen(positions, ply, screen, t), Text(t("replay.keys"), style=DIM))
        reserve = len(self.console.render_lines(below, pad=False))
        notes = positions.notes(t, ply, FITTED_TURNS)
        self.console.print(fit(positions.views[ply], notes, reserve=reserve))
        self.console.print(below)

    def say(self, text: str, style: str | None = None) -> None:
        """One message, wrapped to the screen's width."""
        self.console.print(Text(text, style=style or ""))

    def clear(self) -> None:
        """Start a new screen: cleared on a terminal, under a rule in plain output."""
        if not self.output.plain:
            self.console.clear()
        else:
            self.console.print()
            screen_rule(self.output)

    def read(self, prompt: str) -> str:
        """One line of input; ``EOFError`` when the input ends."""
        return read_line(self.console, self.stdin, prompt)

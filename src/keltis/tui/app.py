"""``keltis play``: a whole game in the terminal against bots, or hot-seat, 2-4 seats.

Each decision of a human gets a screen drawn from that seat's view only
(``state.view(seat)``); moves are narrated from spectator views (``keltis.describe``), so
nothing on screen is hidden from its reader. Between two human seats the screen is cleared
and the keyboard handed over. The record is saved after every human decision, at the end,
on ``quit``, on Ctrl-C and when the input ends; ``--resume FILE`` continues it.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import TextIO

from rich.text import Text

from keltis.bots import BOTS, LEVELS, make_bot
from keltis.core.actions import Action, parse_action
from keltis.core.errors import IllegalActionError, NotationError
from keltis.core.protocol import View
from keltis.i18n import Translator, detect_language
from keltis.match import Match, Step
from keltis.record import GameRecord, PlayerInfo
from keltis.tui.commands import COMMANDS, find_command
from keltis.tui.screen import GameScreen, TurnNote
from keltis.tui.style import DIM, EMPHASIS, ERROR_STYLE, Output, make_output

EXIT_INTERRUPTED = 130
CLEAR_SCROLLBACK = "\x1b[3J"


class QuitGame(Exception):  # noqa: N818 - control flow, not an error
    """Raised by the ``quit`` command: leave the game (it is saved)."""


class GameUnavailableError(ValueError):
    """The chosen game cannot be played in the terminal (yet)."""


def default_record_path(game: str, env: Mapping[str, str] | None = None) -> Path:
    """``$XDG_DATA_HOME/keltis/games/<game>-<time>.json`` (``~/.local/share`` by default)."""
    env = os.environ if env is None else env
    base = Path(env.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    return base / "keltis" / "games" / f"{game}-{stamp}.json"


def seats_from_args(args: argparse.Namespace) -> list[str]:
    """Seat kinds (``human`` or a bot name) from the command line options."""
    if args.seats:
        seats = [s.strip().lower() for s in args.seats.split(",") if s.strip()]
    elif args.hotseat:
        seats = ["human"] * args.players
    else:
        seats = ["human"] + [args.bot] * (args.players - 1)
    if not 2 <= len(seats) <= 4:
        raise ValueError(f"Keltis is for 2-4 players, not {len(seats)} (--seats {args.seats})")
    for seat in seats:
        if seat != "human" and seat not in BOTS:
            raise ValueError(f"unknown seat {seat!r}: human or one of {', '.join(BOTS)}")
    return seats


def seat_names(seats: list[str], name: str | None, t: Translator) -> list[str]:
    """Display names: the one human is "You" (or ``name``); several are "Player 1", …"""
    humans = seats.count("human")
    names: list[str] = []
    count = 0
    for seat, kind in enumerate(seats):
        if kind == "human":
            count += 1
            if name and count == 1:
                names.append(name)
            else:
                names.append(t("name.you") if humans == 1 else t("name.player", n=count))
        else:
            level = LEVELS.get(kind)
            label = level.persona if level is not None else kind.capitalize()
            names.append(t("name.bot", bot=label, n=seat + 1))
    return names


def make_screen(game: str, t: Translator, output: Output, names: list[str]) -> GameScreen:
    """The screen of ``game``; :class:`GameUnavailableError` if it cannot be shown yet."""
    if game == "board":
        from keltis.tui.board_screen import BoardScreen

        return BoardScreen(t, output.glyphs, names)
    if game == "cards":
        try:
            from keltis.tui.cards_screen import CardsScreen
        except ImportError as error:
            raise GameUnavailableError(t("err.cards_unavailable", reason=str(error))) from None
        return CardsScreen(t, output.glyphs, names)
    raise GameUnavailableError(f"unknown game {game!r}")


def run_play(
    args: argparse.Namespace,
    stdin: TextIO | None = None,
    out: TextIO | None = None,
    env: Mapping[str, str] | None = None,
) -> int:
    """Run a terminal game from parsed ``keltis play`` options; returns the exit status
    (0, or 130 after Ctrl-C). ``stdin``, ``out`` and ``env`` default to the process's own."""
    stdin = sys.stdin if stdin is None else stdin
    out = sys.stdout if out is None else out
    env = os.environ if env is None else env
    t = Translator(detect_language(args.lang, env))
    encoding = (getattr(out, "encoding", None) or "utf-8").lower().replace("-", "")
    if not encoding.startswith("utf") and isinstance(out, io.TextIOWrapper):
        out.reconfigure(errors="replace")  # a letter the terminal cannot show becomes "?"
    output = make_output(out, env)
    if args.list_bots:
        for name, factory in BOTS.items():
            output.console.print(f"{name:10} {factory(None).description}")
        return 0
    lines: list[int] | None = None
    if args.resume:
        record, lines = GameRecord.load(args.resume)
        make_screen(record.game, t, output, [p.name for p in record.players])
        save_to = Path(args.save or args.resume)
        notice = t("msg.resumed", path=str(args.resume), count=len(record.actions))
    else:
        seats = seats_from_args(args)
        names = seat_names(seats, args.name, t)
        make_screen(args.game, t, output, names)
        if args.take_back and args.game != "board":
            raise ValueError(
                "--take-back is a board-game variant; the card game never lets you take "
                "back a card discarded this turn (C-12)"
            )
        layout = None
        if args.layout:
            if args.game != "board":
                raise ValueError("--layout is for the board game only")
            from keltis.board.layout import Layout

            layout = Layout.load(args.layout).to_json()
        record = GameRecord.start(
            args.game,
            [PlayerInfo(n, k) for n, k in zip(names, seats, strict=True)],
            seed=args.seed,  # None: a fresh random seed
            # B-15 stated either way, so the record replays the same whatever the default
            variant={"no_take_back": not args.take_back} if args.game == "board" else {},
            layout=layout,
        )
        save_to = Path(args.save) if args.save else default_record_path(args.game, env)
        notice = t("msg.welcome")
    screen = make_screen(record.game, t, output, [p.name for p in record.players])
    bots = {seat: make_bot(p.kind) for seat, p in enumerate(record.players) if p.kind != "human"}
    # replaying the record refuses a damaged one with the line at fault
    match = Match(record, bots, lines=lines)
    session = PlaySession(match, screen, output, t, stdin, save_to)
    session.notice = notice
    session.notice_whole = bool(args.resume)
    return session.run()


class PlaySession:
    """One game in the terminal: the loop, the input, the screens and the record."""

    def __init__(
        self,
        match: Match,
        screen: GameScreen,
        output: Output,
        t: Translator,
        stdin: TextIO,
        save_to: Path,
    ) -> None:
        self.match = match
        self.record = match.record
        self.screen = screen
        self.output = output
        self.console = output.console
        self.t = t
        self.stdin = stdin
        self.save_to = save_to
        self.notes: list[TurnNote] = []
        self.notice = ""
        """A message shown once, under the next screen (welcome, resumed)."""
        self.notice_whole = False
        """Keep the notice on one line (it names a file)."""
        self.shown_seat: int | None = None
        self._view: View | None = None
        self.humans = [s for s in range(match.num_players) if not match.is_bot(s)]
        try:
            self.stdin_tty = bool(stdin.isatty())
        except (AttributeError, ValueError):
            self.stdin_tty = False

    # -- the public side, for commands ---------------------------------------------------

    def view(self) -> View | None:
        """The view of the human now deciding (``None`` between decisions)."""
        return self._view

    def say(self, text: str, style: str | None = None, *, whole: bool = False) -> None:
        """Print one message, wrapped to the screen's width; ``whole`` keeps it on one line
        (for paths and commands to copy)."""
        self.console.print(Text(text, style=style or ""), soft_wrap=whole)

    def redraw(self) -> None:
        """Draw the current screen again."""
        if self._view is not None:
            self._draw(self._view)

    def show_help(self) -> None:
        """The rules in short, the notation, the symbols and the commands."""
        t = self.t
        console = self.console
        console.print(Text(t("help.title"), style=EMPHASIS))
        console.print(Text(self.screen.rules_help()))
        console.print(Text(self.screen.input_help()))
        console.print(Text(t("help.commands"), style=EMPHASIS))
        for command in COMMANDS:
            words = ", ".join(command.words)
            console.print(Text(f"  {words:<16} {t(command.help_key)}"))

    def quit(self) -> None:
        """Leave the game; it is saved on the way out."""
        raise QuitGame

    # -- the game ---------------------------------------------------------------------

    def run(self) -> int:
        """Play until the game ends or the player leaves; returns the exit status."""
        status = 0
        ending = ""
        self._save()
        try:
            match = self.match
            while not match.over:
                if match.bot_to_move:
                    self._note(match.play_bot())
                else:
                    self._human(match.to_move)
            self._final()
        except KeyboardInterrupt:
            ending, status = "msg.interrupted", EXIT_INTERRUPTED
        except EOFError:
            ending = "msg.eof"
        except QuitGame:
            ending = "msg.quit"
        finally:
            self._view = None
            self._save()
            self.console.print()
            if ending:
                self.say(self.t(ending), EMPHASIS)
            self.say(self.t("msg.saved", path=str(self.save_to)), whole=True)
            if not self.match.over:
                self.say(self.t("msg.resume", path=str(self.save_to)), whole=True)
        return status

    def _human(self, seat: int) -> None:
        if len(self.humans) > 1 and self.shown_seat != seat:
            self._handover(seat)
        self.shown_seat = seat
        view = self._view = self.match.view(seat)
        self._draw(view)
        t = self.t
        while True:
            text = self._read("> ").strip()
            if not text:
                self.say(t("err.empty"), ERROR_STYLE)
                continue
            found = find_command(text)
            if found is not None:
                command, argument = found
                command.run(self, argument)
                continue
            action = self._parse(text, view)
            if action is None:
                continue
            try:
                step = self.match.submit(seat, action, expected_ply=view.ply)
            except IllegalActionError as error:
                reason = t.refusal(error, self.screen.seat_name)
                self.say(t("err.illegal", reason=reason), ERROR_STYLE)
                continue
            self._view = None
            self._note(step)
            self._save()
            return

    def _parse(self, text: str, view: View) -> Action | None:
        if text.isdigit():
            number = int(text)
            if 1 <= number <= len(view.legal):
                return view.legal[number - 1]
            self.say(self.t("err.number", number=number, count=len(view.legal)), ERROR_STYLE)
            return None
        try:
            return parse_action(text)
        except NotationError as error:
            reason = self.t.refusal(error)
            self.say(self.t("err.notation", text=text, reason=reason), ERROR_STYLE)
            return None

    def _note(self, step: Step) -> None:
        """Remember a move for the "last moves" list, in words everyone may read (the
        public events: in hot-seat the next player reads them too)."""
        seat = step.seat
        phrase = self.t.events(list(step.events))
        if not self.notes or self.notes[-1].seat != seat:
            self.notes.append(TurnNote(seat))
            del self.notes[:-8]
        self.notes[-1].moves.append(str(step.action))
        self.notes[-1].phrases.append(phrase)

    def _final(self) -> None:
        view = self.match.view(None)
        self._draw(view)
        assert view.outcome is not None
        self.console.print()
        self.console.print(self.screen.results(view.outcome))

    # -- input and output -------------------------------------------------------------

    def _read(self, prompt: str) -> str:
        """One line of input; ``EOFError`` when the input ends."""
        self.console.print(Text(prompt, style=EMPHASIS), end="")
        self.console.file.flush()
        if self.stdin_tty and self.stdin is sys.stdin:
            with contextlib.suppress(ImportError):
                import readline  # noqa: F401  (line editing for input())
            return input()
        line = self.stdin.readline()
        if not line:
            raise EOFError
        self.console.print(Text(line.rstrip("\r\n"), style=DIM))  # a transcript shows it
        return line

    def _clear(self, *, hide: bool = False) -> None:
        """Start a new screen; with ``hide``, also push the last one out of sight."""
        console = self.console
        if not self.output.plain:
            if hide:
                console.file.write(CLEAR_SCROLLBACK)
            console.clear()
        elif hide and self.stdin_tty:
            console.print("\n" * console.height)
        else:
            console.print()
            console.rule(characters="=" if self.output.glyphs.sep == "|" else "═")

    def _draw(self, view: View) -> None:
        self._clear()
        self.console.print(self.screen.render(view, self.notes))
        if self.notice:
            self.say(self.notice, EMPHASIS, whole=self.notice_whole)
            self.notice = ""

    def _handover(self, seat: int) -> None:
        """Hide the last screen and wait until the next human has the keyboard."""
        self._clear(hide=True)
        name = self.screen.seat_name(seat)
        self.say(self.t("msg.handover", name=name), EMPHASIS)
        text = self._read(self.t("prompt.enter") + " ").strip()
        found = find_command(text) if text else None
        if found is not None and found[0].name == "quit":
            self.quit()

    def _save(self) -> None:
        self.record.save(self.save_to)

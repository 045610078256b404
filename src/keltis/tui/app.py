"""``keltis play``: a whole game in the terminal against bots, or hot-seat, 2-4 seats.

Each decision of a human gets a screen drawn from that seat's view only
(``state.view(seat)``); moves are narrated from spectator views (``keltis.describe``), so
nothing on screen is hidden from its reader. Between two human seats the screen is cleared
and the keyboard handed over. The record is saved after every human decision, at the end,
on ``quit``, on Ctrl-C and when the input ends; ``--resume FILE`` continues it.
"""

from __future__ import annotations

import argparse
import io
import os
import shlex
import shutil
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TextIO

from rich.text import Text

from keltis.bots import BotSpec, BotSpecError, bot_list, make_bot
from keltis.core.actions import Action, parse_action
from keltis.core.errors import IllegalActionError, NotationError, RecordError
from keltis.core.protocol import View
from keltis.games import DEFAULT_GAME, get_game
from keltis.i18n import Translator, detect_language
from keltis.match import Match, Step
from keltis.record import GameRecord, PlayerInfo
from keltis.tui import saves
from keltis.tui.commands import COMMANDS, find_command
from keltis.tui.lines import is_tty, read_line, screen_rule
from keltis.tui.screen import GameScreen, TurnNote
from keltis.tui.style import DIM, EMPHASIS, ERROR_STYLE, Output, make_output

EXIT_INTERRUPTED = 130
#: Cursor home, clear the screen, then the scroll-back: in this order, because some terminals
#: (VTE, xterm with some settings) keep a cleared screen in the scroll-back.
CLEAR_SCROLLBACK = "\x1b[H\x1b[2J\x1b[3J"


class QuitGame(Exception):  # noqa: N818 - control flow, not an error
    """Raised by the ``quit`` command: leave the game (it is saved)."""


def default_record_path(game: str, env: Mapping[str, str] | None = None) -> Path:
    """``$XDG_DATA_HOME/keltis/games/<game>-<time>.json`` (``~/.local/share`` by default);
    the game's first save adds a number if the name is taken (:mod:`keltis.tui.saves`)."""
    return saves.games_dir(env) / saves.default_name(game)


def seats_from_args(args: argparse.Namespace) -> list[str]:
    """Seat kinds from the command line options: ``human``, or a bot spec's text
    (:mod:`keltis.bots.spec`: ``greedy``, ``hard``, ``hard:seconds=2``, ``mybots:MyBot``,
    ``mine=ismcts:iterations=50``), checked, with names in lower case and a persona's name as
    its level (``Morrigan`` is ``hard``). The record keeps it, so ``--resume`` rebuilds it.

    ``--seats`` separates seats by commas; a ``key=value`` item after a seat with options is
    one more option of that seat (``human,ismcts:iterations=50,seconds=1,greedy``). With
    semicolons, only they separate seats (``human;mine=ismcts:iterations=50;greedy``)."""
    if args.seats:
        texts = split_seats(args.seats)
    elif args.hotseat:
        texts = ["human"] * (args.players or 3)
    else:
        texts = ["human"] + [args.bot or "medium"] * ((args.players or 3) - 1)
    if not 2 <= len(texts) <= 4:
        raise ValueError(f"Keltis is for 2-4 players, not {len(texts)} (--seats {args.seats})")
    seats: list[str] = []
    for number, text in enumerate(texts, start=1):
        if text.strip().lower() == "human":
            seats.append("human")
            continue
        where = f"--seats, seat {number}" if args.seats else "--bot"
        try:
            spec = BotSpec.parse(text)
            spec.check()
        except BotSpecError as error:
            raise ValueError(f"{where}: {error} (a seat is human or a bot)") from None
        seats.append(str(spec))
    return seats


def split_seats(text: str) -> list[str]:
    """The seats of ``--seats`` (see :func:`seats_from_args`)."""
    if ";" in text:
        return [part.strip() for part in text.split(";") if part.strip()]
    seats: list[str] = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        key, eq, _ = item.partition("=")
        previous = seats[-1] if seats else ""
        if eq and ":" not in item and ":" in previous and "=" in previous.rpartition(":")[2]:
            seats[-1] = f"{previous},{item}"  # one more option of the seat before
        elif eq and not key.strip():
            raise ValueError(f"--seats: cannot read {item!r}")
        else:
            seats.append(item)
    return seats


def seat_names(seats: list[str], name: str | None, t: Translator) -> list[str]:
    """Display names: the one human is "You" (or ``name``); several are "Player 1", …;
    a bot is named by its label, else a level's persona, else the bot's name."""
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
            try:
                label = BotSpec.parse(kind).display_name()
            except BotSpecError:
                label = kind.capitalize()
            names.append(t("name.bot", bot=label, n=seat + 1))
    return names


def resume_command(path: Path | str, program: str | None = None) -> str:
    """The command that continues the game saved in ``path``, as it can be typed here:
    ``keltis play --resume …`` when ``keltis`` on the PATH is the program that runs (default
    ``sys.argv[0]``), else the program as it was started (``.venv/bin/keltis`` after
    ``make install``), else ``python -m keltis``."""
    program = sys.argv[0] if program is None else program
    if Path(program).name == "keltis" and os.path.isfile(program):
        found = shutil.which("keltis")
        on_path = bool(found) and os.path.samefile(str(found), program)
        command = "keltis" if on_path else shlex.quote(program)
    else:
        command = f"{shlex.quote(sys.executable)} -m keltis"
    return f"{command} play --resume {shlex.quote(str(path))}"


def make_screen(game: str, t: Translator, output: Output, names: list[str]) -> GameScreen:
    """The terminal screen of ``game``: its package's ``screen`` part (``keltis.board.screen``,
    ``keltis.cards.screen``)."""
    screen: type[GameScreen] = get_game(game).part("screen").SCREEN
    return screen(t, output.glyphs, names)


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
        for line in bot_list():
            output.console.print(Text(line))
        return 0
    if args.saved:
        _list_saved(output, t, env)
        return 0
    if args.resume:
        record, lines, save_to = _resumed(args, t, env)
        notice = t("msg.resumed", path=str(save_to), count=len(record.actions))
    else:
        record, lines = _new_record(args, t), None
        save_to = _claim(record, args.save, t, env)
        notice = t("msg.welcome")
    while True:
        session = _session(record, lines, t, output, stdin, save_to)
        session.notice = notice
        session.notice_whole = bool(args.resume)
        status = session.run()
        again = session.match.over and session.humans and not status
        if not again or not session.ask("prompt.again"):  # bots only: nobody to ask
            return status
        # the same seats and rules, a new deal, a new record
        record = GameRecord.start(
            record.game, record.players, variant=record.variant, layout=record.layout
        )
        lines = None
        folder = save_to.parent if args.save else None
        save_to = _claim(record, folder, t, env)
        notice = t("msg.welcome")


def _new_record(args: argparse.Namespace, t: Translator) -> GameRecord:
    """The record of a new game from the options (defaults: board game, 3 seats, medium)."""
    args.game = args.game or DEFAULT_GAME
    args.players = args.players or 3
    args.bot = args.bot or "medium"
    seats = seats_from_args(args)
    names = seat_names(seats, args.name, t)
    rules = get_game(args.game)
    take_back = "no_take_back" in rules.switches()
    if args.take_back and not take_back:
        raise ValueError(t("err.option_board_only", option="--take-back"))
    if args.layout and "layout" not in rules.options:
        raise ValueError(t("err.option_board_only", option="--layout"))
    return GameRecord.start(
        args.game,
        [PlayerInfo(n, k) for n, k in zip(names, seats, strict=True)],
        seed=args.seed,  # None: a fresh random seed
        # B-15 stated either way, so the record replays the same whatever the default
        variant={"no_take_back": not args.take_back} if take_back else {},
        layout=rules.load_option("layout", args.layout) if args.layout else None,
    )


#: Options that set up a new game: with ``--resume`` the record already says all of it.
_NEW_GAME_OPTIONS = (
    ("game", "--game"),
    ("players", "--players"),
    ("bot", "--bot"),
    ("seats", "--seats"),
    ("hotseat", "--hotseat"),
    ("name", "--name"),
    ("seed", "--seed"),
    ("layout", "--layout"),
    ("take_back", "--take-back"),
)


def _resumed(
    args: argparse.Namespace, t: Translator, env: Mapping[str, str]
) -> tuple[GameRecord, list[int], Path]:
    """The record to continue (``last``: the most recent unfinished saved game), checked
    against the options, and where to save it."""
    path = Path(args.resume)
    if args.resume == "last" and not path.exists():
        found = saves.last_unfinished(env)
        if found is None:
            raise ValueError(t("err.no_saved_game", folder=str(saves.games_dir(env))))
        path = found
    record, lines = GameRecord.load(path)
    what = t(f"title.{record.game}")
    for attribute, option in _NEW_GAME_OPTIONS:
        value = getattr(args, attribute, None)
        if value in (None, False):
            continue
        if attribute == "game" and value != record.game:
            raise ValueError(t("err.resume_other_game", path=str(path), game=what))
        if attribute == "players" and value != len(record.players):
            raise ValueError(t("err.resume_players", path=str(path), count=len(record.players)))
        if attribute not in ("game", "players"):
            raise ValueError(t("err.resume_option", option=option))
    save_to = path
    if args.save and Path(args.save) != path:
        save_to = _claim(record, args.save, t, env)
    return record, lines, save_to


def _claim(
    record: GameRecord, wanted: str | Path | None, t: Translator, env: Mapping[str, str]
) -> Path:
    """Save a new record for the first time, never over another file."""
    try:
        return saves.claim(record, Path(wanted) if wanted else None, env)
    except FileExistsError as error:
        raise ValueError(t("err.save_exists", path=str(error))) from None
    except RecordError as error:
        raise ValueError(t("err.save_failed", reason=str(error))) from None


def _list_saved(output: Output, t: Translator, env: Mapping[str, str]) -> None:
    """The saved games, newest first, with the command that continues each."""
    games = saves.saved_games(env)
    if not games:
        output.console.print(t("msg.no_saved", folder=str(saves.games_dir(env))))
        return
    for game in games:
        state = t("saved.finished") if game.finished else t("saved.running")
        line = t(
            "saved.line",
            when=game.modified.strftime("%Y-%m-%d %H:%M"),
            game=t(f"title.{game.game}"),
            players=", ".join(game.players),
            count=game.moves,
            state=state,
        )
        output.console.print(Text(line), soft_wrap=True)
        output.console.print(Text(f"    {game.path}", style=DIM), soft_wrap=True)


def _session(
    record: GameRecord,
    lines: list[int] | None,
    t: Translator,
    output: Output,
    stdin: TextIO,
    save_to: Path,
) -> PlaySession:
    screen = make_screen(record.game, t, output, [p.name for p in record.players])
    bots = {seat: make_bot(p.kind) for seat, p in enumerate(record.players) if p.kind != "human"}
    # replaying the record refuses a damaged one with the line at fault
    match = Match(record, bots, lines=lines)
    return PlaySession(match, screen, output, t, stdin, save_to)


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
        self.steps: list[Step] = []
        """The moves made in this session (a resumed game's earlier moves are not here)."""
        self.first_ply = match.ply
        self.save_failed = False
        self.humans = [s for s in range(match.num_players) if not match.is_bot(s)]
        self.stdin_tty = is_tty(stdin)

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

    def ask(self, key: str, **params: object) -> bool:
        """Ask a yes/no question (message ``key``); ``True`` for a yes in the player's
        language (``prompt.yes_words``), ``False`` for anything else or the end of input."""
        try:
            answer = self._read(self.t(key, **params) + " ").strip().lower()
        except EOFError:
            return False
        return bool(answer) and answer in self.t("prompt.yes_words").lower().split()

    def undo(self) -> None:
        """Take back the deciding player's last decision (and the moves after it). In a
        hot-seat game every other person who moved since must agree."""
        match = self.match
        seat = match.to_move
        ply = match.last_decision(seat)
        if ply is None:
            self.say(self.t("msg.undo_nothing"), ERROR_STYLE)
            return
        others = sorted({match.actor(p) for p in range(ply, match.ply)} - {seat} - set(match.bots))
        name = self.screen.seat_name(seat)
        for other in others:
            other_name = self.screen.seat_name(other)
            if not self.ask("prompt.undo_consent", name=name, other=other_name):
                self.say(self.t("msg.undo_refused", other=other_name), ERROR_STYLE)
                return
        taken = match.ply - ply
        match.rewind(ply)
        del self.steps[ply - self.first_ply :]
        self._renote()
        self._view = None
        self._save()
        self.notice = self.t("msg.undone", count=taken)

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
            if not self.save_failed or self._save_elsewhere():
                self.say(self.t("msg.saved", path=str(self.save_to)), whole=True)
                if not self.match.over:
                    self.say(self.t("msg.resume", command=resume_command(self.save_to)), whole=True)
        return status

    def _save_elsewhere(self) -> bool:
        """The record could not be saved where it should: save it in the temporary folder so
        that no move is lost (failing that, print it); whether it was saved."""
        import tempfile

        fallback = Path(tempfile.gettempdir())
        try:
            self.save_to = saves.claim(self.record, fallback)
        except (OSError, RecordError) as error:
            self.say(self.t("err.save_failed", reason=str(error)), ERROR_STYLE, whole=True)
            self.console.print(Text(self.record.dumps()), soft_wrap=True)  # the last resort
            return False
        return True

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
                if self.match.ply != view.ply:  # undone: whoever is to move now decides
                    return
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
        try:  # the language's words for the notation's (dobierz G: draw G) are read too
            return parse_action(self.t.typed_move(text))
        except NotationError as error:
            if error.key == "not_an_action":  # say which moves this game has
                error = NotationError(key=f"not_a_move.{self.match.game}")
            reason = self.t.refusal(error)
            self.say(self.t("err.notation", text=text, reason=reason), ERROR_STYLE)
            return None

    def _note(self, step: Step) -> None:
        """Remember a move for the "last moves" list, in words everyone may read (the
        public events: in hot-seat the next player reads them too)."""
        self.steps.append(step)
        self._note_one(step)

    def _renote(self) -> None:
        """The "last moves" list again from the moves kept (after an undo)."""
        self.notes.clear()
        for step in self.steps[-16:]:
            self._note_one(step)

    def _note_one(self, step: Step) -> None:
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
        return read_line(self.console, self.stdin, prompt)

    def _clear(self, *, hide: bool = False) -> None:
        """Start a new screen; with ``hide``, also erase the last one from the scroll-back
        (plain output: push it out of sight)."""
        console = self.console
        if not self.output.plain:
            if hide:
                console.file.write(CLEAR_SCROLLBACK)
                console.file.flush()
            else:
                console.clear()
        elif hide and self.stdin_tty:
            console.print("\n" * console.height)
        else:
            screen_rule(self.output)

    def _draw(self, view: View) -> None:
        """Draw ``view``'s screen in the layout the console's size calls for now (so a
        resized terminal gets a new layout on the next screen), with the legends on each
        seat's first decision and room left for the notice under it."""
        self._clear()
        screen = self.screen
        legend = bool(view.legal) and view.viewer not in screen.legend_shown
        if legend:
            screen.legend_shown.add(view.viewer)
        reserve = 1 if self.output.plain else 0  # plain output: the rule above the screen
        if self.notice:
            width = max(self.console.width, 1)
            notice = Text(self.notice)
            whole = -(-notice.cell_len // width)
            wrapped = len(self.console.render_lines(notice, pad=False))
            reserve = whole if self.notice_whole else wrapped
        self.console.print(screen.fit(view, self.notes, legend=legend, reserve=reserve))
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
        """Save the record; if that fails (disk full, file removed, no permission) say so and
        go on playing — the next save tries again, and the game's end says where it is."""
        try:
            self.record.save(self.save_to)
        except RecordError as error:
            if not self.save_failed:
                self.say(self.t("err.save_failed", reason=str(error)), ERROR_STYLE, whole=True)
            self.save_failed = True
        else:
            self.save_failed = False

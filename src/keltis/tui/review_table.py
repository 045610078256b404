"""``keltis review``: the review of a finished game (:mod:`keltis.review`) on the command line.

On a terminal it prints a table in the player's language: each decision of the seats reviewed
(the move played and its win chance, the better move and its win chance, the loss and the
mark), then each seat's accuracy, marks and luck, and the biggest swings of luck in words.
``--json`` prints :meth:`keltis.review.Review.to_json` instead, and nothing else on standard
output. While the review runs, a progress bar goes to standard error when that is a terminal.

Seats are numbered from 1 on the command line and in the table, as the game's screens number
the players (``Ann (1)``); the JSON keeps the engine's seats, from 0. Exit status: 0 when the
review is printed, 1 when the record cannot be read or is not a finished game, 2 when an option
is wrong (a budget, a seat or a language), 130 after Ctrl-C. A closed pipe (``| head``) ends
the output quietly, with status 0.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Final, TextIO

from babel.numbers import format_decimal, format_percent
from rich.cells import cell_len

from keltis.core.errors import RecordError
from keltis.i18n import Translator, detect_language
from keltis.names import shown_name
from keltis.record import GameRecord
from keltis.replay import quiet_pipe
from keltis.review import MARKS, THRESHOLDS, Decision, Luck, Review, ReviewBudget, review
from keltis.tui.lines import is_tty
from keltis.tui.style import is_plain

#: Exit statuses (see the module docstring).
EXIT_RECORD: Final = 1
EXIT_USAGE: Final = 2
EXIT_INTERRUPTED: Final = 130

#: ANSI colours of the marks on a terminal (lichess's: blue, orange, red); ``good`` is plain.
#: The mark's word is always there too, so colour is never the only clue.
MARK_COLOURS: Final = {
    "best": "1;32",
    "good": "",
    "inaccuracy": "1;36",
    "mistake": "1;33",
    "blunder": "1;31",
}

#: How many of the biggest swings of luck are told in words for each seat reviewed.
LUCK_LINES: Final = 5
#: A swing smaller than this (in win chance, 0…1) is not worth a line.
LUCK_FLOOR: Final = 0.01

#: The width of the progress bar's bar, in characters.
BAR_WIDTH: Final = 30
#: The widest the text around the table is wrapped (on a terminal: its width, up to this);
#: output that is no terminal is wrapped at ``COLUMNS``, else :data:`PLAIN_WIDTH`.
MAX_WIDTH: Final = 100
PLAIN_WIDTH: Final = 80


def run_review(
    args: argparse.Namespace,
    out: TextIO | None = None,
    err: TextIO | None = None,
    env: Mapping[str, str] | None = None,
) -> int:
    """Run ``keltis review`` from parsed options (``file``, ``seat``, ``all``, ``json``,
    ``budget``, ``lang``); returns the exit status. ``out``, ``err`` and ``env`` default to
    the process's own."""
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    env = os.environ if env is None else env
    try:
        lang = detect_language(args.lang, env)
    except ValueError as error:
        print(f"keltis review: {error}", file=err)
        return EXIT_USAGE
    t = Translator(lang)

    def fail(status: int, key: str, **params: object) -> int:
        print(f"keltis review: {t(key, **params)}", file=err)
        return status

    try:
        budget = ReviewBudget.parse(args.budget or "")
    except ValueError as error:
        return fail(EXIT_USAGE, "review.bad_budget", text=args.budget, detail=str(error))
    path = Path(args.file)
    if not path.is_file():
        return fail(EXIT_RECORD, "review.no_file", path=args.file)
    try:
        record, _ = GameRecord.load(path)
        over = record.replay().over
    except RecordError as error:
        return fail(EXIT_RECORD, "review.bad_record", path=args.file, detail=str(error))
    if not over:
        return fail(EXIT_RECORD, "review.unfinished", path=args.file)
    players = len(record.players)
    if args.all:
        seats: tuple[int, ...] = tuple(range(players))
    elif args.seat:
        wrong = [n for n in args.seat if not 1 <= n <= players]
        if wrong:
            return fail(EXIT_USAGE, "review.no_seat", seat=wrong[0], count=players)
        seats = tuple(sorted({n - 1 for n in args.seat}))
    else:
        seats = default_seats(record)

    bar = ProgressBar(err, t) if is_tty(err) else None
    try:
        result = review(record, seats, budget, progress=bar)
    except KeyboardInterrupt:
        if bar is not None:
            bar.clear()
        return fail(EXIT_INTERRUPTED, "review.interrupted")
    finally:
        if bar is not None:
            bar.clear()
    try:
        if args.json:
            out.write(json.dumps(result.to_json(), ensure_ascii=False, indent=2) + "\n")
        else:
            colour = not is_plain(out, env)
            out.write(render(result, record, t, colour=colour, width=text_width(out, env)))
        out.flush()
    except BrokenPipeError:
        quiet_pipe(out)
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    return 0


def text_width(out: TextIO, env: Mapping[str, str]) -> int:
    """How wide the text around the table is wrapped: the terminal's width (at most
    :data:`MAX_WIDTH`), else ``COLUMNS``, else :data:`PLAIN_WIDTH`."""
    columns = env.get("COLUMNS", "")
    if is_tty(out):
        width = shutil.get_terminal_size((PLAIN_WIDTH, 24)).columns
    elif columns.isdigit() and int(columns) >= 40:
        width = int(columns)
    else:
        width = PLAIN_WIDTH
    return min(width, MAX_WIDTH)


def default_seats(record: GameRecord) -> tuple[int, ...]:
    """The seats a review looks at unless told: the people's (``kind`` ``human``), else every
    seat (a game of bots)."""
    people = tuple(i for i, p in enumerate(record.players) if p.kind == "human")
    return people or tuple(range(len(record.players)))


class ProgressBar:
    """``review``'s ``progress(done, total)`` drawn as one line on a terminal, redrawn in
    place (``\\r``) and wiped by :meth:`clear`."""

    def __init__(self, err: TextIO, t: Translator) -> None:
        self.err = err
        self.t = t
        self.shown = 0

    def __call__(self, done: int, total: int) -> None:
        filled = BAR_WIDTH * done // total if total else BAR_WIDTH
        bar = "#" * filled + "-" * (BAR_WIDTH - filled)
        line = f"{self.t('review.progress', done=done, total=total)} [{bar}]"
        self.err.write("\r" + line.ljust(self.shown))
        self.err.flush()
        self.shown = max(self.shown, len(line))

    def clear(self) -> None:
        """Wipe the bar's line (spaces, no escape sequence), so the table starts clean."""
        if self.shown:
            self.err.write("\r" + " " * self.shown + "\r")
            self.err.flush()
            self.shown = 0


# -- the table ----------------------------------------------------------------------------


def render(
    result: Review,
    record: GameRecord,
    t: Translator,
    *,
    colour: bool = False,
    width: int = PLAIN_WIDTH,
) -> str:
    """The review as the terminal shows it, in ``t``'s language; ANSI colours by mark if
    ``colour``; the text around the table wrapped at ``width`` (the table's lines are as wide
    as their columns). ``record`` is the game reviewed (for its set-up line)."""
    names = [f"{shown_name(t, name)} ({seat + 1})" for seat, name in enumerate(result.players)]
    text = Paragraphs(width)
    header(result, record, names, t, text)
    text.lines.append("")
    text.lines.extend(decision_table(result.decisions, names, t, colour=colour))
    for seat in result.seats:
        text.lines.append("")
        seat_summary(result, seat, names, t, text, colour=colour)
    return "\n".join(text.lines) + "\n"


class Paragraphs:
    """Lines of text, each paragraph wrapped at ``width`` with a hanging indent."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.lines: list[str] = []

    def say(self, text: str, indent: str = "", hang: str = "  ") -> None:
        """Add ``text`` wrapped: its first line after ``indent``, the others indented more."""
        self.lines.extend(
            textwrap.wrap(
                text,
                self.width,
                initial_indent=indent,
                subsequent_indent=indent + hang,
                break_on_hyphens=False,
            )
        )


def header(
    result: Review, record: GameRecord, names: Sequence[str], t: Translator, text: Paragraphs
) -> None:
    """The lines above the table: the game, its result, the search's budget and what the
    marks mean."""
    setup = t("replay.seed", seed=record.seed) if record.seed is not None else t("replay.explicit")
    text.say(
        t("review.title", game=t(f"replay.title.{result.game}", count=len(names), setup=setup))
    )
    standings = []
    for seat, name in enumerate(names):
        won = f", {t('replay.winner')}" if seat in result.winners else ""
        standings.append(f"{name} {result.scores[seat]}{won}")
    text.say(t("review.result", standings=" · ".join(standings)))
    budget = result.budget
    seconds = _decimal(result.cpu_seconds, t.lang)
    text.say(
        t(
            "review.budget",
            iterations=budget.iterations,
            width=budget.width,
            luck=budget.luck_playouts,
            seed=budget.seed,
            seconds=seconds,
        )
    )
    text.say(
        t(
            "review.thresholds",
            inaccuracy=_points(THRESHOLDS["inaccuracy"]),
            mistake=_points(THRESHOLDS["mistake"]),
            blunder=_points(THRESHOLDS["blunder"]),
        )
    )


def seat_summary(
    result: Review,
    seat: int,
    names: Sequence[str],
    t: Translator,
    text: Paragraphs,
    *,
    colour: bool = False,
) -> None:
    """A reviewed seat's accuracy, marks and luck, and its biggest swings of luck in words."""
    summary = next(s for s in result.summaries if s.seat == seat)
    accuracy = _percent(summary.accuracy / 100, t.lang)
    judged = t("review.decisions", count=summary.decisions)
    forced = t("review.forced", count=summary.forced)
    text.say(f"{t('review.accuracy', name=names[seat], accuracy=accuracy)} – {judged}, {forced}")
    marks = " · ".join(
        f"{_paint(t(f'review.mark.{mark}'), mark, colour)} {summary.marks.get(mark, 0)}"
        for mark in MARKS
    )
    text.lines.append("  " + t("review.marks", marks=marks))  # not wrapped: colour codes
    if not result.luck:
        return  # luck was not measured (luck_playouts=0): no line that says 0
    luck = t(
        "review.luck.total",
        points=_signed_points(summary.luck),
        error=_points(summary.luck_error),
    )
    text.say(luck, "  ")
    swings = luck_lines(result.luck, seat, names, t)
    if swings:
        text.say(t("review.luck.biggest"), "  ")
        for line in swings:
            text.say(line, "    ")


def decision_table(
    decisions: Sequence[Decision], names: Sequence[str], t: Translator, *, colour: bool = False
) -> list[str]:
    """One line per decision under a header: move number (as ``keltis replay`` numbers the
    moves), turn, player, move played and its win chance, the better move and its win
    chance, the loss ± the search's error (points of win chance), the mark."""
    lang = t.lang
    header = [
        t("review.col.move"),
        t("review.col.turn"),
        t("review.col.player"),
        t("review.col.played"),
        t("review.col.win"),
        t("review.col.better"),
        t("review.col.win"),
        t("review.col.loss"),
        t("review.col.mark"),
    ]
    rows: list[list[str]] = []
    marks: list[str] = []
    for d in decisions:
        best_played = d.mark == "best"
        rows.append(
            [
                str(d.index + 1),
                str(d.turn + 1),
                names[d.seat],
                t.move_in_words(d.played.action),
                _percent(d.played.win, lang),
                "" if best_played else t.move_in_words(d.best.action),
                "" if best_played else _percent(d.best.win, lang),
                "" if best_played else f"{_points(d.loss)} ±{_points(d.error)}",
                t(f"review.mark.{d.mark}"),
            ]
        )
        marks.append(d.mark)
    if not rows:
        return [t("review.no_decisions")]
    widths = [max(_width(row[i]) for row in [header, *rows]) for i in range(len(header))]
    right = {0, 1, 4, 6, 7}  # numbers line up on the right

    def line(cells: Sequence[str], mark: str | None = None) -> str:
        parts = []
        for i, cell in enumerate(cells):
            pad = " " * (widths[i] - _width(cell))
            text = pad + cell if i in right else cell + pad
            if i == len(cells) - 1:
                text = _paint(cell, mark, colour) if mark else cell  # no trailing spaces
            parts.append(text)
        return "  ".join(parts).rstrip()

    out = [line(header), "  ".join("-" * w for w in widths)]
    out.extend(line(row, mark) for row, mark in zip(rows, marks, strict=True))
    return out


def luck_lines(
    luck: Sequence[Luck], seat: int, names: Sequence[str], t: Translator, limit: int = LUCK_LINES
) -> list[str]:
    """The biggest swings of ``seat``'s win chance by the deal and the draws from the draw
    pile, biggest first, in words: whose draw, on which turn, what it gave or cost. A swing
    within its own error (the playouts' noise) or under :data:`LUCK_FLOOR` is left out."""
    events = [e for e in luck if abs(e.swing[seat]) >= max(LUCK_FLOOR, _error(e, seat))]
    events.sort(key=lambda e: (-abs(e.swing[seat]), e.index))
    lines = []
    for event in events[:limit]:
        swing = event.swing[seat]
        way = "gain" if swing > 0 else "cost"
        points = int(_points(abs(swing)))
        if event.kind == "deal":
            lines.append(t(f"review.luck.deal.{way}", points=points))
        elif event.seat == seat:
            lines.append(t(f"review.luck.own.{way}", turn=event.turn + 1, points=points))
        else:
            drawer = names[event.seat] if event.seat is not None else "?"
            lines.append(
                t(f"review.luck.other.{way}", turn=event.turn + 1, name=drawer, points=points)
            )
    return lines


def _error(event: Luck, seat: int) -> float:
    """The 95% error of ``event``'s swing for ``seat`` (0 where the review gave none)."""
    return event.error[seat] if event.error else 0.0


def _points(chance: float) -> str:
    """A win chance (0…1) in points (0…100), whole."""
    return str(round(chance * 100))


def _signed_points(chance: float) -> str:
    value = round(chance * 100)
    return f"+{value}" if value > 0 else str(value).replace("-", "−")


def _percent(value: float, lang: str) -> str:
    return str(format_percent(value, locale=lang))


def _decimal(value: float, lang: str) -> str:
    return str(format_decimal(value, format="0.0", locale=lang))


def _width(text: str) -> int:
    return int(cell_len(text))


def _paint(text: str, mark: str | None, colour: bool) -> str:
    code = MARK_COLOURS.get(mark or "", "")
    return f"\x1b[{code}m{text}\x1b[0m" if colour and code else text

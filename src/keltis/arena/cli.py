"""``keltis arena``: the command line of the arena (options, progress bar, exit status)."""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import sys
from pathlib import Path
from typing import Any, TextIO

from keltis.arena.run import RunSummary, run_tournament
from keltis.arena.tournament import DEFAULT_TURN_CAP, Tournament
from keltis.games import DEFAULT_GAME, get_game

EPILOG = """\
bots: a name or level in any case (see --list-bots), NAME:key=value,... for options
(ismcts:iterations=200, hard:seconds=2), package.module:ClassName for your own
keltis.bots.Bot subclass (optionally :key=value,...), and LABEL=SPEC to name a seat.

examples:
  keltis arena greedy random --games 200
  keltis arena greedy random --game cards --players 3
  keltis arena mine=mybots:MyBot greedy --games 1000 --workers 2
  keltis arena --resume arena-out/20250101-120000
  keltis arena greedy random --games 10000 --ray auto
"""


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def _cap(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError("must be 0 (no cap) or more")
    return value


def add_arena_parser(sub: Any) -> argparse.ArgumentParser:
    """Add the ``arena`` sub-command to the ``keltis`` sub-parsers ``sub``."""
    arena: argparse.ArgumentParser = sub.add_parser(
        "arena",
        help="play a seeded tournament between bots and rate them",
        description="Play N seeded games between bots (seats rotated), in parallel, and report\n"
        "win rates with 95% intervals, scores, margins and openskill ratings as a table,\n"
        "results.json and report.png. Every game's record is saved (docs/arena.md).",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    arena.add_argument("bots", nargs="*", metavar="BOT", help="bot specs (two or more)")
    arena.add_argument("--game", default=None, help="board or cards (default board)")
    arena.add_argument(
        "--players", type=int, default=None, help="seats per game, 2-4 (default: number of bots)"
    )
    arena.add_argument("--games", type=_count, default=None, help="games to play (default 100)")
    arena.add_argument("--seed", type=int, default=None, help="tournament seed (default 0)")
    arena.add_argument(
        "--workers", type=_count, default=None, help="local processes (default: all cores)"
    )
    arena.add_argument(
        "--ray",
        default=None,
        metavar="ADDRESS",
        help="run as Ray tasks: auto (the running cluster), host:port, ray://host:port, "
        "or local (a private Ray instance)",
    )
    arena.add_argument("--out", default=None, help="output directory (default arena-out/<time>)")
    arena.add_argument(
        "--resume",
        default=None,
        metavar="DIR",
        help="continue the tournament in DIR (with --games: extend it)",
    )
    arena.add_argument(
        "--turn-cap",
        type=_cap,
        default=None,
        help=f"end a game as truncated after this many turns (default {DEFAULT_TURN_CAP}; 0: none)",
    )
    arena.add_argument(
        "--take-back",
        action="store_true",
        help="allow drawing back the card you discarded this turn (board-game variant, B-15)",
    )
    # The old switch: forbidding take-back is now the default (B-15), so it changes nothing.
    arena.add_argument("--no-take-back", action="store_true", help=argparse.SUPPRESS)
    arena.add_argument("--json", action="store_true", help="print results.json, not the table")
    arena.add_argument("--no-plot", action="store_true", help="do not draw report.png")
    arena.add_argument("--quiet", action="store_true", help="no progress bar")
    arena.add_argument("--list-bots", action="store_true", help="list the bots and exit")
    return arena


def run_arena(
    args: argparse.Namespace, out: TextIO | None = None, err: TextIO | None = None
) -> int:
    """Run ``keltis arena`` from parsed options; returns the exit status."""
    # here, not at the top: `keltis --help` builds this module's parser and must start fast
    from rich.console import Console

    from keltis.arena.report import print_table, write_report
    from keltis.arena.run import RESULTS_FILE
    from keltis.arena.tournament import TournamentError
    from keltis.bots import bot_list

    out = out or sys.stdout
    err = err or sys.stderr
    if args.list_bots:
        for line in bot_list():
            out.write(line + "\n")
        out.write("LABEL=SPEC names a bot in the reports (a=greedy b=greedy).\n")
        return 0
    needed = ["openskill"] + ([] if args.no_plot else ["matplotlib"])
    missing = [name for name in needed if importlib.util.find_spec(name) is None]
    if missing:
        raise TournamentError(
            f"keltis arena needs {' and '.join(missing)} (the arena extra): in a clone of "
            "keltis, .venv/bin/pip install -e '.[arena]' (make test installs it too); "
            "else pip install 'keltis[arena]'"
        )
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())
    tournament, directory, resume = _tournament(args)
    period = tournament.balance_period
    if tournament.games % period:
        err.write(
            f"Note: seats are balanced every {period} games; {tournament.games} is not a "
            "multiple, so some bots sit in some seats more often.\n"
        )
    console = Console(file=err, stderr=True)
    try:
        summary = _run_with_progress(
            tournament, directory, resume, args, console=console, show=not args.quiet
        )
    except KeyboardInterrupt:  # while setting up, before the games started
        err.write("Interrupted.\n")
        if (directory / "tournament.json").exists():
            err.write(f"Continue with keltis arena --resume {directory}\n")
        return 130
    results = write_report(summary, plot=not args.no_plot)
    results_path = directory / RESULTS_FILE
    if args.json:
        out.write(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    elif summary.done:
        print_table(results, Console(file=out, width=None if out.isatty() else 120))
    err.write(f"Results in {results_path}; game records in {directory / 'games'}.\n")
    if summary.failure:
        err.write(
            f"Stopped: {summary.failure}\nFix the bot, then continue with "
            f"keltis arena --resume {directory}\n"
        )
        return 1
    if summary.interrupted:
        err.write(
            f"Interrupted after {summary.done} of {tournament.games} games; continue with "
            f"keltis arena --resume {directory}\n"
        )
        return 130
    return 0


def _tournament(args: argparse.Namespace) -> tuple[Tournament, Path, bool]:
    """The tournament the options ask for, where it is stored, and whether it resumes."""
    # here, not at the top: `keltis --help` builds this module's parser and must start fast
    from keltis.arena.run import default_out_dir, load_dir
    from keltis.arena.spec import parse_bots
    from keltis.arena.tournament import TournamentError

    if args.resume:
        given = [
            f"--{name.replace('_', '-')}"
            for name in ("game", "players", "seed", "turn_cap", "out")
            if getattr(args, name) is not None
        ] + (["--take-back"] if args.take_back else [])
        if args.bots or given:
            raise TournamentError(
                "--resume continues a stored tournament: give only --games (to extend it), "
                f"--workers, --ray and output options, not {' '.join(args.bots + given)}".rstrip()
            )
        directory = Path(args.resume)
        tournament = load_dir(directory, games=args.games)
        resume = True
    else:
        if len(args.bots) < 2:
            raise TournamentError("name at least two bots, e.g. keltis arena greedy random")
        game = args.game or DEFAULT_GAME
        has_switch = "no_take_back" in get_game(game).switches()
        if args.take_back and not has_switch:
            raise TournamentError(
                "--take-back is a board-game variant; the card game never lets you take "
                "back a card discarded this turn (C-12)"
            )
        variant: dict[str, Any] = {"no_take_back": not args.take_back} if has_switch else {}
        cap = DEFAULT_TURN_CAP if args.turn_cap is None else (args.turn_cap or None)
        tournament = Tournament.create(
            game,
            parse_bots(args.bots),
            players=args.players,
            games=args.games or 100,
            seed=args.seed if args.seed is not None else 0,
            variant=variant,
            turn_cap=cap,
        )
        directory = Path(args.out) if args.out else default_out_dir()
        resume = False
    return tournament, directory, resume


def _run_with_progress(
    tournament: Tournament,
    directory: Path,
    resume: bool,
    args: argparse.Namespace,
    *,
    console: Any,
    show: bool,
) -> RunSummary:
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    where = f"ray {args.ray}" if args.ray else "local"
    progress = Progress(
        TextColumn(f"[bold]arena[/] {tournament.game} ({where})"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=not show,
    )
    job = progress.add_task("games", total=tournament.games)

    def advance(done: int, total: int) -> None:
        progress.update(job, completed=done, total=total)

    with progress:
        return run_tournament(
            tournament,
            directory,
            resume=resume,
            workers=args.workers,
            ray=args.ray,
            on_game=advance,
        )

"""The ``keltis`` command: ``play``, ``replay``, ``review``, ``bench``, ``arena`` (``keltis
--help``)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from keltis import __version__
from keltis.core.errors import KeltisError
from keltis.games import DEFAULT_GAME, GAME_NAMES

#: The languages of ``--lang`` (``keltis.i18n.LANGUAGES``; not imported here, to start fast).
_LANGS = "en, de, cs, sk, hu, pl, es"


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if value <= 0:
        raise argparse.ArgumentTypeError("must be more than 0")
    return value


def _players(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 2 <= value <= 4:
        raise argparse.ArgumentTypeError("Keltis is for 2-4 players")
    return value


#: ``keltis arena``'s line in ``keltis --help`` (the sub-command itself: ``keltis.arena.cli``).
ARENA_HELP = "play a seeded tournament between bots and rate them"


def _command(argv: Sequence[str]) -> str | None:
    """The sub-command ``argv`` asks for (its first word that is not an option)."""
    return next((word for word in argv if not word.startswith("-")), None)


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser of the ``keltis`` command. Given the command line ``argv``, the
    ``arena`` sub-command's full parser (and the arena's modules) is built only when ``argv``
    asks for it; ``keltis --help`` lists it by its help line alone."""
    parser = argparse.ArgumentParser(
        prog="keltis",
        description="Keltis, the board game and the card game by Reiner Knizia.",
    )
    parser.add_argument("--version", action="version", version=f"keltis {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    _add_play_parser(sub)
    _add_replay_parser(sub)
    _add_review_parser(sub)
    _add_bench_parser(sub)
    if argv is None or _command(argv) == "arena":
        from keltis.arena.cli import add_arena_parser  # a command's modules load when it runs

        add_arena_parser(sub)
    else:
        sub.add_parser("arena", help=ARENA_HELP, add_help=False)

    from keltis.server.cli import add_serve_parser  # a command's modules load when it runs

    add_serve_parser(sub)
    from keltis.server.admin import add_admin_parser  # a command's modules load when it runs

    add_admin_parser(sub)
    return parser


def _add_play_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``keltis play``: a game in the terminal."""
    play = sub.add_parser(
        "play",
        help="play in the terminal against bots or hot-seat",
        description="Play Keltis in the terminal: you against bots (by default two medium "
        "bots, Fionn) or hot-seat with friends. The game is saved as you play; --resume "
        "continues it. Type help during the game for the rules, the symbols and the commands.",
    )
    # --game, --players and --bot default to None so that --resume can tell them apart from
    # options given on purpose (run_play fills in board, 3 and medium)
    play.add_argument("--game", choices=GAME_NAMES, default=None, help="default: board")
    play.add_argument("--players", type=_players, default=None, help="seats, 2-4 (default 3)")
    play.add_argument(
        "--bot",
        default=None,
        help="the bot in the other seats: a level (easy, medium, hard, or Brigid, Fionn, "
        "Morrigan), a bot (random, greedy, heuristic, ismcts), options after a colon "
        "(hard:seconds=2, ismcts:iterations=200) or package.module:Class; any case "
        "(default medium; see --list-bots)",
    )
    play.add_argument(
        "--seats",
        help="every seat explicitly, in play order, comma-separated: human or a bot as for "
        "--bot, e.g. human,greedy,Morrigan or human,ismcts:iterations=200,seconds=1,easy "
        "(key=value after a seat with options is one more option; separate seats with ';' "
        "to label one: 'human;me=greedy;hard'); overrides --players and --bot",
    )
    play.add_argument("--hotseat", action="store_true", help="every seat is a human")
    play.add_argument("--name", default=None, help="your name (default: You)")
    play.add_argument("--seed", type=int, default=None, help="set-up seed (default: random)")
    play.add_argument(
        "--save",
        default=None,
        help="where to save the record (default: $XDG_DATA_HOME or ~/.local/share, "
        "under keltis/games/)",
    )
    play.add_argument(
        "--resume",
        default=None,
        metavar="FILE",
        help="continue the game in this record file (last: the most recently saved game)",
    )
    play.add_argument(
        "--saved", action="store_true", help="list the saved games, newest first, and exit"
    )
    play.add_argument(
        "--take-back",
        action="store_true",
        help="allow drawing back the card you discarded this turn (board-game variant, B-15)",
    )
    # The old switch: forbidding take-back is now the default (B-15), so it changes nothing.
    play.add_argument("--no-take-back", action="store_true", help=argparse.SUPPRESS)
    play.add_argument("--layout", default=None, help="board layout JSON file (board game)")
    play.add_argument(
        "--lang",
        default=None,
        help=f"language: {_LANGS} (default: from KELTIS_LANG, LANGUAGE, LC_ALL or LANG)",
    )
    play.add_argument("--list-bots", action="store_true", help="list the bots and exit")


def _add_replay_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``keltis replay``: a record stepped through or printed."""
    replay = sub.add_parser(
        "replay",
        help="step through a recorded game, or show it move by move",
        description="Replay a game record. On a terminal, step through its positions "
        "(Enter or n: next, b: back, a number: that move, f: first, l: last, q: quit); "
        "piped, or with --text, print it move by move. --at N prints the position after "
        "move N, --json the final state as JSON.",
    )
    replay.add_argument("file", help="a record (.json) written by keltis")
    shown = replay.add_mutually_exclusive_group()
    shown.add_argument("--json", action="store_true", help="print the final state as JSON")
    shown.add_argument(
        "--text", action="store_true", help="print every move in words, even on a terminal"
    )
    shown.add_argument(
        "--at",
        type=int,
        metavar="N",
        default=None,
        help="print the screen after move N (0: the start) and exit",
    )
    replay.add_argument(
        "--lang", default=None, help=f"language of the text: {_LANGS} (default: as keltis play)"
    )
    replay.add_argument(
        "--no-check", action="store_true", help="do not compare the stored result with the replay"
    )


def _add_review_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``keltis review``: a finished game's decisions judged and its luck measured."""
    review = sub.add_parser(
        "review",
        help="judge each decision of a finished game, and its luck",
        description="Review a finished game's record: each decision of the players reviewed "
        "is judged by a search from what that player could see then (their own hand, not the "
        "others'), with the move played, its chance to win, the better move, the loss and a "
        "mark (best, good, inaccuracy, mistake, blunder); then each player's accuracy and "
        "luck, and the draws that moved their chances most. A progress bar goes to standard "
        "error on a terminal. Exit status: 1 if the record cannot be read or the game is not "
        "over, 2 for a wrong option, 130 after Ctrl-C.",
    )
    review.add_argument("file", help="a finished game's record (.json) written by keltis")
    who = review.add_mutually_exclusive_group()
    who.add_argument(
        "--seat",
        type=int,
        action="append",
        metavar="N",
        help="review the player in seat N, counted from 1 as the game's screens number the "
        "players (Ann (1), Bob (2)); repeat it for more (default: the seats people played, "
        "or every seat of a game of bots)",
    )
    who.add_argument("--all", action="store_true", help="review every seat")
    review.add_argument(
        "--json",
        action="store_true",
        help="print the review as JSON (keltis/schemas/review.schema.json; seats from 0) "
        "instead of the table",
    )
    review.add_argument(
        "--budget",
        default="",
        metavar="TEXT",
        help="how hard the search looks: iterations=400,width=3,luck_playouts=128,seed=0 "
        "(the default; give any of them, a bare number is the iterations); more is slower "
        "and surer",
    )
    review.add_argument(
        "--lang", default=None, help=f"language of the table: {_LANGS} (default: as keltis play)"
    )


def _add_bench_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """``keltis bench``: random playouts per second."""
    bench = sub.add_parser(
        "bench",
        help="measure random playouts per second on one core (JSON)",
        description="Play random games for a while on one core and print the rate as JSON.",
    )
    bench.add_argument(
        "--game", choices=GAME_NAMES, default=DEFAULT_GAME, help="the game to play (default board)"
    )
    bench.add_argument(
        "--players", type=_players, default=4, help="players per game, 2-4 (default 4)"
    )
    bench.add_argument(
        "--seconds",
        type=_positive_float,
        default=10.0,
        help="how long to play, in seconds (default 10); whole games, so a little longer",
    )
    bench.add_argument(
        "--seed",
        type=int,
        default=0,
        help="seed of the first game; game i uses seed+i (default 0)",
    )
    bench.add_argument(
        "--engine",
        choices=("reference", "fast"),
        default="reference",
        help="reference: the rules engine (default); fast: the numba batch simulator "
        "(pip install 'keltis[fast]'; its own seeded deals)",
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``keltis`` command; returns the exit status."""
    words = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(words)
    args = parser.parse_args(words)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        if args.command == "play":
            from keltis.tui.app import run_play  # a command's modules load when it runs

            return run_play(args)
        if args.command == "replay":
            from keltis.replay import run_replay  # a command's modules load when it runs

            return run_replay(args)
        if args.command == "review":
            from keltis.tui.review_table import run_review  # a command's modules load when it runs

            return run_review(args)
        if args.command == "bench":
            from keltis.bench import random_playouts  # a command's modules load when it runs

            result = random_playouts(
                args.game, args.players, args.seconds, args.seed, engine=args.engine
            )
            print(json.dumps(result))
            return 0
        if args.command == "arena":
            from keltis.arena.cli import run_arena  # a command's modules load when it runs

            return run_arena(args)
        if args.command == "serve":
            from keltis.server.cli import run_serve  # a command's modules load when it runs

            return run_serve(args)
        if args.command == "admin":
            from keltis.server.admin import run_admin  # a command's modules load when it runs

            return run_admin(args)
    except KeltisError as error:
        print(f"keltis {args.command}: {error}", file=sys.stderr)
        return 2
    except (ValueError, OSError) as error:
        print(f"keltis {args.command}: {error}", file=sys.stderr)
        return 2
    parser.error(f"unknown command {args.command}")
    return 2  # pragma: no cover - parser.error exits


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

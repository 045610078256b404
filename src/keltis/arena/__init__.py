"""The arena: seeded tournaments between bots, with ratings and reports (``keltis arena``).

::

    from keltis.arena import BotSpec, Tournament, run_tournament, build_results

    tournament = Tournament.create("board", [BotSpec.parse("greedy"), BotSpec.parse("random")],
                                   games=100, seed=1)
    summary = run_tournament(tournament, Path("arena-out/mine"))
    results = write_report(summary)  # results.json and report.png

See docs/arena.md. Needs the ``arena`` extra (openskill, matplotlib); ``--ray`` needs ``ray``.
"""

from __future__ import annotations

from keltis.arena.game import GameResult, play_game
from keltis.arena.report import (
    build_results,
    print_table,
    save_plot,
    save_results,
    write_report,
)
from keltis.arena.run import RunSummary, load_dir, load_games, run_tournament
from keltis.arena.spec import BotSpec, BotSpecError, parse_bots
from keltis.arena.tournament import GameTask, Tournament, TournamentError
from keltis.bots.base import derive_seed

__all__ = [
    "BotSpec",
    "BotSpecError",
    "GameResult",
    "GameTask",
    "RunSummary",
    "Tournament",
    "TournamentError",
    "build_results",
    "derive_seed",
    "load_dir",
    "load_games",
    "parse_bots",
    "play_game",
    "print_table",
    "run_tournament",
    "save_plot",
    "save_results",
    "write_report",
]

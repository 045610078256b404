"""Review speed benchmark: the CPU time of ``keltis.review.review()`` for one seat.

For each game (board, cards) and each of ``--seeds`` seeds, a two-player game is played by
``--spec`` in both seats (default: the medium level, the heuristic — cheap to play; a review's
cost depends on the positions, not on who reached them), recorded, and reviewed for one seat
(seat = seed mod 2) with the review's default budget (or ``--budget``). The CPU time
(``time.process_time``) of the whole ``review()`` call is measured, and split by its progress
callback into the decisions (one search per decision of the seat) and the luck (the deal and
every draw from the draw pile, for every player). The issue's bar: one seat of a two-player
game (about 60 decisions) reviewed in under 60 s of CPU.

The engine must be the compiled one (``keltis._native.engine()``; the output says which ran).
The summary is printed as JSON on stdout and written to ``--out``. Run::

    nice -n 10 .venv/bin/python benchmarks/review_speed.py --seeds 3
"""

from __future__ import annotations

import argparse
import itertools
import json
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from keltis import _native
from keltis import review as reviews
from keltis.bots.spec import make_bot
from keltis.games import get_game
from keltis.record import GameRecord, PlayerInfo

RESULTS = Path(__file__).parent / "results"
OUT = RESULTS / "review-speed-2026-11-29.json"
#: The first seed (the calibration benchmark's range, 410001–410999: tuned nothing).
FIRST_SEED = 410001
#: The issue's bar: CPU seconds for one seat of a two-player game.
TARGET_S = 60.0


def recorded_game(game: str, seed: int, spec: str) -> GameRecord:
    """A seeded two-player game with ``spec`` in both seats, recorded."""
    record = GameRecord.start(game, [PlayerInfo("one", spec), PlayerInfo("two", spec)], seed=seed)
    state = record.new_state()
    bots = [make_bot(spec, seed * 10 + seat) for seat in range(2)]
    while not state.over:
        seat = state.current_player
        state.apply(bots[seat].choose(state.view(seat)))
    record.finish(state)
    return record


def time_review(record: GameRecord, seat: int, budget: reviews.ReviewBudget) -> dict[str, Any]:
    """Review ``seat`` of ``record``, timing each step through the progress callback (the
    steps come in :func:`keltis.review.plan`'s order: the decisions, then the luck)."""
    steps = reviews.plan(record, [seat], budget)
    marks: list[float] = []

    def progress(done: int, total: int) -> None:
        marks.append(time.process_time())

    start = time.process_time()
    result = reviews.review(record, [seat], budget, progress)
    total = time.process_time() - start
    step_cpu = [b - a for a, b in itertools.pairwise(marks)]
    decision_cpu = sum(c for s, c in zip(steps, step_cpu, strict=True) if s.startswith("decision"))
    luck_cpu = sum(c for s, c in zip(steps, step_cpu, strict=True) if not s.startswith("decision"))
    decisions = len(result.decisions)
    return {
        "game": record.game,
        "seed": record.seed,
        "seat": seat,
        "actions": len(record.actions),
        "decisions": decisions,
        "forced": result.summaries[0].forced,
        "luck_events": len(result.luck),
        "cpu_s": round(total, 2),
        "review_cpu_seconds": round(result.cpu_seconds, 2),
        "decisions_cpu_s": round(decision_cpu, 2),
        "luck_cpu_s": round(luck_cpu, 2),
        "cpu_s_per_decision": round(decision_cpu / decisions, 3) if decisions else None,
        # The time to the first progress call: planning and replaying the record.
        "setup_cpu_s": round(marks[0] - start, 3) if marks else None,
        "meets_target": total < TARGET_S,
    }


def summarise(game: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    totals = [r["cpu_s"] for r in rows]
    return {
        "game": game,
        "reviews": len(rows),
        "mean_decisions": round(statistics.fmean(r["decisions"] for r in rows), 1),
        "mean_cpu_s": round(statistics.fmean(totals), 2),
        "max_cpu_s": round(max(totals), 2),
        "mean_decisions_cpu_s": round(statistics.fmean(r["decisions_cpu_s"] for r in rows), 2),
        "mean_luck_cpu_s": round(statistics.fmean(r["luck_cpu_s"] for r in rows), 2),
        "cpu_s_per_decision": round(
            sum(r["decisions_cpu_s"] for r in rows) / max(1, sum(r["decisions"] for r in rows)),
            3,
        ),
        "target_s": TARGET_S,
        "meets_target": max(totals) < TARGET_S,
    }


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark from the command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=3, help="seeds per game (default 3)")
    parser.add_argument(
        "--seed", type=int, default=FIRST_SEED, help=f"first seed (default {FIRST_SEED})"
    )
    parser.add_argument("--games", default="board,cards", help="games (default board,cards)")
    parser.add_argument(
        "--spec", default="heuristic", help="the bot in both seats (default heuristic)"
    )
    parser.add_argument(
        "--budget", default="", help="the review's budget (ReviewBudget.parse; default: its own)"
    )
    parser.add_argument("--out", default=str(OUT), help="the summary file")
    args = parser.parse_args(argv)
    if args.seeds < 1:
        parser.error("--seeds must be at least 1")
    try:
        budget = reviews.ReviewBudget.parse(args.budget)
        make_bot(args.spec, 0)
    except ValueError as error:
        parser.error(str(error))
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    for game in games:
        if game not in ("board", "cards"):
            parser.error(f"unknown game {game!r}: board or cards")
        get_game(game).heuristics()
    engine = _native.engine()
    if not engine.startswith("compiled"):
        print(f"warning: the engine is {engine!r}, not the compiled one", file=sys.stderr)
    rows = []
    for game in games:
        for seed in range(args.seed, args.seed + args.seeds):
            record = recorded_game(game, seed, args.spec)
            row = time_review(record, seed % 2, budget)
            rows.append(row)
            print(
                f"{game} seed {seed}: {row['decisions']} decisions, {row['cpu_s']} s CPU "
                f"({row['decisions_cpu_s']} decisions, {row['luck_cpu_s']} luck)",
                file=sys.stderr,
                flush=True,
            )
    document = {
        "benchmark": "review-speed",
        "engine": engine,
        "budget": budget.to_json(),
        "spec": args.spec,
        "players": 2,
        "seats_reviewed": 1,
        "note": "CPU seconds (time.process_time) of keltis.review.review() for one seat; the "
        "luck (the deal and every draw from the pile) is for every player and comes with any "
        "seat's review",
        "python": platform.python_version(),
        "machine": platform.machine(),
        "summaries": [summarise(g, [r for r in rows if r["game"] == g]) for g in games],
        "reviews": rows,
    }
    text = json.dumps(document, indent=1)
    print(text, flush=True)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

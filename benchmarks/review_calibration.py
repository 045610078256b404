"""Review calibration benchmark: do the review's win chances come true?

Seeded games of both games (board, cards) with 2 and 4 players are played with the hard level
in every seat and recorded (``keltis.record.GameRecord``). At ``--per-game`` of each game's
decisions (positions with more than one legal move; evenly spaced over the game, the first one
shifted by the seed) the review's step for that decision is run
(``keltis.review.run_step(record, "decision:I", budget)``, the review's default budget unless
``--budget`` says otherwise) and its win chance of the player to move — the decision's
``best.win``, the chance the review says the best move keeps — is compared with what that player
got in the end: 1 for a win, 1/k for a victory shared by k players, 0 for a loss.

The summary, per configuration (game, players) and overall:

* a reliability table: bins of the predicted chance (tenths), each with its count of positions,
  the mean predicted chance, the observed rate and a 95% interval of the observed rate by a
  bootstrap over *games* (the positions of one game share its outcome, so they are not
  independent; a Wilson interval over positions would be too narrow);
* the Brier score (mean squared difference of prediction and outcome) with a bootstrap 95%
  interval over games, beside the Brier score of the base rate 1/players (what predicting
  "everyone is even" would score) and the skill score 1 − Brier/base Brier;
* the mean predicted chance against the mean outcome (calibration in the large);
* the same Brier for the played move's chance (``played.win``), for comparison;
* the number of games and positions, and CPU seconds per reviewed position (process time in
  the worker) and per game played.

Seeds: ``--seed`` (default 410001) onwards, the same seeds for each configuration; the range
410001–410999 is kept for this benchmark and was never used to tune anything (the strength
benchmark and the tuning runs use 1–1400 and 50001–50120).

Every game is appended, as soon as it is reviewed, to ``<out>.jsonl`` beside the summary (one
JSON object per game: the record, the positions with their predictions and outcome, the CPU
times), so an interrupted run loses at most the games in flight: run the same command again
and it plays only the (configuration, seed) pairs still missing; ``--summary-only`` summarises
without playing. Progress goes to stderr; the summary is printed as JSON on stdout and written
to ``--out``. Run (niced: it is long)::

    nice -n 10 .venv/bin/python benchmarks/review_calibration.py --games 25 --workers 2
    .venv/bin/python benchmarks/review_calibration.py --games 25 --summary-only
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import platform
import random
import signal
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from keltis import review as reviews
from keltis.bots.levels import LEVELS
from keltis.bots.spec import make_bot
from keltis.games import get_game
from keltis.record import GameRecord, PlayerInfo

RESULTS = Path(__file__).parent / "results"
OUT = RESULTS / "review-calibration-2026-11-29.json"
#: The configurations measured: (game, players).
CONFIGS: tuple[tuple[str, int], ...] = (("board", 2), ("board", 4), ("cards", 2), ("cards", 4))
#: The first seed of the range kept for this benchmark (see the module docstring).
FIRST_SEED = 410001
#: The review's calibration map (``keltis.review.CALIBRATION``) was fitted on the games of
#: seeds FIRST_SEED … HELD_OUT_FROM - 1; its chances are measured on the later seeds only.
HELD_OUT_FROM = 410013
#: Bins of the predicted chance: [0, 0.1), [0.1, 0.2), …, [0.9, 1.0].
BINS = 10
#: Bootstrap resamples (over games) of each interval, and their seed.
RESAMPLES = 2000
BOOTSTRAP_SEED = 41


def config_name(game: str, players: int) -> str:
    return f"{game}-{players}p"


def chosen_decisions(decisions: Sequence[int], per_game: int, seed: int) -> list[int]:
    """``per_game`` of ``decisions`` (indices of actions), evenly spaced, the first shifted by
    the seed so that games do not all start at the same place; all of them if fewer."""
    if len(decisions) <= per_game:
        return list(decisions)
    step = len(decisions) / per_game
    offset = (seed % 997) / 997 * step
    return [decisions[int(offset + i * step)] for i in range(per_game)]


def outcome_shares(winners: Sequence[int], players: int) -> list[float]:
    """Each seat's result: 1 for a win, 1/k of a victory shared by k, 0 for a loss."""
    return [1.0 / len(winners) if seat in winners else 0.0 for seat in range(players)]


def play_game(game: str, players: int, seed: int, spec: str) -> tuple[GameRecord, float, int]:
    """A seeded game with ``spec`` in every seat, recorded; the CPU seconds it took, and how
    many searches the level's time net cut short (a busy machine; then the game would not
    replay the same from its seed)."""
    record = GameRecord.start(
        game, [PlayerInfo(f"hard {seat + 1}", "hard") for seat in range(players)], seed=seed
    )
    state = record.new_state()
    bots = [make_bot(spec, seed * 10 + seat) for seat in range(players)]
    start = time.process_time()
    timed_out = 0
    while not state.over:
        seat = state.current_player
        state.apply(bots[seat].choose(state.view(seat)))
        # A search bot keeps its last search (None for a forced move).
        result = getattr(bots[seat], "last_result", None)
        timed_out += bool(getattr(result, "timed_out", False))
    record.finish(state)
    return record, time.process_time() - start, timed_out


def measure_game(job: tuple[str, int, int, int, str, str]) -> dict[str, Any]:
    """Play one game and review ``per_game`` of its decisions: one JSONL row."""
    game, players, seed, per_game, spec, budget_text = job
    budget = reviews.ReviewBudget.parse(budget_text)
    record, play_cpu, timed_out = play_game(game, players, seed, spec)
    known = reviews.positions(record)
    states, _ = known
    decisions = [i for i, state in enumerate(states[:-1]) if len(state.legal_actions()) > 1]
    outcome = states[-1].outcome()
    shares = outcome_shares(outcome.winners, players)
    positions = []
    review_cpu = 0.0
    for index in chosen_decisions(decisions, per_game, seed):
        start = time.process_time()
        result = reviews.run_step(record, f"decision:{index}", budget, known)
        spent = time.process_time() - start
        review_cpu += spent
        seat = int(result["seat"])
        positions.append(
            {
                "index": index,
                "turn": int(result["turn"]),
                "seat": seat,
                # the raw shares of playouts won: the summary maps them as the review does
                # (keltis.review.calibrated), so the map can be fitted and measured apart
                "best": float(result["best"]["raw"]),
                "played": float(result["played"]["raw"]),
                "outcome": shares[seat],
                "cpu": round(spent, 4),
            }
        )
    return {
        "config": config_name(game, players),
        "game": game,
        "players": players,
        "seed": seed,
        "spec": spec,
        "budget": budget.to_json(),
        "host": platform.node(),
        "actions": len(record.actions),
        "decisions": len(decisions),
        "per_game": per_game,
        "scores": list(outcome.scores),
        "winners": list(outcome.winners),
        "play_cpu": round(play_cpu, 3),
        "searches_timed_out": timed_out,
        "review_cpu": round(review_cpu, 3),
        "positions": positions,
        "record": record.to_json(),
    }


# -- the statistics --------------------------------------------------------------------------


def bin_of(p: float) -> int:
    return min(BINS - 1, max(0, int(p * BINS)))


def brier(pairs: Sequence[tuple[float, float]]) -> float:
    """Mean squared difference of prediction and outcome."""
    return sum((p - o) ** 2 for p, o in pairs) / len(pairs)


def _quantiles(values: list[float]) -> list[float]:
    ordered = sorted(values)
    n = len(ordered)
    return [ordered[int(0.025 * (n - 1))], ordered[int(0.975 * (n - 1))]]


def bootstrap_games(
    games: Sequence[Sequence[tuple[float, float]]],
    statistic: Any,
    resamples: int = RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
) -> list[float] | None:
    """A 95% percentile interval of ``statistic(pairs)`` over resamples of whole games (each
    game's (prediction, outcome) pairs kept together); resamples where the statistic is
    undefined (``None``) are left out. ``None`` with fewer than two games."""
    if len(games) < 2:
        return None
    rng = random.Random(seed)
    values = []
    for _ in range(resamples):
        pairs = [pair for _ in games for pair in games[rng.randrange(len(games))]]
        value = statistic(pairs)
        if value is not None:
            values.append(value)
    return [round(v, 4) for v in _quantiles(values)] if values else None


def _observed_in_bin(b: int) -> Any:
    def statistic(pairs: Sequence[tuple[float, float]]) -> float | None:
        inside = [o for p, o in pairs if bin_of(p) == b]
        return sum(inside) / len(inside) if inside else None

    return statistic


def reliability(
    games: Sequence[Sequence[tuple[float, float]]], resamples: int = RESAMPLES
) -> list[dict[str, Any]]:
    """The reliability table of (prediction, outcome) pairs grouped by game: one row per bin
    with positions in it."""
    pairs = [pair for game in games for pair in game]
    rows = []
    for b in range(BINS):
        inside = [(p, o) for p, o in pairs if bin_of(p) == b]
        if not inside:
            continue
        rows.append(
            {
                "bin": [b / BINS, (b + 1) / BINS],
                "count": len(inside),
                "games": sum(1 for game in games if any(bin_of(p) == b for p, _ in game)),
                "mean_predicted": round(sum(p for p, _ in inside) / len(inside), 4),
                "observed": round(sum(o for _, o in inside) / len(inside), 4),
                "observed_ci95": bootstrap_games(games, _observed_in_bin(b), resamples),
            }
        )
    return rows


def as_shown(row: dict[str, Any]) -> dict[str, Any]:
    """A game's row with each position's raw chances mapped as the review shows them."""

    def shown(p: float) -> float:
        return reviews.calibrated(p, row["game"], row["players"])

    positions = [
        {**q, "best": shown(q["best"]), "played": shown(q["played"])} for q in row["positions"]
    ]
    return {**row, "positions": positions}


def summarise(
    name: str, rows: Sequence[dict[str, Any]], resamples: int = RESAMPLES
) -> dict[str, Any]:
    """The calibration of the games ``rows`` (JSONL rows) as one summary."""
    best = [[(q["best"], q["outcome"]) for q in row["positions"]] for row in rows]
    best = [game for game in best if game]
    played = [[(q["played"], q["outcome"]) for q in row["positions"]] for row in rows]
    pairs = [pair for game in best for pair in game]
    positions = len(pairs)
    out: dict[str, Any] = {
        "benchmark": "review-calibration",
        "config": name,
        "games": len(rows),
        "positions": positions,
    }
    if not positions:
        return out
    # The base rate: every seat even, 1/players, for each position's own game.
    base = [(1.0 / row["players"], q["outcome"]) for row in rows for q in row["positions"]]
    base_brier = brier(base)
    score = brier(pairs)
    review_cpu = sum(q["cpu"] for row in rows for q in row["positions"])
    out.update(
        {
            "brier": round(score, 4),
            "brier_ci95": bootstrap_games(best, brier, resamples),
            "brier_base_rate": round(base_brier, 4),
            "skill": round(1 - score / base_brier, 4) if base_brier else None,
            "brier_played": round(brier([pair for game in played for pair in game]), 4),
            "mean_predicted": round(sum(p for p, _ in pairs) / positions, 4),
            "mean_outcome": round(sum(o for _, o in pairs) / positions, 4),
            "reliability": reliability(best, resamples),
            "cpu_s_per_position": round(review_cpu / positions, 4),
            "cpu_s_per_game_played": round(sum(r["play_cpu"] for r in rows) / len(rows), 2),
            "searches_timed_out": sum(r.get("searches_timed_out", 0) for r in rows),
            "hosts": sorted({r.get("host", "?") for r in rows}),
        }
    )
    return out


# -- running ---------------------------------------------------------------------------------


def games_file(out: Path) -> Path:
    return out.with_suffix(".jsonl")


def _decision_budget(budget: dict[str, Any]) -> dict[str, Any]:
    """The parts of a review budget that a decision's step depends on (``luck_playouts`` is
    the luck's alone)."""
    return {key: budget[key] for key in ("iterations", "width", "seed")}


def load_rows(path: Path, spec: str, budget: dict[str, Any]) -> dict[tuple[str, int], Any]:
    """The games already measured with this spec and budget (the parts of it the decisions
    use), by (configuration, seed); a damaged line (an interrupted write) is ignored."""
    rows: dict[tuple[str, int], Any] = {}
    if not path.exists():
        return rows
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not text.strip():
            continue
        try:
            row = json.loads(text)
            if row["spec"] == spec and _decision_budget(row["budget"]) == _decision_budget(budget):
                rows[(row["config"], int(row["seed"]))] = row
        except (ValueError, KeyError, TypeError):
            print(f"{path}:{number}: not a game result, ignored", file=sys.stderr)
    return rows


def _interrupted(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def run_missing(jobs: list[tuple[str, int, int, int, str, str]], path: Path, workers: int) -> None:
    """Measure every job, appending each game's row as it ends."""
    if not jobs:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    pool = multiprocessing.Pool(workers) if workers > 1 else None
    # A polite kill (SIGTERM) ends the run as an interrupt does: the workers go with it.
    signal.signal(signal.SIGTERM, _interrupted)
    start = time.perf_counter()
    positions = 0
    try:
        rows = pool.imap_unordered(measure_game, jobs) if pool else map(measure_game, jobs)
        with path.open("a", encoding="utf-8") as handle:
            for count, row in enumerate(rows, 1):
                handle.write(json.dumps(row) + "\n")
                handle.flush()
                positions += len(row["positions"])
                elapsed = time.perf_counter() - start
                print(
                    f"{count}/{len(jobs)} games ({row['config']} seed {row['seed']}), "
                    f"{positions} positions, {elapsed:.0f} s, "
                    f"~{elapsed / count * (len(jobs) - count):.0f} s left",
                    file=sys.stderr,
                    flush=True,
                )
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark from the command line."""
    for name in ("board", "cards"):
        get_game(name).heuristics()  # loaded before the workers start
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--games", type=int, default=25, help="games per configuration (default 25)"
    )
    parser.add_argument(
        "--per-game", type=int, default=20, help="decisions reviewed per game (default 20)"
    )
    parser.add_argument("--workers", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument(
        "--seed", type=int, default=FIRST_SEED, help=f"first game seed (default {FIRST_SEED})"
    )
    parser.add_argument(
        "--configs",
        default=",".join(config_name(g, p) for g, p in CONFIGS),
        help="comma-separated configurations (default: board-2p,board-4p,cards-2p,cards-4p)",
    )
    parser.add_argument(
        "--spec", default=LEVELS["hard"].spec, help="the bot in every seat (default: hard)"
    )
    parser.add_argument(
        "--budget", default="", help="the review's budget (ReviewBudget.parse; default: its own)"
    )
    parser.add_argument(
        "--resamples", type=int, default=RESAMPLES, help="bootstrap resamples (default 2000)"
    )
    parser.add_argument("--out", default=str(OUT), help="the summary file (games: .jsonl)")
    parser.add_argument(
        "--summary-only", action="store_true", help="summarise the games measured; play none"
    )
    args = parser.parse_args(argv)
    if args.games < 1 or args.per_game < 1 or args.workers < 1 or args.resamples < 1:
        parser.error("--games, --per-game, --workers and --resamples must be at least 1")
    try:
        budget = reviews.ReviewBudget.parse(args.budget)
        make_bot(args.spec, 0)
    except ValueError as error:
        parser.error(str(error))
    known = {config_name(g, p): (g, p) for g, p in CONFIGS}
    wanted = []
    for name in (name.strip() for name in args.configs.split(",")):
        if name not in known:
            parser.error(f"unknown configuration {name!r}: choose from {', '.join(known)}")
        wanted.append(name)
    out = Path(args.out)
    path = games_file(out)
    seeds = range(args.seed, args.seed + args.games)
    if not args.summary_only:
        done = load_rows(path, args.spec, budget.to_json())
        # Seed by seed, every configuration: a run cut short leaves each partly measured.
        jobs = [
            (*known[name], seed, args.per_game, args.spec, args.budget)
            for seed in seeds
            for name in wanted
            if (name, seed) not in done
        ]
        try:
            run_missing(jobs, path, args.workers)
        except KeyboardInterrupt:
            print("\ninterrupted: the games measured are kept; run again to go on", file=sys.stderr)
            return 130
    rows = load_rows(path, args.spec, budget.to_json())
    chosen = {name: [rows[(name, s)] for s in seeds if (name, s) in rows] for name in wanted}
    summaries = [summarise(name, chosen[name], args.resamples) for name in wanted]
    everything = [row for name in wanted for row in chosen[name]]
    overall = summarise("all", everything, args.resamples)
    held_out = {
        name: [row for row in chosen[name] if row["seed"] >= HELD_OUT_FROM] for name in wanted
    }
    shown = {name: [as_shown(row) for row in held_out[name]] for name in wanted}
    calibrated = {
        "what": "the chances the review shows (the raw shares through keltis.review's "
        f"calibration map), on the games of seeds {HELD_OUT_FROM} onwards only: the map was "
        f"fitted on seeds {FIRST_SEED}-{HELD_OUT_FROM - 1}",
        "map": {f"{g}-{p}p": list(ab) for (g, p), ab in reviews.CALIBRATION.items()},
        "overall": summarise("all", [r for n in wanted for r in shown[n]], args.resamples),
        "raw_overall_same_games": summarise(
            "all", [r for n in wanted for r in held_out[n]], args.resamples
        ),
        "configs": [summarise(name, shown[name], args.resamples) for name in wanted],
    }
    document = {
        "benchmark": "review-calibration",
        "spec": args.spec,
        "budget": budget.to_json(),
        "first_seed": args.seed,
        "games_per_config": args.games,
        "per_game": args.per_game,
        "interval": "95% percentile bootstrap over games (a game's positions resampled "
        f"together), {args.resamples} resamples",
        "outcome": "1 for a win, 1/k for a victory shared by k players, 0 for a loss",
        "python": platform.python_version(),
        "predicted": "the raw share of the search's playouts won by the best move "
        "(best.raw), on every game; 'calibrated' has what the review shows",
        "overall": overall,
        "configs": summaries,
        "calibrated": calibrated,
    }
    text = json.dumps(document, indent=1)
    print(text, flush=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

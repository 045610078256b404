"""Speed of keltis.fast against the plain-C references, in one run, alternating, CPU time.

Builds ``../shared/limit/board_random.c`` and ``cards_random.c`` with ``cc -O2`` in a
temporary directory, then for each game and player count takes ``--rounds`` measurements of
each side in turn (the order alternates between rounds):

* C: the reference binary runs for ``--seconds``; its games are divided by the CPU time the
  child used (``getrusage``), not by the wall time it prints;
* fast: ``keltis.fast.simulate(game, players, n, "random", seed)`` with ``n`` sized to take
  about ``--seconds``, divided by this process's CPU time (``time.process_time``); compiling
  the kernels happens before and is not timed.

Both play uniform random playouts to the end. Decisions are counted as each side counts them
(see docs/performance.md): C counts every decision point, forced ones too, with the figure
choice folded into the lay and the choice uniform over hand slots x kind; keltis.fast counts
the decisions the reference engine records (``len(state.history)``), uniform over distinct
legal decisions, where a figure choice is a decision of its own and a clover or overflow with
no figure to move is not asked. Reported per line: medians of games/s, decisions/game and
ns/decision, and the ratio fast / C of the median games/s (target: at least 0.5).

    python benchmarks/fast_speed.py                          # ~2 min
    python benchmarks/fast_speed.py --out benchmarks/results/fast-speed.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numba

from keltis.fast import simulate

ROOT = Path(__file__).resolve().parents[1]
LIMIT = ROOT.parent / "shared" / "limit"
TARGET_RATIO = 0.5


def _build(source_dir: Path, work: Path) -> dict[str, Path]:
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        sys.exit("fast_speed: no C compiler (cc) to build the references")
    out = {}
    for game, name in (("board", "board_random"), ("cards", "cards_random")):
        source = source_dir / f"{name}.c"
        if not source.exists():
            sys.exit(f"fast_speed: {source} not found (give --limit-dir)")
        binary = work / name
        subprocess.run([cc, "-O2", "-o", str(binary), str(source)], check=True)
        out[game] = binary
    return out


def _run_c(binary: Path, players: int, seconds: float) -> dict[str, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    text = subprocess.run(
        [str(binary), str(players), str(seconds)], capture_output=True, text=True, check=True
    ).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    data = json.loads(text)
    games = float(data["games"])
    return {
        "games": games,
        "cpu_seconds": cpu,
        "games_per_second": games / cpu,
        "decisions_per_game": float(data["decisions_per_game"]),
    }


def _run_fast(game: str, players: int, games: int, seed: int) -> dict[str, float]:
    start = time.process_time()
    result = simulate(game, players, games, "random", seed)
    cpu = time.process_time() - start
    return {
        "games": float(games),
        "cpu_seconds": cpu,
        "games_per_second": games / cpu,
        "decisions_per_game": float(result.decisions.mean()),
    }


def _summary(runs: list[dict[str, float]]) -> dict[str, Any]:
    rate = statistics.median(r["games_per_second"] for r in runs)
    per_game = statistics.median(r["decisions_per_game"] for r in runs)
    return {
        "games_per_second": round(rate, 1),
        "decisions_per_game": round(per_game, 1),
        "ns_per_decision": round(1e9 / (rate * per_game), 1),
        "runs_games_per_second": [round(r["games_per_second"], 1) for r in runs],
        "games": int(sum(r["games"] for r in runs)),
    }


def main() -> None:
    """Build the references, measure both sides alternately, print (and write) JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="measurements per side and line")
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one measurement")
    parser.add_argument("--players", type=int, choices=[2, 3, 4], action="append")
    parser.add_argument("--game", choices=["board", "cards", "all"], default="all")
    parser.add_argument("--limit-dir", type=Path, default=LIMIT, help="the C references")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=None, help="also write the JSON to this file")
    args = parser.parse_args()
    games = ("board", "cards") if args.game == "all" else (args.game,)
    players_list = args.players or [2, 3, 4]
    lines: list[dict[str, Any]] = []
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="keltis-limit-") as tmp:
        binaries = _build(args.limit_dir, Path(tmp))
        for game in games:
            for players in players_list:
                simulate(game, players, 10, "random", args.seed)  # compile or load the cache
                probe = _run_fast(game, players, 2000, args.seed)
                size = max(1000, int(probe["games_per_second"] * args.seconds))
                c_runs: list[dict[str, float]] = []
                fast_runs: list[dict[str, float]] = []
                for round_ in range(args.rounds):
                    seed = args.seed + 1_000_000 * (round_ + 1)
                    if round_ % 2 == 0:
                        c_runs.append(_run_c(binaries[game], players, args.seconds))
                        fast_runs.append(_run_fast(game, players, size, seed))
                    else:
                        fast_runs.append(_run_fast(game, players, size, seed))
                        c_runs.append(_run_c(binaries[game], players, args.seconds))
                c = _summary(c_runs)
                fast = _summary(fast_runs)
                ratio = fast["games_per_second"] / c["games_per_second"]
                per_decision = c["ns_per_decision"] / fast["ns_per_decision"]
                line = {
                    "game": game,
                    "players": players,
                    "c": c,
                    "fast": fast,
                    "ratio_games_per_second": round(ratio, 3),
                    "ratio_ns_per_decision": round(per_decision, 3),
                    "meets_target": ratio >= TARGET_RATIO,
                }
                lines.append(line)
                print(json.dumps(line), file=sys.stderr, flush=True)
    out = {
        "benchmark": "fast_speed",
        "what": (
            "uniform random playouts to the end, one core, CPU time; C: ../shared/limit "
            "(cc -O2), fast: keltis.fast.simulate; rounds alternate which side runs first"
        ),
        "decision_counting": {
            "c": (
                "every decision point, forced ones too; figure choice folded into the lay; "
                "uniform over hand slots x kind"
            ),
            "fast": (
                "the reference engine's decisions (len(state.history)): uniform over distinct "
                "legal decisions; the figure choice is its own decision; a clover or overflow "
                "with no figure to move is not asked; the card game's last lays only for "
                "players who can lay"
            ),
        },
        "target_ratio": TARGET_RATIO,
        "date": time.strftime("%Y-%m-%d"),
        "machine": {
            "cpus": os.cpu_count(),
            "processor": platform.processor() or platform.machine(),
            "load_average_before": [round(x, 2) for x in load_before],
            "load_average_after": [round(x, 2) for x in os.getloadavg()],
        },
        "python": platform.python_version(),
        "numba": numba.__version__,
        "rounds": args.rounds,
        "seconds_per_measurement": args.seconds,
        "lines": lines,
    }
    text = json.dumps(out, indent=1)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

"""The full differential run: keltis.fast against the reference engine, decision by decision.

For each game, player count (2-4) and policy (random, greedy) it plays ``--games`` games
(10,000 by default) in both engines from the reference's deals (``Game.deal(players, seed)``)
and compares the set of legal decisions before every decision and the outcome (end reason,
scores, turns, decisions) at the end (``keltis.fast.diff``). Smaller runs add what the main
lines rarely reach: the fast engine's own deals, a short turn cap (truncation), and the
board game's take-back variant (B-15). Any difference stops the run with the game's set-up
and history. The JSON result (per line and totals) is written to ``--out``:

    python benchmarks/fast_diff.py                       # ~30 min on a busy 2-core machine
    python benchmarks/fast_diff.py --games 200 --out -   # a quick look, printed
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path
from typing import Any

import numba

from keltis.core.protocol import JSON
from keltis.fast.diff import differential
from provenance import commit  # benchmarks/provenance.py, next to this script

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "results" / "fast-diff.json"


def main() -> None:
    """Run the lines, print progress to stderr, write the JSON result."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games per main line")
    parser.add_argument("--seed", type=int, default=1_000_000, help="first seed of every line")
    parser.add_argument("--out", default=str(OUT), help="result file ('-': standard output)")
    parser.add_argument(
        "--reference-commit",
        default=None,
        help="the commit of the engines compared, for the record (default: git rev-parse HEAD; "
        "give it when running from an exported tree)",
    )
    args = parser.parse_args()
    extra = max(1, args.games // 10)
    lines: list[tuple[str, int, str, str, JSON | None, int]] = []
    for game in ("board", "cards"):
        for players in (2, 3, 4):
            for policy in ("random", "greedy"):
                lines.append((game, players, policy, "reference", None, args.games))
    for game in ("board", "cards"):
        for players in (2, 3, 4):
            lines.append((game, players, "random", "fast", None, extra))
            lines.append((game, players, "greedy", "fast", None, extra))
            lines.append((game, players, "random", "reference", {"turn_cap": 30}, extra))
    for players in (2, 3, 4):
        lines.append(("board", players, "random", "reference", {"no_take_back": False}, extra))
    results: list[dict[str, Any]] = []
    started = time.perf_counter()
    for game, players, policy, deal, variant, n in lines:
        t0 = time.perf_counter()
        result = differential(
            game, players, n, policy=policy, seed=args.seed, variant=variant, deal=deal
        )
        result["seconds"] = round(time.perf_counter() - t0, 1)
        results.append(result)
        print(
            f"{game} {players}p {policy} deal={deal} variant={result['variant']}: {n} games, "
            f"{result['decisions']} decisions equal ({result['seconds']} s)",
            file=sys.stderr,
            flush=True,
        )
    totals: dict[str, Any] = {
        "games": sum(r["games"] for r in results),
        "decisions": sum(r["decisions"] for r in results),
        "legal_sets_compared": sum(r["legal_sets_compared"] for r in results),
    }
    out = {
        "benchmark": "fast_diff",
        "what": (
            "keltis.fast against the reference engine: the set of legal decisions (dense "
            "action indices) before every decision, and end reason, scores, turns and "
            "decision count at the end, over the same deals and choices"
        ),
        "all_equal": True,
        "reference_commit": args.reference_commit or commit(),
        "date": time.strftime("%Y-%m-%d"),
        "python": platform.python_version(),
        "numba": numba.__version__,
        "games_per_main_line": args.games,
        "seed": args.seed,
        "seconds": round(time.perf_counter() - started, 1),
        "totals": totals,
        "lines": results,
    }
    text = json.dumps(out, indent=1) + "\n"
    if args.out == "-":
        sys.stdout.write(text)
    else:
        Path(args.out).write_text(text, encoding="utf-8")
        print(f"written to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()

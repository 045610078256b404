"""Tune the heuristic's weights at kernel speed: ``python -m keltis.fast.tune`` (needs
``pip install 'keltis[tune]'``: numba and ``cma``).

The medium level and every playout of the hard level run on the game's heuristic, whose
judgement is a handful of documented weights (``keltis.board.policy.BoardTuning``,
``keltis.cards.policy.CardTuning``). This searches them with CMA-ES (the ``cma`` library):

- a candidate is judged by :func:`keltis.fast.tuning.duel` against today's weights, in the
  kernel: each deal is played once with the candidate in every seat (the same cards and draws,
  so a deal's luck cancels out), and its fitness is its mean share of the victory (0.5 is as
  good as today's in two-player games, 0.25 in four-player ones);
- the candidates of one generation play the same deals (common random numbers: they are
  compared on equal terms), and each generation plays new ones, from the tuning stream
  (:data:`TUNE_SEED`), so no candidate is fitted to a fixed set of deals;
- the search runs in the logarithm of each weight relative to today's (``w = w0 * exp(x)``,
  ``x`` starting at 0 with a spread ``--sigma``): weights stay positive and are searched in
  proportion to their size;
- every ``--check-every`` generations the search's mean (CMA-ES's current estimate) is played
  against today's weights on the check deals (:data:`CHECK_SEED`, the same each time), which
  gives the curve: its share with a 95% interval.

A run is resumable: its folder keeps the search (``search.pickle``, written after every
generation) and a log (``log.jsonl``: one JSON object per generation); run the same command
again to go on. ``tuned.json`` holds the search's mean as weights at the end. Neither stream's
deals are the seeds the strength benchmark measures with (those are the reference engine's).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import pickle
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from keltis.fast.tuning import default_tuning, duel, tuning_array, tuning_fields
from keltis.games import GAME_NAMES, get_game

try:
    import cma  # type: ignore[import-untyped]
except ImportError as _missing:  # pragma: no cover - depends on the environment
    raise ImportError("keltis.fast.tune needs cma: pip install 'keltis[tune]'") from _missing

#: The kernel stream the candidates' deals come from (generation ``g`` plays deals
#: ``g * deals`` onwards), and the one of the check deals: far apart, and both the fast
#: engine's own, never the reference engine's seeds the strength benchmark measures with.
TUNE_SEED: Final = 9_100_000
CHECK_SEED: Final = 9_200_000
#: How far a weight may move from today's, as a factor either way (``exp(3)`` ≈ 20).
BOUND: Final = 3.0


@dataclass(frozen=True)
class Settings:
    """One tuning run's settings (what its folder was started with)."""

    game: str
    players: int
    generations: int
    deals: int
    popsize: int
    sigma: float
    check_every: int
    check_deals: int
    seed: int

    def matches(self, other: Settings) -> list[str]:
        """The settings of ``other`` that differ, other than how many generations to run."""
        mine, theirs = vars(self), vars(other)
        return [k for k in mine if k != "generations" and mine[k] != theirs[k]]


def weights_of(game: str, x: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """The weights a point of the search stands for: today's times ``exp(x)``."""
    base = tuning_array(default_tuning(game))
    out: npt.NDArray[np.float64] = base * np.exp(np.clip(np.asarray(x), -BOUND, BOUND))
    return out


def share_interval(shares: npt.NDArray[np.float64]) -> tuple[float, float, float]:
    """The mean of per-deal shares and its 95% interval (normal: each deal is one paired
    sample)."""
    mean = float(shares.mean())
    half = 1.96 * float(shares.std(ddof=1)) / math.sqrt(len(shares)) if len(shares) > 1 else 0.0
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def _new_search(settings: Settings, size: int) -> Any:
    options = {
        "popsize": settings.popsize,
        "seed": settings.seed,
        "bounds": [-BOUND, BOUND],
        "verbose": -9,
    }
    return cma.CMAEvolutionStrategy(np.zeros(size), settings.sigma, options)


def _check(settings: Settings, x: npt.NDArray[np.float64]) -> dict[str, Any]:
    shares = duel(
        settings.game,
        settings.players,
        weights_of(settings.game, x),
        CHECK_SEED,
        range(settings.check_deals),
    )
    mean, low, high = share_interval(shares)
    return {"check_share": round(mean, 4), "check_ci95": [round(low, 4), round(high, 4)]}


def _generation(settings: Settings, es: Any, generation: int) -> dict[str, Any]:
    """Ask for a generation's candidates, play each against today's weights on the
    generation's deals, tell the search; return the log's line."""
    started = time.process_time()
    points = es.ask()
    first = generation * settings.deals
    deals = range(first, first + settings.deals)
    shares = [
        float(
            duel(
                settings.game, settings.players, weights_of(settings.game, x), TUNE_SEED, deals
            ).mean()
        )
        for x in points
    ]
    es.tell(points, [1.0 - share for share in shares])
    mean = np.asarray(es.mean, dtype=np.float64)
    line: dict[str, Any] = {
        "generation": generation,
        "deals": [first, first + settings.deals],
        "best_share": round(max(shares), 4),
        "mean_share": round(sum(shares) / len(shares), 4),
        "sigma": round(float(es.sigma), 4),
        "mean_weights": dict(
            zip(
                tuning_fields(settings.game),
                np.round(weights_of(settings.game, mean), 4).tolist(),
                strict=True,
            )
        ),
    }
    if (generation + 1) % settings.check_every == 0 or generation + 1 == settings.generations:
        line.update(_check(settings, mean))
    line["cpu_seconds"] = round(time.process_time() - started, 2)
    return line


def run(settings: Settings, folder: Path, *, out: Any = sys.stdout) -> dict[str, Any]:
    """Run (or go on with) the tuning in ``folder``; return the final summary (also written to
    ``tuned.json``)."""
    folder.mkdir(parents=True, exist_ok=True)
    saved = folder / "search.pickle"
    log = folder / "log.jsonl"
    fields = tuning_fields(settings.game)
    if saved.exists():
        with saved.open("rb") as handle:
            kept = pickle.load(handle)  # the run's own file, written below
        differ = kept["settings"].matches(settings)
        if differ:
            raise ValueError(
                f"{folder} holds a run with other settings ({', '.join(differ)}): "
                "go on with the same ones, or choose another folder"
            )
        es, generation = kept["search"], kept["generation"]
        np.random.set_state(kept["numpy_random"])  # cma draws from numpy's global generator
    else:
        es, generation = _new_search(settings, len(fields)), 0
        log.write_text("", encoding="utf-8")
    while generation < settings.generations:
        line = _generation(settings, es, generation)
        generation += 1
        with log.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(line) + "\n")
        state = {
            "settings": settings,
            "search": es,
            "generation": generation,
            "numpy_random": np.random.get_state(),
        }
        partial = saved.with_suffix(".tmp")
        partial.write_bytes(pickle.dumps(state))
        partial.replace(saved)  # a crash mid-write keeps the last whole generation
        check = f", check {line['check_share']:.3f}" if "check_share" in line else ""
        print(
            f"generation {generation}/{settings.generations}: best {line['best_share']:.3f}, "
            f"mean {line['mean_share']:.3f}, sigma {line['sigma']:.3f}{check} "
            f"({line['cpu_seconds']:.1f} s CPU)",
            file=out,
            flush=True,
        )
    mean = np.asarray(es.mean, dtype=np.float64)
    summary = {
        "benchmark": "heuristic-tuning",
        "settings": vars(settings),
        "tune_seed": TUNE_SEED,
        "check_seed": CHECK_SEED,
        "generations_run": generation,
        "weights": dict(
            zip(fields, np.round(weights_of(settings.game, mean), 4).tolist(), strict=True)
        ),
        "today": dict(
            zip(fields, tuning_array(default_tuning(settings.game)).tolist(), strict=True)
        ),
        **_check(settings, mean),
    }
    (folder / "tuned.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return summary


def main(argv: list[str] | None = None) -> int:
    """The command line."""
    parser = argparse.ArgumentParser(
        prog="python -m keltis.fast.tune", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--game", choices=GAME_NAMES, required=True)
    parser.add_argument("--players", type=int, default=2, help="2-4 (default 2)")
    parser.add_argument("--generations", type=int, default=40, help="default 40")
    parser.add_argument("--deals", type=int, default=400, help="deals a candidate (default 400)")
    parser.add_argument("--popsize", type=int, default=12, help="candidates a generation (12)")
    parser.add_argument("--sigma", type=float, default=0.3, help="first spread, log scale (0.3)")
    parser.add_argument("--check-every", type=int, default=5, help="generations (default 5)")
    parser.add_argument("--check-deals", type=int, default=2000, help="default 2000")
    parser.add_argument("--seed", type=int, default=1, help="CMA-ES's own seed (default 1)")
    parser.add_argument("--nice", type=int, default=10, help="niceness added (default 10)")
    parser.add_argument("--out", required=True, help="the run's folder (resumable)")
    args = parser.parse_args(argv)
    try:
        get_game(args.game).check_players(args.players)
    except ValueError as error:
        parser.error(str(error))
    for name in ("generations", "deals", "check_every", "check_deals"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    if args.popsize < 2 or not args.sigma > 0:
        parser.error("--popsize must be at least 2 and --sigma above 0")
    settings = Settings(
        args.game, args.players, args.generations, args.deals, args.popsize, args.sigma,
        args.check_every, args.check_deals, args.seed,
    )  # fmt: skip
    if args.nice:
        os.nice(args.nice)
    try:
        summary = run(settings, Path(args.out))
    except ValueError as error:
        print(f"keltis.fast.tune: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted: the generations done are kept; run again to go on", file=sys.stderr)
        return 130
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The proof of the kernels' medium policy: every decision of the compiled heuristic (policy
2, ``choose`` in each game's kernel) against the Python heuristic that the medium level plays
(``keltis.cards.policy.cards_scores``, ``keltis.board.policy.board_scores``).

For each game both engines start from the same deal (as :mod:`keltis.fast.diff`). The fast
engine plays the game to its end with every seat medium, recording each legal list and
choice. The reference engine then replays the choices; before each one:

* the legal sets must be equal (as in :mod:`keltis.fast.diff`);
* the Python policy scores every legal action on the reference state, and the kernel's
  ``medium_scores`` every legal decision on a second fast state replayed alongside: the two
  scores of each decision must be equal (``max_score_difference`` reports the largest gap;
  any gap over :data:`TOLERANCE` is a difference);
* the kernel's choice must be among the Python policy's best-scored actions (those within
  1e-9 of the best, as ``keltis.core.policy.best_scored``: the set the medium bot draws from).

The end must agree as in :mod:`keltis.fast.diff`. The first difference raises
:class:`~keltis.fast.diff.MismatchError` with the game's set-up and history. As a command
(the full run's results go to ``benchmarks/results/kernel-medium-diff.json``, one entry per
game and player count, merged into the file)::

    python -m keltis.fast.medium_diff cards --players 2 4 --games 2000
    python -m keltis.fast.medium_diff board --players 2 --games 100 --first 1900 --out -
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, cast

import numpy as np
import numpy.typing as npt

from keltis.core.actions import Action
from keltis.core.protocol import JSON
from keltis.fast import driver
from keltis.fast.batch import check_policy
from keltis.fast.diff import MismatchError, _report, _same_outcome, _start
from keltis.fast.setup import kernel
from keltis.fast.tuning import Tuning, default_tuning, weights
from keltis.games import GAME_NAMES, get_game

#: The largest gap allowed between a kernel score and the Python policy's.
TOLERANCE: Final = 1e-9
#: Where the full run's results go.
RESULTS: Final = Path("benchmarks") / "results" / "kernel-medium-diff.json"

Scorer = Callable[[Any, Any], list[tuple[float, Action]]]


def _scorer(game: str) -> Scorer:
    """The game's Python scorer (``cards_scores`` or ``board_scores``), called with a tuning."""
    return cast(Scorer, get_game(game).heuristics().scores)


def _check(
    python: dict[int, float],
    fast: npt.NDArray[np.int32],
    kernel_scores: npt.NDArray[np.float64],
    choice: int,
    notation: tuple[str, ...],
) -> tuple[int, float, int, str]:
    """One decision compared: the Python policy's score of each legal action (``python``, by
    action id) against the kernel's legal list ``fast`` and its scores, and the kernel's
    ``choice`` (``notation``: the game's action ids in words, for the report).
    Returns how many scores are equal exactly, the largest gap, how many actions share the
    best score and ``""``; or -1 and what differs."""
    n = len(fast)
    if sorted(fast.tolist()) != sorted(python) or len(python) != n:
        return (
            -1,
            0.0,
            0,
            (
                f"legal decisions differ\n  reference: {sorted(python)}\n"
                f"  fast:      {sorted(fast.tolist())}"
            ),
        )
    exact = 0
    worst = 0.0
    for i in range(n):
        theirs = python[int(fast[i])]
        gap = abs(float(kernel_scores[i]) - theirs)
        exact += gap == 0.0
        worst = max(worst, gap)
        if not gap <= TOLERANCE:
            return (
                -1,
                gap,
                0,
                (
                    f"scores differ\n  {notation[int(fast[i])]}: kernel "
                    f"{float(kernel_scores[i])!r}, python {theirs!r}"
                ),
            )
    best = max(python.values())
    top = sorted(a for a, score in python.items() if score >= best - 1e-9)
    if choice not in top:
        names = ", ".join(notation[a] for a in top)
        return (
            -1,
            worst,
            0,
            (
                f"the kernel's choice is not the policy's\n  kernel: {notation[choice]};"
                f" python's best: {names}"
            ),
        )
    return exact, worst, len(top), ""


def medium_differential(
    game: str,
    players: int,
    n_games: int,
    *,
    seed: int = 0,
    first: int = 0,
    variant: JSON | None = None,
    tuning: Tuning | None = None,
    deal: str = "fast",
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play games ``first`` … ``first + n_games - 1`` (the fast deals of ``seed``, or the
    reference deals of ``seed + i`` with ``deal="reference"``) with every seat medium in the
    kernel and check every decision against the Python heuristic (see the module); returns
    what was compared. ``progress`` is called with the number of games done after each."""
    code = check_policy("medium")
    rules = get_game(game)
    rules.check_players(players)
    space = rules.actions
    k = kernel(game)
    tag = driver.tag(game)
    chosen = default_tuning(game, players) if tuning is None else tuning
    w = weights(game, chosen)
    scorer = _scorer(game)
    cap = int(rules.variant_json(variant)["turn_cap"])
    room = rules.max_game_length(players, cap) + 1
    legal_out = np.zeros(room * k.MAX_LEGAL, dtype=np.int32)
    offsets = np.zeros(room + 1, dtype=np.int64)
    choices = np.zeros(room, dtype=np.int32)
    kernel_scores = np.zeros(k.MAX_LEGAL, dtype=np.float64)
    ends: Counter[str] = Counter()
    phases: Counter[str] = Counter()
    decisions = ties = exact = scored = 0
    worst = 0.0
    for g in range(first, first + n_games):
        s, rng, setup, where = _start(rules, players, seed, g, deal, variant)
        replay = s.copy()
        ref = rules.new_game(players, setup=setup, variant=variant)
        steps = int(driver.play(tag, s, code, rng, True, legal_out, offsets, choices, w))
        where += f", every seat medium, variant {rules.variant_json(variant)}"
        for step in range(steps):
            fast = legal_out[offsets[step] : offsets[step + 1]]
            n = len(fast)
            python = {space.index(a): score for score, a in scorer(ref, chosen)}
            k.medium_scores(replay, fast, n, w, kernel_scores)
            choice = int(choices[step])
            same, gap, best, problem = _check(python, fast, kernel_scores, choice, space.notation)
            if problem:
                raise MismatchError(_report(where, setup, ref, step, problem))
            exact += same
            worst = max(worst, gap)
            scored += n
            ties += best > 1
            phases[ref.phase_name] += 1
            ref.apply(space.action(choice))
            k.apply(replay, choice)
        ends[_same_outcome(k, s, ref, steps, where, setup)] += 1
        decisions += steps
        if progress is not None:
            progress(g - first + 1)
    return {
        "game": game,
        "players": players,
        "deal": deal,
        "seed": seed,
        "first_game": first,
        "games": n_games,
        "variant": rules.variant_json(variant),
        "decisions": decisions,
        "decisions_with_tied_best": ties,
        "scores_compared": scored,
        "scores_equal_exactly": exact,
        "max_score_difference": worst,
        "end_reasons": dict(sorted(ends.items())),
        "decisions_by_phase": dict(sorted(phases.items())),
    }


def _commit() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main(argv: list[str] | None = None) -> int:
    """Run the proof for one game and the player counts asked; merge the results into
    ``--out`` (``-``: print them)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else "")
    parser.add_argument("game", choices=GAME_NAMES)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--games", type=int, default=2000, help="games per player count")
    parser.add_argument("--first", type=int, default=0, help="index of the first game")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=str(RESULTS), help="result file ('-': print)")
    args = parser.parse_args(argv)
    results = {}
    for players in args.players:
        started = time.process_time()

        def show(done: int, players: int = players, every: int = max(1, args.games // 20)) -> None:
            if done % every == 0 or done == args.games:
                print(f"{args.game} {players}p: {done}/{args.games} games", file=sys.stderr)

        result = medium_differential(
            args.game, players, args.games, seed=args.seed, first=args.first, progress=show
        )
        result["cpu_seconds"] = round(time.process_time() - started, 1)
        print(json.dumps(result), file=sys.stderr, flush=True)
        results[f"{args.game} {players}p"] = result
    if args.out == "-":
        print(json.dumps(results, indent=1))
        return 0
    path = Path(args.out)
    data: dict[str, Any] = (
        json.loads(path.read_text()) if path.exists() else {"benchmark": "kernel-medium-diff"}
    )
    data["what"] = (
        "the kernels' medium policy (policy 2) against the Python heuristic, every decision: "
        "equal legal sets, equal scores, the kernel's choice among the best-scored"
    )
    data["command"] = "python -m keltis.fast.medium_diff GAME --players 2 4 --games 2000"
    data["python"] = platform.python_version()
    data.setdefault("results", {})
    for key, result in results.items():
        result["commit"] = _commit()
        data["results"][key] = result
    path.write_text(json.dumps(data, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

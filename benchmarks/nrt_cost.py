"""What numba's private ``_nrt=False`` option buys: BatchEnv learner steps with the kernels
compiled without reference counting (the default) against ``KELTIS_FAST_NRT=1`` (public
options only, reference counting on), issue 43 §4.

Each side runs in its own process (the option is read when the kernels are compiled; each has
its own cache folder), alternating round by round, so that the load of this shared machine
falls on both alike. A round times ``--steps`` steps of a batch of ``--batch`` games per game
and opponent (random seats, or self-play), CPU time of ``env.step`` only, after a warm-up
that compiles (or loads) the kernels. Prints the JSON (per round, and the median ratio
``nrt_over_default`` per line) and writes it to ``--out``::

    python benchmarks/nrt_cost.py                  # ~10 min with warm caches
    python benchmarks/nrt_cost.py --rounds 1 --out -
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

OUT = Path(__file__).parent / "results" / "nrt-cost.json"
LINES = (("cards", "random"), ("cards", None), ("board", "random"), ("board", None))


def one_round(steps: int, batch: int) -> dict[str, float]:
    """Microseconds of CPU per learner step and game, per line (run in a child process)."""
    import numpy as np

    from keltis.fast import BatchEnv

    out: dict[str, float] = {}
    for game, opponents in LINES:
        env = BatchEnv(game, 2, batch, seed=1, opponents=opponents)
        _, masks, _ = env.reset()
        env.step(np.argmax(masks, axis=1))  # compiled (or loaded) before the clock runs
        rng = np.random.default_rng(0)
        spent = 0.0
        for _ in range(steps):
            actions = np.argmax(env.masks * rng.random(env.masks.shape), axis=1)
            start = time.process_time()
            env.step(actions)
            spent += time.process_time() - start
        out[f"{game}-{opponents or 'self'}"] = spent / (steps * batch) * 1e6
    return out


def child(nrt: bool, steps: int, batch: int) -> dict[str, float]:
    env = {**os.environ, "KELTIS_FAST_NRT": "1" if nrt else ""}
    args = [sys.executable, __file__, "--child", "--steps", str(steps), "--batch", str(batch)]
    done = subprocess.run(args, capture_output=True, text=True, check=True, env=env)
    result: dict[str, float] = json.loads(done.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--steps", type=int, default=1200, help="per line and round")
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--out", default=str(OUT), help="'-': print only")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(one_round(args.steps, args.batch)))
        return
    rounds = []
    for number in range(args.rounds):
        default = child(False, args.steps, args.batch)
        nrt = child(True, args.steps, args.batch)
        rounds.append({"default": default, "nrt": nrt})
        print(f"round {number + 1}/{args.rounds} done", file=sys.stderr)
    ratios = {
        line: round(statistics.median(r["nrt"][line] / r["default"][line] for r in rounds), 3)
        for line in rounds[0]["default"]
    }
    report = {
        "what": "µs of CPU per BatchEnv learner step and game: default (_nrt=False) vs "
        "KELTIS_FAST_NRT=1 (reference counting), alternating processes",
        "machine": platform.platform(),
        "batch": args.batch,
        "steps": args.steps,
        "rounds": rounds,
        "nrt_over_default_median": ratios,
    }
    text = json.dumps(report, indent=1)
    print(text)
    if args.out != "-":
        Path(args.out).write_text(text + "\n")


if __name__ == "__main__":
    main()

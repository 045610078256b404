"""Learner steps per second: keltis.fast.BatchEnv against the Gymnasium env, and decisions per
second against the plain-C random playouts (/work/shared/limit, or ``--limit``).

For both games and 2 and 4 players, in one run, alternating round by round (so load on the
machine falls on all alike), CPU time of this process (``time.process_time``; the C programs'
by ``getrusage`` of the children):

- ``gym``: ``keltis.env.gym_env.KeltisEnv`` (the learner against random seats), the CPU time
  of ``env.step`` and ``env.reset`` only; the learner's choice (uniform over the mask) is
  made outside the timed part; half of a round's steps before the batch's and half after,
  so that each round's ratio (``batch_over_gym``, the median over rounds, and the lowest
  round's) compares two measurements made close in time: this machine's speed drifts by
  half over minutes;
- ``batch``: ``BatchEnv`` (``--batch`` games, random seats), the CPU time of ``step`` only;
  ``batch_with_choice`` adds the learner's choice made with numpy over the whole batch
  (``argmax(mask * uniform)``), as a training loop would;
- ``batch_self_play``: every seat driven by the learner (every decision is a learner step);
- ``c``: the plain-C random playout of the same game and player count (its README says how it
  counts: every decision point, forced ones too), decisions per CPU second.

A learner step of ``gym``/``batch`` is one decision of the learner's seat (the other seats'
moves inside it); a decision of ``c`` or ``batch_self_play`` is any seat's. Prints the JSON
and writes it to ``--out`` (default ``benchmarks/results/batch-env.json``)::

    python benchmarks/batch_env.py                 # ~5 min
    python benchmarks/batch_env.py --rounds 1 --out -
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from keltis.env.gym_env import KeltisEnv
from keltis.fast.env import BatchEnv

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "results" / "batch-env.json"
LIMIT = Path("/work/shared/limit")
GAMES = ("cards", "board")


def gym_rate(game: str, players: int, steps: int, seed: int) -> float:
    """Learner steps per CPU second of the Gymnasium env."""
    env = KeltisEnv(game, "random", players)
    rng = np.random.default_rng(seed)
    cpu = time.process_time()
    obs, _ = env.reset(seed=seed)
    spent = time.process_time() - cpu
    for _ in range(steps):
        action = rng.choice(np.flatnonzero(obs["action_mask"]))
        cpu = time.process_time()
        obs, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            obs, _ = env.reset()
        spent += time.process_time() - cpu
    return steps / spent


def batch_rate(
    game: str, players: int, batch: int, steps: int, seed: int, opponents: str | None
) -> tuple[float, float]:
    """Learner steps per CPU second of BatchEnv: the step alone, and with the choice."""
    env = BatchEnv(game, players, batch, seed, opponents)
    rng = np.random.default_rng(seed)
    _, masks, _ = env.reset()
    spent = chose = 0.0
    done = 0
    while done < steps:
        cpu = time.process_time()
        # uniform over the legal (a draw of 0.0 would pick action 0, legal or not)
        draw = rng.random(masks.shape, dtype=np.float32) + np.float32(1e-7)
        actions = np.argmax(masks * draw, axis=1)
        mid = time.process_time()
        _, masks, _, _, _ = env.step(actions)
        end = time.process_time()
        chose += mid - cpu
        spent += end - mid
        done += batch
    return done / spent, done / (spent + chose)


def c_rate(program: Path, players: int, seconds: float) -> dict[str, float]:
    """Decisions per CPU second of a plain-C random playout (and its own wall-clock games/s)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(
        [str(program), str(players), str(seconds)], capture_output=True, text=True, check=True
    ).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    line = json.loads(out.strip().splitlines()[-1])
    decisions = line["games"] * line["decisions_per_game"]
    return {
        "decisions_per_cpu_second": decisions / cpu,
        "decisions_per_game": line["decisions_per_game"],
    }


def compile_c(game: str, limit: Path, folder: Path) -> Path | None:
    source = limit / f"{game}_random.c"
    if not source.exists():
        return None
    program = folder / f"{game}_random"
    subprocess.run(["gcc", "-O2", "-o", str(program), str(source)], check=True)
    return program


def main() -> None:
    """Warm up, run the rounds, print and write the JSON."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--gym-steps", type=int, default=3000, help="per round, in two halves")
    parser.add_argument("--batch-steps", type=int, default=300_000, help="per round")
    parser.add_argument("--batch", type=int, default=256, help="games in the BatchEnv")
    parser.add_argument("--c-seconds", type=float, default=2.0)
    parser.add_argument("--limit", default=str(LIMIT), help="folder of the plain-C references")
    parser.add_argument("--out", default=str(OUT))
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    compile_start = time.perf_counter()
    for game in GAMES:  # compile (or load) the kernels before timing
        warm = BatchEnv(game, 2, 4, 0)
        warm.step(np.argmax(warm.reset()[1], axis=1))
    compile_seconds = time.perf_counter() - compile_start
    samples: dict[str, dict[str, list[float]]] = {}
    for round_ in range(args.rounds):
        for game in GAMES:
            program = compile_c(game, Path(args.limit), folder)
            for players in (2, 4):
                key = f"{game} {players}p"
                got = samples.setdefault(key, {})
                seed = 1000 * round_ + players
                # the gym env's steps in two halves around the batch's: their ratio in a
                # round is measured close in time (the machine's speed drifts)
                half = args.gym_steps // 2
                before = gym_rate(game, players, half, seed)
                alone, chosen = batch_rate(
                    game, players, args.batch, args.batch_steps, seed, "random"
                )
                after = gym_rate(game, players, half, seed + 500)
                gym = 2 / (1 / before + 1 / after)
                got.setdefault("gym", []).append(gym)
                got.setdefault("batch", []).append(alone)
                got.setdefault("batch_over_gym", []).append(alone / gym)
                got.setdefault("batch_with_choice", []).append(chosen)
                got.setdefault("batch_self_play", []).append(
                    batch_rate(game, players, args.batch, args.batch_steps, seed, None)[0]
                )
                if program is not None:
                    c = c_rate(program, players, args.c_seconds)
                    got.setdefault("c", []).append(c["decisions_per_cpu_second"])
                print(key, {k: round(v[-1]) for k, v in got.items()}, file=sys.stderr, flush=True)
    lines: dict[str, Any] = {}
    for key, got in samples.items():
        med = {k: float(np.median(v)) for k, v in got.items()}
        line: dict[str, Any] = {
            f"{k}_per_cpu_second": round(v) for k, v in med.items() if k != "batch_over_gym"
        }
        line["samples"] = {k: [round(x) for x in v] for k, v in got.items()}
        line["samples"]["batch_over_gym"] = [round(x, 1) for x in got["batch_over_gym"]]
        line["batch_over_gym"] = round(med["batch_over_gym"], 1)
        line["lowest_round_batch_over_gym"] = round(min(got["batch_over_gym"]), 1)
        line["batch_with_choice_over_gym"] = round(med["batch_with_choice"] / med["gym"], 1)
        line["meets_100x"] = med["batch_over_gym"] >= 100
        if "c" in med:
            line["batch_self_play_over_c"] = round(med["batch_self_play"] / med["c"], 3)
        lines[key] = line
    report = {
        "benchmark": "batch-env",
        "what": "learner steps per CPU second, BatchEnv vs the Gymnasium env; decisions vs C",
        "rounds": args.rounds,
        "batch": args.batch,
        "gym_steps_per_round": args.gym_steps,
        "batch_steps_per_round": args.batch_steps,
        "compile_or_load_seconds": round(compile_seconds, 1),
        "python": platform.python_version(),
        "cpus": os.cpu_count(),
        "load_average": list(os.getloadavg()),
        "lines": lines,
    }
    text = json.dumps(report, indent=1) + "\n"
    print(text)
    if args.out != "-":
        Path(args.out).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()

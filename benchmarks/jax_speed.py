"""keltis.jax's speed: random playouts per second at batch sizes 1-65,536, beside keltis.fast
(the numba simulator) and the plain-C references of ``../shared/limit/``, in one run.

For each game and player count, round by round in turn (so load on a shared machine falls on
all of them alike), in CPU time (the JAX child's threads included):

* ``c``: the C reference (``benchmarks/speed.py`` builds and runs it);
* ``fast``: ``keltis.fast.simulate``, random decisions, in a child process;
* ``jax-B``: ``jax.jit`` of a ``lax.scan`` over ``jax.vmap(env.step)`` for ``B`` games at once,
  each decision uniform over the legal ones (``jax.random.categorical`` on the mask), a
  finished game dealt anew in its slot (``env.init``) — what a learner's rollout does, the
  observation computed at every step as pgx does. One child process per round measures every
  batch size; JAX's compilation (its own line, ``compile_seconds``, from the first round) is
  kept on disk for the next rounds.

The JAX batches start together, so in a short window few games end: their rate is measured
as decisions per CPU second, and playouts per second are that rate over the decisions per
game of ``fast`` in the same run (the same uniform choice over the same legal sets, so the
same game lengths). The C references choose among hand slots (their README): their own
decisions per game are printed beside. On a machine with a GPU, ``--device gpu`` runs the
JAX lines there (CPU time then says little: compare wall time, ``wall_seconds``).

    python benchmarks/jax_speed.py                             # all, 2 rounds
    python benchmarks/jax_speed.py --game cards --players 4 --batches 1,256,4096
    python benchmarks/jax_speed.py --out benchmarks/results/jax-speed.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from speed import build_c, run_c, run_python  # benchmarks/speed.py, next to this script

BATCHES = (1, 16, 256, 4096, 65536)


def child(game: str, players: int, batches: list[int], seconds: float, seed: int) -> list[Any]:
    """Measure every batch size in this process (``--child``): decisions, CPU and wall
    seconds, and the compilation's seconds."""
    import jax
    import jax.numpy as jnp

    import keltis.jax
    from keltis.jax.common import select

    env = keltis.jax.make(game, players)
    out = []
    for batch in batches:
        steps = max(1, min(64, 65_536 // batch))  # decisions per game slot in one call

        def one(state: Any, key: Any, batch: int = batch) -> tuple[Any, None]:
            choose, deal = jax.random.split(key)
            logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
            state = jax.vmap(env.step)(state, jax.random.categorical(choose, logits))
            done = state.terminated | state.truncated
            fresh = jax.vmap(env.init)(jax.random.split(deal, batch))
            return jax.vmap(select)(done, fresh, state), None

        @jax.jit
        def run(state: Any, key: Any, steps: int = steps) -> Any:
            state, _ = jax.lax.scan(one, state, jax.random.split(key, steps))
            return state

        start = time.perf_counter()
        keys = jax.random.split(jax.random.key(seed), batch)
        state = jax.block_until_ready(run(jax.jit(jax.vmap(env.init))(keys), jax.random.key(1)))
        compile_seconds = time.perf_counter() - start
        calls = 0
        cpu, wall = time.process_time(), time.perf_counter()
        while time.process_time() - cpu < seconds or calls < 2:
            state = jax.block_until_ready(run(state, jax.random.key(seed + calls)))
            calls += 1
        out.append(
            {
                "batch": batch,
                "decisions": calls * steps * batch,
                "cpu": time.process_time() - cpu,
                "wall": time.perf_counter() - wall,
                "compile_seconds": compile_seconds,
                "device": str(jax.devices()[0].platform),
            }
        )
    return out


def run_jax(
    game: str, players: int, batches: list[int], seconds: float, seed: int, cache: Path, gpu: bool
) -> list[Any]:
    """One round of the JAX lines in a child process (compilations kept in ``cache``)."""
    env = dict(os.environ)
    env["JAX_COMPILATION_CACHE_DIR"] = str(cache)
    env["JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS"] = "0"
    if not gpu:
        env["JAX_PLATFORMS"] = "cpu"
    sizes = ",".join(map(str, batches))
    command = [sys.executable, __file__, "--child", game, str(players), sizes, str(seconds)]
    done = subprocess.run(
        [*command, str(seed)], capture_output=True, text=True, env=env, check=True
    )
    result: list[Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def _line(game: str, players: int, totals: dict[str, dict[str, float]]) -> dict[str, Any]:
    per_game = totals["fast"]["decisions"] / totals["fast"]["games"]
    line: dict[str, Any] = {"game": game, "players": players, "engines": {}}
    for name, total in totals.items():
        if not total["decisions"]:
            continue
        entry: dict[str, Any] = {
            "decisions_per_cpu_second": round(total["decisions"] / total["cpu"]),
            "cpu_seconds": round(total["cpu"], 2),
        }
        if name.startswith("jax-"):
            entry["games_per_second"] = round(total["decisions"] / total["cpu"] / per_game, 2)
            entry["wall_decisions_per_second"] = round(total["decisions"] / total["wall"])
            entry["compile_seconds"] = round(total["compile_seconds"], 1)
        else:
            entry["games_per_second"] = round(total["games"] / total["cpu"], 1)
            entry["decisions_per_game"] = round(total["decisions"] / total["games"], 1)
        line["engines"][name] = entry
    rates = {name: e["games_per_second"] for name, e in line["engines"].items()}
    line["ratios"] = {
        f"{name}/{base}": round(rates[name] / rates[base], 5)
        for name in rates
        if name.startswith("jax-")
        for base in ("c", "fast")
        if base in rates
    }
    return line


def main(argv: list[str] | None = None) -> None:
    """Run the lines asked for on the command line."""
    args_in = sys.argv[1:] if argv is None else argv
    if args_in and args_in[0] == "--child":
        game, count, sizes, seconds, seed = args_in[1:6]
        batches = [int(b) for b in sizes.split(",")]
        print(json.dumps(child(game, int(count), batches, float(seconds), int(seed))))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=["board", "cards", "all"], default="all")
    parser.add_argument("--players", type=int, choices=[2, 3, 4], action="append")
    parser.add_argument("--batches", default=",".join(map(str, BATCHES)))
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement (CPU)")
    parser.add_argument("--rounds", type=int, default=2, help="alternating rounds")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--device", choices=["cpu", "gpu"], default="cpu")
    parser.add_argument("--out", type=Path, default=None, help="write the lines as JSON")
    args = parser.parse_args(args_in)
    batches = [int(b) for b in args.batches.split(",")]
    games = ("board", "cards") if args.game == "all" else (args.game,)
    lines = []
    with tempfile.TemporaryDirectory() as folder:
        c_binaries = build_c(Path(folder))
        cache = Path(folder) / "jax-cache"
        for game in games:
            for players in args.players or (2, 3, 4):
                names = ["c", "fast", *(f"jax-{b}" for b in batches)]
                keys = ("games", "decisions", "cpu", "wall", "compile_seconds")
                totals = {name: dict.fromkeys(keys, 0.0) for name in names}
                for round_ in range(args.rounds):
                    seed = args.seed + round_ * 100_000
                    if game in c_binaries:
                        _add(totals["c"], run_c(c_binaries[game], players, args.seconds))
                    _add(totals["fast"], run_python("fast", game, players, args.seconds, seed))
                    gpu = args.device == "gpu"
                    for got in run_jax(game, players, batches, args.seconds, seed, cache, gpu):
                        if round_ > 0:
                            got.pop("compile_seconds")
                        _add(totals[f"jax-{got['batch']}"], got)
                line = _line(game, players, totals)
                print(json.dumps(line), flush=True)
                lines.append(line)
    if args.out is not None:
        report = {
            "benchmark": "jax-speed",
            "python": platform.python_version(),
            "machine": platform.machine(),
            "cpus": os.cpu_count(),
            "device": args.device,
            "seconds_per_measurement": args.seconds,
            "rounds": args.rounds,
            "lines": lines,
        }
        args.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


def _add(total: dict[str, float], got: dict[str, Any]) -> None:
    for key in total:
        total[key] += float(got.get(key, 0.0))


if __name__ == "__main__":
    main()

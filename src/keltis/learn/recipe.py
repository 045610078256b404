"""The published recipe of the shipped networks (``python -m keltis.learn recipe``).

One round: for each game and player count, medium bots (the heuristic) play seeded games
(:mod:`keltis.learn.selfplay`) and a network learns their positions' results and moves
(:mod:`keltis.learn.train`). The shipped weights (``keltis/learn/weights``) are round 0 of
this recipe; docs/bots.md has how they were made, what they measured, and how to train your
own. Each game and player count is trained in its own process as soon as its data is played,
while the next one's games are played; a recipe run that stops is resumed by running it
again (finished shards and exported weights are kept, a training resumes its checkpoint).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from keltis.cluster import connect_ray, ray_module
from keltis.games import GAME_NAMES
from keltis.learn.selfplay import SelfPlayConfig, generate
from keltis.learn.train import TrainConfig


@dataclass(frozen=True)
class Step:
    """The self-play of one game and player count."""

    game: str
    players: int
    games: int
    sample: float = 0.05


#: Data seed of round 0 (the games' deals are derived from it: keltis.learn.selfplay).
DATA_SEED: Final = 1
#: Games per game and player count.
GAMES_PER_PLAYERS: Final = {2: 24_000, 4: 12_000, 3: 12_000}
#: The steps in the order played (the 2-player and 4-player networks first).
STEPS: Final = tuple(
    Step(game, players, games)
    for players, games in GAMES_PER_PLAYERS.items()
    for game in GAME_NAMES
)
#: How each network is trained (hidden 192 keeps the six shipped files under 5 MB).
TRAINING: Final = TrainConfig(
    epochs=4, hidden=192, batch=1024, lr=2e-3, weight_decay=1e-4, policy_weight=0.5, seed=0
)


def recipe_text(step: Step, games: int) -> str:
    """What the weights file says about how it was made."""
    t = TRAINING
    return (
        f"round 0: {games} games of medium self-play (data seed {DATA_SEED}, sample "
        f"{step.sample}); {t.epochs} epochs, hidden {t.hidden}, batch {t.batch}, lr {t.lr}, "
        f"weight decay {t.weight_decay}, policy weight {t.policy_weight}, seed {t.seed}"
    )


def run_recipe(
    out: Path,
    *,
    workers: int | None = None,
    device: str = "cpu",
    scale: float = 1.0,
    only: set[tuple[str, int]] | None = None,
    progress: Callable[[str], None] | None = None,
    ray: str | None = None,
) -> list[Path]:
    """Play and train every step (``only``: those game and player counts) into ``out``:
    ``data/``, ``runs/`` and ``weights/<game>-<players>.npz``. ``scale`` multiplies the
    games (a quick trial: 0.01). ``ray``: play the games as Ray tasks on that cluster
    (:func:`keltis.cluster.connect_ray`, connected once for every step); training stays on
    this machine. Returns the weights files written."""
    own_ray = ray is not None and connect_ray(ray)
    try:
        return _run_steps(out, workers, device, scale, only, progress, ray)
    finally:
        if own_ray:
            ray_module().shutdown()


def _run_steps(
    out: Path,
    workers: int | None,
    device: str,
    scale: float,
    only: set[tuple[str, int]] | None,
    progress: Callable[[str], None] | None,
    ray: str | None,
) -> list[Path]:
    say = progress or (lambda _text: None)
    trainings: list[tuple[Path, subprocess.Popen[bytes]]] = []
    for step in STEPS:
        if only is not None and (step.game, step.players) not in only:
            continue
        name = f"{step.game}-{step.players}"
        weights = out / "weights" / f"{name}.npz"
        if weights.is_file():
            say(f"{name}: weights already there")
            continue
        games = max(2, round(step.games * scale))
        shard = out / "data" / f"{name}.npz"
        if not shard.is_file():
            say(f"{name}: playing {games} games")
            config = SelfPlayConfig(step.game, step.players, games, DATA_SEED, sample=step.sample)
            partial = shard.with_suffix(".part.npz")
            generate(config, partial, workers, progress=_prefixed(say, name), ray=ray)
            partial.replace(shard)
        t = TRAINING
        command = [
            sys.executable, "-m", "keltis.learn", "train", str(shard),
            "--run", str(out / "runs" / name), "--epochs", str(t.epochs),
            "--hidden", str(t.hidden), "--batch", str(t.batch), "--lr", str(t.lr),
            "--weight-decay", str(t.weight_decay), "--policy-weight", str(t.policy_weight),
            "--seed", str(t.seed), "--device", device,
            "--export", str(weights), "--recipe", recipe_text(step, games),
        ]  # fmt: skip
        say(f"{name}: training")
        trainings.append((weights, subprocess.Popen(command)))
    failed = [str(w) for w, process in trainings if process.wait() != 0]
    if failed:
        raise RuntimeError(f"training failed for {', '.join(failed)}")
    return [w for w, _ in trainings]


def _prefixed(say: Callable[[str], None], name: str) -> Callable[[str], None]:
    def prefixed(text: str) -> None:
        say(f"{name}: {text}")

    return prefixed

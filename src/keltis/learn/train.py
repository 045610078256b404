"""Training the learned judgement with torch (``python -m keltis.learn train``).

The network (:mod:`keltis.learn.net`) learns from self-play shards
(:mod:`keltis.learn.selfplay`): the value head the seat's result (its win share, by binary
cross-entropy on the win logit, and its margin, by a Huber loss in units of
:data:`~keltis.learn.net.MARGIN_SCALE` points) on every row, the prior head the move chosen
(cross-entropy of a softmax over the legal actions) on the rows of the seat to move, weighed by
``policy_weight``. The last tenth of the games (by their index in each shard) is held out:
the curves show its losses beside the training losses, and the weights kept are those of
the epoch whose value loss on them was lowest (the value overfits first: a game's rows share
its result).

A run folder holds ``checkpoint.pt`` (written after every epoch: the model, the optimiser, the
random generators' states and the history), ``best.pt`` (the best epoch's weights),
``history.json`` and ``curves.png``; running the
same command again resumes after the last finished epoch. Everything is seeded: the same
shards, configuration and seed give the same weights on the same machine and torch version.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from keltis.env.encode import action_space, check_layout, layout_version, observation_size
from keltis.learn.net import ARRAYS, MARGIN_SCALE, save_net

#: Share of each shard's games held out for validation (its last games by index).
HELD_OUT = 0.1


@dataclass(frozen=True)
class TrainConfig:
    """How to train (see the module)."""

    epochs: int = 8
    hidden: int = 256
    batch: int = 512
    lr: float = 1e-3
    weight_decay: float = 1e-5
    policy_weight: float = 0.5
    seed: int = 0
    device: str = "cpu"

    def __post_init__(self) -> None:
        for name in ("epochs", "hidden", "batch"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1")
        if not self.lr > 0:
            raise ValueError("lr must be positive")
        if self.policy_weight < 0:
            raise ValueError("policy_weight must not be negative")


class JudgeNet(nn.Module):
    """The torch twin of :class:`keltis.learn.net.ValueNet` (same layers, same outputs)."""

    def __init__(self, size: int, hidden: int, actions: int) -> None:
        super().__init__()
        self.l1 = nn.Linear(size, hidden)
        self.l2 = nn.Linear(hidden, hidden)
        self.policy = nn.Linear(hidden, actions)  # one logit per action id of the game
        self.value = nn.Linear(hidden, 2)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = torch.relu(self.l2(torch.relu(self.l1(x))))
        return self.policy(h), self.value(h)

    def arrays(self) -> dict[str, npt.NDArray[np.float32]]:
        """The weights as :data:`keltis.learn.net.ARRAYS` (inputs × outputs)."""
        layers = {"1": self.l1, "2": self.l2, "p": self.policy, "v": self.value}
        out: dict[str, npt.NDArray[np.float32]] = {}
        for key, layer in layers.items():
            out[f"w{key}"] = layer.weight.detach().cpu().numpy().T.copy()
            out[f"b{key}"] = layer.bias.detach().cpu().numpy().copy()
        assert sorted(out) == sorted(ARRAYS)
        return out


@dataclass
class Data:
    """Rows of the shards, in memory (observations stay float16)."""

    game: str
    players: int
    obs: npt.NDArray[np.float16]
    action: npt.NDArray[np.int16]
    legal: npt.NDArray[np.uint8]
    win: npt.NDArray[np.float32]
    margin: npt.NDArray[np.float32]
    held_out: npt.NDArray[np.bool_]


def load_shards(paths: Sequence[Path]) -> Data:
    """The rows of ``paths`` (one game and player count, the current observation layout)."""
    if not paths:
        raise ValueError("no shards given")
    parts: list[dict[str, Any]] = []
    kinds = set()
    for path in paths:
        if not path.is_file():
            raise FileNotFoundError(f"no shard at {path}")
        with np.load(path, allow_pickle=False) as data:
            part = {name: data[name] for name in data.files}
        game, players = str(part["meta_game"]), int(part["meta_players"])
        check_layout(str(path), game, players, str(part["meta_layout"]))
        kinds.add((game, players))
        cut = int(part["meta_games"]) * (1.0 - HELD_OUT)
        part["held_out"] = part["game"] >= cut
        parts.append(part)
    if len(kinds) != 1:
        raise ValueError(f"the shards mix games or player counts: {sorted(kinds)}")
    game, players = kinds.pop()

    def cat(name: str) -> Any:
        return np.concatenate([p[name] for p in parts])

    return Data(
        game,
        players,
        cat("obs"),
        cat("action"),
        cat("legal"),
        cat("win"),
        cat("margin"),
        cat("held_out"),
    )


@dataclass
class TrainResult:
    """A finished training: the model and the data's game and player count."""

    model: JudgeNet
    game: str
    players: int
    history: list[dict[str, float]]

    def export(self, path: Path, recipe: str = "") -> None:
        """Write the weights file that :func:`keltis.learn.net.load_net` reads."""
        meta = {
            "game": self.game,
            "players": self.players,
            "layout": layout_version(self.game, self.players),
            "recipe": recipe,
        }
        save_net(path, dict(self.model.arrays()), meta)


def _losses(
    model: JudgeNet, data: Data, rows: npt.NDArray[np.int64], device: torch.device
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """Value loss, policy loss, policy hits and policy rows of a batch."""
    x = torch.from_numpy(data.obs[rows].astype(np.float32)).to(device)
    logits, value = model(x)
    win = torch.from_numpy(data.win[rows]).to(device)
    margin = torch.from_numpy(data.margin[rows] / MARGIN_SCALE).to(device)
    value_loss = nn.functional.binary_cross_entropy_with_logits(value[:, 0], win) + (
        nn.functional.smooth_l1_loss(value[:, 1], margin)
    )
    action = torch.from_numpy(data.action[rows].astype(np.int64)).to(device)
    movers = action >= 0
    count = movers.sum()
    if int(count) == 0:
        zero = torch.zeros((), device=device)
        return value_loss, zero, zero, zero
    width = logits.shape[1]  # the game's action count
    legal_bits = np.unpackbits(data.legal[rows][movers.cpu().numpy()], axis=1)[:, :width]
    legal = torch.from_numpy(legal_bits.astype(bool)).to(device)
    masked = logits[movers].masked_fill(~legal, -1e9)
    policy_loss = nn.functional.cross_entropy(masked, action[movers])
    hits = (masked.argmax(dim=1) == action[movers]).sum()
    return value_loss, policy_loss, hits.float(), count.float()


def train(
    shards: Sequence[Path],
    run: Path,
    config: TrainConfig,
    progress: Callable[[str], None] | None = None,
) -> TrainResult:
    """Train on ``shards`` into the run folder ``run`` (resuming its checkpoint if it has one
    made with the same configuration and shards)."""
    data = load_shards(shards)
    size = observation_size(data.game, data.players)
    if data.obs.shape[1] != size:
        raise ValueError(f"observations of size {data.obs.shape[1]}, the layout's is {size}")
    device = torch.device(config.device)
    torch.manual_seed(config.seed)
    model = JudgeNet(size, config.hidden, action_space(data.game).size).to(device)
    optimiser = torch.optim.AdamW(
        model.parameters(), lr=config.lr, weight_decay=config.weight_decay
    )
    epochs = config.epochs
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimiser, T_max=epochs)
    rng = np.random.default_rng(config.seed)
    identity = {"config": asdict(config), "shards": [str(p.resolve()) for p in shards]}
    history: list[dict[str, float]] = []
    run.mkdir(parents=True, exist_ok=True)
    checkpoint = run / "checkpoint.pt"
    parts: dict[str, Any] = {"model": model, "optimiser": optimiser, "schedule": schedule}
    if checkpoint.is_file():
        history = _resume(checkpoint, identity, parts, rng, device)
    train_rows = np.flatnonzero(~data.held_out)
    val_rows = np.flatnonzero(data.held_out)
    best = run / "best.pt"
    for epoch in range(len(history), epochs):
        started = time.process_time()
        model.train()
        order = rng.permutation(train_rows)
        sums = np.zeros(4)
        for start in range(0, len(order), config.batch):
            rows = np.sort(order[start : start + config.batch])
            value_loss, policy_loss, hits, count = _losses(model, data, rows, device)
            loss = value_loss + config.policy_weight * policy_loss
            optimiser.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            optimiser.step()
            sums += [
                value_loss.item() * len(rows),
                policy_loss.item() * count.item(),
                hits.item(),
                count.item(),
            ]
        schedule.step()
        record = {
            "epoch": epoch + 1,
            "train_value": sums[0] / len(order),
            "train_policy": sums[1] / max(sums[3], 1.0),
            **_evaluate(model, data, val_rows, device, config.batch),
            "cpu_seconds": time.process_time() - started,
        }
        history.append(record)
        if record["val_value"] <= min(h["val_value"] for h in history):
            torch.save(model.state_dict(), best)
        _save(checkpoint, identity, parts, rng, history)
        (run / "history.json").write_text(json.dumps(history, indent=1) + "\n")
        plot_curves(history, run / "curves.png", f"{data.game}, {data.players} players")
        if progress is not None:
            progress(json.dumps({k: round(v, 4) for k, v in record.items()}))
    if best.is_file():  # the epoch whose value head did best on the held-out games
        model.load_state_dict(torch.load(best, map_location=device, weights_only=True))
    return TrainResult(model.cpu(), data.game, data.players, history)


def _save(
    path: Path,
    identity: dict[str, Any],
    parts: dict[str, Any],
    rng: np.random.Generator,
    history: list[dict[str, float]],
) -> None:
    """Write a checkpoint: the model, optimiser and schedule, every generator, the history."""
    state = {name: part.state_dict() for name, part in parts.items()}
    state |= {"numpy": rng.bit_generator.state, "torch": torch.get_rng_state()}
    state |= {"random": random.getstate(), "identity": identity, "history": history}
    torch.save(state, path)


def _resume(
    path: Path,
    identity: dict[str, Any],
    parts: dict[str, Any],
    rng: np.random.Generator,
    device: torch.device,
) -> list[dict[str, float]]:
    """Restore a checkpoint made by the same configuration and shards; its history."""
    saved = torch.load(path, map_location=device, weights_only=False)
    if saved["identity"] != identity:
        raise ValueError(
            f"{path.parent} holds a run with another configuration or other shards: "
            "choose another --run folder"
        )
    for name, part in parts.items():
        part.load_state_dict(saved[name])
    rng.bit_generator.state = saved["numpy"]
    torch.set_rng_state(saved["torch"])
    random.setstate(saved["random"])
    history: list[dict[str, float]] = saved["history"]
    return history


@torch.no_grad()
def _evaluate(
    model: JudgeNet, data: Data, rows: npt.NDArray[np.int64], device: torch.device, batch: int
) -> dict[str, float]:
    """Held-out losses, the prior's agreement with the moves chosen, and the value's Brier
    score for winning."""
    model.eval()
    sums = np.zeros(5)
    for start in range(0, len(rows), batch):
        part = rows[start : start + batch]
        value_loss, policy_loss, hits, count = _losses(model, data, part, device)
        x = torch.from_numpy(data.obs[part].astype(np.float32)).to(device)
        win = torch.sigmoid(model(x)[1][:, 0]).cpu().numpy()
        brier = float(((win - data.win[part]) ** 2).sum())
        sums += [
            value_loss.item() * len(part),
            policy_loss.item() * count.item(),
            hits.item(),
            count.item(),
            brier,
        ]
    n = max(len(rows), 1)
    return {
        "val_value": sums[0] / n,
        "val_policy": sums[1] / max(sums[3], 1.0),
        "val_agreement": sums[2] / max(sums[3], 1.0),
        "val_brier": sums[4] / n,
    }


def plot_curves(history: list[dict[str, float]], path: Path, title: str) -> None:
    """The losses by epoch as a PNG (matplotlib, without a display)."""
    import matplotlib  # only here: training's curves

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    epochs = [h["epoch"] for h in history]
    figure, (left, right) = plt.subplots(1, 2, figsize=(9, 3.5))
    left.plot(epochs, [h["train_value"] for h in history], label="value, training")
    left.plot(epochs, [h["val_value"] for h in history], label="value, held out")
    left.set_xlabel("epoch")
    left.legend()
    right.plot(epochs, [h["train_policy"] for h in history], label="prior, training")
    right.plot(epochs, [h["val_policy"] for h in history], label="prior, held out")
    right.plot(epochs, [h["val_agreement"] for h in history], label="prior agrees (held out)")
    right.set_xlabel("epoch")
    right.legend()
    figure.suptitle(title)
    figure.tight_layout()
    figure.savefig(path, dpi=80)
    plt.close(figure)

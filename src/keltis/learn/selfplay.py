"""Self-play data for the learned judgement: positions seen by each seat, with the game's result.

Bots play whole games of one game and player count from seeds derived from a data seed
(:func:`game_seed`; far from the small seeds the strength benchmark measures on). At each
decision, with probability ``sample``, the position is recorded once for every seat: that
seat's observation (:func:`keltis.env.encode.encode` of its own view, nothing else), and for
the seat to move the action it chose and its legal actions. When the game ends each recorded
row gets its seat's result: its share of the victory (1, 1/k for a victory shared by k, 0) and
its margin (its score minus the best other seat's). A row is one training example for the
value (every row) and the prior (rows of the seat to move).

Data is written as numpy ``.npz`` shards (:data:`FIELDS`); games are split into chunks played
by worker processes, or as Ray tasks on a cluster (``ray``: :mod:`keltis.cluster`), each game
from its own seed and the chunks put together in game order, so the shard is the same whatever
runs it. A weights file a bot spec names (``learned-search:weights=PATH``) travels to Ray's
workers through its object store (:func:`ship_weights`): a cluster's machines need not share
a disk with the driver.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import multiprocessing
import os
import random
import re
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from keltis.bots.base import derive_seed
from keltis.bots.spec import make_bot
from keltis.cluster import connect_ray, ordered_tasks, ray_module
from keltis.env.encode import action_space, encode, layout_version, observation_size
from keltis.games import get_game

#: The arrays of a shard: observations (float16), the mover's action (-1 for the other
#: seats' rows), its legal actions (bits, ``np.packbits`` of the mask: one entry per action
#: id of the game, ``keltis.env.encode.action_space``), the seat's win share and margin, and
#: which game of the shard the row comes from.
FIELDS: Final = ("obs", "action", "legal", "win", "margin", "game")


def mask_bytes(game: str) -> int:
    """Bytes of a packed legal-action mask of ``game`` (16 for the board game, 63 for the
    card game)."""
    return (action_space(game).size + 7) // 8


@dataclass(frozen=True)
class SelfPlayConfig:
    """What to play: ``games`` games of ``game`` for ``players`` seats, every seat played by
    ``bot`` (a bot spec), positions sampled with probability ``sample``."""

    game: str
    players: int
    games: int
    seed: int
    bot: str = "heuristic"
    sample: float = 0.1

    def __post_init__(self) -> None:
        get_game(self.game).check_players(self.players)
        if self.games < 1:
            raise ValueError(f"games must be at least 1, not {self.games}")
        if not 0.0 < self.sample <= 1.0:
            raise ValueError(f"sample must lie in (0, 1], not {self.sample}")
        make_bot(self.bot, seed=0)  # a bad spec fails here, before any worker starts


def game_seed(seed: int, game: str, players: int, index: int) -> int:
    """The deal seed of self-play game ``index`` (a 32-bit hash: training data never shares a
    deal with the strength benchmark's seeds but by a one-in-a-billion chance)."""
    return derive_seed(seed, "learn-selfplay", game, players, index)


@dataclass
class Rows:
    """Recorded rows, as lists until they are stacked."""

    obs: list[npt.NDArray[np.float16]]
    action: list[int]
    legal: list[npt.NDArray[np.uint8]]
    win: list[float]
    margin: list[float]
    game: list[int]

    @classmethod
    def empty(cls) -> Rows:
        return cls([], [], [], [], [], [])

    def arrays(self, size: int, mask_size: int) -> dict[str, npt.NDArray[np.generic]]:
        n = len(self.action)
        return {
            "obs": np.stack(self.obs) if n else np.zeros((0, size), np.float16),
            "action": np.asarray(self.action, dtype=np.int16),
            "legal": np.stack(self.legal) if n else np.zeros((0, mask_size), np.uint8),
            "win": np.asarray(self.win, dtype=np.float32),
            "margin": np.asarray(self.margin, dtype=np.float32),
            "game": np.asarray(self.game, dtype=np.int32),
        }


def play_games(
    config: SelfPlayConfig, indices: Sequence[int]
) -> dict[str, npt.NDArray[np.generic]]:
    """Play the games ``indices`` of ``config`` and return their rows (:data:`FIELDS`)."""
    rules = get_game(config.game)
    n = config.players
    rows = Rows.empty()
    space = rules.actions
    mask = np.zeros(space.size, dtype=np.uint8)
    no_mask = np.zeros(mask_bytes(config.game), dtype=np.uint8)
    for index in indices:
        seed = game_seed(config.seed, config.game, n, index)
        state = rules.new_game(n, seed=seed)
        bots = [make_bot(config.bot, seed=derive_seed(seed, "bot", p)) for p in range(n)]
        pick = random.Random(derive_seed(seed, "sample"))
        seats: list[int] = []
        while not state.over:
            mover = state.current_player
            view = state.view(mover)
            action = bots[mover].choose(view)
            if len(view.legal) > 1 and pick.random() < config.sample:
                mask[:] = 0
                for a in view.legal:
                    mask[space.index(a)] = 1
                for p in range(n):
                    own = view if p == mover else state.view(p)
                    rows.obs.append(encode(own).astype(np.float16))
                    rows.action.append(space.index(action) if p == mover else -1)
                    rows.legal.append(np.packbits(mask) if p == mover else no_mask)
                    rows.game.append(index)
                    seats.append(p)
            state.apply_legal(action)
        outcome = state.outcome()
        scores = outcome.scores
        share = 1.0 / len(outcome.winners)
        for p in seats:
            rows.win.append(share if p in outcome.winners else 0.0)
            rows.margin.append(float(scores[p] - max(s for q, s in enumerate(scores) if q != p)))
    return rows.arrays(observation_size(config.game, n), mask_bytes(config.game))


def _worker(job: tuple[SelfPlayConfig, list[int]]) -> dict[str, npt.NDArray[np.generic]]:
    config, indices = job
    return play_games(config, indices)


#: A bot spec's weights file: the value of its ``weights=`` option.
_WEIGHTS: Final = re.compile(r"(?<=[:,])weights=([^,]+)")

Shipped = tuple[str, Any]
"""A weights file on its way to Ray's workers: the path the spec names, and an object
reference to its bytes."""


def ship_weights(spec: str, put: Callable[[bytes], Any]) -> Shipped | None:
    """The weights file ``spec`` names (``weights=PATH``) read here and handed to ``put``
    (``ray.put``); ``None`` when it names none. A missing file fails here, in the driver."""
    match = _WEIGHTS.search(spec)
    if match is None:
        return None
    path = match.group(1)
    return path, put(Path(path).read_bytes())


def local_spec(spec: str, shipped: Shipped | None, get: Callable[[Any], bytes]) -> str:
    """``spec`` with its shipped weights file replaced by a copy on this machine (in the temp
    folder, named by the content's hash: written once per machine, whatever the tasks)."""
    if shipped is None:
        return spec
    path, ref = shipped
    data = get(ref)
    local = Path(tempfile.gettempdir()) / f"keltis-weights-{hashlib.sha256(data).hexdigest()}.npz"
    if not local.is_file():
        partial = local.with_name(f"{local.stem}.{os.getpid()}.part")
        partial.write_bytes(data)
        partial.replace(local)  # atomic: another task on this machine may be writing it too
    return spec.replace(f"weights={path}", f"weights={local}")


def _ray_worker(
    job: tuple[SelfPlayConfig, list[int], Shipped | None],
) -> dict[str, npt.NDArray[np.generic]]:
    config, indices, shipped = job
    if shipped is not None:
        ray = ray_module()  # in a Ray worker: the package is there
        config = dataclasses.replace(config, bot=local_spec(config.bot, shipped, ray.get))
    return play_games(config, indices)


def generate(
    config: SelfPlayConfig,
    out: Path,
    workers: int | None = None,
    chunk: int = 50,
    progress: Callable[[str], None] | None = None,
    ray: str | None = None,
) -> Path:
    """Play ``config``'s games in ``workers`` processes (default: every core), or as Ray tasks
    on the cluster at ``ray`` (:func:`keltis.cluster.connect_ray`: ``local``, ``auto``,
    ``host:port``; a connection this process already has is used and left open), and write
    them to the shard ``out`` (``.npz``, with the game, players, bot, seed and observation
    layout's version beside the arrays). Returns ``out``."""
    workers = workers or os.cpu_count() or 1
    chunks = [
        list(range(start, min(start + chunk, config.games)))
        for start in range(0, config.games, chunk)
    ]
    parts: list[dict[str, npt.NDArray[np.generic]]] = []
    started = time.monotonic()
    done = 0
    context = multiprocessing.get_context("spawn" if sys.platform == "darwin" else "fork")
    with contextlib.ExitStack() as stack:
        played: Iterable[dict[str, npt.NDArray[np.generic]]]
        if ray is not None:
            if connect_ray(ray):
                stack.callback(ray_module().shutdown)
            shipped = ship_weights(config.bot, ray_module().put)
            tasks = ordered_tasks(_ray_worker, [(config, c, shipped) for c in chunks])
            stack.callback(tasks.close)  # cancels the tasks left, on an error
            played = tasks
        elif workers > 1:
            pool = stack.enter_context(context.Pool(workers))
            played = pool.imap(_worker, [(config, c) for c in chunks])
        else:
            played = map(_worker, [(config, c) for c in chunks])  # no fork: torch may be loaded
        for part in played:
            parts.append(part)
            done += 1
            if progress is not None:
                rate = done * chunk / max(time.monotonic() - started, 1e-9)
                progress(f"{min(done * chunk, config.games)}/{config.games} games ({rate:.1f}/s)")
    arrays: dict[str, Any] = {f: np.concatenate([p[f] for p in parts]) for f in FIELDS}
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez(
        out,
        **arrays,
        meta_game=np.array(config.game),
        meta_players=np.array(config.players),
        meta_bot=np.array(config.bot),
        meta_seed=np.array(config.seed),
        meta_games=np.array(config.games),
        meta_layout=np.array(layout_version(config.game, config.players)),
    )
    return out

"""Convert a policy saved with the shared 536 action ids to its game's own action ids.

Until encoding version 2 both games numbered their actions in one space of 536 ids
(:data:`keltis.core.actions.ALL_ACTIONS` order). Each game now numbers only the actions it can
accept (``Game.actions``: 124 in the board game, 500 in the card game), in the same order, so a
weight matrix with an action axis of 536 converts exactly by keeping the rows (or columns) of
the game's actions: nothing is retrained, and every logit of a legal action is the old one. ::

    python -m keltis.learn.convert_actions OLD NEW            # convert
    python -m keltis.learn.convert_actions --check OLD NEW    # and compare their choices

It reads the three kinds of saved policy: the learned level's networks
(:mod:`keltis.learn.net`, ``.npz`` with ``meta_layout``), the linear policies
(:mod:`keltis.env.linear`, ``.npz`` with ``format``) and the PyTorch policies
(:mod:`keltis.env.torch_policy`, ``.pt``). A file that is not one of them, or not saved on the
old layout of its game and player count, is refused with the reason.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from keltis.core.actions import ALL_ACTIONS, Action
from keltis.core.protocol import View
from keltis.env.encode import action_space, encode, layout_version, observation_layout
from keltis.env.linear import LinearPolicy
from keltis.games import get_game
from keltis.learn.net import load_net
from keltis.learn.search import prior_ranking

#: The old shared action space's size.
OLD_ACTIONS: Final = len(ALL_ACTIONS)

Arrays = dict[str, Any]
Chooser = Callable[[View], Action]


def old_layout_version(game: str, players: int) -> str:
    """The layout version a policy of ``game`` for ``players`` seats was saved with before each
    game had its own action ids: encoding version 1, whose fingerprint covered the same fields
    (today's) without the action space."""
    lay = observation_layout(game, players)
    table = [
        game,
        str(players),
        *(f"t:{f.name}:{f.size}:{f.low!r}:{f.high!r}" for f in lay.table),
        *(f"p:{f.name}:{f.size}:{f.low!r}:{f.high!r}" for f in lay.player),
    ]
    return "1-" + hashlib.sha256("\n".join(table).encode()).hexdigest()[:16]


def kept_rows(game: str) -> npt.NDArray[np.intp]:
    """For each action id of ``game``, its old shared id: the rows a conversion keeps."""
    old = {action: i for i, action in enumerate(ALL_ACTIONS)}
    return np.array([old[a] for a in action_space(game).actions], dtype=np.intp)


def _check_old(path: Path, game: str, players: int, layout: object) -> None:
    expected = old_layout_version(game, players)
    if str(layout) == layout_version(game, players):
        raise ValueError(f"{path}: already saved with the {game} game's own action ids")
    if str(layout) != expected:
        raise ValueError(
            f"{path}: saved on observation layout {layout}, not {expected} (the layout of the "
            f"shared 536 action ids for the {game} game with {players} players): this tool "
            "converts only that layout; retrain the policy"
        )


def _convert_npz(path: Path, data: Arrays) -> tuple[Arrays, str, int]:
    """A network or a linear policy converted (its arrays, game and players)."""
    out = dict(data)
    if "meta_layout" in data and "wp" in data:  # keltis.learn.net
        game, players = str(data["meta_game"]), int(data["meta_players"])
        _check_old(path, game, players, data["meta_layout"])
        rows = kept_rows(game)
        out["wp"], out["bp"] = data["wp"][:, rows], data["bp"][rows]
        out["meta_layout"] = np.array(layout_version(game, players))
    elif "format" in data and "weights" in data:  # keltis.env.linear
        game, players = str(data["game"]), int(data["players"])
        _check_old(path, game, players, data.get("layout"))
        rows = kept_rows(game)
        out["weights"], out["bias"] = data["weights"][rows], data["bias"][rows]
        out["layout"] = np.array(layout_version(game, players))
    else:
        raise ValueError(f"{path}: not a keltis network or linear policy (.npz)")
    return out, game, players


def _convert_pt(path: Path, data: Arrays) -> tuple[Arrays, str, int]:
    """A PyTorch policy converted: the output layer's rows (the tensors with 536 rows)."""
    if not isinstance(data, dict) or "state_dict" not in data or "game" not in data:
        raise ValueError(f"{path}: not a keltis PyTorch policy")
    game, players = str(data["game"]), int(data["players"])
    _check_old(path, game, players, data.get("layout"))
    rows = kept_rows(game).tolist()
    state = {
        name: tensor[rows] if tensor.shape[0] == OLD_ACTIONS else tensor
        for name, tensor in data["state_dict"].items()
    }
    return {**data, "state_dict": state, "layout": layout_version(game, players)}, game, players


def convert(old: Path, new: Path) -> tuple[str, int]:
    """Write ``old`` converted to ``new``; returns the policy's game and player count."""
    if old.suffix == ".pt":
        # torch only for PyTorch policies: the rest of this tool needs numpy alone
        import torch

        try:
            data = torch.load(old, map_location="cpu", weights_only=True)
        except Exception as error:
            raise ValueError(f"{old}: not a keltis PyTorch policy ({error})") from None
        converted, game, players = _convert_pt(old, data)
        torch.save(converted, new)
        return game, players
    try:
        with np.load(old, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
    except (OSError, ValueError) as error:
        raise ValueError(f"{old}: not a keltis policy file (.npz, or .pt): {error}") from None
    converted, game, players = _convert_npz(old, arrays)
    with new.open("wb") as out:
        np.savez_compressed(out, **converted)
    return game, players


def _old_chooser(old: Path, game: str, players: int) -> Chooser:
    """The old file's choice by its own matrices over the old ids (the code that read it)."""
    ids = {action: i for i, action in enumerate(ALL_ACTIONS)}
    if old.suffix == ".pt":
        # torch only for PyTorch policies (see convert)
        import torch

        from keltis.env.torch_policy import PolicyNet

        data = torch.load(old, map_location="cpu", weights_only=True)
        net = PolicyNet(observation_layout(game, players).size, OLD_ACTIONS, data["hidden"])
        net.load_state_dict(data["state_dict"])

        def logits(x: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
            with torch.inference_mode():
                out: npt.NDArray[np.float64] = net.net(torch.from_numpy(x)).double().numpy()
            return out

    else:
        with np.load(old, allow_pickle=False) as data:
            a = {name: data[name].astype(np.float32) for name in data.files if name[0] in "wb"}
        if "wp" in a:

            def logits(x: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
                h = np.maximum(x @ a["w1"] + a["b1"], 0.0)
                h = np.maximum(h @ a["w2"] + a["b2"], 0.0)
                return (h @ a["wp"] + a["bp"]).astype(np.float64)  # type: ignore[no-any-return]

        else:

            def logits(x: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
                return (a["weights"] @ x + a["bias"]).astype(np.float64)  # type: ignore[no-any-return]

    def choose(view: View) -> Action:
        scores = logits(encode(view))
        return max(view.legal, key=lambda action: scores[ids[action]])

    return choose


def _new_chooser(new: Path) -> Chooser:
    """The converted file's choice as this keltis plays it."""
    if new.suffix == ".pt":
        # torch only for PyTorch policies (see convert)
        from keltis.env.torch_policy import load_policy

        policy = load_policy(new)

        def choose_pt(view: View) -> Action:
            return view.legal[int(policy.probabilities(view).argmax())]

        return choose_pt
    with np.load(new, allow_pickle=False) as data:
        network = "wp" in data.files
    if network:
        net = load_net(str(new))

        def choose_net(view: View) -> Action:
            ranking = prior_ranking(net, view)
            return max(view.legal, key=lambda action: ranking[action])

        return choose_net
    linear = LinearPolicy.load(new)

    def choose_linear(view: View) -> Action:
        legal = np.array([view.actions.index(a) for a in view.legal], dtype=np.intp)
        return view.legal[int(linear.probabilities(encode(view), legal).argmax())]

    return choose_linear


def check(old: Path, new: Path, game: str, players: int, positions: int) -> tuple[int, int]:
    """Compare the old file's choices (its own matrices, old ids) with the converted file's
    (loaded by this keltis) on ``positions`` positions of random games with more than one
    legal action; returns (positions, agreements)."""
    before, after = _old_chooser(old, game, players), _new_chooser(new)
    rules = get_game(game)
    rng = random.Random(f"{game}-{players}")
    seen = same = 0
    while seen < positions:
        state = rules.new_game(players, seed=rng.randrange(1 << 30))
        while not state.over and seen < positions:
            view = state.view(state.current_player)
            if len(view.legal) > 1:
                seen += 1
                same += before(view) == after(view)
            state.apply(rng.choice(view.legal))
    return seen, same


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m keltis.learn.convert_actions [--check] OLD NEW``."""
    parser = argparse.ArgumentParser(
        prog="python -m keltis.learn.convert_actions",
        description="Convert a policy saved with the shared 536 action ids (keltis encoding "
        "version 1) to its game's own action ids (docs/rl.md).",
    )
    parser.add_argument("old", type=Path)
    parser.add_argument("new", type=Path)
    parser.add_argument("--check", action="store_true", help="compare the choices after")
    parser.add_argument("--positions", type=int, default=300)
    args = parser.parse_args(argv)
    try:
        game, players = convert(args.old, args.new)
    except (OSError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    space = action_space(game)
    print(f"{args.new}: {space.title} for {players} players, {space.size} action ids")
    if args.check:
        seen, same = check(args.old, args.new, game, players, args.positions)
        print(f"same choice on {same} of {seen} positions")
        return 0 if same == seen else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

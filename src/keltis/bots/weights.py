"""The heuristic under other weights, read from a file: what ``heuristic:weights=FILE`` and
``ismcts:tuning=FILE`` (``hard:tuning=FILE``; a search's ``weights`` are a learned network's)
play.

The heuristic's judgement is a handful of documented weights (``keltis.board.policy.
BoardTuning``, ``keltis.cards.policy.CardTuning``; docs/bots.md). A weights file is JSON: the
``game`` it is for and its ``weights`` by name (those left out keep today's values), or the
``tuned.json`` that a tuning run writes (``python -m keltis.fast.tune``: the game in its
``settings``). A bot given one plays exactly as before but for the weights: the same view in,
the same sampled state, only the heuristic's numbers differ.

A name of :data:`SETS` instead of a file is a set shipped with keltis, one file per game and
number of players (``keltis/data/weights-<name>-<game>-<players>p.json``): ``weights=medium``
is the medium level's (``heuristic:weights=medium`` is the level), which plays both games for
2-4 players, each with the weights tuned for it (the best weights for two players measured
clearly worse with four: docs/bots.md); ``tuning=hard`` is the hard level's, the weights its
playouts and projection run on: tuned where hard measured clearly stronger with them, the
heuristic's own elsewhere (each file says which and what measured it).
"""

from __future__ import annotations

import functools
import inspect
import json
from pathlib import Path
from typing import Any, cast

from keltis.core.policy import GamePolicies, Policy, Projection, Scorer
from keltis.games import GAME_NAMES, get_game

#: The weight sets shipped with keltis, by name (see the module docstring).
SETS = ("medium", "hard")
_DATA = Path(__file__).resolve().parent.parent / "data"


class WeightsError(ValueError):
    """A weights file that cannot be read or does not fit its game."""


def weights_path(game: str, weights: str, players: int) -> str:
    """The file ``weights`` names for ``game`` with ``players`` seats: a shipped set's file,
    or ``weights`` itself."""
    if weights not in SETS:
        return weights
    return str(_DATA / f"weights-{weights}-{game}-{players}p.json")


def check_weights(weights: str) -> None:
    """Read ``weights`` (a file, or a set: each game's file) as a bot does before it plays:
    ``WeightsError`` says what is wrong."""
    if weights not in SETS:
        read_weights(weights)
        return
    for game in GAME_NAMES:
        rules = get_game(game)
        for players in range(rules.min_players, rules.max_players + 1):
            tuning_of(game, weights, players)


@functools.lru_cache(maxsize=32)
def read_weights(path: str) -> tuple[str, Any]:
    """The game a weights file is for and its weights as that game's tuning (today's values
    for the weights it leaves out). ``WeightsError`` says what is wrong with a bad one."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise WeightsError(f"cannot read the weights file {path!r}: {error}") from error
    if not isinstance(data, dict):
        raise WeightsError(f"the weights file {path!r} holds no JSON object")
    settings = data.get("settings")
    game = data.get("game", settings.get("game") if isinstance(settings, dict) else None)
    if game not in GAME_NAMES:
        raise WeightsError(
            f"the weights file {path!r} names no game ('game': one of {', '.join(GAME_NAMES)})"
        )
    weights = data.get("weights")
    if not isinstance(weights, dict):
        raise WeightsError(f"the weights file {path!r} has no 'weights' object")
    today = get_game(game).part("policy").DEFAULT_TUNING
    names = weight_names(game)
    unknown = sorted(set(weights) - set(names))
    if unknown:
        raise WeightsError(
            f"the {game} game's heuristic has no weights {', '.join(unknown)} "
            f"(it has {', '.join(names)})"
        )
    bad = [k for k, v in weights.items() if isinstance(v, bool) or not isinstance(v, int | float)]
    if bad:
        raise WeightsError(f"weights must be numbers: {', '.join(sorted(bad))}")
    chosen = {name: float(weights.get(name, getattr(today, name))) for name in names}
    return game, type(today)(**chosen)


def weight_names(game: str) -> tuple[str, ...]:
    """The names of ``game``'s heuristic weights, in their class's order."""
    kind = type(get_game(game).part("policy").DEFAULT_TUNING)
    # its annotated class attributes; compiled by mypyc (keltis._native), the class keeps no
    # annotations but lists its attributes in ``__mypyc_attrs__``
    names: tuple[str, ...] = tuple(
        inspect.get_annotations(kind) or getattr(kind, "__mypyc_attrs__", ())
    )
    return names


def weights_of(tuning: Any) -> dict[str, float]:
    """A tuning's weights by name (compiled tunings do not compare by value)."""
    for game in GAME_NAMES:
        if isinstance(tuning, type(get_game(game).part("policy").DEFAULT_TUNING)):
            return {name: float(getattr(tuning, name)) for name in weight_names(game)}
    raise TypeError(f"{type(tuning).__name__} is no game's heuristic weights")


@functools.lru_cache(maxsize=32)
def _tuned(game: str, weights: str, players: int) -> GamePolicies:
    tuning = tuning_of(game, weights, players)
    base = get_game(game).heuristics()
    # each game's policy, scorer and projection take its weights as ``tuning``
    policy, scores, projection = cast(
        tuple[Any, Any, Any], (base.policy, base.scores, base.projection)
    )
    return GamePolicies(
        cast(Policy, functools.partial(policy, tuning=tuning)),
        cast(Scorer, functools.partial(scores, tuning=tuning)),
        cast(Projection, functools.partial(projection, tuning=tuning)),
        base.gain,
        base.rewind,
    )


def heuristics(game: str, weights: str | None = None, players: int = 2) -> GamePolicies:
    """``game``'s heuristics (``Game.heuristics()``), under the weights of the file or set
    ``weights`` (for ``players`` seats) when one is given."""
    if weights is None:
        return get_game(game).heuristics()
    return _tuned(game, weights, players)


def tuning_of(game: str, weights: str, players: int) -> Any:
    """The tuning the file or set ``weights`` gives ``game``'s heuristic with ``players``
    seats."""
    found, tuning = read_weights(weights_path(game, weights, players))
    if found != game:
        raise WeightsError(f"the weights file {weights!r} is for the {found} game, not {game}")
    return tuning


__all__ = [
    "SETS",
    "WeightsError",
    "check_weights",
    "heuristics",
    "read_weights",
    "tuning_of",
    "weight_names",
    "weights_of",
    "weights_path",
]

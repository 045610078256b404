"""The differential test: the fast engine against the reference engine, decision by decision.

For each game, both engines start from the same deal: the reference's explicit set-up
``Game.deal(players, seed + i)`` loaded into a fast state array (``deal="reference"``), or the
fast engine's own deal of game ``i`` (what ``simulate`` plays) given to the reference as an
explicit set-up (``deal="fast"``). The fast engine plays the game to its end with a policy,
recording the legal decisions at every step and its choices. The reference then replays the
choices (the game's action ids, ``Game.actions``); before each one, the SET of its legal
decisions (``{space.index(a) for a in state.legal_actions()}``) must equal the fast
engine's, and at the end the end reason, the scores, the completed turns and the number of
decisions must agree.
The first difference raises :class:`MismatchError` with the game's set-up and history.
"""

from __future__ import annotations

from collections import Counter
from types import ModuleType
from typing import Any, Final

import numpy as np

from keltis.core.actions import Action, ActionKind
from keltis.core.protocol import JSON, Game, GameState
from keltis.fast import driver
from keltis.fast.batch import END_REASONS, check_policy
from keltis.fast.setup import Rng, State, dealt_state, game_rng, kernel, load_setup, to_setup
from keltis.fast.tuning import weights
from keltis.games import get_game

DEALS: Final = ("reference", "fast")


class MismatchError(AssertionError):
    """The two engines disagree; the message says where and how to replay the game."""


def differential(
    game: str,
    players: int,
    n_games: int,
    *,
    policy: str = "random",
    seed: int = 0,
    variant: JSON | None = None,
    deal: str = "reference",
) -> dict[str, Any]:
    """Play ``n_games`` games (``seed``, ``seed + 1``, …) in both engines and compare them at
    every decision; raise :class:`MismatchError` at the first difference. Returns what was
    compared: games, decisions, legal sets, end reasons, decisions by phase and by kind."""
    if deal not in DEALS:
        raise ValueError(f"deal must be one of {', '.join(DEALS)}, not {deal!r}")
    code = check_policy(policy)
    rules = get_game(game)
    rules.check_players(players)
    space = rules.actions
    k = kernel(game)
    tag = driver.tag(game)
    cap = int(rules.variant_json(variant)["turn_cap"])
    room = rules.max_game_length(players, cap) + 1
    legal_out = np.zeros(room * k.MAX_LEGAL, dtype=np.int32)
    offsets = np.zeros(room + 1, dtype=np.int64)
    choices = np.zeros(room, dtype=np.int32)
    ends: Counter[str] = Counter()
    phases: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    decisions = legal_compared = most_legal = 0
    for g in range(n_games):
        s, rng, setup, where = _start(rules, players, seed, g, deal, variant)
        ref = rules.new_game(players, setup=setup, variant=variant)
        steps = int(
            driver.play(tag, s, code, rng, True, legal_out, offsets, choices, weights(game))
        )
        where += f", policy {policy}, variant {rules.variant_json(variant)}"
        for step in range(steps):
            fast = legal_out[offsets[step] : offsets[step + 1]].tolist()
            theirs = ref.legal_actions()
            mine = sorted(fast)
            if len(set(mine)) != len(mine) or mine != sorted(space.index(a) for a in theirs):
                raise MismatchError(
                    _report(where, setup, ref, step, "legal decisions differ")
                    + f"\n  reference: {sorted(str(a) for a in theirs)}"
                    + f"\n  fast:      {sorted(space.notation[i] for i in fast)}"
                )
            legal_compared += 1
            most_legal = max(most_legal, len(mine))
            phases[ref.phase_name] += 1
            action = space.action(int(choices[step]))
            kinds[_kind(action)] += 1
            ref.apply(action)
        ends[_same_outcome(k, s, ref, steps, where, setup)] += 1
        decisions += steps
    return {
        "game": game,
        "players": players,
        "policy": policy,
        "deal": deal,
        "seed": seed,
        "variant": rules.variant_json(variant),
        "games": n_games,
        "decisions": decisions,
        "legal_sets_compared": legal_compared,
        "largest_legal_set": most_legal,
        "end_reasons": dict(sorted(ends.items())),
        "decisions_by_phase": dict(sorted(phases.items())),
        "decisions_by_kind": dict(sorted(kinds.items())),
    }


def _start(
    rules: Game, players: int, seed: int, g: int, deal: str, variant: JSON | None
) -> tuple[State, Rng, JSON, str]:
    """Game ``g``'s fast state, its random stream, its deal as an explicit set-up, and how
    to name it in a report."""
    game = rules.name
    if deal == "reference":
        setup = rules.deal(players, seed + g)
        where = f"{game}, {players} players, reference deal of seed {seed + g}"
        return load_setup(game, players, setup, variant), game_rng(seed, g), setup, where
    s, rng = dealt_state(game, players, seed, g, variant)
    where = f"{game}, {players} players, fast deal {g} of seed {seed}"
    return s, rng, to_setup(game, s), where


def _same_outcome(
    k: ModuleType, s: State, ref: GameState, steps: int, where: str, setup: JSON
) -> str:
    """The end reason of a finished fast game, checked against the reference's end, scores,
    turns and decisions; :class:`MismatchError` where they differ."""
    if not ref.over or ref.legal_actions():
        raise MismatchError(
            _report(where, setup, ref, steps, "the fast game ended, not the reference")
        )
    fast_scores = [int(k.score(s, p)) for p in range(ref.num_players)]
    fast_end = END_REASONS[int(s[k.END])]
    assert ref.end_reason is not None
    expected = (ref.end_reason.value, ref.scores(), ref.turn, len(ref.history))
    got = (fast_end, fast_scores, int(s[k.TURN]), steps)
    if got != expected:
        raise MismatchError(
            _report(where, setup, ref, steps, "outcomes differ")
            + f"\n  (end, scores, turns, decisions) reference {expected}, fast {got}"
        )
    return fast_end


def _kind(action: Action) -> str:
    if action.kind is ActionKind.LAY and action.target >= 0:
        return "lay_onto_row"
    if action.kind is ActionKind.DRAW:
        return "draw_deck" if action.target < 0 else "draw_pile"
    return action.kind.name.lower()


def _report(where: str, setup: JSON, ref: Any, step: int, what: str) -> str:
    history = " ".join(f"{p}:{a}" for p, a in zip(ref.actors, ref.history, strict=True))
    return (
        f"{what} at decision {step} ({where}; reference phase {ref.phase_name}, "
        f"player {ref.current_player})\n  set-up: {setup}\n  history: {history}"
    )

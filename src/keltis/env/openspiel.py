"""Both games as OpenSpiel Python games: ``python_keltis_board`` and ``python_keltis_cards``.

Importing this module registers them with OpenSpiel (``pip install open_spiel``, part of the
``rl`` extra)::

    import pyspiel
    import keltis.env.openspiel  # registers the games

    game = pyspiel.load_game("python_keltis_board(players=3)")
    state = game.new_initial_state()

Parameters: ``players`` (2-4), ``seed`` (the deals) and ``turn_cap`` (the variant's turn cap:
a game reaching it ends, truncated, with returns from the standings). ``seed`` -1, the
default, is OpenSpiel's "unseeded": every new initial state is dealt from a fresh seed drawn
from the operating system, so two runs differ. A seed ``S`` ≥ 0 gives a game object a
reproducible stream of different deals: its first state is dealt the game ``S`` deals
everywhere in keltis (``get_game(name).new_game(players, seed=S)``), its ``k``-th
(``k`` ≥ 1) the game of :func:`deal_seed` ``(S, k)``; two game objects loaded with the same
seed deal the same sequence. A state takes its place in the stream when it is first used
(the states OpenSpiel creates only to copy into, for ``clone()`` and ``deserialize_state``,
take none); ``state.deal_seed`` is the keltis seed of its deal.

Chance is *sampled stochastic*: the deal is drawn when a new state is first used and there is
no chance node (there is no chance after the deal: it fixes the draw pile's order). An explicit
chance node would have to choose among all deals, and a state resampled from a player's
information state (:meth:`KeltisState.resample_from_infostate`, which IS-MCTS needs) could
not then be explained by its history. OpenSpiel serializes a Python state by pickling its
Python attributes (the keltis state itself), so a serialized state comes back with its
hidden cards whatever its history.

Returns are paid at the end (terminal reward model), as in the Gymnasium and PettingZoo
environments' default ``reward="win"``: 1 to a sole winner, 1/k to each of k players
sharing the victory, 0 to the others; they always sum to 1 (constant-sum).

Observations come from :mod:`keltis.env.encode` (the same tensors as every adapter) and
information-state strings from the seat's view: its hand, the public set-up and every action
so far in notation, with the cards of its own draws from the draw pile (no one else's). Both
are built from what the seat sees, never from hidden cards. There is no information state
*tensor* (the game type says ``provides_information_state_tensor=False``): asking for one
raises :class:`NoInformationStateTensorError` (a clear error rather than OpenSpiel's silent
empty list); a learner gets the observation tensor (the seat's view now) or the information
state string (its hand and every move it saw).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, Final

import numpy as np
import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]
from open_spiel.python.algorithms import ismcts  # type: ignore[import-untyped, unused-ignore]

from keltis.bots.base import derive_seed
from keltis.core.actions import DRAW_DECK, ActionSpace
from keltis.core.card_codes import CARD_TEXT
from keltis.core.protocol import Game as Rules
from keltis.core.protocol import GameState
from keltis.core.setup import fresh_seed
from keltis.env.common import render_view, terminal_reward
from keltis.env.encode import encode, observation_size
from keltis.games import GAME_NAMES, get_game

#: OpenSpiel's short names of the two games (its convention for Python games: ``python_``).
SHORT_NAMES: Final = {name: f"python_keltis_{name}" for name in GAME_NAMES}

_NO_CARD: Final = -1


@cache
def _space(name: str) -> ActionSpace:
    """The game's action space: OpenSpiel's action ids are its ids."""
    return get_game(name).actions


#: The ``seed`` parameter's default: OpenSpiel's "unseeded" (deals from the operating system).
UNSEEDED: Final = -1

_NO_INFORMATION_STATE_TENSOR: Final = (
    "keltis's OpenSpiel games have no information state tensor (their game type says "
    "provides_information_state_tensor=False): use observation_tensor (the seat's view) or "
    "information_state_string (the seat's hand and every move it saw)"
)


class NoInformationStateTensorError(ValueError):
    """Raised where an information state tensor is asked for: these games provide none."""


def _default_params(name: str) -> dict[str, int]:
    cap = int(get_game(name).variant_json(None)["turn_cap"])
    return {"players": 2, "seed": UNSEEDED, "turn_cap": cap}


def deal_seed(seed: int, k: int) -> int:
    """The keltis seed of the ``k``-th deal (from 0) of a game loaded with ``seed`` ≥ 0:
    ``seed`` itself first, then seeds derived from it (``keltis.bots.base.derive_seed``)."""
    if seed < 0:
        raise ValueError(f"an unseeded game (seed {seed}) deals from the operating system")
    return seed if k == 0 else derive_seed(seed, "openspiel", k)


class _Deals:
    """The stream of deals of one game object: :func:`deal_seed` of its seed and of the
    number of deals so far, or fresh seeds from the operating system for an unseeded game."""

    __slots__ = ("dealt", "seed")

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.dealt = 0

    def next(self) -> int:
        """The seed of the next deal."""
        if self.seed < 0:
            return fresh_seed()
        k = self.dealt
        self.dealt += 1
        return deal_seed(self.seed, k)


def _game_type(name: str) -> Any:
    rules = get_game(name)
    return pyspiel.GameType(
        short_name=SHORT_NAMES[name],
        long_name=f"Python {rules.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=rules.max_players,
        min_num_players=rules.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_default_params(name),
    )


class _Core:
    """The Python side of one OpenSpiel state: the keltis state and the record of the moves.

    OpenSpiel clones a Python state by creating a new initial state and deep-copying the
    original's attributes into it (``__deepcopy__`` here clones the keltis state, fast), and
    serializes it by pickling them. The seed is taken from the game's stream of deals
    (``deals``) and the keltis state dealt on first use, so that the states OpenSpiel creates
    only to copy into cost no deal and take no place in the stream.
    """

    __slots__ = (
        "_seed",
        "_state",
        "deals",
        "log",
        "name",
        "players",
        "public",
        "texts",
        "turn_cap",
    )

    def __init__(self, name: str, players: int, deals: _Deals | int, turn_cap: int) -> None:
        self.name = name
        self.players = players
        self._seed: int | None = deals if isinstance(deals, int) else None
        self.deals: _Deals | None = None if isinstance(deals, int) else deals
        self.turn_cap = turn_cap
        self._state: GameState | None = None
        self.log: list[tuple[int, int, int]] = []
        """Every action so far: (actor, action index, card drawn from the draw pile or -1);
        the card is what the actor saw arrive in its own hand."""
        self.public = ""
        """The public part of the deal (the board game's tiles), fixed at the start."""
        self.texts: list[tuple[int, str]] = [(0, "")] * players
        """Per seat: the moves of ``log[:n]`` as that seat knows them, and ``n`` (a cache
        of the information state strings, extended as the game goes on)."""

    @property
    def seed(self) -> int:
        """The keltis seed of the deal (taken from the game's stream on first use)."""
        if self._seed is None:
            assert self.deals is not None
            self._seed = self.deals.next()
            self.deals = None
        return self._seed

    @property
    def state(self) -> GameState:
        if self._state is None:
            self._state = get_game(self.name).new_game(
                self.players, seed=self.seed, variant={"turn_cap": self.turn_cap}
            )
            self.public = _public_setup(self._state)
        return self._state

    def moves(self, seat: int | None) -> str:
        """The moves so far as ``seat`` knows them (``None``: as everyone knows them):
        ``actor:notation``, and ``=card`` after the seat's own draws from the draw pile."""
        log = self.log
        notation = _space(self.name).notation
        if seat is None:
            return ", ".join(f"{a}:{notation[i]}" for a, i, _ in log)
        done, text = self.texts[seat]
        if done < len(log):
            more = ", ".join(
                f"{a}:{notation[i]}={CARD_TEXT[c]}"
                if a == seat and c != _NO_CARD
                else f"{a}:{notation[i]}"
                for a, i, c in log[done:]
            )
            text = f"{text}, {more}" if text else more
            self.texts = self.texts[:]
            self.texts[seat] = (len(log), text)
        return text

    def replaced(self, state: GameState, seat: int) -> _Core:
        """A copy holding ``state`` (a determinization for ``seat``): the record keeps only
        what ``seat`` saw, so other seats' draws from the draw pile show no card."""
        new = copy.copy(self)
        new._state = state
        new.log = [(a, i, c if a == seat else _NO_CARD) for a, i, c in self.log]
        new.texts = [t if p == seat else (0, "") for p, t in enumerate(self.texts)]
        return new

    def __copy__(self) -> _Core:
        new = _Core.__new__(_Core)
        new.name = self.name
        new.players = self.players
        new._seed = self.seed  # a copy deals what the original deals
        new.deals = None
        new.turn_cap = self.turn_cap
        new._state = self._state
        new.log = self.log
        new.public = self.public
        new.texts = self.texts
        return new

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        new = self.__copy__()
        new._state = self._state.clone() if self._state is not None else None
        new.log = self.log[:]
        return new

    def __getstate__(self) -> dict[str, Any]:
        """What pickling keeps (OpenSpiel's ``serialize``): the seed taken, not the stream."""
        self._seed = self.seed  # takes the seed from the stream if not yet taken
        return {name: getattr(self, name) for name in self.__slots__ if hasattr(self, name)}

    def __setstate__(self, data: dict[str, Any]) -> None:
        for name, value in data.items():
            setattr(self, name, value)


def _public_setup(state: GameState) -> str:
    """What every seat sees of the deal before the first action (the board game's tiles),
    from the game's ``encoding`` part."""
    text: str = get_game(state.game_name).part("encoding").setup_text(state.view(None))
    return text


class KeltisGame(pyspiel.Game):  # type: ignore[misc]
    """One of the two games for OpenSpiel (a subclass per game names it)."""

    keltis_name: str = ""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        name = self.keltis_name
        merged = {**_default_params(name), **(params or {})}
        players = int(merged["players"])
        turn_cap = int(merged["turn_cap"])
        rules: Rules = get_game(name)
        info = rules.info(players, {"turn_cap": turn_cap})
        super().__init__(
            _GAME_TYPES[name],
            pyspiel.GameInfo(
                num_distinct_actions=info.num_distinct_actions,
                max_chance_outcomes=0,
                num_players=players,
                min_utility=0.0,
                max_utility=1.0,
                utility_sum=1.0,
                max_game_length=info.max_game_length,
            ),
            merged,
        )
        self.rules = rules
        self.players = players
        self.seed = int(merged["seed"])
        self.turn_cap = turn_cap
        self.deals = _Deals(self.seed)
        """The game's stream of deals (see the module's docstring)."""

    def new_initial_state(self) -> KeltisState:
        """A new game: the next deal of the game's stream (see the module's docstring), or,
        unseeded, the deal of a fresh seed from the operating system."""
        return KeltisState(self, _Core(self.keltis_name, self.players, self.deals, self.turn_cap))

    def observation_tensor_shape(self) -> list[int]:
        """``[observation size]`` (the same as OpenSpiel's, without creating a state)."""
        return [observation_size(self.keltis_name, self.players)]

    def observation_tensor_size(self) -> int:
        """The length of the observation tensor."""
        return observation_size(self.keltis_name, self.players)

    def information_state_tensor_shape(self) -> list[int]:
        """Refused: there is no information state tensor."""
        raise NoInformationStateTensorError(_NO_INFORMATION_STATE_TENSOR)

    def information_state_tensor_size(self) -> int:
        """Refused: there is no information state tensor."""
        raise NoInformationStateTensorError(_NO_INFORMATION_STATE_TENSOR)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> KeltisObserver:
        """An observer (OpenSpiel's ``PyObserver`` protocol): tensors and strings of views."""
        return KeltisObserver(
            self.keltis_name,
            self.players,
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
            params,
        )


class KeltisState(pyspiel.State):  # type: ignore[misc]
    """A position for OpenSpiel: a keltis state and the record of the actions so far."""

    def __init__(self, game: KeltisGame, core: _Core) -> None:
        super().__init__(game)
        self._core = core

    @property
    def keltis_state(self) -> GameState:
        """The underlying keltis state (full information: never show it to a player)."""
        return self._core.state

    @property
    def deal_seed(self) -> int:
        """The keltis seed of this state's deal (``get_game(name).new_game(players,
        seed=…)`` deals it; it determines every hidden card: never show it to a player)."""
        return self._core.seed

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """``player``'s observation (:func:`keltis.env.encode.encode` of its view; the
        current player's by default), as OpenSpiel's method gives it, without the state
        OpenSpiel's bridge creates to learn the tensor's shape."""
        seat = self.current_player() if player is None else player
        if not 0 <= seat < self._core.players:
            raise ValueError(f"no seat {seat} in a {self._core.players}-player game")
        values: list[float] = encode(self._core.state.view(seat)).tolist()
        return values

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """Refused with :class:`NoInformationStateTensorError`: there is none (use
        :meth:`observation_tensor` or ``information_state_string``)."""
        raise NoInformationStateTensorError(_NO_INFORMATION_STATE_TENSOR)

    def current_player(self) -> int:
        """The seat to decide, or ``pyspiel.PlayerId.TERMINAL``."""
        state = self._core.state
        return int(pyspiel.PlayerId.TERMINAL) if state.over else state.current_player

    def _legal_actions(self, player: int) -> list[int]:
        state = self._core.state
        if state.over or player != state.current_player:
            return []
        space = _space(self._core.name)
        return sorted(space.index(a) for a in state.legal_actions())

    def _apply_action(self, action: int) -> None:
        core = self._core
        state = core.state
        seat = state.current_player
        chosen = _space(core.name).action(action)
        if chosen == DRAW_DECK:
            before = state.hands[seat][:]  # what the seat sees of its hand
            state.apply(DRAW_DECK)
            core.log.append((seat, action, _new_card(before, state.hands[seat])))
        else:
            state.apply(chosen)
            core.log.append((seat, action, _NO_CARD))

    def _action_to_string(self, player: int, action: int) -> str:
        return _space(self._core.name).notation[action]

    def is_terminal(self) -> bool:
        """Whether the game is over (finished, or cut off by the turn cap)."""
        return self._core.state.over

    def returns(self) -> list[float]:
        """1 to a sole winner, 1/k to each of k sharing winners, 0 to the others; all 0
        until the game is over."""
        state = self._core.state
        if not state.over:
            return [0.0] * state.num_players
        outcome = state.outcome()
        return [terminal_reward(outcome, p, "win") for p in range(state.num_players)]

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> KeltisState:
        """A state ``player_id`` cannot tell from this one: the cards it has not seen dealt
        anew (:meth:`keltis.core.protocol.Game.sample_state` on its view), the same history
        (OpenSpiel's and the keltis state's: the ply and the last moves its views show).

        ``probability_sampler`` (OpenSpiel's ``UniformProbabilitySampler``) seeds the deal.
        """
        new: KeltisState = self.clone()
        state = self._core.state
        if state.over:
            return new
        rng = random.Random(int(probability_sampler() * 2**53))
        rules = get_game(self._core.name)
        sampled = rules.sample_state(state.view(player_id), rng)
        # The actions so far are public: the sample keeps them, so the ply and the last
        # moves of its views (its observation string) are the original's.
        sampled.history = state.history[:]
        sampled.actors = state.actors[:]
        sampled.first_player = state.first_player
        new._core = self._core.replaced(sampled, player_id)
        return new

    def __str__(self) -> str:
        """Everything, hidden cards included (for debugging and OpenSpiel's tests)."""
        state = self._core.state
        hidden = " | ".join(
            [
                "hands " + " / ".join(_cards(h) for h in state.hands),
                "deck " + _cards(state.deck[::-1]),
                "removed " + _cards(state.removed),
            ]
        )
        return f"{render_view(state.view(None))}{self._core.public}\n{hidden}"


def _new_card(before: list[int], after: list[int]) -> int:
    """The one card in ``after`` (a sorted hand) that ``before`` lacks."""
    for i, card in enumerate(before):
        if after[i] != card:
            return after[i]
    return after[-1]


def _cards(cards: list[int]) -> str:
    return " ".join(CARD_TEXT[c] for c in cards) or "-"


def _info_string(core: _Core, player: int, *, private: bool) -> str:
    """The information state string: the seat, its hand (``private``), the public set-up and
    every action so far as ``actor:notation`` (separated by commas), the seat's own draws
    from the draw pile with the card drawn (``=card``)."""
    if not private:
        return f"public | {core.public} | {core.moves(None)}"
    state = core.state
    return f"p{player} | hand {_cards(state.hands[player])} | {core.public} | {core.moves(player)}"


class KeltisObserver:
    """OpenSpiel's Python observer protocol (``tensor``, ``dict``, ``set_from``,
    ``string_from``) for one game and number of players.

    - the default observation (no perfect recall, the seat's private information): the
      tensor is :func:`keltis.env.encode.encode` of the seat's view and the string the
      view's text (as the environments' ``render``), with the board game's tiles;
    - perfect recall: the information state string (no tensor);
    - public information only: the spectator's view as text, or with perfect recall the
      public record (no tensor).
    """

    def __init__(
        self, name: str, players: int, iig_obs_type: Any, params: Mapping[str, Any] | None
    ) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {dict(params)}")
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS or not iig_obs_type.public_info:
            raise ValueError(
                "keltis observers show one seat's view or the public one "
                "(private_info SINGLE_PLAYER or NONE, public_info True)"
            )
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.private = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.tensor: np.ndarray[Any, np.dtype[np.float32]] | None
        self.dict: dict[str, np.ndarray[Any, np.dtype[np.float32]]]
        if self.private and not self.perfect_recall:
            self.tensor = np.zeros(observation_size(name, players), dtype=np.float32)
            self.dict = {"observation": self.tensor}
        else:
            self.tensor = None
            self.dict = {}

    def set_from(self, state: KeltisState, player: int) -> None:
        """Fill ``tensor`` with ``player``'s observation of ``state``. An observer without a
        tensor (perfect recall: the information state; public information) refuses with
        :class:`NoInformationStateTensorError` rather than give an empty tensor: it is what
        OpenSpiel calls for ``information_state_tensor``."""
        if self.tensor is None:
            raise NoInformationStateTensorError(
                _NO_INFORMATION_STATE_TENSOR
                if self.perfect_recall and self.private
                else "this keltis observer has no tensor (only the default observation, no "
                "perfect recall and the seat's private information, has one): use string_from"
            )
        encode(state.keltis_state.view(player), out=self.tensor)

    def string_from(self, state: KeltisState, player: int) -> str:
        """``player``'s observation (or information state) of ``state`` as text."""
        core = state._core
        if self.perfect_recall:
            return _info_string(core, player, private=self.private)
        view = core.state.view(player if self.private else None)
        text = render_view(view)
        return f"{text}{core.public}\n" if core.public else text


_GAME_TYPES: Final = {name: _game_type(name) for name in SHORT_NAMES}


def _game_class(name: str) -> type[KeltisGame]:
    """The OpenSpiel game class of keltis's game ``name`` (``KeltisBoardGame``, …), a module
    attribute so that pickle finds it by name."""
    cls = type(
        f"Keltis{name.capitalize()}Game",
        (KeltisGame,),
        {
            "keltis_name": name,
            "__module__": __name__,
            "__doc__": f"``{SHORT_NAMES[name]}``: {get_game(name).title}.",
        },
    )
    globals()[cls.__name__] = cls
    return cls


GAME_CLASSES: Final[dict[str, type[KeltisGame]]] = {name: _game_class(name) for name in GAME_NAMES}


def _register() -> None:
    registered = set(pyspiel.registered_names())
    for name, cls in GAME_CLASSES.items():
        if SHORT_NAMES[name] not in registered:
            pyspiel.register_game(_GAME_TYPES[name], cls)


_register()


class RolloutEvaluator:
    """An evaluator for OpenSpiel's MCTS and IS-MCTS bots (``evaluate`` and ``prior``, as
    ``open_spiel.python.algorithms.mcts.RandomRolloutEvaluator``) that plays its random
    playouts in the rules engine rather than through OpenSpiel's state API: the same
    uniformly random games, many times faster. Values are the returns (win 1, shared 1/k).
    """

    def __init__(self, n_rollouts: int = 1, seed: int | None = None) -> None:
        self.n_rollouts = n_rollouts
        self._rng = random.Random(fresh_seed() if seed is None else seed)

    def evaluate(self, state: KeltisState) -> np.ndarray[Any, np.dtype[np.float64]]:
        """The mean returns of ``n_rollouts`` random playouts from ``state``."""
        total = np.zeros(state.num_players())
        for _ in range(self.n_rollouts):
            game = state.keltis_state.clone()
            game.play_random(self._rng)
            outcome = game.outcome()
            total += [terminal_reward(outcome, p, "win") for p in range(game.num_players)]
        return total / self.n_rollouts

    def prior(self, state: KeltisState) -> list[tuple[int, float]]:
        """Uniform over the legal actions."""
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


class ISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's own IS-MCTS bot (``open_spiel.python.algorithms.ismcts.ISMCTSBot``, the
    same arguments), able to play in ``evaluate_bots`` and reproducible from its
    ``random_state``.

    Two small additions: ``restart_at``, which ``evaluate_bots`` calls first and OpenSpiel's
    Python IS-MCTS lacks (it searches anew at each decision, so there is nothing to reset),
    and determinizations seeded from ``random_state`` (OpenSpiel's default draws them from
    a ``UniformProbabilitySampler`` seeded by the operating system). Use this one: OpenSpiel's
    C++ IS-MCTS (``pyspiel.ISMCTSBot``) kills the process with a segmentation fault on its
    first move of any Python game, OpenSpiel's own too (open_spiel 2.0.2; docs/rl.md).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._sampler: Any = None

    def restart_at(self, state: Any) -> None:
        """Start a new game: nothing carries over (each search starts from its state)."""
        self.reset()

    def resample_from_infostate(self, state: Any) -> Any:
        """A determinization of ``state`` for the player to move (or the resampler set)."""
        if self._resampler_cb:
            return self._resampler_cb(state, state.current_player())
        if self._sampler is None:
            seed = int(self._random_state.randint(2**31 - 1))
            self._sampler = pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)
        return state.resample_from_infostate(state.current_player(), self._sampler)

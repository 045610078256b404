"""A tournament's specification: the game, the bots, the seats, the number of games, the seed.

Everything about game ``i`` — who sits where, the set-up seed, each bot's seed — is a pure
function of the specification and ``i`` (:meth:`Tournament.task`), never of worker timing, so
a local pool, a Ray cluster and a resumed run play exactly the same games.

Seating: the tournament cycles through *tables* — the groups of bots that meet (every group
of ``players`` distinct bots; with fewer bots than seats, every group that holds each bot at
least once) — and the seating orders; each table plays ``players`` games in a row with the
seats rotated one step each game, so every bot at that table sits once in every seat.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from itertools import combinations, combinations_with_replacement, permutations
from typing import Any, Final

from keltis.arena.spec import BotSpec, BotSpecError
from keltis.bots.base import derive_seed
from keltis.core.errors import KeltisError
from keltis.games import GAME_NAMES, get_game

FORMAT: Final = "keltis-arena"
VERSION: Final = 1
DEFAULT_TURN_CAP: Final = 1000


class TournamentError(ValueError):
    """A tournament specification is inconsistent, or a directory does not match it."""


@dataclass(frozen=True)
class GameTask:
    """Everything a worker needs to play one game of a tournament (picklable)."""

    index: int
    game: str
    variant: dict[str, Any]
    seed: int
    """The game's set-up seed (stored in its record)."""
    seats: tuple[BotSpec, ...]
    bot_seeds: tuple[int, ...]


@dataclass(frozen=True)
class Tournament:
    """A tournament; build one with :meth:`create` (which checks it) or :meth:`from_json`."""

    game: str
    bots: tuple[BotSpec, ...]
    players: int
    games: int
    seed: int = 0
    variant: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def create(
        cls,
        game: str,
        bots: tuple[BotSpec, ...] | list[BotSpec],
        *,
        players: int | None = None,
        games: int = 100,
        seed: int = 0,
        variant: dict[str, Any] | None = None,
        turn_cap: int | None = DEFAULT_TURN_CAP,
    ) -> Tournament:
        """A checked tournament. ``players`` defaults to the number of bots (at most 4);
        ``turn_cap`` goes into the variant unless the variant already sets one (``None``:
        no cap). A board-game variant always states ``no_take_back`` (default ``True``,
        B-15), so the stored tournament keeps its rule whatever the default becomes."""
        rules = dict(variant or {})
        if turn_cap is not None:
            rules.setdefault("turn_cap", turn_cap)
        if game in GAME_NAMES and "no_take_back" in get_game(game).switches():
            rules.setdefault("no_take_back", True)
        if players is None:
            players = min(max(len(bots), 2), 4)
        tournament = cls(game, tuple(bots), players, games, seed, rules)
        tournament.check()
        return tournament

    def check(self, *, build_bots: bool = True) -> None:
        """Raise :class:`TournamentError` (or :class:`BotSpecError`) naming what is wrong."""
        if self.game not in GAME_NAMES:
            raise TournamentError(
                f"unknown game {self.game!r}: choose one of {', '.join(GAME_NAMES)}"
            )
        rules = get_game(self.game)
        if not rules.min_players <= self.players <= rules.max_players:
            raise TournamentError(
                f"{rules.title} is for {rules.min_players}-{rules.max_players} players, "
                f"not {self.players}"
            )
        if len(self.bots) < 2:
            raise TournamentError("a tournament needs at least two bots")
        names = [b.name for b in self.bots]
        if len(set(names)) != len(names):
            raise TournamentError(f"two bots have the same name: {names}")
        if isinstance(self.games, bool) or not isinstance(self.games, int) or self.games < 1:
            raise TournamentError(f"the number of games must be at least 1, not {self.games!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int):
            raise TournamentError(f"the seed must be a whole number, not {self.seed!r}")
        try:
            rules.new_game(self.players, seed=0, variant=self.variant)
        except KeltisError as error:
            raise TournamentError(f"bad variant {self.variant}: {error}") from error
        if build_bots:
            for bot in self.bots:
                bot.check()
                bot.build(0)

    # -- the schedule --------------------------------------------------------------------

    @cached_property
    def tables(self) -> tuple[tuple[int, ...], ...]:
        """The groups of bot indices that meet, in the order the schedule visits them."""
        k, p = len(self.bots), self.players
        if k >= p:
            return tuple(combinations(range(k), p))
        return tuple(
            group for group in combinations_with_replacement(range(k), p) if len(set(group)) == k
        )

    @cached_property
    def _orders(self) -> tuple[tuple[int, ...], ...]:
        # Orders of the seats up to rotation (the first fixed); with the rotations of each
        # block they give every seating order once per cycle.
        return tuple((0, *rest) for rest in permutations(range(1, self.players)))

    def seating(self, index: int) -> tuple[int, ...]:
        """Bot indices by seat in game ``index`` (0-based)."""
        p = self.players
        block, rotation = divmod(index, p)
        tables = self.tables
        table = tables[block % len(tables)]
        order = self._orders[(block // len(tables)) % len(self._orders)]
        return tuple(table[order[(seat + rotation) % p]] for seat in range(p))

    @property
    def balance_period(self) -> int:
        """Games after which every bot has sat equally often in every seat (and every table
        has played as often): a tournament of a multiple of this many games is balanced."""
        return len(self.tables) * self.players

    @property
    def cycle(self) -> int:
        """Games after which every table has played every seating order once."""
        return len(self.tables) * len(self._orders) * self.players

    def task(self, index: int) -> GameTask:
        """Game ``index`` of this tournament: seats, set-up seed and the bots' seeds."""
        if not 0 <= index < self.games:
            raise IndexError(f"game {index} is not in this tournament of {self.games} games")
        seats = tuple(self.bots[b] for b in self.seating(index))
        return GameTask(
            index=index,
            game=self.game,
            variant=dict(self.variant),
            seed=derive_seed(self.seed, index, "setup"),
            seats=seats,
            bot_seeds=tuple(derive_seed(self.seed, index, "seat", s) for s in range(len(seats))),
        )

    # -- JSON ----------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The specification as JSON (``tournament.json``)."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "seed": self.seed,
            "variant": dict(self.variant),
            "bots": [b.to_json() for b in self.bots],
        }

    @classmethod
    def from_json(cls, data: Any, *, build_bots: bool = True) -> Tournament:
        """Read and check the form written by :meth:`to_json`."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise TournamentError(f'not a keltis tournament: "format" must be "{FORMAT}"')
        version = data.get("version")
        if not isinstance(version, int) or not 1 <= version <= VERSION:
            raise TournamentError(f"unsupported tournament version {version!r}")
        bots_data = data.get("bots")
        if not isinstance(bots_data, list):
            raise TournamentError('"bots" must be a list')
        try:
            bots = tuple(BotSpec.from_json(b) for b in bots_data)
        except BotSpecError as error:
            raise TournamentError(f"bad bot in the tournament: {error}") from error
        variant = data.get("variant") or {}
        if not isinstance(variant, dict):
            raise TournamentError('"variant" must be an object')
        game = data.get("game")
        if game in GAME_NAMES and "no_take_back" not in variant:
            # Written before B-15 forbade take-back by default: go on with the old default,
            # as records of that time (format version 1) do.
            variant = get_game(game).record_variant(variant, 1)
        tournament = cls(
            game=data.get("game"),  # type: ignore[arg-type]  # checked by check()
            bots=bots,
            players=data.get("players"),  # type: ignore[arg-type]
            games=data.get("games"),  # type: ignore[arg-type]
            seed=data.get("seed"),  # type: ignore[arg-type]
            variant=variant,
        )
        if isinstance(tournament.players, bool) or not isinstance(tournament.players, int):
            raise TournamentError(f'"players" must be a whole number, not {tournament.players!r}')
        tournament.check(build_bots=build_bots)
        return tournament

"""Tournament specifications: seat rotation, seeds, checks and the JSON form."""

from __future__ import annotations

from collections import Counter
from itertools import permutations

import pytest

from keltis.arena.spec import BotSpec, BotSpecError, parse_bots
from keltis.arena.tournament import DEFAULT_TURN_CAP, Tournament, TournamentError
from keltis.bots.base import derive_seed


def make(names: list[str], players: int | None = None, games: int = 24) -> Tournament:
    return Tournament.create("board", parse_bots(names), players=players, games=games, seed=5)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_as_many_bots_as_seats_each_bot_sits_in_each_seat_once_per_block(players: int) -> None:
    names = ["random", "greedy", "c=random", "d=greedy"][:players]
    t = make(names, games=48)
    for block in range(48 // players):
        seatings = [t.seating(block * players + r) for r in range(players)]
        for seat in range(players):
            assert sorted(s[seat] for s in seatings) == list(range(players))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_one_cycle_plays_every_seating_order_once(players: int) -> None:
    names = ["random", "greedy", "c=random", "d=greedy"][:players]
    t = make(names, games=48)
    assert t.cycle == len(list(permutations(range(players))))
    assert sorted(t.seating(i) for i in range(t.cycle)) == sorted(permutations(range(players)))


def test_more_bots_than_seats_every_pair_meets_in_both_seats() -> None:
    t = make(["random", "greedy", "c=random", "d=greedy"], players=2, games=12)
    assert t.tables == ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))
    seatings = [t.seating(i) for i in range(12)]
    assert Counter(seatings) == Counter(permutations(range(4), 2))
    games_per_bot = Counter(b for s in seatings for b in s)
    assert set(games_per_bot.values()) == {6}


def test_fewer_bots_than_seats_every_table_holds_every_bot() -> None:
    t = make(["random", "greedy"], players=4, games=12)
    assert t.tables == ((0, 0, 0, 1), (0, 0, 1, 1), (0, 1, 1, 1))
    for i in range(12):
        assert set(t.seating(i)) == {0, 1}
    first_seat = Counter(t.seating(i)[0] for i in range(12))
    assert first_seat == {0: 6, 1: 6}


def test_default_seats_follow_the_number_of_bots() -> None:
    assert make(["random", "greedy"]).players == 2
    assert make(["random", "greedy", "c=greedy"]).players == 3
    assert make(["a=random", "b=random", "c=random", "d=random", "e=random"]).players == 4


def test_tasks_are_a_pure_function_of_the_spec_and_the_index() -> None:
    t = make(["random", "greedy"], games=10)
    again = make(["random", "greedy"], games=10)
    assert [t.task(i) for i in range(10)] == [again.task(i) for i in range(10)]
    task = t.task(3)
    assert task.seed == derive_seed(5, 3, "setup")
    assert task.bot_seeds == (derive_seed(5, 3, "seat", 0), derive_seed(5, 3, "seat", 1))
    assert [s.name for s in task.seats] == ["greedy", "random"]
    seeds = {t.task(i).seed for i in range(10)} | {
        s for i in range(10) for s in t.task(i).bot_seeds
    }
    assert len(seeds) == 30
    assert task.variant == {"turn_cap": DEFAULT_TURN_CAP, "no_take_back": True}
    with pytest.raises(IndexError, match="game 10 is not in this tournament of 10 games"):
        t.task(10)


def test_derived_seeds_are_stable_numbers() -> None:
    # Fixed values: a change here changes every tournament ever played.
    assert derive_seed(0, 0, "setup") != derive_seed(0, 1, "setup")
    assert derive_seed(0, 0, "setup") != derive_seed(1, 0, "setup")
    assert 0 <= derive_seed(123, 4, "seat", 2) < 2**32
    assert derive_seed(7, 1, "setup") == 2825563783


def test_json_round_trip() -> None:
    t = Tournament.create(
        "board",
        parse_bots(["mine=arena_bots:FirstBot:pick=1", "greedy"]),
        games=7,
        seed=9,
        variant={"no_take_back": False},
        turn_cap=None,
    )
    data = t.to_json()
    assert data["variant"] == {"no_take_back": False}
    assert data["bots"] == [
        {"label": "mine", "spec": "arena_bots:FirstBot:pick=1"},
        {"label": "greedy", "spec": "greedy"},
    ]
    assert Tournament.from_json(data) == t


def test_a_board_tournament_states_its_take_back_rule() -> None:
    # B-15 forbids take-back by default; the tournament says so, so it keeps its rule.
    assert make(["random", "greedy"]).variant["no_take_back"] is True
    cards = Tournament.create("cards", parse_bots(["random", "greedy"]), turn_cap=None)
    assert cards.variant == {}


def test_a_board_tournament_from_before_b15_changed_goes_on_with_take_back() -> None:
    data = make(["random", "greedy"]).to_json()
    data["variant"] = {"turn_cap": DEFAULT_TURN_CAP}  # as written when take-back was allowed
    old = Tournament.from_json(data)
    assert old.variant == {"turn_cap": DEFAULT_TURN_CAP, "no_take_back": False}
    assert old.task(0).variant["no_take_back"] is False
    cards = Tournament.create("cards", parse_bots(["random", "greedy"])).to_json()
    assert Tournament.from_json(cards).variant == {"turn_cap": DEFAULT_TURN_CAP}


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"players": 5}, "is for 2-4 players, not 5"),
        ({"players": 1}, "is for 2-4 players, not 1"),
        ({"bots": ["greedy"]}, "at least two bots"),
        ({"games": 0}, "number of games must be at least 1"),
        ({"variant": {"turbo": True}}, "bad variant"),
        ({"turn_cap": 0}, "turn_cap must be at least 1"),
    ],
)
def test_bad_tournaments_are_refused(kwargs: dict[str, object], message: str) -> None:
    args: dict[str, object] = {"game": "board", "bots": ["random", "greedy"]}
    args.update(kwargs)
    bots = parse_bots(args.pop("bots"))  # type: ignore[arg-type]
    with pytest.raises(TournamentError, match=message):
        Tournament.create(args.pop("game"), bots, **args)  # type: ignore[arg-type]


def test_unknown_bot_is_refused_before_any_game() -> None:
    with pytest.raises(BotSpecError, match="unknown bot 'nope'"):
        Tournament.create("board", [BotSpec.parse("greedy"), BotSpec.parse("nope")])


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "other"}, "not a keltis tournament"),
        ({"version": 99}, "unsupported tournament version"),
        ({"bots": "greedy"}, '"bots" must be a list'),
        ({"bots": [{"spec": "greedy"}, {"spec": "nope"}]}, "unknown bot 'nope'"),
        ({"bots": [{"spec": "greedy"}, {"label": "x"}]}, "bad bot in the tournament"),
        ({"players": "two"}, '"players" must be a whole number'),
        ({"games": -1}, "number of games must be at least 1"),
        ({"seed": "x"}, "seed must be a whole number"),
        ({"variant": [1]}, '"variant" must be an object'),
    ],
)
def test_bad_tournament_json_is_refused(change: dict[str, object], message: str) -> None:
    data = make(["random", "greedy"]).to_json()
    data.update(change)
    with pytest.raises((TournamentError, BotSpecError), match=message):
        Tournament.from_json(data)


@pytest.mark.parametrize("bots", [2, 3, 4, 5])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_after_each_balance_period_every_bot_sat_equally_often_in_every_seat(
    bots: int, players: int
) -> None:
    names = [f"b{i}=random" for i in range(bots)]
    t = Tournament.create("board", parse_bots(names), players=players, games=1000)
    period = t.balance_period
    for rounds in (1, 2):
        seatings = [t.seating(i) for i in range(rounds * period)]
        per_bot_and_seat = Counter((b, seat) for s in seatings for seat, b in enumerate(s))
        for seat in range(players):
            counts = {per_bot_and_seat[b, seat] for b in range(bots)}
            assert len(counts) == 1, (seat, per_bot_and_seat)

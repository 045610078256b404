"""The match layer: submit and its refusals, bot turns, the after-action hook, resuming by
replaying the record, rewinding; records version 2 (the dealt set-up kept) and version 1."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

import pytest

from keltis.bots import make_bot
from keltis.bots.base import Bot, derive_seed
from keltis.core.actions import Action
from keltis.core.errors import IllegalActionError, NotationError, RecordError
from keltis.core.protocol import View
from keltis.games import GAME_NAMES, get_game
from keltis.match import (
    BotFailedError,
    GameOverError,
    Match,
    NotYourTurnError,
    StaleActionError,
    Step,
)
from keltis.record import GameRecord, PlayerInfo

PEOPLE = [PlayerInfo("Ann"), PlayerInfo("Bo"), PlayerInfo("Cy")]


def fingerprint(match: Match) -> str:
    """Everything a spectator sees, the ply and the record's actions."""
    view = match.view(None).to_json()
    return json.dumps([view, match.ply, match.record.actions], sort_keys=True)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_submit_takes_an_action_its_notation_or_its_index(game: str) -> None:
    match = Match.new(game, PEOPLE, seed=4)
    first, second, third = (match.view(0).legal[i] for i in range(3))
    step = match.submit(0, first, expected_ply=0)
    assert (step.ply, step.seat, step.action) == (1, 0, first)
    assert match.record.actions == [str(first)]
    view = match.view(match.to_move)
    assert view.ply == 1
    match.submit(match.to_move, str(view.legal[0]), expected_ply=1)
    view = match.view(match.to_move)
    match.submit(match.to_move, match.actions.index(view.legal[-1]), expected_ply=2)
    assert match.ply == 3
    assert {second, third}  # the three ways of naming an action all worked above


@pytest.mark.parametrize("game", GAME_NAMES)
def test_refusals_leave_the_match_unchanged(game: str) -> None:
    match = Match.new(game, PEOPLE, seed=6)
    action = match.view(0).legal[0]
    before = fingerprint(match)
    with pytest.raises(NotYourTurnError) as wrong_seat:
        match.submit(1, action)
    assert wrong_seat.value.key == "not_your_turn"
    with pytest.raises(StaleActionError) as stale:
        match.submit(0, action, expected_ply=3)
    assert stale.value.params == {"expected": 3, "ply": 0}
    with pytest.raises(NotationError):
        match.submit(0, "G77")
    with pytest.raises(NotationError):
        match.submit(0, 9999)
    with pytest.raises(IllegalActionError):
        match.submit(0, "draw")  # the turn starts with a card, not a draw
    assert fingerprint(match) == before
    match.submit(0, action, expected_ply=0)
    with pytest.raises(StaleActionError):  # the same click again, after it was accepted
        match.submit(match.to_move, match.view(match.to_move).legal[0], expected_ply=0)
    # the loser of a race for ply 0, whoever is to move now: stale, not "not your turn"
    while match.to_move == 0:
        match.submit(0, match.view(0).legal[0])
    with pytest.raises(StaleActionError):
        match.submit(0, action, expected_ply=0)


def test_nothing_is_accepted_after_the_end() -> None:
    match = Match.new("cards", PEOPLE[:2], {0: make_bot("greedy"), 1: make_bot("greedy")}, seed=1)
    match.play_bots()
    assert match.over
    with pytest.raises(GameOverError):
        match.submit(0, "pass")
    assert match.record.result == match.outcome().to_json()
    assert match.final_state().over


@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_hook_runs_before_the_caller_hears_and_a_failing_hook_undoes_the_action(
    game: str,
) -> None:
    stored: list[tuple[int, str]] = []
    fail = {"now": False}

    def commit(match: Match, step: Step) -> None:
        if fail["now"]:
            raise OSError("database is gone")
        assert match.ply == step.ply  # the action is applied when the hook runs
        stored.append((step.ply, str(step.action)))

    match = Match.new(game, PEOPLE, seed=2, on_action=commit)
    match.submit(0, match.view(0).legal[0])
    assert stored == [(1, match.record.actions[0])]
    fail["now"] = True
    before = fingerprint(match)
    seat = match.to_move
    with pytest.raises(OSError, match="database is gone"):
        match.submit(seat, match.view(seat).legal[0])
    assert fingerprint(match) == before
    fail["now"] = False
    match.submit(seat, match.view(seat).legal[0])
    assert [ply for ply, _ in stored] == [1, 2]


def bots_for(game: str, kinds: list[str]) -> dict[int, Bot]:
    return {seat: make_bot(kind) for seat, kind in enumerate(kinds)}


@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_resumed_match_goes_on_exactly_as_the_unbroken_one(game: str) -> None:
    kinds = ["random", "greedy", "heuristic"]
    players = [PlayerInfo(k, k) for k in kinds]
    whole = Match.new(game, players, bots_for(game, kinds), seed=11)
    whole.play_bots()
    broken = Match.new(game, players, bots_for(game, kinds), seed=11)
    broken.play_bots(until=lambda step: step.ply == 40)
    assert broken.ply == 40
    text = broken.record.dumps()
    record, lines = GameRecord.loads(text)
    resumed = Match(record, bots_for(game, kinds), lines=lines)
    assert resumed.ply == 40
    resumed.play_bots()
    assert resumed.record.actions == whole.record.actions
    assert resumed.record.result == whole.record.result


def test_rewind_takes_back_to_an_earlier_ply() -> None:
    match = Match.new("board", PEOPLE, seed=8)
    rng = random.Random(8)
    snapshots = []
    for _ in range(12):
        snapshots.append(fingerprint(match))
        match.submit(match.to_move, rng.choice(match.view(match.to_move).legal))
    match.rewind(5)
    assert fingerprint(match) == snapshots[5]
    with pytest.raises(ValueError, match="rewind"):
        match.rewind(6)


class Raiser(Bot):
    name = "raiser"

    def choose(self, view: View) -> Action:
        raise RuntimeError("no idea")


class Cheater(Bot):
    name = "cheater"

    def choose(self, view: View) -> Action:
        return Action.parse("draw")


@pytest.mark.parametrize("bot", [Raiser(), Cheater()])
def test_a_failing_bot_is_named_and_changes_nothing(bot: Bot) -> None:
    match = Match.new("board", PEOPLE[:2], {0: bot}, seed=3)
    before = fingerprint(match)
    with pytest.raises(BotFailedError, match=r"bot 'Ann' \(seat 0\)") as failed:
        match.play_bot()
    assert failed.value.seat == 0
    assert fingerprint(match) == before


def test_the_match_counts_each_bots_decisions_and_thinking_time() -> None:
    """What the arena writes to a record's ``meta``: per seat, decisions and seconds of the
    bots in this match; a person's moves and a failed decision count nothing."""
    match = Match.new("cards", PEOPLE[:3], {0: make_bot("random", 1), 2: Raiser()}, seed=3)
    assert (match.bot_decisions, match.bot_seconds) == ([0, 0, 0], [0.0, 0.0, 0.0])
    bot_moves = 0
    while match.to_move == 0:  # a turn may take several decisions
        match.play_bot()
        bot_moves += 1
    while match.to_move == 1:
        match.submit(1, match.view(1).legal[0])
    with pytest.raises(BotFailedError):
        match.play_bot()
    assert match.bot_decisions == [bot_moves, 0, 0]
    assert match.bot_seconds[0] > 0.0
    assert match.bot_seconds[1:] == [0.0, 0.0]


def test_a_person_cannot_ask_a_bot_to_move_for_them() -> None:
    match = Match.new("board", PEOPLE[:2], seed=3)
    assert not match.bot_to_move
    with pytest.raises(Exception, match="no bot"):
        match.play_bot()


def test_a_bad_record_is_refused_with_the_action_and_line() -> None:
    match = Match.new("cards", PEOPLE[:2], seed=5)
    match.submit(0, match.view(0).legal[0])
    data = match.record.to_json()
    data["actions"][0] = "draw G"
    record, lines = GameRecord.loads(json.dumps(data, indent=2))
    with pytest.raises(RecordError, match=r"line \d+, action 1: 'draw G' by seat 0 is illegal"):
        Match(record, lines=lines)


# -- records version 2 -------------------------------------------------------------------


@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_record_keeps_the_deal_and_replays_from_it_not_from_the_seed(game: str) -> None:
    match = Match.new(game, PEOPLE, seed=21)
    rng = random.Random(2)
    for _ in range(25):
        match.submit(match.to_move, rng.choice(match.view(match.to_move).legal))
    data = match.record.to_json()
    assert data["version"] == 2
    assert data["setup"]["dealt"] == get_game(game).deal(3, 21)
    assert data["variant"]["turn_cap"] == 1000  # every switch spelt out
    # a future Python that shuffles differently: the seed would deal other cards, the record
    # still replays the same game from the cards it kept
    data["setup"]["seed"] = 22
    record = GameRecord.from_json(data)
    assert record.replay().to_json() == match.record.replay().to_json()


@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_version_1_record_still_loads_and_replays(game: str) -> None:
    match = Match.new(game, PEOPLE[:2], {0: make_bot("greedy"), 1: make_bot("random")}, seed=7)
    match.play_bots()
    old = {
        "format": "keltis-record",
        "version": 1,
        "game": game,
        "players": [{"name": "a", "kind": "greedy"}, {"name": "b", "kind": "random"}],
        "variant": {},
        "setup": {"seed": 7},
        "actions": match.record.actions,
    }
    record = GameRecord.from_json(old)
    assert record.version == 2
    assert record.dealt == get_game(game).deal(2, 7)
    assert record.replay().outcome() == match.outcome()


def test_a_version_1_board_record_keeps_the_old_take_back_default() -> None:
    """B-15 used to allow drawing back the card discarded this turn; a version-1 record whose
    variant does not say otherwise replays with that rule, a version-2 one does not."""
    state = get_game("board").new_game(2, seed=3, variant={"no_take_back": False})
    card = state.legal_actions()[-1]  # a discard
    assert card.kind.name == "DISCARD"
    state.apply(card)
    take_back = Action.draw(next(i for i, p in enumerate(state.piles) if p))
    old = {
        "format": "keltis-record",
        "version": 1,
        "game": "board",
        "players": [{"name": "a"}, {"name": "b"}],
        "variant": {"turn_cap": None},
        "setup": {"seed": 3},
        "actions": [str(card), str(take_back)],
    }
    record = GameRecord.from_json(old)
    assert record.variant == {"no_take_back": False, "turn_cap": 1000}
    assert record.replay().history[-1] == take_back
    new = {**old, "version": 2, "setup": {"seed": 3, "dealt": get_game("board").deal(2, 3)}}
    with pytest.raises(RecordError, match="B-15"):
        GameRecord.from_json(new).replay()


def test_games_without_a_seed_get_different_deals() -> None:
    first = GameRecord.start("cards", PEOPLE[:2])
    second = GameRecord.start("cards", PEOPLE[:2])
    assert first.seed is not None
    assert second.seed is not None
    assert first.dealt != second.dealt
    hands = {tuple(get_game("board").new_game(2).hands[0]) for _ in range(5)}
    assert len(hands) > 1


def test_rewinding_replays_quietly_and_a_bad_record_is_left_as_it_was() -> None:
    calls: list[int] = []
    match = Match.new("board", PEOPLE, seed=8, on_action=lambda _m, step: calls.append(step.ply))
    rng = random.Random(8)
    for _ in range(6):
        match.submit(match.to_move, rng.choice(match.view(match.to_move).legal))
    assert calls == [1, 2, 3, 4, 5, 6]
    match.rewind(2)
    assert calls == [1, 2, 3, 4, 5, 6]  # the replayed actions were stored before
    assert match.ply == 2
    data = match.record.to_json()
    data["actions"] = [*data["actions"], "G77"]
    record = GameRecord.from_json(data)
    with pytest.raises(RecordError):
        Match(record)
    assert record.actions == data["actions"]


class LegalOnly(Bot):
    """A bot that reads only the legal actions: it keeps what it was handed."""

    name = "legal-only"
    needs_view = False

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.handed: list[tuple[Action, ...]] = []

    def choose(self, view: View) -> Action:
        raise AssertionError("a bot that needs no view is handed the legal actions")

    def choose_legal(self, legal: Sequence[Action]) -> Action:
        self.handed.append(tuple(legal))
        return legal[-1]


@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_bot_that_needs_no_view_is_handed_its_legal_actions_alone(game: str) -> None:
    bot = LegalOnly()
    match = Match.new(game, PEOPLE[:2], {0: bot, 1: make_bot("greedy", 1)}, seed=4)
    for _ in range(30):
        if match.to_move == 0:
            legal = match.view(0).legal
            match.play_bot()
            assert bot.handed[-1] == legal  # the same actions, in the view's order
        else:
            match.play_bot()
    assert bot.handed


@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_random_bot_chooses_the_same_from_its_view_or_its_legal_actions(game: str) -> None:
    state = get_game(game).new_game(2, seed=6)
    by_view, by_legal = make_bot("random", 9), make_bot("random", 9)
    while not state.over and len(state.history) < 60:
        view = state.view(state.current_player)
        action = by_view.choose(view)
        assert by_legal.choose_legal(view.legal) == action
        state.apply(action)


@pytest.mark.engine_free
def test_the_random_bot_draws_exactly_as_random_choice() -> None:
    """Its inlined draw is ``random.choice``'s: the same index for every seed and length
    (lengths around powers of two, where the redraws happen), and the stream stays in step."""
    lengths = [1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 63, 64, 65, 100, 127, 129]
    for seed in range(40):
        bot, reference = make_bot("random", seed), random.Random(seed)
        for length in lengths * 3:
            items = list(range(length))
            assert bot.choose_legal(items) == reference.choice(items)  # type: ignore[arg-type]


@pytest.mark.parametrize("game", GAME_NAMES)
def test_without_reseeding_each_bot_keeps_its_own_random_stream(game: str) -> None:
    """A game played through in one go (a tournament's): each bot draws from the stream of
    its seed, not from a stream per decision — the same game as the bots played by hand."""
    players = [PlayerInfo("a", "random"), PlayerInfo("b", "random")]
    match = Match.new(
        game, players, {0: make_bot("random", 3), 1: make_bot("random", 4)}, seed=2, reseed=False
    )
    match.play_bots()
    state = get_game(game).new_game(2, seed=2)
    assert match.record.dealt is not None
    by_hand = [make_bot("random", 3), make_bot("random", 4)]
    while not state.over:
        state.apply(by_hand[state.current_player].choose(state.view(state.current_player)))
    assert match.record.actions == [str(action) for action in state.history]
    reseeded = Match.new(
        game, players, {0: make_bot("random", 3), 1: make_bot("random", 4)}, seed=2
    )
    reseeded.play_bots()
    assert reseeded.record.actions != match.record.actions


def test_a_reseeding_match_seeds_each_decision_from_the_seat_seed_and_the_ply() -> None:
    seen: list[int | None] = []

    class Spy(Bot):
        name = "spy"

        def choose(self, view: View) -> Action:
            seen.append(self.seed)
            return view.legal[0]

    match = Match.new("cards", PEOPLE[:2], {0: Spy(), 1: Spy()}, seed=5, bot_seeds=[11, 12])
    expected = []
    for _ in range(6):
        expected.append(derive_seed(11 + match.to_move, match.ply))
        match.play_bot()
    assert seen == expected

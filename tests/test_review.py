"""The review of a finished game (``keltis.review``): every decision judged from the seat's own
view, the marks, the luck of the draws, the steps a server runs one by one."""

from __future__ import annotations

import copy
import itertools
import math
from typing import Any

import pytest

from keltis.bots.spec import make_bot
from keltis.core.errors import RecordError
from keltis.record import GameRecord, PlayerInfo
from keltis.review import (
    CALIBRATION,
    MARKS,
    THRESHOLDS,
    ReviewBudget,
    assemble,
    calibrated,
    mark_of,
    move_accuracy,
    plan,
    positions,
    review,
    run_step,
)
from keltis.wire import validate

#: A budget small enough for tests (the marks mean little at it; the shapes are the same).
TINY = ReviewBudget(iterations=16, width=2, luck_playouts=2)


def played(game: str, players: int, seed: int, bot: str = "greedy", **start: Any) -> GameRecord:
    """A finished record of a seeded game between bots."""
    record = GameRecord.start(
        game, [PlayerInfo(f"P{i}", bot) for i in range(players)], seed=seed, **start
    )
    _finish(record, bot, seed)
    return record


def _finish(record: GameRecord, bot: str, seed: int) -> None:
    state = record.replay()
    bots = [make_bot(bot, seed + seat) for seat in range(len(record.players))]
    while not state.over:
        action = bots[state.current_player].choose(state.view(state.current_player))
        record.actions.append(str(action))
        state.apply(action)
    record.finish(state)


@pytest.mark.parametrize(("game", "players"), [("board", 2), ("cards", 3), ("cards", 4)])
def test_every_decision_of_the_seats_reviewed_is_judged(game: str, players: int) -> None:
    record = played(game, players, seed=11)
    result = review(record, seats=[1], budget=TINY)
    document = result.to_json()
    validate("review", document)

    states, _ = positions(record)
    expected = [
        i
        for i, state in enumerate(states[:-1])
        if state.current_player == 1 and len(state.legal_actions()) > 1
    ]
    assert [d.index for d in result.decisions] == expected
    for decision in result.decisions:
        assert decision.seat == 1
        assert decision.played.action == record.actions[decision.index]
        assert decision.turn == states[decision.index].turn
        searched = [c.action for c in decision.candidates]
        assert decision.played.action in searched
        assert decision.best == decision.candidates[0]
        assert decision.best.win == max(c.win for c in decision.candidates)
        assert decision.loss == pytest.approx(decision.best.win - decision.played.win, abs=2e-4)
        assert decision.mark == mark_of(
            decision.loss, decision.error, decision.played == decision.best
        )
        assert 0.0 <= decision.accuracy <= 100.0
        for candidate in decision.candidates:
            assert 0.0 <= candidate.win <= 1.0
            assert candidate.playouts > 0
            shown = calibrated(candidate.raw, game, players)
            assert candidate.win == pytest.approx(shown, abs=2e-4)
    (summary,) = result.summaries
    forced = sum(1 for s in states[:-1] if s.current_player == 1 and len(s.legal_actions()) == 1)
    assert summary.decisions == len(expected)
    assert summary.forced == forced
    assert sum(summary.marks.values()) == len(expected)
    assert set(summary.marks) == set(MARKS)
    final = states[-1].outcome()
    assert document["scores"] == list(final.scores)
    assert document["winners"] == list(final.winners)


def test_the_luck_of_the_deal_and_of_every_draw_from_the_pile() -> None:
    record = played("board", 2, seed=4)
    result = review(record, seats=[0], budget=ReviewBudget(16, 2, 4))
    draws = [i for i, text in enumerate(record.actions) if text == "draw"]
    assert [e.kind for e in result.luck] == ["deal"] + ["draw"] * len(draws)
    assert [e.index for e in result.luck[1:]] == draws
    for event in result.luck:
        # each playout's wins share one victory among the players
        assert sum(event.before) == pytest.approx(1.0, abs=1e-3)
        assert sum(event.after) == pytest.approx(1.0, abs=1e-3)
        assert event.swing == tuple(a - b for a, b in zip(event.after, event.before, strict=True))
    assert result.luck[0].seat is None
    states, _ = positions(record)
    for event in result.luck[1:]:
        assert event.seat == states[event.index].current_player
        assert len(event.error) == 2
        assert all(error >= 0 for error in event.error)
    total = sum(e.swing[0] for e in result.luck)
    assert result.summaries[0].luck == pytest.approx(total, abs=1e-3)
    spread = sum(e.error[0] ** 2 for e in result.luck) ** 0.5
    assert result.summaries[0].luck_error == pytest.approx(spread, abs=1e-3)
    last = result.luck[-1]
    if last.index == len(record.actions) - 1:  # the game ended by drawing the last card
        share = 1 / len(result.winners)
        assert last.after == tuple(share if p in result.winners else 0.0 for p in range(2))


def test_reviews_are_the_same_from_their_steps_and_again() -> None:
    record = played("cards", 2, seed=3)
    whole = review(record, budget=TINY)
    steps = plan(record, None, TINY)
    assert steps[: len(whole.decisions)] == [f"decision:{d.index}" for d in whole.decisions]
    assert steps[len(whole.decisions)] == "deal"
    results = {step: run_step(record, step, TINY) for step in reversed(steps)}  # any order
    assert assemble(record, None, TINY, results) == whole
    assert review(record, budget=TINY) == whole
    with pytest.raises(ValueError, match="no result"):
        assemble(record, None, TINY, {s: r for s, r in results.items() if s != "deal"})
    other = review(record, budget=ReviewBudget(16, 2, 2, seed=1))
    assert other != whole  # the seed is part of the budget


@pytest.mark.parametrize(("game", "players"), [("board", 2), ("board", 4), ("cards", 2)])
def test_a_decision_is_judged_from_the_view_alone(game: str, players: int) -> None:
    """Two games that differ only in cards the first player cannot see (another seat's hand and
    the draw pile) give its first decision the same judgement, to the last digit."""
    first = GameRecord.start(game, [PlayerInfo(f"P{i}") for i in range(players)], seed=21)
    dealt = copy.deepcopy(first.dealt)
    assert dealt is not None
    hands = dealt["hands"]
    hands[1], dealt["deck"][:8] = dealt["deck"][:8], hands[1]  # seat 1 holds other cards
    second = GameRecord(
        game=game,
        players=first.players,
        setup=dealt,
        variant=first.variant,
        layout=first.layout,
    )
    assert first.new_state().view(0) == second.new_state().view(0)
    assert first.new_state().to_json() != second.new_state().to_json()
    _finish(first, "greedy", 1)
    _finish(second, "greedy", 1)
    seat = first.new_state().current_player
    assert seat == 0
    budget = ReviewBudget(iterations=48, width=3, luck_playouts=0)
    one = run_step(first, "decision:0", budget)
    assert run_step(second, "decision:0", budget) == one
    assert one["played"]["action"] == first.actions[0]


def decided() -> GameRecord:
    """A card game decided by one draw: two players, one card left in the draw pile. Player 1
    leads by a point (−3 to −4); drawing the last card ends the game at once, and player 2, with
    no row to lay on, cannot catch up in the last cards. Taking the red discard instead lets
    player 2 claim a wish stone with two fives (−4 → −1) and end the game by drawing the last
    card: the other hand is hidden from player 1, but almost any eight cards hold a pair."""
    setup = {
        "hands": [
            ["G1", "G2", "Y1", "Y2", "B0", "B1", "B2", "P0"],
            ["Y5", "R5", "B8", "B9", "P8", "P9", "Y8", "Y9"],
        ],
        "rows": [{"G": ["G3", "G4", "G5", "G6"]}, {}],
        "discards": {"R": ["R2"]},
        "deck": ["B10"],
    }
    record = GameRecord.start("cards", [PlayerInfo("Ann"), PlayerInfo("Bob")], setup=setup)
    record.actions = ["-B0", "draw R", "wish Y5 R5", "draw"]
    record.finish(record.replay())
    return record


def test_the_best_move_of_a_decided_position_is_the_winning_one() -> None:
    record = decided()
    assert record.replay().outcome().winners == (1,)
    result = review(record, seats=[0], budget=ReviewBudget(iterations=200, width=3, seed=5))
    draw = next(d for d in result.decisions if d.index == 1)
    assert {c.action for c in draw.candidates} == {"draw", "draw R"}
    assert draw.best.action == "draw"
    assert draw.best.win == 1.0  # the game ends at once, won
    assert draw.best.margin >= 1.0  # a drawn green 7+ may still be laid in the last cards
    assert draw.played.action == "draw R"
    assert draw.played.win < 0.5
    assert draw.loss > draw.error
    assert draw.mark == "blunder"
    assert draw.accuracy < 10


def test_only_a_finished_game_is_reviewed() -> None:
    record = played("cards", 2, seed=8)
    record.actions = record.actions[:-5]
    record.result = None
    with pytest.raises(RecordError, match="only a finished game"):
        review(record, budget=TINY)
    with pytest.raises(RecordError, match="only a finished game"):
        plan(record)


def test_bad_seats_steps_and_budgets_are_refused_clearly() -> None:
    record = played("board", 2, seed=2)
    with pytest.raises(ValueError, match="seat 2 is not in this game"):
        review(record, seats=[2], budget=TINY)
    with pytest.raises(ValueError, match="at least one seat"):
        review(record, seats=[], budget=TINY)
    for step in ("decision:-1", "decision:99999", "draw:0", "luck", "deal:3", ""):
        with pytest.raises(ValueError, match="no such review step"):
            run_step(record, step, TINY)
    forced = next(i for i, s in enumerate(positions(record)[0][:-1]) if len(s.legal_actions()) == 1)
    with pytest.raises(ValueError, match="no such review step"):
        run_step(record, f"decision:{forced}", TINY)
    assert ReviewBudget.parse("iterations=32, width=2,luck_playouts=0,seed=9") == ReviewBudget(
        32, 2, 0, 9
    )
    assert ReviewBudget.parse("800") == ReviewBudget(iterations=800)
    assert ReviewBudget.parse("") == ReviewBudget()
    for text, message in [
        ("depth=3", "unknown budget part 'depth'"),
        ("iterations=many", "iterations must be a whole number, not 'many'"),
        ("iterations=3", "iterations must lie in 16…100000, not 3"),
        ("width=0", "width must lie in 1…20"),
        ("luck_playouts=-1", "luck_playouts must lie in 0…10000"),
    ]:
        with pytest.raises(ValueError, match=message):
            ReviewBudget.parse(text)


def test_marks_need_both_the_threshold_and_more_than_the_search_error() -> None:
    assert mark_of(0.0, 0.0, best_played=True) == "best"
    assert mark_of(0.04, 0.01, best_played=False) == "good"
    assert mark_of(THRESHOLDS["inaccuracy"], 0.01, best_played=False) == "inaccuracy"
    assert mark_of(0.12, 0.01, best_played=False) == "mistake"
    assert mark_of(0.40, 0.01, best_played=False) == "blunder"
    assert mark_of(0.40, 0.41, best_played=False) == "good"  # within the search's error
    assert move_accuracy(0.0) == pytest.approx(100.0, abs=0.01)
    assert move_accuracy(0.10) == pytest.approx(63.6, abs=0.1)
    assert move_accuracy(1.0) == 0.0
    assert move_accuracy(0.05) > move_accuracy(0.10) > move_accuracy(0.20)


def test_the_calibration_map_keeps_order_and_certainty() -> None:
    """The review shows a search's raw share of wins through a Platt map fitted per game and
    number of players (docs/bots.md): it keeps the order of chances, leaves a certain win or
    loss certain, lowers a middling chance (the raw shares are too hopeful there), and maps
    three players by the mean of the game's two- and four-player maps."""
    a, b = CALIBRATION[("board", 4)]
    assert calibrated(0.55, "board", 4) == pytest.approx(
        1 / (1 + math.exp(-(a * math.log(0.55 / 0.45) + b)))
    )
    for game in ("board", "cards"):
        for players in (2, 3, 4):
            shown = [calibrated(k / 100, game, players) for k in range(101)]
            assert shown[0] == 0.0
            assert shown[100] == 1.0
            assert all(x < y for x, y in itertools.pairwise(shown))
            assert calibrated(0.6, game, players) < 0.6
        two, four = CALIBRATION[(game, 2)], CALIBRATION[(game, 4)]
        mean = ((two[0] + four[0]) / 2, (two[1] + four[1]) / 2)
        x = mean[0] * math.log(0.3 / 0.7) + mean[1]
        assert calibrated(0.3, game, 3) == pytest.approx(1 / (1 + math.exp(-x)))

"""One rule check per kind of move, and everything derived from it agrees.

``BoardState`` writes each rule once, in ``_<kind>_refusal``; ``can_<kind>``,
``verify_<kind>``, the doers (``lay``, ``draw`` …), ``legal_actions``, ``check_action``,
``apply`` and the trusted ``apply_legal`` are derived from it. In every position of a few
seeded random games, for all 536 actions of the notation (``ALL_ACTIONS``), the ``can_*`` answer
and ``legal_actions`` agree; every legal action passes ``is_legal``, ``check_action`` and
``verify_*`` and has the same effect through ``apply``, ``apply_legal`` and its doer; a
sample of the illegal ones is refused by ``is_legal``, ``check_action``, ``verify_*``,
``apply`` and the doer, with one and the same error, and leaves the state as it was.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from keltis.board import DEFAULT_LAYOUT, BoardSetup, BoardState, BoardVariant
from keltis.board.state import PHASE_NAMES
from keltis.board.tables import LAST_ROW
from keltis.core.actions import ALL_ACTIONS, BIG, Action, ActionKind
from keltis.core.errors import IllegalActionError
from keltis.core.protocol import EndReason

#: Every attribute of the position (the views' caches left out).
FIELDS = tuple(name for name in BoardState.__slots__ if not name.startswith("_"))
#: How many illegal actions each position tries in full (apply, verify, doer).
ILLEGAL_SAMPLE = 12
#: The phases every game passes through.
PLAIN = {"play", "draw", "figure", "over"}

#: (players, seed, variant, near_end, the phases the game passes through, its end): both
#: settings of the B-15 switch, 2-4 players, every phase and every end. Random play from the
#: deal never brings a figure to the end stone; ``near_end`` starts with one figure of each
#: seat there (see :func:`start`).
GAMES = (
    (2, 14, BoardVariant(no_take_back=False), False, {*PLAIN, "clover"}, EndReason.DECK),
    (2, 4, BoardVariant(), True, set(PHASE_NAMES), EndReason.GOAL),
    (3, 1, BoardVariant(), True, set(PHASE_NAMES), EndReason.GOAL),
    (4, 6, BoardVariant(no_take_back=False), True, set(PHASE_NAMES), EndReason.GOAL),
    (3, 5, BoardVariant(turn_cap=12), False, {*PLAIN, "clover"}, EndReason.TRUNCATED),
)


def start(players: int, seed: int, variant: BoardVariant, near_end: bool) -> BoardState:
    """The seeded deal; ``near_end``: with each seat's small figures on two paths already,
    one on the end stone (B-14's overflow) and one on row 3-6, each row started by a card
    taken from the draw pile."""
    if not near_end:
        return BoardState.new(players, seed=seed, variant=variant)
    setup = BoardSetup.from_seed(players, seed)
    assert setup.deck is not None
    rng = random.Random(seed)
    rows: list[list[list[int]]] = [[[] for _ in range(5)] for _ in range(players)]
    positions = [[0] * 5 for _ in range(players)]
    for seat in range(players):
        colours = rng.sample(range(5), 2)
        for colour, row in zip(colours, (LAST_ROW, rng.randint(3, 6)), strict=True):
            card = next(c for c in setup.deck if c // 11 == colour)
            setup.deck.remove(card)
            rows[seat][colour].append(card)
            positions[seat][colour] = row
    setup.rows, setup.positions = rows, positions
    return setup.build(players, variant, DEFAULT_LAYOUT)


def fields(state: BoardState) -> tuple[object, ...]:
    """The position, to compare with a clone's (lists compare by value)."""
    return tuple(getattr(state, name) for name in FIELDS)


def can(state: BoardState, action: Action) -> bool:
    """The ``can_*`` answer for ``action`` (a claim is a move of the card game only)."""
    kind = action.kind
    if kind is ActionKind.LAY:
        return state.can_lay(action.card, action.target)
    if kind is ActionKind.DISCARD:
        return state.can_discard(action.card)
    if kind is ActionKind.DRAW:
        return state.can_draw(action.target)
    if kind is ActionKind.FIGURE:
        return state.can_figure(action.target == BIG)
    if kind is ActionKind.ADVANCE:
        return state.can_advance(action.target)
    if kind is ActionKind.PASS:
        return state.can_pass()
    return False


def verify_and_do(state: BoardState, action: Action) -> tuple[Callable[[], None], ...]:
    """``verify_*`` and the doer for ``action`` (none for a claim)."""
    kind = action.kind
    card, target = action.card, action.target
    if kind is ActionKind.LAY:
        return (lambda: state.verify_lay(card, target), lambda: state.lay(card, target))
    if kind is ActionKind.DISCARD:
        return (lambda: state.verify_discard(card), lambda: state.discard(card))
    if kind is ActionKind.DRAW:
        return (lambda: state.verify_draw(target), lambda: state.draw(target))
    if kind is ActionKind.FIGURE:
        big = target == BIG
        return (lambda: state.verify_figure(big), lambda: state.figure(big))
    if kind is ActionKind.ADVANCE:
        return (lambda: state.verify_advance(target), lambda: state.advance(target))
    if kind is ActionKind.PASS:
        return (state.verify_pass, state.pass_)
    return ()


def refusal(call: Callable[[], None]) -> tuple[str, str, dict[str, str | int], str]:
    with pytest.raises(IllegalActionError) as caught:
        call()
    error = caught.value
    return error.rule, error.key, error.params, str(error)


def check_legal(state: BoardState, action: Action) -> None:
    """Offered, so accepted everywhere; ``apply``, ``apply_legal`` and the doer have one
    and the same effect."""
    assert state.is_legal(action), action
    state.check_action(action)
    applied, trusted, done = state.clone(), state.clone(), state.clone()
    applied.apply(action)
    trusted.apply_legal(action)
    verify, do = verify_and_do(done, action)
    verify()
    do()
    assert fields(applied) == fields(trusted) == fields(done), action
    assert applied.history[-1] == action


def check_illegal(state: BoardState, action: Action) -> None:
    """Every way in gives the same error, and the state stays as it was."""
    before = state.clone()
    assert not state.is_legal(action), action
    error = refusal(lambda: state.check_action(action))
    assert refusal(lambda: state.apply(action)) == error, action
    for call in verify_and_do(state, action):
        assert refusal(call) == error, action
    assert fields(state) == fields(before), action


def check_position(state: BoardState, rng: random.Random) -> None:
    legal = state.legal_actions()
    offered = set(legal)
    assert len(offered) == len(legal)
    illegal = []
    for action in ALL_ACTIONS:
        allowed = action in offered
        assert can(state, action) is allowed, action
        if allowed:
            check_legal(state, action)
        else:
            illegal.append(action)
    for action in rng.sample(illegal, min(ILLEGAL_SAMPLE, len(illegal))):
        check_illegal(state, action)


@pytest.mark.parametrize(("players", "seed", "variant", "near_end", "phases", "end"), GAMES)
def test_every_way_in_agrees_in_every_position(
    players: int,
    seed: int,
    variant: BoardVariant,
    near_end: bool,
    phases: set[str],
    end: EndReason,
) -> None:
    state = start(players, seed, variant, near_end)
    moves, samples = random.Random(seed), random.Random(-seed)
    seen = set()
    while True:
        seen.add(state.phase_name)
        check_position(state, samples)
        if state.over:  # nothing is legal; everything names B-19 or B-20
            break
        legal = state.legal_actions()
        state.apply_legal(legal[int(moves.random() * len(legal))])
    assert (seen, state.end_reason) == (phases, end)

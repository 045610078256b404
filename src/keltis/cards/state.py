"""Keltis: The Card Game — state, legal actions and their effects (RULES.md C-1 … C-19).

A turn is a sequence of decisions by the current player (DESIGN.md):

1. ``play``: discard a card (C-7), claim a wish stone with two cards of equal value (C-8), lay
   a number or closing card on its colour row (C-9, C-10), or lay a point card on the point
   row or on the end of a colour row whose last card has the same value (C-11);
2. ``draw``: refill the hand to 8 — one draw, or two after a claim (C-12), each from the
   draw pile or the top of a discard pile that received no card this turn.

The game ends when a closing card makes five rows (all players together) hold a closing card
(C-13; that player does not refill) or when the last card of the draw pile is drawn (C-14;
a second refill draw is not made). Then comes the ``final`` phase (C-15): from the next seat
round to the one who ended the game, each player may lay up to two more cards onto rows they
already have, or ``pass``; seats with no card to lay are skipped.
"""

from __future__ import annotations

import random
from bisect import insort
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Final, Self

from keltis.cards.tables import COPIES, card_parts
from keltis.cards.view import RECENT_MOVES, CardView
from keltis.core.actions import (
    ALL_ACTIONS,
    DECK,
    DRAW_DECK,
    PASS_ACTION,
    POINT_PILE,
    Action,
    ActionKind,
)
from keltis.core.card_codes import (
    CARD_COLOUR,
    CARD_TEXT,
    CARD_VALUE,
    CLOSING_BASE,
    COLOUR_LETTERS,
    COLOUR_NAMES,
    NUM_CARD_CODES,
    NUM_COLOURS,
    NUMBER_CARDS,
    POINT_BASE,
)
from keltis.core.errors import IllegalActionError, SetupError
from keltis.core.protocol import JSON, EndReason, GameState
from keltis.core.scoring import ASCENDING, UNDECIDED, direction_after, direction_name, follows
from keltis.core.setup import (
    DEFAULT_TURN_CAP,
    check_turn_cap,
    deal_cards,
    fresh_seed,
    read_turn_cap,
    refuse_unknown,
)

if TYPE_CHECKING:
    from keltis.cards.setup import CardSetup

#: Rows holding a closing card that end the game (C-13).
CLOSED_ROWS_TO_END: Final = 5
#: Cards a player may lay in the final phase (C-15).
FINAL_LAYS: Final = 2
#: Discard piles: one per colour (0-4), then the point-card pile (``POINT_PILE`` = 5).
NUM_PILES: Final = 6
#: Values of the nine wish stone cards (C-4).
WISH_VALUES: Final = tuple(range(1, 10))
_ALL_WISHES: Final = sum(1 << v for v in WISH_VALUES)

PLAY, DRAW, FINAL, OVER = range(4)
_OVER_RULE: Final = {EndReason.CLOSED: "C-13", EndReason.DECK: "C-14"}
PHASE_NAMES: Final = ("play", "draw", "final", "over")

#: The kinds of move of the card game, for the dispatch on ``Action.kind``.
_LAY_KIND: Final = ActionKind.LAY
_DISCARD_KIND: Final = ActionKind.DISCARD
_CLAIM_KIND: Final = ActionKind.CLAIM
_DRAW_KIND: Final = ActionKind.DRAW
_PASS_KIND: Final = ActionKind.PASS
#: ``1 << kind`` of each, for :data:`_PHASE_KINDS`.
_BIT_LAY: Final = 1 << int(ActionKind.LAY)
_BIT_DISCARD: Final = 1 << int(ActionKind.DISCARD)
_BIT_CLAIM: Final = 1 << int(ActionKind.CLAIM)
_BIT_DRAW: Final = 1 << int(ActionKind.DRAW)
_BIT_PASS: Final = 1 << int(ActionKind.PASS)
#: The phase check: the bits of the kinds of move each phase takes, by phase. Play: a lay,
#: a discard or a claim (C-7-C-11); draw: draws (C-12); final: lays or a pass (C-15); over:
#: nothing. :meth:`CardState._phase_refusal` words the refusal of any other move.
_PHASE_KINDS: Final = (_BIT_LAY | _BIT_DISCARD | _BIT_CLAIM, _BIT_DRAW, _BIT_LAY | _BIT_PASS, 0)


#: The 101 shuffled cards (C-5): 80 number cards, 10 closing cards, 11 point cards.
FULL_DECK: Final = tuple(c for c in range(NUM_CARD_CODES) for _ in range(COPIES[c]))
#: The discard pile a card goes to (C-7): its colour, or the point pile.
PILE_OF: Final = tuple(POINT_PILE if c >= POINT_BASE else CARD_COLOUR[c] for c in range(71))
#: ``1 << value`` for cards that can claim a wish stone (number and point cards 1-9), else 0.
CLAIM_BIT: Final = tuple(
    1 << CARD_VALUE[c] if c not in range(CLOSING_BASE, POINT_BASE) and 1 <= CARD_VALUE[c] <= 9
    else 0
    for c in range(NUM_CARD_CODES)
)  # fmt: skip
#: The cards of each value that can claim its wish stone, lowest code first.
CLAIM_CARDS: Final = tuple(
    tuple(c for c in range(NUM_CARD_CODES) if CLAIM_BIT[c] == 1 << v) for v in range(10)
)

_LAY: Final = tuple(Action.lay(c) for c in range(NUM_CARD_CODES))
_LAY_ONTO: Final = tuple(
    tuple(Action.lay(POINT_BASE + v, colour) for colour in range(NUM_COLOURS)) for v in range(11)
)
_DISCARD: Final = tuple(Action.discard(c) for c in range(NUM_CARD_CODES))
_DRAW_PILE: Final = tuple(Action.draw(p) for p in range(NUM_PILES))
#: The draw actions open when bit ``pile`` of the index is set for each drawable pile.
_DRAWS: Final = tuple(
    (DRAW_DECK, *(_DRAW_PILE[p] for p in range(NUM_PILES) if mask >> p & 1))
    for mask in range(1 << NUM_PILES)
)
#: Cached claim actions by ``first * 71 + second``.
_CLAIM: Final = {
    a * NUM_CARD_CODES + b: Action.claim(a, b)
    for v in WISH_VALUES
    for a in CLAIM_CARDS[v]
    for b in CLAIM_CARDS[v]
}

#: Every action as its cached object (claims are not cached: built anew each time).
_CACHED: Final = {a: a for a in ALL_ACTIONS}

_CLOSING_BIT: Final = tuple(1 << (CLOSING_BASE + c) for c in range(NUM_COLOURS))
_POINT_BITS: Final = ((1 << 11) - 1) << POINT_BASE
_COLOUR_BITS: Final = tuple(
    (((1 << 11) - 1) << (11 * c)) | _CLOSING_BIT[c] for c in range(NUM_COLOURS)
)


def _number_mask(colour: int, direction: int, last: int) -> int:
    return sum(1 << (colour * 11 + v) for v in range(11) if last < 0 or follows(direction, last, v))


#: _OPEN_MASK[colour][direction + 1][last]: what an open row with cards may take next.
_OPEN_MASK: Final = tuple(
    tuple(
        tuple(_number_mask(colour, d, last) | _CLOSING_BIT[colour] for last in range(11))
        for d in (-1, 0, 1)
    )
    for colour in range(NUM_COLOURS)
)
_EMPTY_MASK: Final = tuple(_number_mask(c, UNDECIDED, -1) for c in range(NUM_COLOURS))


def row_mask(colour: int, direction: int, last: int, closings: int) -> int:
    """Bits of the cards that may go on a row of ``colour`` (C-9, C-10): number cards that
    follow ``last`` (-1: empty row) in ``direction``; the closing card once the row has cards;
    after one closing card only the second; after two, nothing."""
    if closings:
        return _CLOSING_BIT[colour] if closings == 1 else 0
    if last < 0:
        return _EMPTY_MASK[colour]
    return _OPEN_MASK[colour][direction + 1][last]


def _action(kind: ActionKind, card: int = -1, card2: int = -1, target: int = -1) -> Action:
    """The action with these fields (the cached object where there is one); raises
    :class:`ValueError` if there is none."""
    action = Action(kind, card, card2, target)
    return _CACHED.get(action, action)


@dataclass(frozen=True)
class CardVariant:
    """Rule switches of the card game. ``turn_cap``: end the game as *truncated* once this
    many turns are complete (default :data:`~keltis.core.setup.DEFAULT_TURN_CAP`: every game
    is finite)."""

    turn_cap: int = DEFAULT_TURN_CAP

    def __reduce__(self) -> tuple[object, tuple[int]]:
        """Pickled by its fields (a compiled frozen dataclass cannot be restored one by one)."""
        return (CardVariant, (self.turn_cap,))

    def __post_init__(self) -> None:
        check_turn_cap(self.turn_cap)

    def to_json(self) -> JSON:
        """The record form."""
        return {"turn_cap": self.turn_cap}

    @classmethod
    def from_json(cls, data: JSON | None) -> CardVariant:
        """Read the record form; unknown switches are refused.

        ``no_take_back: true`` is accepted and changes nothing: the card game always forbids
        taking back a card discarded this turn (C-12).
        """
        data = dict(data or {})
        refuse_unknown(data, {"turn_cap", "no_take_back"}, "unknown card-game variant switch(es):")
        if data.get("no_take_back", True) is not True:
            raise SetupError(
                "the card game always forbids drawing a card discarded this turn (C-12): "
                "no_take_back cannot be switched off"
            )
        cap = read_turn_cap(data.get("turn_cap"))
        return cls(turn_cap=cap)


class CardState(GameState):
    """A card-game position with full information. Use :meth:`view` to show it to anyone.

    ``phase`` is ``PLAY``, ``DRAW``, ``FINAL`` or ``OVER`` (see :data:`PHASE_NAMES`).
    Besides :meth:`apply`, each kind of move has its own method, with a ``verify_`` and a
    ``can_`` form: :meth:`lay`, :meth:`discard`, :meth:`claim`, :meth:`draw` and
    :meth:`pass_` (``pass`` is a Python keyword).
    """

    game_name: ClassVar[str] = "cards"
    phase_names: ClassVar[tuple[str, ...]] = PHASE_NAMES

    __slots__ = (
        "_recent",
        "_rows_view",
        "_variant_json",
        "actors",
        "blocked",
        "closed_rows",
        "closings",
        "current_player",
        "deck",
        "dirs",
        "draws_left",
        "end_pending",
        "end_reason",
        "ender",
        "filled",
        "first_player",
        "hands",
        "history",
        "known",
        "last",
        "layable",
        "lays_left",
        "num_players",
        "onto",
        "over",
        "phase",
        "piles",
        "point_rows",
        "removed",
        "rows",
        "turn",
        "variant",
        "wish_mask",
        "wish_stones",
    )

    hands: list[list[int]]
    """Each hand, sorted by card code."""
    deck: list[int]
    """The draw pile; its top is the *end* of the list."""
    removed: list[int]
    """The cards out of the game, unseen (C-6: 30 in a two-player game)."""
    piles: list[list[int]]
    """Six discard piles, bottom first: colours 0-4, then point cards (5)."""
    rows: list[list[list[int]]]
    """rows[player][colour]: the cards laid (number, point and closing cards), in order."""
    point_rows: list[list[int]]
    """point_rows[player]: the point cards laid on that player's point row, in order (C-11)."""
    last: list[list[int]]
    """last[player][colour]: value of the last number or point card of the row, -1 if empty."""
    dirs: list[list[int]]
    """dirs[player][colour]: the row's direction, ``ASCENDING``, ``DESCENDING`` or
    ``UNDECIDED`` until its first two number cards differ (C-9)."""
    closings: list[list[int]]
    """closings[player][colour]: closing cards on the row (0-2)."""
    onto: list[list[int]]
    """onto[player][colour]: the point card that may be laid on that row's end, -1 if none."""
    layable: list[int]
    """layable[player]: bit ``card`` is set if ``card`` may be laid now (point cards: on the
    point row), by C-9-C-11."""
    wish_mask: int
    """Bit ``v`` is set while wish stone card ``v`` is in the face-up row."""
    wish_stones: list[list[int]]
    """wish_stones[player]: values of the wish stone cards that player claimed, in order (C-8)."""
    closed_rows: int
    """Rows of all players together that hold a closing card (C-13 ends the game at five)."""
    draws_left: int
    """Draws still to make this turn in the draw phase (C-12: one, two after a claim)."""
    blocked: int
    """Bit ``pile`` is set for piles that received a card this turn (C-12)."""
    filled: int
    """Bit ``pile`` is set for discard piles that hold cards."""
    lays_left: int
    """Cards the current player may still lay in the final phase (C-15: up to two)."""
    ender: int
    """The seat in whose turn the game ended (C-13, C-14); -1 before that."""
    end_pending: EndReason | None
    """Why the game ends, from the turn that ends it (C-13, C-14) while the final lays (C-15)
    are still to come; ``end_reason`` is set once it is over."""
    known: list[list[int]]
    """known[player]: cards everyone saw that player take from a discard pile, still in its
    hand."""
    first_player: int
    """The seat that played first."""
    _rows_view: tuple[tuple[tuple[int, ...], ...], ...] | None
    """Views' copy of ``rows`` (``None`` once a card is laid)."""

    # -- creation ------------------------------------------------------------------------

    def __init__(self) -> None:
        """Nothing: :meth:`empty` sets every attribute (``clone`` copies them). A plain
        ``__init__`` rather than ``object.__new__``, which a compiled class refuses."""

    @classmethod
    def new(
        cls,
        players: int,
        *,
        seed: int | None = None,
        setup: CardSetup | None = None,
        variant: CardVariant | None = None,
    ) -> CardState:
        """A new game from a seed (C-4-C-6; none: a fresh random one) or an explicit
        :class:`~keltis.cards.setup.CardSetup`."""
        variant = variant or CardVariant()
        if setup is not None:
            if seed is not None:
                raise SetupError("give either a seed or an explicit set-up, not both")
            return setup.build(players, variant)
        # The seeded set-up is consistent by construction: no checks needed.
        hands, deck, removed = deal(players, fresh_seed() if seed is None else seed)
        state = cls.empty(players, variant)
        state.hands = hands
        state.deck = deck[::-1]
        state.removed = removed
        return state

    @classmethod
    def empty(cls, players: int, variant: CardVariant) -> CardState:
        """The one constructor: a fresh game's table with no cards dealt (hands, draw pile
        and removed cards empty). Set-ups and samples fill in the rest."""
        state = cls()
        state.num_players = players
        state.first_player = state.current_player = 0
        state.over = False
        state.turn = 0
        state.phase = PLAY
        state.end_reason = None
        state.history = []
        state.actors = []
        state.variant = variant
        state.hands = [[] for _ in range(players)]
        state.deck = []
        state.removed = []
        state.piles = [[] for _ in range(NUM_PILES)]
        state.rows = [[[] for _ in range(NUM_COLOURS)] for _ in range(players)]
        state.point_rows = [[] for _ in range(players)]
        state.last = [[-1] * NUM_COLOURS for _ in range(players)]
        state.dirs = [[UNDECIDED] * NUM_COLOURS for _ in range(players)]
        state.closings = [[0] * NUM_COLOURS for _ in range(players)]
        state.onto = [[-1] * NUM_COLOURS for _ in range(players)]
        state.layable = [sum(_EMPTY_MASK) | _POINT_BITS] * players
        state.wish_mask = _ALL_WISHES
        state.wish_stones = [[] for _ in range(players)]
        state.closed_rows = 0
        state.draws_left = 0
        state.blocked = 0
        state.filled = 0
        state.lays_left = 0
        state.ender = -1
        state.end_pending = None
        state.known = [[] for _ in range(players)]
        state._init_caches()
        state._rows_view = None
        return state

    # -- the protocol --------------------------------------------------------------------
    #
    # Each kind of move (lay, discard, claim, draw, pass) has one rule check,
    # ``_<kind>_refusal``: the error naming the rule the move would break now, or ``None``.
    # The rest is derived from it: ``verify_<kind>`` raises that error, ``can_<kind>`` asks,
    # ``<kind>`` verifies and then does (``_do_<kind>``). ``legal_actions`` lists what the
    # ``can_*`` side accepts; ``check_action`` raises what the rule check of the action's kind
    # returns; ``apply`` is that check, then ``apply_legal``, the effect without the checks.

    def legal_actions(self) -> list[Action]:
        """The decisions open to the current player: lays, then claims (each pair once,
        lowest card code first), then discards; in the draw phase the draw pile first.

        Listed from the fast forms of the ``can_*`` side: the lay masks (``layable``,
        ``onto``, :meth:`_final_mask`) for :meth:`can_lay`, the pile bits (``filled``,
        ``blocked``) for :meth:`can_draw`.
        """
        phase = self.phase
        p = self.current_player
        if phase == PLAY:
            hand = self.hands[p]
            lays: list[Action] = []
            discards: list[Action] = []
            add_lay = lays.append
            add_discard = discards.append
            layable = self.layable[p]
            claim_bit = CLAIM_BIT
            seen = twice = 0
            previous = -1
            for card in hand:  # sorted: copies of a card are adjacent
                bit = claim_bit[card]
                if bit & seen:
                    twice |= bit
                else:
                    seen |= bit
                if card != previous:
                    previous = card
                    add_discard(_DISCARD[card])  # can_discard: any card of the hand
                    if layable >> card & 1:
                        add_lay(_LAY[card])
                    if card >= POINT_BASE:
                        onto = self.onto[p]
                        if card in onto:
                            fits = _LAY_ONTO[card - POINT_BASE]
                            for colour in range(NUM_COLOURS):
                                if onto[colour] == card:
                                    add_lay(fits[colour])
            twice &= self.wish_mask  # can_claim: two cards of a value whose stone is up
            if twice:
                self._add_claims(hand, twice, lays)
            lays += discards
            return lays
        if phase == DRAW:
            draws = _DRAWS[self.filled & ~self.blocked]
            return list(draws) if self.deck else list(draws[1:])
        if phase == FINAL:
            out = self._final_lays(p)
            out.append(PASS_ACTION)
            return out
        return []

    def apply(self, action: Action) -> None:
        """Carry out one decision of the current player (see the module docstring). An
        illegal one raises the error naming the rule (:meth:`check_action`) before anything
        changes.

        :meth:`refusal`, then :meth:`apply_legal`; for draws and lays, the most frequent
        moves, their dispatch is written out here (one call fewer on the hot path).
        """
        kind = action.kind
        if kind is _DRAW_KIND:
            refusal = self._draw_refusal(action.target)
            if refusal is None:
                self.history.append(action)
                self.actors.append(self.current_player)
                self._do_draw(action.target)
                return
        elif kind is _LAY_KIND:
            refusal = self._lay_refusal(action.card, action.target)
            if refusal is None:
                self.history.append(action)
                self.actors.append(self.current_player)
                self._do_lay(action.card, action.target)
                return
        else:
            refusal = self.refusal(action)
            if refusal is None:
                self.apply_legal(action)
                return
        raise refusal

    def refusal(self, action: Action) -> IllegalActionError | None:
        """The rule check of ``action``'s kind for it (what its ``verify_*`` raises)."""
        kind = action.kind
        if kind is _LAY_KIND:
            return self._lay_refusal(action.card, action.target)
        if kind is _DRAW_KIND:
            return self._draw_refusal(action.target)
        if kind is _DISCARD_KIND:
            return self._discard_refusal(action.card)
        if kind is _CLAIM_KIND:
            return self._claim_refusal(action.card, action.card2)
        if kind is _PASS_KIND:
            return self._pass_refusal()
        return self._phase_refusal(action)  # a move of the board game only

    def apply_legal(self, action: Action) -> None:
        """Carry out ``action`` without checking it: it must be one of
        :meth:`legal_actions`' answers for this very position (anything else may leave the
        state inconsistent; use :meth:`apply`)."""
        self.history.append(action)
        self.actors.append(self.current_player)
        kind = action.kind
        if kind is _DRAW_KIND:
            self._do_draw(action.target)
        elif kind is _LAY_KIND:
            self._do_lay(action.card, action.target)
        elif kind is _DISCARD_KIND:
            self._do_discard(action.card)
        elif kind is _CLAIM_KIND:
            self._do_claim(action.card, action.card2)
        else:  # a pass
            self._do_pass()

    # -- the rules of each kind of move ----------------------------------------------------

    def _phase_refusal(self, action: Action) -> IllegalActionError:
        """The error for ``action`` when the current phase does not take its kind of move
        (:data:`_PHASE_KINDS`): once the game is over, the rule that ended it; in the draw
        phase a draw is due (C-12); in the final phase only lays or a pass (C-15); in the
        play phase no draw before playing (C-12), no pass (C-15), no board-game move (C-7)."""
        phase = self.phase
        if phase == OVER:
            reason = self.end_reason
            if reason is None:
                return IllegalActionError("C-15", key="game_over")
            return IllegalActionError(_OVER_RULE.get(reason, "C-15"), key=f"over_{reason.value}")
        if phase == DRAW:
            return IllegalActionError("C-12", key="must_draw_cards", params={"action": str(action)})
        if phase == FINAL:
            return IllegalActionError(
                "C-15", key="final_lay_or_pass", params={"action": str(action)}
            )
        kind = action.kind
        if kind is _DRAW_KIND:
            return IllegalActionError("C-12", key="play_before_draw")
        if kind is _PASS_KIND:
            return IllegalActionError("C-15", key="pass_only_final")
        return IllegalActionError("C-7", key="board_move", params={"action": str(action)})

    def _lay_refusal(self, card: int, onto: int = -1) -> IllegalActionError | None:
        """C-9-C-11, C-15: lay ``card`` from the hand on its colour row or, a point card, on
        the point row; with ``onto`` = a colour, a point card on the end of that colour row
        (C-11); in the final phase only onto rows that already hold cards (C-15)."""
        phase = self.phase
        if not _PHASE_KINDS[phase] & _BIT_LAY:
            return self._phase_refusal(Action.lay(card, onto))
        p = self.current_player
        if card not in self.hands[p]:
            rule = "C-11" if card >= POINT_BASE else "C-10" if card >= CLOSING_BASE else "C-9"
            return IllegalActionError(rule, key="not_in_hand", params={"card": CARD_TEXT[card]})
        # The lay masks cache the row rules for every card: ``layable`` C-9-C-11 (with C-15
        # on top in the final phase, :meth:`_final_mask`), ``onto`` C-11's row ends.
        if onto >= 0:
            if self.onto[p][onto] == card:
                return None
        elif (self._final_mask(p) if phase == FINAL else self.layable[p]) >> card & 1:
            return None
        return self._row_refusal(p, card, onto, phase == FINAL)

    def _row_refusal(self, p: int, card: int, onto: int, final: bool) -> IllegalActionError:
        """Which rule refuses ``card`` from ``p``'s hand where the lay masks refuse it: the
        masks' conditions (:func:`row_mask`, :meth:`_final_mask`, ``onto``) spelled out."""
        if card >= POINT_BASE and onto < 0:  # the point row: refused only in the final phase
            return IllegalActionError("C-15", key="final_no_point_row")
        colour = onto if onto >= 0 else CARD_COLOUR[card]
        end = self.last[p][colour]
        if end < 0:  # an empty row: in the play phase any number card may start it
            if final:
                return IllegalActionError("C-15", key="final_no_row", params={"colour": colour})
            if card >= POINT_BASE:
                return IllegalActionError(
                    "C-11", key="point_cannot_start", params={"colour": colour}
                )
            return IllegalActionError("C-10", key="closing_cannot_start", params={"colour": colour})
        closings = self.closings[p][colour]
        if closings == 2:
            return IllegalActionError("C-10", key="row_full", params={"colour": colour})
        if closings == 1:  # closed: only the second closing card may follow
            return IllegalActionError("C-10", key="row_closed", params={"colour": colour})
        if card >= POINT_BASE:  # an open row with cards takes its closing card
            return IllegalActionError(
                "C-11",
                key="point_must_match",
                params={"colour": colour, "value": CARD_VALUE[card], "end": end},
            )
        direction = self.dirs[p][colour]
        return IllegalActionError(
            "C-9",
            key="row_ascending" if direction == ASCENDING else "row_descending",
            params={"colour": colour, "value": CARD_VALUE[card], "end": end},
        )

    def _discard_refusal(self, card: int) -> IllegalActionError | None:
        """C-7: discard any card from the hand."""
        if not _PHASE_KINDS[self.phase] & _BIT_DISCARD:
            return self._phase_refusal(_DISCARD[card])
        if card not in self.hands[self.current_player]:
            return IllegalActionError("C-7", key="not_in_hand", params={"card": CARD_TEXT[card]})
        return None

    def _claim_refusal(self, first: int, second: int) -> IllegalActionError | None:
        """C-8: claim the wish stone of the two cards' value with two cards from the hand
        (two copies if they are the same card) while the stone is still face up."""
        if not _PHASE_KINDS[self.phase] & _BIT_CLAIM:
            return self._phase_refusal(Action.claim(first, second))
        hand = self.hands[self.current_player]
        if first == second:
            if hand.count(first) < 2:
                return IllegalActionError(
                    "C-8", key="no_two_copies", params={"card": CARD_TEXT[first]}
                )
        else:
            for card in (first, second):
                if card not in hand:
                    return IllegalActionError(
                        "C-8", key="not_in_hand", params={"card": CARD_TEXT[card]}
                    )
        value = CARD_VALUE[first]
        if not self.wish_mask >> value & 1:
            owner = next(q for q, got in enumerate(self.wish_stones) if value in got)
            return IllegalActionError(
                "C-8", key="stone_taken", params={"value": value, "owner": owner}
            )
        return None

    def _draw_refusal(self, source: int = DECK) -> IllegalActionError | None:
        """C-12: draw the top card of the draw pile (``DECK``) or of a discard pile that
        holds cards and received none this turn. The pile bits ``filled`` and ``blocked``
        cache the discard piles' part for :meth:`legal_actions`."""
        if not _PHASE_KINDS[self.phase] & _BIT_DRAW:
            return self._phase_refusal(Action.draw(source))
        if source == DECK:
            if not self.deck:
                return IllegalActionError("C-12", key="deck_empty")
            return None
        point = source == POINT_PILE
        pile: dict[str, str | int] = {} if point else {"colour": source}
        if not self.piles[source]:
            return IllegalActionError(
                "C-12", key="point_pile_empty" if point else "pile_empty", params=pile
            )
        if self.blocked >> source & 1:
            return IllegalActionError(
                "C-12", key="point_pile_blocked" if point else "pile_blocked", params=pile
            )
        return None

    def _pass_refusal(self) -> IllegalActionError | None:
        """C-15: stop laying in the final phase."""
        if not _PHASE_KINDS[self.phase] & _BIT_PASS:
            return self._phase_refusal(PASS_ACTION)
        return None

    # -- verify, ask, do: derived from the rule checks -------------------------------------

    def verify_lay(self, card: int, onto: int = -1) -> None:
        """Raise :class:`IllegalActionError` naming the rule unless ``card`` may be laid now
        (``onto``: see :meth:`lay`)."""
        refusal = self._lay_refusal(card, onto)
        if refusal is not None:
            raise refusal

    def can_lay(self, card: int, onto: int = -1) -> bool:
        """Whether ``card`` may be laid now (``onto``: see :meth:`lay`)."""
        return self._lay_refusal(card, onto) is None

    def lay(self, card: int, onto: int = -1) -> None:
        """Lay ``card`` on its colour row or, a point card, on the point row; with ``onto``
        = a colour, point card ``card`` on the end of that colour row (C-9-C-11, C-15). Raises
        as :meth:`verify_lay`, or :class:`ValueError` if there is no such action."""
        action = _action(_LAY_KIND, card, -1, onto)
        self.verify_lay(card, onto)
        self.apply_legal(action)

    def verify_discard(self, card: int) -> None:
        """Raise :class:`IllegalActionError` naming the rule unless ``card`` may be
        discarded now."""
        refusal = self._discard_refusal(card)
        if refusal is not None:
            raise refusal

    def can_discard(self, card: int) -> bool:
        """Whether ``card`` may be discarded now."""
        return self._discard_refusal(card) is None

    def discard(self, card: int) -> None:
        """Discard ``card`` face up onto its pile (C-7). Raises as :meth:`verify_discard`,
        or :class:`ValueError` if there is no such card."""
        action = _action(_DISCARD_KIND, card)
        self.verify_discard(card)
        self.apply_legal(action)

    def verify_claim(self, first: int, second: int) -> None:
        """Raise :class:`IllegalActionError` naming the rule unless the player may claim a
        wish stone with ``first`` and ``second`` now."""
        refusal = self._claim_refusal(first, second)
        if refusal is not None:
            raise refusal

    def can_claim(self, first: int, second: int) -> bool:
        """Whether the player may claim a wish stone with ``first`` and ``second`` now."""
        return self._claim_refusal(first, second) is None

    def claim(self, first: int, second: int) -> None:
        """Claim the wish stone of the two cards' value, discarding ``first`` then
        ``second`` (C-8). Raises as :meth:`verify_claim`, or :class:`ValueError` if there is
        no such action."""
        action = _action(_CLAIM_KIND, first, second)
        self.verify_claim(first, second)
        self.apply_legal(action)

    def verify_draw(self, source: int = DECK) -> None:
        """Raise :class:`IllegalActionError` naming the rule unless the player may draw
        from ``source`` now (``DECK``, a colour's discard pile or ``POINT_PILE``)."""
        refusal = self._draw_refusal(source)
        if refusal is not None:
            raise refusal

    def can_draw(self, source: int = DECK) -> bool:
        """Whether the player may draw from ``source`` now."""
        return self._draw_refusal(source) is None

    def draw(self, source: int = DECK) -> None:
        """Draw from ``source`` (C-12). Raises as :meth:`verify_draw`, or
        :class:`ValueError` if there is no such pile."""
        action = _action(_DRAW_KIND, target=source)
        self.verify_draw(source)
        self.apply_legal(action)

    def verify_pass(self) -> None:
        """Raise :class:`IllegalActionError` naming the rule unless the player may pass
        now."""
        refusal = self._pass_refusal()
        if refusal is not None:
            raise refusal

    def can_pass(self) -> bool:
        """Whether the player may pass now (stop laying in the final phase)."""
        return self._pass_refusal() is None

    def pass_(self) -> None:
        """Stop laying in the final phase (C-15), or raise as :meth:`verify_pass`."""
        self.verify_pass()
        self.apply_legal(PASS_ACTION)

    # -- effects (``apply_legal`` has recorded the action) -------------------------------

    def _do_lay(self, card: int, onto: int) -> None:
        """In the play phase a draw follows, unless the lay ended the game (C-13); in the
        final phase the seat lays on until its lays are used up or it cannot (C-15)."""
        p = self.current_player
        final = self.phase == FINAL
        self._take_from_hand(p, card)
        self._place(p, card, onto)
        if final:
            left = self.lays_left = self.lays_left - 1
            if not left or not self._can_lay_final(p):
                self._final_done(p)
        elif self.phase == PLAY:
            self.draws_left = 1
            self.phase = DRAW

    def _place(self, p: int, card: int, onto: int) -> None:
        """Put ``card`` on ``p``'s row (or point row) and update that row's bookkeeping;
        a fifth closed row ends the game in the play phase (C-13)."""
        if onto >= 0:  # C-11: a point card of the same value extends the row
            self.rows[p][onto].append(card)
            self._rows_view = None
            return
        if card >= POINT_BASE:
            self.point_rows[p].append(card)
            return
        if card < NUMBER_CARDS:
            colour = CARD_COLOUR[card]
            value = card - colour * 11
            self.rows[p][colour].append(card)
            self._rows_view = None
            last = self.last[p]
            end = last[colour]
            direction = self.dirs[p][colour]
            if end >= 0 and direction == UNDECIDED:  # C-9, B-13: the first change fixes it
                direction = self.dirs[p][colour] = direction_after(direction, end, value)
            last[colour] = value
            self.onto[p][colour] = POINT_BASE + value
            self.layable[p] = (
                self.layable[p] & ~_COLOUR_BITS[colour] | _OPEN_MASK[colour][direction + 1][value]
            )
            return
        colour = card - CLOSING_BASE  # C-10: a closing card
        self.rows[p][colour].append(card)
        self._rows_view = None
        closings = self.closings[p][colour] = self.closings[p][colour] + 1
        self.onto[p][colour] = -1
        self.layable[p] = self.layable[p] & ~_COLOUR_BITS[colour] | row_mask(
            colour, UNDECIDED, 0, closings
        )
        if closings == 1:
            self.closed_rows += 1
            if self.closed_rows >= CLOSED_ROWS_TO_END and self.phase == PLAY:  # C-13
                self._end(p, EndReason.CLOSED)

    def _do_discard(self, card: int) -> None:
        """The card onto its pile, which is blocked this turn; one draw follows (C-12)."""
        self._take_from_hand(self.current_player, card)
        pile = PILE_OF[card]
        self.piles[pile].append(card)
        self.blocked = 1 << pile
        self.filled |= 1 << pile
        self.draws_left = 1
        self.phase = DRAW

    def _do_claim(self, first: int, second: int) -> None:
        """Both cards onto their piles, which are blocked this turn; the stone to the
        player; two draws follow (C-8, C-12)."""
        p = self.current_player
        self._take_from_hand(p, first)
        self._take_from_hand(p, second)
        first_pile = PILE_OF[first]
        second_pile = PILE_OF[second]
        self.piles[first_pile].append(first)
        self.piles[second_pile].append(second)
        self.blocked = 1 << first_pile | 1 << second_pile
        self.filled |= self.blocked
        value = CARD_VALUE[first]
        self.wish_mask &= ~(1 << value)
        self.wish_stones[p].append(value)
        self.draws_left = 2
        self.phase = DRAW

    def _do_draw(self, source: int) -> None:
        """The card into the hand (seen by all if from a discard pile); the last card of
        the draw pile ends the game (C-14); the turn ends when the hand is full again."""
        p = self.current_player
        hand = self.hands[p]
        if source == DECK:
            deck = self.deck
            insort(hand, deck.pop())
            if not deck:  # C-14: a second refill draw is not made
                self._end(p, EndReason.DECK)
                return
        else:
            taken = self.piles[source]
            card = taken.pop()
            if not taken:
                self.filled &= ~(1 << source)
            self.known[p].append(card)
            insort(hand, card)
        left = self.draws_left = self.draws_left - 1
        if not left:
            self._end_turn(p)

    def _do_pass(self) -> None:
        """The seat's final lays are over (C-15)."""
        self._final_done(self.current_player)

    # -- the lists behind legal_actions --------------------------------------------------

    @staticmethod
    def _add_claims(hand: list[int], values: int, out: list[Action]) -> None:
        """Append the claims with two cards of ``hand`` whose value bit is in ``values``:
        each pair once, ordered by the first card's code, then the second's."""
        claim_bit = CLAIM_BIT
        candidates = [c for c in hand if claim_bit[c] & values]
        count = len(candidates)
        claims = _CLAIM
        first_before = -1
        for i in range(count - 1):
            first = candidates[i]
            if first == first_before:
                continue
            first_before = first
            bit = claim_bit[first]
            key = first * NUM_CARD_CODES
            second_before = -1
            for j in range(i + 1, count):
                second = candidates[j]
                if second != second_before and claim_bit[second] == bit:
                    second_before = second
                    out.append(claims[key + second])

    def _final_mask(self, p: int) -> int:
        """Bits of the cards ``p`` may lay in the final phase: onto colour rows that have cards,
        and onto the point row only if it already holds a card (C-15)."""
        started = 0
        for colour, end in enumerate(self.last[p]):
            if end >= 0:
                started |= _COLOUR_BITS[colour]
        mask = self.layable[p] & started
        if self.point_rows[p]:
            mask |= _POINT_BITS
        return mask

    def _final_lays(self, p: int) -> list[Action]:
        """The lays :meth:`can_lay` accepts for ``p`` in the final phase, in hand order."""
        mask = self._final_mask(p)
        onto = self.onto[p]
        out: list[Action] = []
        previous = -1
        for card in self.hands[p]:
            if card != previous:
                previous = card
                if mask >> card & 1:
                    out.append(_LAY[card])
                if card >= POINT_BASE and card in onto:
                    fits = _LAY_ONTO[card - POINT_BASE]
                    for colour in range(NUM_COLOURS):
                        if onto[colour] == card:
                            out.append(fits[colour])
        return out

    def _can_lay_final(self, p: int) -> bool:
        """Whether ``p`` has a card to lay in the final phase (C-15)."""
        mask = self._final_mask(p)
        onto = self.onto[p]
        for card in self.hands[p]:
            if mask >> card & 1 or (card >= POINT_BASE and card in onto):
                return True
        return False

    # -- turns and the end ---------------------------------------------------------------

    def _end_turn(self, p: int) -> None:
        """``p``'s turn is complete: the next seat plays, unless the turn cap ends the game."""
        turn = self.turn = self.turn + 1
        if turn >= self.variant.turn_cap:
            self._finish(EndReason.TRUNCATED)
            return
        self.current_player = (p + 1) % self.num_players
        self.phase = PLAY
        self.blocked = 0

    def _end(self, p: int, reason: EndReason) -> None:
        """C-13 or C-14 ended the game in ``p``'s turn: on to the final phase (C-15)."""
        self.turn += 1
        self.ender = p
        self.end_pending = reason
        self.draws_left = 0
        self.blocked = 0
        self._final_from((p + 1) % self.num_players)

    def _final_from(self, seat: int) -> None:
        """Give the final lays to ``seat`` or the next seat (up to the ender) that can lay."""
        n = self.num_players
        while True:
            if self._can_lay_final(seat):
                self.current_player = seat
                self.phase = FINAL
                self.lays_left = FINAL_LAYS
                return
            if seat == self.ender:
                assert self.end_pending is not None
                self._finish(self.end_pending)
                return
            seat = (seat + 1) % n

    def _final_done(self, p: int) -> None:
        """``p``'s final lays are over: the next seat's follow, or the end after the ender's
        (C-15)."""
        self.lays_left = 0
        if p == self.ender:
            assert self.end_pending is not None
            self._finish(self.end_pending)
        else:
            self._final_from((p + 1) % self.num_players)

    def _finish(self, reason: EndReason) -> None:
        """The game is over, for ``reason``."""
        self.over = True
        self.end_reason = reason
        self.phase = OVER
        self.current_player = -1
        self.draws_left = 0
        self.lays_left = 0
        self.blocked = 0

    # -- scores --------------------------------------------------------------------------

    def breakdown(self, p: int) -> dict[str, int]:
        """Score parts of seat ``p``: ``rows`` (C-16), ``point_row`` (C-17), ``wishes``
        (C-18), plus ``wish_count``."""
        return card_parts(self.rows[p], len(self.point_rows[p]), len(self.wish_stones[p]))

    def _standing_reason(self) -> EndReason:
        """During the final lays (C-15) the reason that ended the game; else truncated."""
        return self.end_pending or EndReason.TRUNCATED

    # -- copies and views ----------------------------------------------------------------

    def clone(self) -> Self:
        """An independent copy (cheap: lists of ints)."""
        new = type(self)()
        self._copy_common(new)
        new.piles = [x[:] for x in self.piles]
        new.rows = [[r[:] for r in rows] for rows in self.rows]
        new.point_rows = [x[:] for x in self.point_rows]
        new.last = [x[:] for x in self.last]
        new.dirs = [x[:] for x in self.dirs]
        new.closings = [x[:] for x in self.closings]
        new.onto = [x[:] for x in self.onto]
        new.layable = self.layable[:]
        new.wish_mask = self.wish_mask
        new.wish_stones = [x[:] for x in self.wish_stones]
        new.closed_rows = self.closed_rows
        new.draws_left = self.draws_left
        new.blocked = self.blocked
        new.filled = self.filled
        new.lays_left = self.lays_left
        new.ender = self.ender
        new.end_pending = self.end_pending
        new._rows_view = self._rows_view
        return new

    def view(self, player: int | None) -> CardView:
        """What ``player`` (or a spectator, ``None``) may see; see :class:`CardView`."""
        phase = self.phase
        fields = self.view_fields(player, RECENT_MOVES)
        fields["wish_row"] = tuple(self.wish_row)
        fields["piles"] = tuple(map(tuple, self.piles))
        fields["rows"] = self._rows_tuple()
        fields["directions"] = tuple(map(tuple, self.dirs))
        fields["point_rows"] = tuple(map(tuple, self.point_rows))
        fields["wish_stones"] = tuple(map(tuple, self.wish_stones))
        fields["closed_rows"] = self.closed_rows
        fields["draws_left"] = self.draws_left if phase == DRAW else 0
        fields["blocked_piles"] = tuple(self.blocked_piles())
        fields["final_lays_left"] = self.lays_left if phase == FINAL else 0
        fields["ender"] = self.ender
        return CardView.from_fields(fields)

    def _rows_tuple(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """The rows as a view shows them, kept until a card is laid."""
        rows = self._rows_view
        if rows is None:
            rows = self._rows_view = tuple(tuple(tuple(r) for r in mine) for mine in self.rows)
        return rows

    @property
    def wish_row(self) -> list[int]:
        """Values of the wish stone cards still face up, ascending."""
        return [v for v in WISH_VALUES if self.wish_mask >> v & 1]

    def blocked_piles(self) -> list[int]:
        """Piles that received a card this turn (C-12)."""
        return [i for i in range(NUM_PILES) if self.blocked >> i & 1]

    def describe_row(self, p: int, colour: int) -> str:
        """e.g. ``G: G3 G3 *3 G6 (ascending)``."""
        cards = " ".join(CARD_TEXT[c] for c in self.rows[p][colour]) or "-"
        return f"{COLOUR_LETTERS[colour]}: {cards} ({direction_name(self.dirs[p][colour])})"


def deal(players: int, seed: int) -> tuple[list[list[int]], list[int], list[int]]:
    """What ``random.Random(seed)`` deals (C-5, C-6): the hands, the draw pile top first and
    the removed cards."""
    if not 2 <= players <= 4:
        raise SetupError(f"the card game is for 2-4 players, not {players}")
    return deal_cards(random.Random(seed), FULL_DECK, players)


def pile_mask(piles: list[list[int]]) -> int:
    """Bits of the discard piles that hold cards."""
    return sum(1 << i for i, pile in enumerate(piles) if pile)


def derive_rows(state: CardState) -> None:
    """Fill the per-row bookkeeping (last values, directions, closing cards, lay masks, the
    point card each row end takes, closed rows) from ``state.rows`` and ``point_rows``,
    refusing rows that break C-9-C-11 with :class:`SetupError`."""
    players = state.num_players
    state.last = [[-1] * NUM_COLOURS for _ in range(players)]
    state.dirs = [[UNDECIDED] * NUM_COLOURS for _ in range(players)]
    state.closings = [[0] * NUM_COLOURS for _ in range(players)]
    state.onto = [[-1] * NUM_COLOURS for _ in range(players)]
    state.layable = [_POINT_BITS] * players
    state.closed_rows = 0
    for p in range(players):
        for card in state.point_rows[p]:
            if card < POINT_BASE:
                raise SetupError(f"player {p}'s point row holds {CARD_TEXT[card]} (C-11)")
        for colour, laid in enumerate(state.rows[p]):
            direction = UNDECIDED
            end = -1
            closings = 0
            row_text = " ".join(CARD_TEXT[c] for c in laid)
            where = f"player {p}'s {COLOUR_NAMES[colour]} row {row_text}"
            for card in laid:
                if closings:
                    if card != CLOSING_BASE + colour:
                        raise SetupError(f"{where}: only a closing card may follow one (C-10)")
                    closings += 1
                    continue
                if card >= POINT_BASE:
                    if CARD_VALUE[card] != end:
                        raise SetupError(
                            f"{where}: a point card must match the value of the card before "
                            "it (C-11)"
                        )
                    continue
                if CARD_COLOUR[card] != colour:
                    raise SetupError(f"{where}: {CARD_TEXT[card]} is not {COLOUR_NAMES[colour]}")
                if card >= CLOSING_BASE:
                    if end < 0:
                        raise SetupError(f"{where}: a closing card cannot start a row (C-10)")
                    closings = 1
                    continue
                value = CARD_VALUE[card]
                if end >= 0:
                    if not follows(direction, end, value):
                        raise SetupError(f"{where}: breaks the direction rule (C-9, B-13)")
                    direction = direction_after(direction, end, value)
                end = value
            state.last[p][colour] = end
            state.dirs[p][colour] = direction
            state.closings[p][colour] = closings
            if end >= 0 and not closings:
                state.onto[p][colour] = POINT_BASE + end
            state.layable[p] |= row_mask(colour, direction, end, closings)
            if closings:
                state.closed_rows += 1

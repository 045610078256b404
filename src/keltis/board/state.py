"""Keltis, the board game: state, legal actions and their effects (RULES.md B-1 … B-24).

A turn is a sequence of decisions by the current player (DESIGN.md):

1. ``play``: lay a card on its row (B-10 b, B-11-B-13) or discard it (B-10 a);
2. ``figure``: if the card opens a new path and both a big and a small figure are still on
   the start stone, which of them enters the path (B-11);
3. ``overflow``: if the card's figure already stands on the end stone, move another figure
   one stone forward, or pass (B-14);
4. ``clover``: after a clover tile, move any figure one stone forward, or pass (B-17);
   clovers chain;
5. ``draw``: the top of the draw pile or of a discard pile (B-15).

Decisions that have only one possible answer are not asked (a new path when only small
figures are left; a clover or overflow with no figure that could move).

Each kind of decision has its rules checked in one place, ``_<kind>_refusal``; the public
``verify_<kind>``, ``can_<kind>`` and ``<kind>`` (``lay``, ``discard``, ``draw``, ``figure``,
``advance``, ``pass_``), :meth:`BoardState.legal_actions`, :meth:`BoardState.check_action`
and :meth:`BoardState.apply` are derived from it.
"""

from __future__ import annotations

import random
from bisect import insort
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Final, Self

from keltis.board.layout import CLOVER, DEFAULT_LAYOUT, NO_TILE, WISH, Layout
from keltis.board.tables import GOAL_FIGURES, GOAL_ROW, LAST_ROW, board_parts
from keltis.board.view import RECENT_MOVES, BoardView
from keltis.core.actions import (
    BIG,
    BIG_ACTION,
    DECK,
    PASS_ACTION,
    SMALL_ACTION,
    Action,
    ActionKind,
)
from keltis.core.card_codes import (
    CARD_COLOUR,
    CARD_TEXT,
    CARD_VALUE,
    COLOUR_LETTERS,
    COLOUR_NAMES,
    NUM_CARD_CODES,
    NUM_COLOURS,
    NUMBER_CARDS,
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
    from keltis.board.setup import BoardSetup

FIGURES: Final = 5
SMALL_FIGURES: Final = 4

PLAY, FIGURE, CLOVER_MOVE, OVERFLOW, DRAW, OVER = range(6)
PHASE_NAMES: Final = ("play", "figure", "clover", "overflow", "draw", "over")
#: Phases whose decision is about a pending path (a view shows it only then).
_PENDING_PHASES: Final = frozenset({FIGURE, CLOVER_MOVE, OVERFLOW})

#: The 110 cards (B-1): every number card code twice.
FULL_DECK: Final = tuple(sorted(list(range(NUMBER_CARDS)) * 2))
#: How many copies of each card code the deck holds (B-1): two of a number card, else none.
COPIES: Final = tuple(2 if c < NUMBER_CARDS else 0 for c in range(NUM_CARD_CODES))


def deal(
    players: int, seed: int, layout: Layout = DEFAULT_LAYOUT
) -> tuple[list[list[int]], list[int], list[int], list[list[int]]]:
    """What ``random.Random(seed)`` deals (B-5-B-8): the tiles onto ``layout``, then the
    cards. Returns the hands, the draw pile top first, the removed cards and the tiles."""
    if not 2 <= players <= 4:
        raise SetupError(f"the board game is for 2-4 players, not {players}")
    rng = random.Random(seed)
    tiles = layout.deal_tiles(rng)
    hands, deck, removed = deal_cards(rng, FULL_DECK, players)
    return hands, deck, removed, tiles


# The kinds of action as module constants: every move's dispatch reads them, and reading a
# module constant is cheaper than looking up an enum member.
_LAY_KIND: Final = ActionKind.LAY
_DISCARD_KIND: Final = ActionKind.DISCARD
_DRAW_KIND: Final = ActionKind.DRAW
_FIGURE_KIND: Final = ActionKind.FIGURE
_ADVANCE_KIND: Final = ActionKind.ADVANCE
_PASS_KIND: Final = ActionKind.PASS

_LAY: Final = tuple(Action.lay(c) for c in range(NUMBER_CARDS))
_DISCARD: Final = tuple(Action.discard(c) for c in range(NUMBER_CARDS))
_ADVANCE: Final = tuple(Action.advance(p) for p in range(NUM_COLOURS))
#: ``_DRAW[source + 1]``: the draw from ``source``, the draw pile (``DECK``) or a discard
#: pile by colour.
_DRAW: Final = tuple(Action.draw(source) for source in range(DECK, NUM_COLOURS))
#: What a rule check returns for a refused move when not asked to explain (``can_*`` only
#: asks whether, and wording the error costs more than the check). Never raised.
_REFUSED: Final = IllegalActionError("", key="not_an_action")
_ALL_NUMBER_CARDS: Final = (1 << NUMBER_CARDS) - 1
_COLOUR_MASK: Final = tuple(((1 << 11) - 1) << (11 * c) for c in range(NUM_COLOURS))


def _notation(kind: ActionKind, card: int, target: int) -> str:
    """The notation of the action with these fields, as a refusal names it (fields that
    make no action at all are named as they are)."""
    try:
        return str(Action(kind, card, -1, target))
    except ValueError:
        return f"{kind.name.lower()} {card} {target}"


def _movable(row: int) -> bool:
    """Whether a figure on ``row`` may move one stone forward (B-14, B-17): it stands on
    its path (row 0 is the start stone: no figure yet) short of the end stone."""
    return 0 < row < LAST_ROW


def _mask(colour: int, direction: int, last: int) -> int:
    return sum(1 << (colour * 11 + v) for v in range(11) if last < 0 or follows(direction, last, v))


_MASKS: Final = tuple(
    tuple(
        tuple(_mask(colour, direction, last) for last in range(-1, 11)) for direction in (-1, 0, 1)
    )
    for colour in range(NUM_COLOURS)
)


def _lay_mask(colour: int, direction: int, last: int) -> int:
    """Bits of the cards of ``colour`` that may follow ``last`` in a row of ``direction``
    (``last`` = -1: an empty row takes any card)."""
    return _MASKS[colour][direction + 1][last + 1]


def layable_mask(dirs: list[int], last: list[int]) -> int:
    """Bits of all cards a player may lay, given their rows' directions and last values."""
    return sum(_lay_mask(c, dirs[c], last[c]) for c in range(NUM_COLOURS))


@dataclass(frozen=True)
class BoardVariant:
    """Rule switches. ``no_take_back`` (B-15, default on): the card discarded this turn may
    not be drawn back in the same turn; ``False`` is the variant that allows it (records
    whose variant says ``no_take_back: false`` keep replaying as they did). ``turn_cap``: end
    the game as *truncated* once this many turns are complete (default
    :data:`~keltis.core.setup.DEFAULT_TURN_CAP`: every game is finite)."""

    no_take_back: bool = True
    turn_cap: int = DEFAULT_TURN_CAP

    def __reduce__(self) -> tuple[object, tuple[bool, int]]:
        """Pickled by its fields (a compiled frozen dataclass cannot be restored one by one)."""
        return (BoardVariant, (self.no_take_back, self.turn_cap))

    def __post_init__(self) -> None:
        check_turn_cap(self.turn_cap)

    def to_json(self) -> JSON:
        """The record form."""
        return {"no_take_back": self.no_take_back, "turn_cap": self.turn_cap}

    @classmethod
    def from_json(cls, data: JSON | None) -> BoardVariant:
        """Read the record form; unknown switches are refused. A missing ``no_take_back``
        means the current default (B-15: no take-back)."""
        data = dict(data or {})
        refuse_unknown(data, {"no_take_back", "turn_cap"}, "unknown board-game variant switch(es):")
        cap = read_turn_cap(data.get("turn_cap"))
        no_take_back = data.get("no_take_back", True)
        if not isinstance(no_take_back, bool):
            raise SetupError(f"no_take_back must be true or false, not {no_take_back!r}")
        return cls(no_take_back=no_take_back, turn_cap=cap)


class BoardState(GameState):
    """A board-game position with full information. Use :meth:`view` to show it to anyone."""

    game_name: ClassVar[str] = "board"
    phase_names: ClassVar[tuple[str, ...]] = PHASE_NAMES

    __slots__ = (
        "_recent",
        "_rows_view",
        "_tiles_view",
        "_variant_json",
        "actors",
        "big",
        "current_player",
        "deck",
        "dirs",
        "discarded_pile",
        "end_reason",
        "first_player",
        "goal",
        "hands",
        "history",
        "known",
        "last",
        "layable",
        "layout",
        "no_take_back",
        "num_players",
        "over",
        "pending",
        "phase",
        "piles",
        "points",
        "pos",
        "removed",
        "rows",
        "started",
        "tiles",
        "turn",
        "variant",
        "wishes",
    )

    no_take_back: bool
    """The variant's B-15 switch (``variant`` is the whole :class:`BoardVariant`)."""
    layout: Layout
    """Which stones are dark: the places of the tiles (B-4)."""
    hands: list[list[int]]
    """hands[player]: the card codes in that player's hand, kept sorted."""
    deck: list[int]
    """The draw pile; its top is the *end* of the list."""
    removed: list[int]
    """The cards set aside face down at the start of a 2-player game (B-8), else none."""
    piles: list[list[int]]
    """Five discard piles, bottom first."""
    rows: list[list[list[int]]]
    """rows[player][colour]: the cards laid, in order."""
    last: list[list[int]]
    """last[player][colour]: value of the row's last card, -1 if the row is empty."""
    dirs: list[list[int]]
    """dirs[player][colour]: the row's direction (UNDECIDED, ASCENDING, DESCENDING; B-13)."""
    pos: list[list[int]]
    """pos[player][colour]: row 1-9 of the player's figure on that path, 0 if none."""
    started: list[int]
    """started[player]: how many of the player's figures have entered a path, big included."""
    big: list[int]
    """big[player]: path of the big figure, -1 while it is on the start stone."""
    tiles: list[list[int]]
    """tiles[colour][row] for rows 0-9 (row 0 is the start stone, never a tile)."""
    points: list[int]
    """points[player]: the sum of the point tiles the player's figures stopped on (B-16)."""
    wishes: list[int]
    """wishes[player]: how many wish stones the player has taken (B-18)."""
    goal: int
    """How many figures, all players' together, have entered the goal area (B-19: five end it)."""
    pending: int
    """The path the figure, clover or overflow decision is about (stale in other phases)."""
    discarded_pile: int
    """The colour of the pile a card was discarded onto this turn, -1 if none (B-15)."""
    known: list[list[int]]
    """known[player]: cards everyone saw the player take from a discard pile, still held."""
    first_player: int
    """The seat that plays the first turn (B-9)."""
    layable: list[int]
    """layable[player]: bit ``card`` is set if that card may be laid now (B-11-B-13)."""
    _rows_view: tuple[tuple[tuple[int, ...], ...], ...] | None
    """Views' copy of ``rows`` (``None`` once a card is laid)."""
    _tiles_view: tuple[tuple[int, ...], ...] | None
    """Views' copy of ``tiles`` (``None`` once a wish stone is taken)."""

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
        setup: BoardSetup | None = None,
        variant: BoardVariant | None = None,
        layout: Layout = DEFAULT_LAYOUT,
    ) -> BoardState:
        """A new game from a seed (B-6-B-8; none: a fresh random one) or an explicit
        :class:`~keltis.board.setup.BoardSetup`."""
        variant = variant or BoardVariant()
        if setup is not None:
            if seed is not None:
                raise SetupError("give either a seed or an explicit set-up, not both")
            return setup.build(players, variant, layout)
        # The seeded set-up is consistent by construction: no checks needed.
        hands, deck, removed, tiles = deal(players, fresh_seed() if seed is None else seed, layout)
        state = cls.empty(players, variant, layout)
        state.hands = hands
        state.deck = deck[::-1]
        state.removed = removed
        state.tiles = tiles
        return state

    @classmethod
    def empty(cls, players: int, variant: BoardVariant, layout: Layout) -> BoardState:
        """The one constructor: a fresh game's table with no cards dealt and no tiles laid
        (hands, draw pile and removed cards empty). Set-ups and samples fill in the rest."""
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
        state.no_take_back = variant.no_take_back
        state.layout = layout
        state.hands = [[] for _ in range(players)]
        state.deck = []
        state.removed = []
        state.piles = [[] for _ in range(NUM_COLOURS)]
        state.rows = [[[] for _ in range(NUM_COLOURS)] for _ in range(players)]
        state.tiles = [[NO_TILE] * (LAST_ROW + 1) for _ in range(NUM_COLOURS)]
        state.last = [[-1] * NUM_COLOURS for _ in range(players)]
        state.dirs = [[UNDECIDED] * NUM_COLOURS for _ in range(players)]
        state.layable = [_ALL_NUMBER_CARDS] * players
        state.pos = [[0] * NUM_COLOURS for _ in range(players)]
        state.started = [0] * players
        state.big = [-1] * players
        state.points = [0] * players
        state.wishes = [0] * players
        state.goal = 0
        state.pending = -1
        state.discarded_pile = -1
        state.known = [[] for _ in range(players)]
        state._init_caches()
        state._rows_view = None
        state._tiles_view = None
        return state

    def derive_rows(self) -> None:
        """Fill the rows' bookkeeping (last values, directions, lay masks) from ``rows``,
        refusing a row with a card of another colour or that breaks B-13
        (:class:`SetupError`)."""
        for p in range(self.num_players):
            for colour, laid in enumerate(self.rows[p]):
                direction = UNDECIDED
                end = -1
                for card in laid:
                    if CARD_COLOUR[card] != colour:
                        raise SetupError(
                            f"player {p}'s {COLOUR_NAMES[colour]} row holds {CARD_TEXT[card]}"
                        )
                    value = CARD_VALUE[card]
                    if end >= 0:
                        if not follows(direction, end, value):
                            raise SetupError(
                                f"player {p}'s {COLOUR_NAMES[colour]} row "
                                f"{' '.join(CARD_TEXT[c] for c in laid)} breaks B-13"
                            )
                        direction = direction_after(direction, end, value)
                    end = value
                self.dirs[p][colour] = direction
                self.last[p][colour] = end
        self.layable = [layable_mask(self.dirs[p], self.last[p]) for p in range(self.num_players)]

    # -- the protocol --------------------------------------------------------------------
    #
    # Each kind of move (lay, discard, draw, figure, advance, pass) has one rule check,
    # ``_<kind>_refusal``: the error naming the rule the move would break now, or ``None``.
    # The rest is derived from it: ``verify_<kind>`` raises that error, ``can_<kind>`` asks
    # (without wording the error), ``<kind>`` verifies and then does (``_do_<kind>``).
    # ``legal_actions`` asks the ``can_*`` side; ``check_action`` raises what the rule check
    # of the action's kind returns (as its ``verify_*`` does); ``apply`` is that check, then
    # ``apply_legal``, the effect without the checks.

    def legal_actions(self) -> list[Action]:
        """The decisions open to the current player, lays before discards."""
        phase = self.phase
        if phase == PLAY:
            # the lays, then the discards, of the distinct cards in hand: any card in the hand
            # may be discarded (``can_discard``); it may be laid if its bit in ``layable`` is
            # set, the fast form of ``can_lay`` (the bits cache B-13's ``follows`` per card)
            p = self.current_player
            lays: list[Action] = []
            discards: list[Action] = []
            layable = self.layable[p]
            previous = -1
            for card in self.hands[p]:  # hands are kept sorted: duplicates are adjacent
                if card != previous:
                    previous = card
                    discards.append(_DISCARD[card])
                    if layable >> card & 1:
                        lays.append(_LAY[card])
            lays += discards
            return lays
        # each ``_<kind>_refusal(…, False)`` is what ``can_<kind>`` asks, without its call
        out: list[Action] = []
        if phase == DRAW:
            for source in range(DECK, NUM_COLOURS):
                if self._draw_refusal(source, False) is None:
                    out.append(_DRAW[source + 1])
        elif phase in (CLOVER_MOVE, OVERFLOW):
            for colour in range(NUM_COLOURS):
                if self._advance_refusal(colour, False) is None:
                    out.append(_ADVANCE[colour])
            if self._pass_refusal(False) is None:
                out.append(PASS_ACTION)
        elif phase == FIGURE:
            if self._figure_refusal(True, False) is None:
                out.append(BIG_ACTION)
            if self._figure_refusal(False, False) is None:
                out.append(SMALL_ACTION)
        return out

    def refusal(self, action: Action) -> IllegalActionError | None:
        """The rule check of ``action``'s kind for it (what its ``verify_*`` raises)."""
        kind = action.kind
        if kind is _DRAW_KIND:
            return self._draw_refusal(action.target)
        if kind is _LAY_KIND:
            return self._lay_refusal(action.card, action.target)
        if kind is _DISCARD_KIND:
            return self._discard_refusal(action.card)
        if kind is _ADVANCE_KIND:
            return self._advance_refusal(action.target)
        if kind is _PASS_KIND:
            return self._pass_refusal()
        if kind is _FIGURE_KIND:
            return self._figure_refusal(action.target == BIG)
        return self._phase_refusal(str(action))  # a claim: a move of the card game only

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
            self._do_lay(action.card)
        elif kind is _DISCARD_KIND:
            self._do_discard(action.card)
        elif kind is _ADVANCE_KIND:
            self._do_advance(action.target)
        elif kind is _FIGURE_KIND:
            self._do_figure(action.target == BIG)
        else:  # a pass
            self._do_pass()

    # -- the rules of each kind of move ----------------------------------------------------
    #
    # ``explain=False`` (for ``can_*``) asks only whether: a refusal is then the shared
    # ``_REFUSED``, as wording the error costs more than the check.

    def _phase_refusal(self, action: str) -> IllegalActionError:
        """The error for a move (``action``: its notation) of a kind the current phase does
        not take; once the game is over, for any move (B-19, B-20)."""
        phase = self.phase
        if phase == PLAY:
            return self._wrong_phase(action, "B-10", "must_play")
        if phase == DRAW:
            return self._wrong_phase(action, "B-15", "must_draw")
        if phase == FIGURE:
            return self._wrong_phase(action, "B-11", "must_figure")
        if phase == CLOVER_MOVE:
            return self._wrong_phase(action, "B-17", "must_move_or_pass")
        if phase == OVERFLOW:
            return self._wrong_phase(action, "B-14", "must_move_or_pass")
        if self.end_reason is EndReason.DECK:
            return IllegalActionError("B-20", key="over_deck")
        if self.end_reason is EndReason.TRUNCATED:
            return IllegalActionError("B-19", key="over_truncated")
        return IllegalActionError("B-19", key="over_goal")

    def _wrong_phase(self, action: str, rule: str, key: str) -> IllegalActionError:
        return IllegalActionError(rule, key=key, params={"action": action})

    def _play_refusal(
        self, kind: ActionKind, card: int, onto: int, explain: bool
    ) -> IllegalActionError | None:
        """What a lay and a discard share: the play phase, a number card (B-1), from the
        player's hand (B-10). ``onto``: the target of a lay onto another row (card game)."""
        if self.phase != PLAY:
            if not explain:
                return _REFUSED
            return self._phase_refusal(_notation(kind, card, onto))
        if not 0 <= card < NUMBER_CARDS or onto >= 0:
            if not explain:
                return _REFUSED
            return IllegalActionError(
                "B-1", key="not_board_card", params={"action": _notation(kind, card, onto)}
            )
        if card not in self.hands[self.current_player]:
            if not explain:
                return _REFUSED
            return IllegalActionError("B-10", key="not_in_hand", params={"card": CARD_TEXT[card]})
        return None

    def _lay_refusal(
        self, card: int, onto: int = -1, explain: bool = True
    ) -> IllegalActionError | None:
        """B-10 b, B-13: lay a card from the hand on its row, if it follows the row's last
        card in the row's direction."""
        refusal = self._play_refusal(_LAY_KIND, card, onto, explain)
        if refusal is not None:
            return refusal
        p = self.current_player
        # B-13: ``layable`` caches keltis.core.scoring.follows for every card (_do_lay keeps it).
        if self.layable[p] >> card & 1:
            return None
        if not explain:
            return _REFUSED
        colour = CARD_COLOUR[card]
        direction = self.dirs[p][colour]
        return IllegalActionError(
            "B-13",
            key="row_ascending" if direction == ASCENDING else "row_descending",
            params={"colour": colour, "value": CARD_VALUE[card], "end": self.last[p][colour]},
        )

    def _discard_refusal(self, card: int, explain: bool = True) -> IllegalActionError | None:
        """B-10 a: discard any card from the hand."""
        return self._play_refusal(_DISCARD_KIND, card, -1, explain)

    def _draw_refusal(self, source: int, explain: bool = True) -> IllegalActionError | None:
        """B-15: draw the top card of the draw pile (``DECK``) or of a discard pile that is
        not empty; with ``no_take_back``, not of the pile a card went onto this turn.
        """
        if self.phase != DRAW:
            if not explain:
                return _REFUSED
            return self._phase_refusal(_notation(_DRAW_KIND, -1, source))
        if source == DECK:
            if self.deck:
                return None
            if not explain:
                return _REFUSED
            return IllegalActionError("B-15", key="deck_empty")
        if not 0 <= source < NUM_COLOURS:
            if not explain:
                return _REFUSED
            return IllegalActionError("B-15", key="no_point_pile")
        pile = self.piles[source]
        if not pile:
            if not explain:
                return _REFUSED
            return IllegalActionError("B-15", key="pile_empty", params={"colour": source})
        if self.no_take_back and source == self.discarded_pile:
            if not explain:
                return _REFUSED
            return IllegalActionError(
                "B-15", key="no_take_back", params={"card": CARD_TEXT[pile[-1]]}
            )
        return None

    def _figure_refusal(self, big: bool, explain: bool = True) -> IllegalActionError | None:
        """B-11: the big or a small figure enters the new path (asked only when both could)."""
        if self.phase != FIGURE:
            if not explain:
                return _REFUSED
            return self._phase_refusal(str(Action.figure(big)))
        return None

    def _advance_refusal(self, colour: int, explain: bool = True) -> IllegalActionError | None:
        """B-14, B-17: move one's figure on path ``colour`` one stone forward, if it stands
        on the path short of the end stone."""
        phase = self.phase
        if phase not in (CLOVER_MOVE, OVERFLOW) or not 0 <= colour < NUM_COLOURS:
            if not explain:
                return _REFUSED
            return self._phase_refusal(_notation(_ADVANCE_KIND, -1, colour))
        row = self.pos[self.current_player][colour]
        if _movable(row):
            return None
        if not explain:
            return _REFUSED
        rule = "B-17" if phase == CLOVER_MOVE else "B-14"
        if row == 0:
            return IllegalActionError(rule, key="no_figure", params={"colour": colour})
        return IllegalActionError(rule, key="figure_at_end", params={"colour": colour})

    def _pass_refusal(self, explain: bool = True) -> IllegalActionError | None:
        """B-14, B-17: moving a figure is optional, passing always allowed."""
        phase = self.phase
        if phase not in (CLOVER_MOVE, OVERFLOW):
            if not explain:
                return _REFUSED
            return self._phase_refusal(str(PASS_ACTION))
        return None

    # -- verify, ask, do: derived from the rule checks -------------------------------------

    def verify_lay(self, card: int, onto: int = -1) -> None:
        """Raise :class:`IllegalActionError` naming the rule unless ``card`` may be laid now
        (``onto``: a lay onto another row, which only the card game has)."""
        refusal = self._lay_refusal(card, onto)
        if refusal is not None:
            raise refusal

    def can_lay(self, card: int, onto: int = -1) -> bool:
        """Whether ``card`` may be laid now."""
        return self._lay_refusal(card, onto, False) is None

    def lay(self, card: int, onto: int = -1) -> None:
        """Lay ``card`` on its row (B-10 b, B-11-B-13), or raise as :meth:`verify_lay`."""
        self.verify_lay(card, onto)
        self.apply_legal(_LAY[card])

    def verify_discard(self, card: int) -> None:
        """Raise :class:`IllegalActionError` naming the rule unless ``card`` may be
        discarded now."""
        refusal = self._discard_refusal(card)
        if refusal is not None:
            raise refusal

    def can_discard(self, card: int) -> bool:
        """Whether ``card`` may be discarded now."""
        return self._discard_refusal(card, False) is None

    def discard(self, card: int) -> None:
        """Discard ``card`` onto its pile (B-10 a), or raise as :meth:`verify_discard`."""
        self.verify_discard(card)
        self.apply_legal(_DISCARD[card])

    def verify_draw(self, source: int = DECK) -> None:
        """Raise :class:`IllegalActionError` naming the rule unless the player may draw
        from ``source`` now (``DECK`` or a discard pile's colour)."""
        refusal = self._draw_refusal(source)
        if refusal is not None:
            raise refusal

    def can_draw(self, source: int = DECK) -> bool:
        """Whether the player may draw from ``source`` now."""
        return self._draw_refusal(source, False) is None

    def draw(self, source: int = DECK) -> None:
        """Draw from ``source`` (B-15), or raise as :meth:`verify_draw`."""
        self.verify_draw(source)
        self.apply_legal(_DRAW[source + 1])

    def verify_figure(self, big: bool) -> None:
        """Raise :class:`IllegalActionError` naming the rule unless the player may choose
        which figure enters the new path now."""
        refusal = self._figure_refusal(big)
        if refusal is not None:
            raise refusal

    def can_figure(self, big: bool) -> bool:
        """Whether the big (``True``) or a small figure may enter the new path now."""
        return self._figure_refusal(big, False) is None

    def figure(self, big: bool) -> None:
        """Send the big (``True``) or a small figure onto the new path (B-11), or raise as
        :meth:`verify_figure`."""
        self.verify_figure(big)
        self.apply_legal(Action.figure(big))

    def verify_advance(self, colour: int) -> None:
        """Raise :class:`IllegalActionError` naming the rule unless the player may move
        their figure on path ``colour`` now."""
        refusal = self._advance_refusal(colour)
        if refusal is not None:
            raise refusal

    def can_advance(self, colour: int) -> bool:
        """Whether the player may move their figure on path ``colour`` now."""
        return self._advance_refusal(colour, False) is None

    def advance(self, colour: int) -> None:
        """Move the figure on path ``colour`` one stone forward (B-14, B-17), or raise as
        :meth:`verify_advance`."""
        self.verify_advance(colour)
        self.apply_legal(_ADVANCE[colour])

    def verify_pass(self) -> None:
        """Raise :class:`IllegalActionError` naming the rule unless the player may pass
        now."""
        refusal = self._pass_refusal()
        if refusal is not None:
            raise refusal

    def can_pass(self) -> bool:
        """Whether the player may pass now (decline a clover's or an overflow's move)."""
        return self._pass_refusal(False) is None

    def pass_(self) -> None:
        """Decline the clover's or the overflow's move (B-14, B-17), or raise as
        :meth:`verify_pass`."""
        self.verify_pass()
        self.apply_legal(PASS_ACTION)

    # -- effects -------------------------------------------------------------------------

    def _do_lay(self, card: int) -> None:
        p = self.current_player
        self._take_from_hand(p, card)
        colour = CARD_COLOUR[card]
        value = CARD_VALUE[card]
        self.rows[p][colour].append(card)
        self._rows_view = None
        end = self.last[p][colour]
        self.last[p][colour] = value
        if end < 0:  # B-11: the first card of a colour brings a figure onto the path
            self.layable[p] = self.layable[p] & ~_COLOUR_MASK[colour] | _lay_mask(
                colour, UNDECIDED, value
            )
            big_waiting = self.big[p] < 0
            smalls_waiting = SMALL_FIGURES - self.started[p] + (0 if big_waiting else 1)
            self.started[p] += 1
            if big_waiting and smalls_waiting > 0:
                self.phase = FIGURE
                self.pending = colour
                return
            if big_waiting:
                self.big[p] = colour
            self._step(p, colour)
            return
        direction = self.dirs[p][colour]
        if direction == UNDECIDED:  # B-13: the first different value fixes the direction
            direction = self.dirs[p][colour] = direction_after(direction, end, value)
        self.layable[p] = self.layable[p] & ~_COLOUR_MASK[colour] | _lay_mask(
            colour, direction, value
        )
        if self.pos[p][colour] >= LAST_ROW:  # B-14
            self.pending = colour
            self.phase = OVERFLOW if self._can_move(p) else DRAW
            return
        self._step(p, colour)

    def _do_discard(self, card: int) -> None:
        self._take_from_hand(self.current_player, card)
        colour = CARD_COLOUR[card]
        self.piles[colour].append(card)
        self.discarded_pile = colour
        self.phase = DRAW

    def _do_figure(self, big: bool) -> None:
        colour = self.pending
        p = self.current_player
        if big:
            self.big[p] = colour
        self._step(p, colour)

    def _do_advance(self, colour: int) -> None:
        self._step(self.current_player, colour)

    def _do_pass(self) -> None:
        self.phase = DRAW

    def _can_move(self, p: int) -> bool:
        """Whether ``p`` has a figure that may move (else a clover or an overflow is not
        asked: B-14, B-17)."""
        return any(_movable(row) for row in self.pos[p])

    def _step(self, p: int, colour: int) -> None:
        """Move ``p``'s figure on ``colour`` one stone forward and resolve the stone."""
        row = self.pos[p][colour] + 1
        self.pos[p][colour] = row
        if row == GOAL_ROW:
            self.goal += 1
            if self.goal >= GOAL_FIGURES:  # B-19: the tile is not resolved, no draw
                self._finish(EndReason.GOAL)
                return
        tile = self.tiles[colour][row]
        if tile:
            if tile == WISH:  # B-18
                self.wishes[p] += 1
                self.tiles[colour][row] = NO_TILE
                self._tiles_view = None
            elif tile == CLOVER:  # B-17
                if self._can_move(p):
                    self.pending = colour
                    self.phase = CLOVER_MOVE
                    return
            else:  # B-16
                self.points[p] += tile
        self.phase = DRAW

    def _do_draw(self, source: int) -> None:
        p = self.current_player
        if source == DECK:
            deck = self.deck
            insort(self.hands[p], deck.pop())
            if not deck:  # B-20
                self._finish(EndReason.DECK)
                return
        else:
            card = self.piles[source].pop()
            self.known[p].append(card)
            insort(self.hands[p], card)
        turn = self.turn = self.turn + 1
        if turn >= self.variant.turn_cap:
            self._finish(EndReason.TRUNCATED)
            return
        self.current_player = (p + 1) % self.num_players
        self.phase = PLAY
        self.discarded_pile = -1

    def _finish(self, reason: EndReason) -> None:
        self.over = True
        self.end_reason = reason
        self.phase = OVER
        self.current_player = -1

    # -- scores --------------------------------------------------------------------------

    def breakdown(self, p: int) -> dict[str, int]:
        """Score parts of seat ``p``: ``figures`` (B-21), ``tiles`` (B-22), ``wishes`` (B-23),
        plus ``wish_count``."""
        return board_parts(self.pos[p], self.big[p], self.points[p], self.wishes[p])

    # -- copies and views ----------------------------------------------------------------

    def clone(self) -> Self:
        """An independent copy (cheap: lists of ints)."""
        new = type(self)()
        self._copy_common(new)
        new.layout = self.layout
        new.no_take_back = self.no_take_back
        new.piles = [p[:] for p in self.piles]
        new.rows = [[r[:] for r in rows] for rows in self.rows]
        new.last = [x[:] for x in self.last]
        new.dirs = [x[:] for x in self.dirs]
        new.pos = [x[:] for x in self.pos]
        new.started = self.started[:]
        new.big = self.big[:]
        new.tiles = [t[:] for t in self.tiles]
        new.points = self.points[:]
        new.wishes = self.wishes[:]
        new.goal = self.goal
        new.pending = self.pending
        new.discarded_pile = self.discarded_pile
        new.layable = self.layable[:]
        new._rows_view = self._rows_view
        new._tiles_view = self._tiles_view
        return new

    def view(self, player: int | None) -> BoardView:
        """What ``player`` (or a spectator, ``None``) may see; see :class:`BoardView`."""
        fields = self.view_fields(player, RECENT_MOVES)
        fields["layout"] = self.layout
        fields["tiles"] = self._tiles_tuple()
        fields["piles"] = tuple(map(tuple, self.piles))
        fields["rows"] = self._rows_tuple()
        fields["directions"] = tuple(map(tuple, self.dirs))
        fields["positions"] = tuple(map(tuple, self.pos))
        fields["big"] = tuple(self.big)
        fields["tile_points"] = tuple(self.points)
        fields["wishes"] = tuple(self.wishes)
        fields["goal_count"] = self.goal
        fields["pending"] = self.pending if self.phase in _PENDING_PHASES else -1
        fields["discarded_pile"] = self.discarded_pile
        return BoardView.from_fields(fields)

    def _rows_tuple(self) -> tuple[tuple[tuple[int, ...], ...], ...]:
        """The rows as a view shows them, kept until a card is laid."""
        rows = self._rows_view
        if rows is None:
            rows = self._rows_view = tuple(tuple(tuple(r) for r in mine) for mine in self.rows)
        return rows

    def _tiles_tuple(self) -> tuple[tuple[int, ...], ...]:
        """The tiles as a view shows them, kept until a wish stone is taken."""
        tiles = self._tiles_view
        if tiles is None:
            tiles = self._tiles_view = tuple(tuple(t) for t in self.tiles)
        return tiles

    def direction(self, p: int, colour: int) -> int:
        """Direction of ``p``'s row of ``colour`` (UNDECIDED, ASCENDING, DESCENDING)."""
        return self.dirs[p][colour]

    def describe_row(self, p: int, colour: int) -> str:
        """e.g. ``G: 3 3 6 (ascending)``."""
        cards = " ".join(str(CARD_VALUE[c]) for c in self.rows[p][colour]) or "-"
        return f"{COLOUR_LETTERS[colour]}: {cards} ({direction_name(self.dirs[p][colour])})"

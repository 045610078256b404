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
"""

from __future__ import annotations

import random
from bisect import insort
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Final, Self

from keltis.board.layout import CLOVER, DEFAULT_LAYOUT, NO_TILE, WISH, Layout
from keltis.board.view import RECENT_MOVES, BoardView
from keltis.core.actions import (
    BIG,
    BIG_ACTION,
    DECK,
    DRAW_DECK,
    PASS_ACTION,
    SMALL,
    SMALL_ACTION,
    Action,
    ActionKind,
)
from keltis.core.cards import (
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
from keltis.core.scoring import (
    ASCENDING,
    GOAL_FIGURES,
    GOAL_ROW,
    LAST_ROW,
    UNDECIDED,
    board_parts,
    direction_after,
    direction_name,
    follows,
)
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


_LAY: Final = tuple(Action.lay(c) for c in range(NUMBER_CARDS))
_DISCARD: Final = tuple(Action.discard(c) for c in range(NUMBER_CARDS))
_ADVANCE: Final = tuple(Action.advance(p) for p in range(NUM_COLOURS))
_DRAW_PILE: Final = tuple(Action.draw(p) for p in range(NUM_COLOURS))
_ALL_NUMBER_CARDS: Final = (1 << NUMBER_CARDS) - 1
_COLOUR_MASK: Final = tuple(((1 << 11) - 1) << (11 * c) for c in range(NUM_COLOURS))


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
    hands: list[list[int]]
    deck: list[int]
    """The draw pile; its top is the *end* of the list."""
    removed: list[int]
    piles: list[list[int]]
    """Five discard piles, bottom first."""
    rows: list[list[list[int]]]
    """rows[player][colour]: the cards laid, in order."""
    last: list[list[int]]
    """last[player][colour]: value of the row's last card, -1 if the row is empty."""
    dirs: list[list[int]]
    pos: list[list[int]]
    """pos[player][colour]: row 1-9 of the player's figure on that path, 0 if none."""
    started: list[int]
    big: list[int]
    """big[player]: path of the big figure, -1 while it is on the start stone."""
    tiles: list[list[int]]
    """tiles[colour][row] for rows 0-9 (row 0 is the start stone, never a tile)."""
    points: list[int]
    wishes: list[int]
    goal: int
    pending: int
    discarded_pile: int
    known: list[list[int]]
    first_player: int
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

    def legal_actions(self) -> list[Action]:
        """The decisions open to the current player, lays before discards."""
        phase = self.phase
        p = self.current_player
        if phase == PLAY:
            lays: list[Action] = []
            discards: list[Action] = []
            add_lay = lays.append
            add_discard = discards.append
            lay_action = _LAY
            discard_action = _DISCARD
            layable = self.layable[p]
            previous = -1
            for card in self.hands[p]:  # hands are kept sorted: duplicates are adjacent
                if card != previous:
                    previous = card
                    add_discard(discard_action[card])
                    if layable >> card & 1:
                        add_lay(lay_action[card])
            lays += discards
            return lays
        if phase == DRAW:
            out = [DRAW_DECK] if self.deck else []
            blocked = self.discarded_pile if self.no_take_back else -1
            for colour, pile in enumerate(self.piles):
                if pile and colour != blocked:
                    out.append(_DRAW_PILE[colour])
            return out
        if phase in (CLOVER_MOVE, OVERFLOW):
            out = [_ADVANCE[c] for c, r in enumerate(self.pos[p]) if 0 < r < LAST_ROW]
            out.append(PASS_ACTION)
            return out
        if phase == FIGURE:
            return [BIG_ACTION, SMALL_ACTION]
        return []

    def check_action(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` (naming the rule) unless ``action`` is legal."""
        self._check(action)

    def apply(self, action: Action) -> None:
        """Carry out one decision of the current player (see the module docstring).

        The common cases are checked inline; anything unusual goes through the full check,
        which raises the error naming the rule before anything changes.
        """
        p = self.current_player
        phase = self.phase
        kind = action.kind
        if phase == PLAY:
            card = action.card
            hand = self.hands[p]
            if action.target >= 0 or (
                kind is not ActionKind.DISCARD
                and not (kind is ActionKind.LAY and self.layable[p] >> card & 1)
            ):
                self._check(action)
            try:
                hand.remove(card)
            except ValueError:
                self._check(action)
                raise
            known = self.known[p]
            if known and card in known:
                known.remove(card)
            self.history.append(action)
            self.actors.append(p)
            if kind is ActionKind.LAY:
                self._lay(p, card)
            else:
                colour = CARD_COLOUR[card]
                self.piles[colour].append(card)
                self.discarded_pile = colour
                self.phase = DRAW
            return
        if phase == DRAW:
            source = action.target
            if kind is not ActionKind.DRAW or (
                not self.deck
                if source == DECK
                else (
                    not 0 <= source < NUM_COLOURS
                    or not self.piles[source]
                    or (self.no_take_back and source == self.discarded_pile)
                )
            ):
                self._check(action)
            self.history.append(action)
            self.actors.append(p)
            self._draw(p, source)
            return
        self._check(action)
        self.history.append(action)
        self.actors.append(p)
        if phase == FIGURE:
            colour = self.pending
            if action.target:
                self.big[p] = colour
            self._step(p, colour)
        elif kind is ActionKind.ADVANCE:
            self._step(p, action.target)
        else:  # pass on a clover or overflow
            self.phase = DRAW

    def _check(self, action: Action) -> None:
        phase = self.phase
        kind = action.kind
        p = self.current_player
        if phase == PLAY:
            if kind is ActionKind.LAY or kind is ActionKind.DISCARD:
                card = action.card
                if not 0 <= card < NUMBER_CARDS or action.target >= 0:
                    raise IllegalActionError(
                        "B-1", key="not_board_card", params={"action": str(action)}
                    )
                if card not in self.hands[p]:
                    raise IllegalActionError(
                        "B-10", key="not_in_hand", params={"card": CARD_TEXT[card]}
                    )
                if kind is ActionKind.LAY:
                    colour = CARD_COLOUR[card]
                    end = self.last[p][colour]
                    direction = self.dirs[p][colour]
                    value = CARD_VALUE[card]
                    if not follows(direction, end, value):
                        raise IllegalActionError(
                            "B-13",
                            key="row_ascending" if direction == ASCENDING else "row_descending",
                            params={"colour": colour, "value": value, "end": end},
                        )
                return
            raise self._wrong_phase(action, "B-10", "must_play")
        if phase == DRAW:
            if kind is not ActionKind.DRAW:
                raise self._wrong_phase(action, "B-15", "must_draw")
            source = action.target
            if source == DECK:
                if not self.deck:
                    raise IllegalActionError("B-15", key="deck_empty")
                return
            if not 0 <= source < NUM_COLOURS:
                raise IllegalActionError("B-15", key="no_point_pile")
            if not self.piles[source]:
                raise IllegalActionError("B-15", key="pile_empty", params={"colour": source})
            if self.no_take_back and source == self.discarded_pile:
                raise IllegalActionError(
                    "B-15", key="no_take_back", params={"card": CARD_TEXT[self.piles[source][-1]]}
                )
            return
        if phase == FIGURE:
            if kind is not ActionKind.FIGURE or action.target not in (SMALL, BIG):
                raise self._wrong_phase(action, "B-11", "must_figure")
            return
        if phase in (CLOVER_MOVE, OVERFLOW):
            rule = "B-17" if phase == CLOVER_MOVE else "B-14"
            if kind is ActionKind.PASS:
                return
            if kind is not ActionKind.ADVANCE or not 0 <= action.target < NUM_COLOURS:
                raise self._wrong_phase(action, rule, "must_move_or_pass")
            row = self.pos[p][action.target]
            if row == 0:
                raise IllegalActionError(rule, key="no_figure", params={"colour": action.target})
            if row >= LAST_ROW:
                raise IllegalActionError(
                    rule, key="figure_at_end", params={"colour": action.target}
                )
            return
        if self.end_reason is EndReason.DECK:
            raise IllegalActionError("B-20", key="over_deck")
        if self.end_reason is EndReason.TRUNCATED:
            raise IllegalActionError("B-19", key="over_truncated")
        raise IllegalActionError("B-19", key="over_goal")

    def _wrong_phase(self, action: Action, rule: str, key: str) -> IllegalActionError:
        return IllegalActionError(rule, key=key, params={"action": str(action)})

    # -- effects -------------------------------------------------------------------------

    def _lay(self, p: int, card: int) -> None:
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

    def _can_move(self, p: int) -> bool:
        return any(0 < row < LAST_ROW for row in self.pos[p])

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

    def _draw(self, p: int, source: int) -> None:
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

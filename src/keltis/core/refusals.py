"""The English words of every refused move and unreadable input: the one wording of both
``str(error)`` and the English catalog.

Each refusal is declared once below with :func:`refusal` — a catalog key (``refuse.`` and
the ``key`` the engines raise) and an English ``str.format`` template over the error's
``params``. ``pybabel extract`` reads these calls (keyword ``refusal:1c,2``, see
``babel.cfg`` and ``docs/translating.md``) into ``keltis.pot``: the key becomes the
message context, the English the msgid. :class:`~keltis.core.errors.KeltisError` renders
the same template for ``str(error)``, and :class:`keltis.i18n.Translator` words it in the
player's language from the catalogs.

Parameters: card, action and typed text as they are, numbers, ``colour`` (an index 0-4,
shown as its name) and ``owner`` (a 0-based seat, shown as ``Player n``). A template may
leave a parameter out but must not name one the error does not carry.

Standard library only, like the whole rules core.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from keltis.core.colours import COLOUR_NAMES

#: English refusal templates by key (without the ``refuse.`` prefix of the catalogs).
REFUSALS: Final[dict[str, str]] = {}

#: How ``str(error)`` names the seat in ``owner`` (``name.player`` of the catalogs).
ENGLISH_PLAYER: Final = "Player {n}"


def refusal(key: str, english: str) -> str:
    """Declare refusal ``key`` (``refuse.<key>``) with its English template; returns it."""
    if not key.startswith("refuse."):
        raise ValueError(f"a refusal key starts with 'refuse.': {key!r}")
    REFUSALS[key.removeprefix("refuse.")] = english
    return english


def english_values(params: Mapping[str, str | int]) -> dict[str, str | int]:
    """``params`` as the English text shows them: colour and owner by name."""
    values = dict(params)
    colour = values.get("colour")
    if isinstance(colour, int) and 0 <= colour < len(COLOUR_NAMES):
        values["colour"] = COLOUR_NAMES[colour]
    owner = values.get("owner")
    if isinstance(owner, int):
        values["owner"] = ENGLISH_PLAYER.format(n=owner + 1)
    return values


def render(key: str, params: Mapping[str, str | int]) -> str | None:
    """The English words of refusal ``key`` with ``params``; ``None`` for an unknown key.
    A template that ``params`` cannot fill is returned as it is (tests forbid that)."""
    template = REFUSALS.get(key)
    if template is None:
        return None
    try:
        return template.format(**english_values(params))
    except (KeyError, IndexError, ValueError):
        return template


# -- reading typed input (keltis.core.card_codes, keltis.core.actions) --------------------------

refusal("refuse.not_a_colour", "“{text}” is not a colour: use G, Y, R, P or B")
refusal(
    "refuse.not_a_card",
    "“{text}” is not a card: a colour letter and a value 0–10 (G7), a colour letter and X "
    "for a closing card (RX), or * and a value for a point card (*3)",
)
refusal("refuse.empty_action", "nothing typed")
refusal("refuse.claim_two_cards", "a claim names two cards, e.g. wish G5 *5")
refusal("refuse.claim_value", "{card} cannot claim a wish stone (only cards of value 1–9)")
refusal("refuse.claim_same_value", "the two cards of a claim must have the same value")
refusal("refuse.point_onto_row", "only a point card can be laid onto another colour's row (*7>G)")
refusal(
    "refuse.not_an_action",
    "not a move: type a card to lay it (G7), -G7 to discard it, big or small, >G to move a "
    "figure, pass, draw or draw G",
)
# The same, said by a match, which knows its game: only that game's moves.
refusal(
    "refuse.not_a_move.board",
    "not a move: type a card to lay it (G7), -G7 to discard it, big or small, >G to move a "
    "figure, pass, draw or draw G",
)
refusal(
    "refuse.not_a_move.cards",
    "not a move: type a card to lay it (G7; closing card GX; point card *7, or *7>G onto your "
    "green row), wish G5 *5 for a wish stone, -G7 to discard, pass, draw, draw G or draw *",
)
refusal("refuse.no_action_index", "{index} is not an action number: they run from 0 to {last}")

# -- both games ------------------------------------------------------------------------

refusal("refuse.not_in_hand", "{card} is not in your hand")
refusal("refuse.row_ascending", "your {colour} row is ascending: {value} is lower than {end}")
refusal("refuse.row_descending", "your {colour} row is descending: {value} is higher than {end}")
refusal("refuse.deck_empty", "the draw pile is empty")
refusal("refuse.pile_empty", "the {colour} discard pile is empty")
refusal("refuse.game_over", "the game is over")
# The match layer: a move sent out of turn, or chosen on a position the game has left.
refusal("refuse.not_your_turn", "it is not your turn: {owner} is to decide")
refusal(
    "refuse.stale_action",
    "the game has moved on since you chose (you chose at move {expected}, the game is at move "
    "{ply}): look again",
)
refusal("refuse.over_deck", "the game is over: the last card was drawn")
refusal("refuse.over_truncated", "the game is over: the turn cap was reached")

# -- the board game (keltis.board.state) -----------------------------------------------

refusal("refuse.not_board_card", "{action} is not a board-game card (only G0–B10 exist)")
refusal("refuse.must_play", "first play a card (lay it or discard it), not {action}")
refusal("refuse.must_draw", "now draw a card (draw or draw G), not {action}")
refusal("refuse.must_figure", "now choose the big or a small figure (big / small), not {action}")
refusal("refuse.must_move_or_pass", "now move a figure (>G) or pass, not {action}")
refusal("refuse.no_point_pile", "the board game has no point-card pile")
refusal("refuse.no_take_back", "you may not draw back the {card} you discarded this turn")
refusal("refuse.no_figure", "you have no figure on the {colour} path")
refusal(
    "refuse.figure_at_end",
    "your figure on the {colour} path stands on the end stone and cannot move further",
)
refusal("refuse.over_goal", "the game is over: five figures reached the goal area")

# -- the card game (keltis.cards.state) ------------------------------------------------

refusal("refuse.over_closed", "the game is over: five rows are closed")
refusal(
    "refuse.final_lay_or_pass",
    "the game has ended: now you may only lay a card onto one of your rows or pass, not {action}",
)
refusal(
    "refuse.play_before_draw", "first play a card (lay, discard or claim a wish stone), then draw"
)
refusal(
    "refuse.pass_only_final",
    "you may pass only after the end; now lay, discard or claim a wish stone",
)
refusal(
    "refuse.board_move",
    "{action} is a board-game move; lay a card (G7), discard one (-G7) or claim a wish stone "
    "(wish G5 Y5)",
)
refusal(
    "refuse.must_draw_cards",
    "refill your hand first: draw (the draw pile) or draw G (the top of a discard pile), "
    "not {action}",
)
refusal("refuse.point_pile_empty", "the point-card discard pile is empty")
refusal(
    "refuse.pile_blocked",
    "a card went onto the {colour} discard pile this turn: you may not take a card "
    "discarded this turn",
)
refusal(
    "refuse.point_pile_blocked",
    "a card went onto the point-card discard pile this turn: you may not take a card "
    "discarded this turn",
)
refusal(
    "refuse.final_no_point_row",
    "after the end, cards go only onto rows you already have: you have no point row",
)
refusal(
    "refuse.final_no_row",
    "after the end, cards go only onto rows you already have: you have no {colour} row",
)
refusal("refuse.point_cannot_start", "a point card cannot start a row: you have no {colour} row")
refusal("refuse.closing_cannot_start", "a closing card cannot start your {colour} row")
refusal("refuse.row_full", "your {colour} row holds both closing cards: it takes no more cards")
refusal(
    "refuse.row_closed",
    "your {colour} row is closed: it takes only the second {colour} closing card",
)
refusal(
    "refuse.point_must_match",
    "the last card of your {colour} row has the value {end}: a point card laid there must "
    "have it too, not {value}",
)
refusal("refuse.no_two_copies", "you do not hold two copies of {card}")
refusal("refuse.stone_taken", "wish stone {value} is no longer on the table: {owner} has it")

# -- a variant's switches (a person may type them in the browser's new-match form) -------------

# TRANSLATORS: turn_cap: the switch's name as it is, the new-match
# form's "Turn limit" (web.variant.turn_cap)
refusal("refuse.turn_cap_low", "turn_cap must be at least 1, not {cap}")
# TRANSLATORS: {value}: what was given instead, as it is
refusal("refuse.turn_cap_not_number", "turn_cap must be a whole number, not {value}")

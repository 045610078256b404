"""The guided first games ("Learn to play", docs/web.md): for each game a short match against
one easy bot from a fixed explicit set-up, with fixed bot seeds so that the bot answers the
same way every time, and the script the browser client follows — per decision of the
player, the move it asks for, the piece it points at and the message that says what to do
and why (``tutorial.*`` in ``keltis.messages``).

A client asks for a tutorial by name (``"tutorial": "board"`` in ``POST /api/matches``); a
client-given set-up or seed stays refused without ``--allow-setup``. The set-ups here are
public (they ship with the package), which is harmless: a tutorial match is a lesson, and the
client still shows only what the player's seat may see. ``tests/server/test_tutorials.py``
plays every script against the engine with these bot seeds."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class TutorialStep:
    """One decision of the player (seat 0) in a tutorial."""

    ply: int
    """The match's ply at which the decision comes (the bots' moves in between included)."""
    move: str
    """The move the step asks for, in notation (as the engine writes it)."""
    point: str
    """What the client highlights first: ``card:G3`` (the card in the hand), ``pile:deck``
    or ``pile:G`` (a pile to draw from), ``prompt:big`` (a button under the board),
    ``stone:G3`` (a stone of the board: path and row)."""
    key: str
    """The message (``tutorial.…``) that says what to do and why."""

    def to_json(self) -> dict[str, Any]:
        return {"ply": self.ply, "move": self.move, "point": self.point, "key": self.key}


@dataclass(frozen=True)
class Tutorial:
    """A guided first game: the player (seat 0, a person) against one bot (seat 1)."""

    name: str
    game: str
    setup: dict[str, Any]
    bot_level: str
    bot_seeds: tuple[int, int]
    steps: tuple[TutorialStep, ...]
    done_key: str
    """The message of the final step, once the game is over."""
    free_key: str
    """The message while the game goes on after the scripted steps."""

    def to_json(self) -> dict[str, Any]:
        """What the client gets (``GET /api/tutorials/{name}``): the script, not the deal."""
        return {
            "name": self.name,
            "game": self.game,
            "steps": [step.to_json() for step in self.steps],
            "done": self.done_key,
            "free": self.free_key,
        }


def _steps(*rows: tuple[int, str, str, str]) -> tuple[TutorialStep, ...]:
    return tuple(TutorialStep(ply, move, point, key) for ply, move, point, key in rows)


#: The board game: green rising with the big figure (a clover, a point tile, a card taken
#: from a discard pile), yellow falling with a small figure (a wish stone), a discard, and
#: the end with the last card of a draw pile of twelve.
BOARD = Tutorial(
    name="board",
    game="board",
    setup={
        "hands": [
            ["G3", "G5", "Y8", "Y6", "R1", "G9", "Y2", "P4"],
            ["R4", "R5", "P8", "P9", "B2", "B3", "R7", "B6"],
        ],
        "discards": {"G": ["G6"]},
        "deck": ["G8", "R8", "Y5", "P7", "B9", "B5", "Y4", "R9", "G10", "P6", "Y3", "B7"],
        "tiles": {
            "G": ".C.2.W.C3",
            "Y": "W.1.C.W.2",
            "R": ".CW.2..WC",
            "P": "W..C.1W.C",
            "B": "..WC.3.WC",
        },
    },
    bot_level="easy",
    bot_seeds=(4242, 2424),
    steps=_steps(
        (0, "G3", "card:G3", "tutorial.board.start_row"),
        (1, "big", "prompt:big", "tutorial.board.big"),
        (2, "draw", "pile:deck", "tutorial.board.draw_deck"),
        (6, "G5", "card:G5", "tutorial.board.rising"),
        (7, ">G", "stone:G3", "tutorial.board.clover"),
        (8, "draw G", "pile:G", "tutorial.board.draw_pile"),
        (11, "Y8", "card:Y8", "tutorial.board.wish"),
        (12, "draw", "pile:deck", "tutorial.board.draw"),
        (16, "Y6", "card:Y6", "tutorial.board.falling"),
        (17, "draw", "pile:deck", "tutorial.board.draw"),
        (20, "G6", "card:G6", "tutorial.board.points"),
        (21, "draw", "pile:deck", "tutorial.board.draw"),
        (25, "-R1", "card:R1", "tutorial.board.discard"),
        (26, "draw", "pile:deck", "tutorial.board.no_take_back"),
        (29, "G8", "card:G8", "tutorial.board.last"),
        (30, "draw", "pile:deck", "tutorial.board.end"),
    ),
    done_key="tutorial.board.done",
    free_key="tutorial.free",
)

_CARDS_DECK = ["G6", "B5", "Y5", "P8", "R6", "B9", "G8", "Y9", "*7", "R7", "Y3", "P5", "B10", "P10"]

#: The card game: a green row rising, a point card on it and one in the point row, a wish
#: stone bought with a pair, a closing card, the end with the last card of the draw pile and
#: a last card laid after it.
CARDS = Tutorial(
    name="cards",
    game="cards",
    setup={
        "hands": [
            ["G3", "G5", "*5", "*2", "Y4", "R4", "GX", "G7"],
            ["B3", "B4", "P6", "P7", "B8", "P9", "R8", "Y10"],
        ],
        "deck": _CARDS_DECK,
    },
    bot_level="easy",
    bot_seeds=(4242, 2424),
    steps=_steps(
        (0, "G3", "card:G3", "tutorial.cards.start_row"),
        (1, "draw", "pile:deck", "tutorial.cards.draw"),
        (4, "G5", "card:G5", "tutorial.cards.rising"),
        (5, "draw", "pile:deck", "tutorial.cards.draw"),
        (8, "*5>G", "card:*5", "tutorial.cards.point_on_row"),
        (9, "draw", "pile:deck", "tutorial.cards.draw"),
        (12, "*2", "card:*2", "tutorial.cards.point_row"),
        (13, "draw", "pile:deck", "tutorial.cards.draw"),
        (16, "G7", "card:G7", "tutorial.cards.longer"),
        (17, "draw", "pile:deck", "tutorial.cards.draw"),
        (20, "wish Y4 R4", "card:Y4", "tutorial.cards.wish"),
        (21, "draw", "pile:deck", "tutorial.cards.draw_two"),
        (22, "draw", "pile:deck", "tutorial.cards.draw_two"),
        (25, "GX", "card:GX", "tutorial.cards.closing"),
        (26, "draw", "pile:deck", "tutorial.cards.last"),
        (29, "*7", "card:*7", "tutorial.cards.final"),
    ),
    done_key="tutorial.cards.done",
    free_key="tutorial.free",
)

TUTORIALS: dict[str, Tutorial] = {t.name: t for t in (BOARD, CARDS)}

"""The board game's guided first game (``keltis.core.lesson``): handed out as
``BoardGame().part("lesson")``."""

from __future__ import annotations

from typing import Final

from keltis.core.lesson import Tutorial, steps

#: The board game: green rising with the big figure (a clover, a point tile, a card taken
#: from a discard pile), yellow falling with a small figure (a wish stone), a discard, and
#: the end with the last card of a draw pile of twelve.
LESSON: Final = Tutorial(
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
    steps=steps(
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

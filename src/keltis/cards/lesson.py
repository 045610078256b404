"""The card game's guided first game (``keltis.core.lesson``): handed out as
``CardGame().part("lesson")``."""

from __future__ import annotations

from typing import Final

from keltis.core.lesson import Tutorial, steps

#: Top card first. The player draws no green card: each green card the lesson lays leaves no
#: green card in the hand that it makes unplayable (a lesson teaches good play), and the green
#: row is closed only once the hand holds no more green cards. Thirteen cards: the player's
#: draw after the closing card takes the last one (Brigid takes a yellow card from a discard
#: pile once), as the step says (``tests/server/test_tutorials.py`` checks what each step says).
_CARDS_DECK = ["Y2", "B5", "Y5", "P8", "R6", "B9", "R3", "Y9", "*7", "R7", "Y3", "P5", "B10"]

#: The card game: a green row rising, a point card on it and one in the point row, a wish
#: stone bought with a pair, a closing card, the end with the last card of the draw pile and
#: a last card laid after it.
LESSON: Final = Tutorial(
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
    steps=steps(
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

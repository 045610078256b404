"""The guided first games ("Learn to play", docs/web.md): for each game a short match against
one easy bot from a fixed explicit set-up, with fixed bot seeds so that the bot answers the
same way every time, and the script the browser client follows — per decision of the
player, the move it asks for, the piece it points at and the message that says what to do
and why (``tutorial.*`` in ``keltis.messages``).

A client asks for a tutorial by name (``"tutorial": "board"`` in ``POST /api/matches``); a
client-given set-up or seed stays refused without ``--allow-setup``. The set-ups here are
public (they ship with the package), which is harmless: a tutorial match is a lesson, and the
client still shows only what the player's seat may see. ``tests/server/test_tutorials.py``
plays every script against the engine with these bot seeds. The lessons themselves
are data in the games' packages (``keltis.core.lesson``)."""

from __future__ import annotations

from keltis.core.lesson import Tutorial as Tutorial
from keltis.core.lesson import TutorialStep as TutorialStep
from keltis.games import GAME_NAMES, get_game


def _lesson(game: str) -> Tutorial:
    lesson = get_game(game).part("lesson").LESSON
    assert isinstance(lesson, Tutorial)
    return lesson


#: Every game's lesson, by name (each game's package holds its own: ``keltis.board.lesson``).
TUTORIALS: dict[str, Tutorial] = {t.name: t for t in map(_lesson, GAME_NAMES)}

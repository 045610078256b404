"""A guided first game ("Learn to play", docs/web.md) as data: a short match of a person
(seat 0) against one easy bot from a fixed explicit set-up, with fixed bot seeds so that the
bot answers the same way every time, and the script a client follows — per decision of the
player, the move it asks for, the piece it points at and the message that says what to do and
why (``tutorial.*`` in ``keltis.messages``). Each game's lesson is its package's ``lesson``
part (``keltis.board.lesson``); the server offers them (``keltis.server.tutorials``)."""

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


def steps(*rows: tuple[int, str, str, str]) -> tuple[TutorialStep, ...]:
    """The steps of a script from rows ``(ply, move, point, key)``."""
    return tuple(TutorialStep(ply, move, point, key) for ply, move, point, key in rows)

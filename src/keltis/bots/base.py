"""What a bot is: something that picks one of ``view.legal`` from a player's view.

A bot never sees the full state — only the :class:`~keltis.core.protocol.View` of its own seat,
the same view a human player gets — and its choices are reproducible from its seed.
"""

from __future__ import annotations

import hashlib
import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import ClassVar

from keltis.core.actions import Action
from keltis.core.protocol import View
from keltis.core.setup import randbelow


def derive_seed(seed: int, *parts: int | str) -> int:
    """A seed in ``0 … 2**32 - 1`` derived from ``seed`` and ``parts`` (stable everywhere):
    the arena's per-game seeds, the terminal's per-decision bot seeds."""
    text = ":".join(str(p) for p in (seed, *parts))
    digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 32


class Bot(ABC):
    """Base class of all bots. Subclasses set ``name`` and implement :meth:`choose`.

    A bot sees one view, never the state:

    >>> from keltis import get_game
    >>> from keltis.bots import make_bot
    >>> bot = make_bot("greedy", seed=1)  # a level ("medium"), a bot, or module:Class
    >>> bot.choose(get_game("board").new_game(2, seed=7).view(0))
    Action('R2')
    """

    name: ClassVar[str]
    description: ClassVar[str] = ""
    needs_view: ClassVar[bool] = True
    """Whether the bot reads more of its view than the legal actions. One that does not sets
    it ``False`` and implements :meth:`choose_legal`; the match layer then hands it the legal
    actions alone and builds no view."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.level: str | None = None
        """The level (``easy``, ``medium``, ``hard``) this bot was made for, if any."""

    @abstractmethod
    def choose(self, view: View) -> Action:
        """One of ``view.legal``. Called only when the view's seat is to decide."""

    def choose_legal(self, legal: Sequence[Action]) -> Action:
        """One of ``legal`` (the seat's legal actions, as in its view), for a bot that needs
        no more of its view (:attr:`needs_view` ``False``); the same choice :meth:`choose`
        makes on a view with these legal actions."""
        raise NotImplementedError(f"bot {self.name!r} decides from its whole view")

    def reset(self, seed: int | None = None) -> None:
        """Start afresh (a new game), optionally with a new seed."""
        if seed is not None:
            self.seed = seed
        self.rng = random.Random(self.seed)

    def reseed(self, seed: int) -> None:
        """Draw this decision's randomness from ``seed`` (the match layer calls it before
        every decision, so a resumed game goes on exactly as the unbroken one). A bot with
        random sources besides ``self.rng`` reseeds them too."""
        self.seed = seed
        self.rng = random.Random(seed)


class RandomBot(Bot):
    """Uniform over the legal actions."""

    name: ClassVar[str] = "random"
    description: ClassVar[str] = "picks any legal action, uniformly at random"
    needs_view: ClassVar[bool] = False

    def choose(self, view: View) -> Action:
        """A uniformly random legal action."""
        return self.choose_legal(view.legal)

    def choose_legal(self, legal: Sequence[Action]) -> Action:
        """A uniformly random one of ``legal``."""
        if not legal:
            raise ValueError("the bot was asked to move with no legal action in its view")
        # random.choice(legal), the same draws (tested), compiled: in a tournament of random
        # bots random.choice's Python-level calls cost a third
        return legal[randbelow(self.rng, len(legal))]

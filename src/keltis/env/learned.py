"""What every bot that plays a saved, learned policy shares: loading the file once per
process (each kind's loader refuses a file saved for another observation layout:
:func:`keltis.env.encode.check_layout`), refusing a view of another game or player count, and
choosing among the legal actions by the policy's probabilities (the most likely, or one
sampled with the bot's seed).
:class:`keltis.env.linear.LinearBot` and :class:`keltis.env.torch_policy.PPOBot` are its two
kinds; each says how to read its file and how its policy rates a view's legal actions."""

from __future__ import annotations

from abc import abstractmethod
from pathlib import Path
from typing import Protocol

import numpy as np
import numpy.typing as npt

from keltis.bots.base import Bot
from keltis.core.actions import Action
from keltis.core.protocol import View


class LearnedPolicy(Protocol):
    """A policy read from a file: the game and player count it was trained for."""

    game: str
    players: int


class LearnedBot(Bot):
    """Plays the policy saved at ``path``: its most likely legal action, or
    (``greedy=false``) one sampled from its probabilities with the bot's seed."""

    def __init__(self, seed: int | None, path: str, greedy: bool) -> None:
        super().__init__(seed)
        self.policy = self.load(str(Path(path).resolve()))
        self.greedy = greedy

    @classmethod
    @abstractmethod
    def load(cls, path: str) -> LearnedPolicy:
        """The policy in the file at ``path`` (an absolute path; cached by the subclass)."""

    @abstractmethod
    def probabilities(self, view: View) -> npt.NDArray[np.floating]:
        """The policy's probability of each of ``view.legal``, in that order."""

    def choose(self, view: View) -> Action:
        """The policy's choice among ``view.legal``."""
        policy = self.policy
        if (view.game, view.num_players) != (policy.game, policy.players):
            raise ValueError(
                f"this policy plays the {policy.game} game for {policy.players} players, "
                f"not the {view.game} game for {view.num_players}"
            )
        if not view.legal:
            raise ValueError("the bot was asked to move with no legal action in its view")
        p = self.probabilities(view)
        if self.greedy:
            return view.legal[int(p.argmax())]
        pick = int(np.searchsorted(np.cumsum(p), self.rng.random(), side="right"))
        return view.legal[min(pick, len(p) - 1)]

"""Bots for the arena tests, loaded by import path (``arena_bots:FirstBot``)."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import ClassVar

from keltis.bots import Bot
from keltis.core.actions import Action
from keltis.core.protocol import View


class FirstBot(Bot):
    """Plays the ``pick``-th legal action (modulo their number): deterministic, with an option."""

    name: ClassVar[str] = "first"

    def __init__(self, seed: int | None = None, pick: int = 0) -> None:
        super().__init__(seed)
        if pick < 0:
            raise ValueError("pick must be 0 or more")
        self.pick = pick

    def choose(self, view: View) -> Action:
        return view.legal[self.pick % len(view.legal)]


class CrashBot(Bot):
    """Raises on its third decision."""

    name: ClassVar[str] = "crash"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.calls = 0

    def choose(self, view: View) -> Action:
        self.calls += 1
        if self.calls == 3:
            raise RuntimeError("boom")
        return view.legal[0]


class CheatBot(Bot):
    """Always passes, which is never legal in the board game's play phase."""

    name: ClassVar[str] = "cheat"

    def choose(self, view: View) -> Action:
        from keltis.core.actions import PASS_ACTION

        return PASS_ACTION


class NotABot:
    """Not a keltis.bots.Bot."""


class SlowBot(Bot):
    """Random, and slow (a sleep per decision) while KELTIS_TEST_BOT_DELAY is set: for
    interrupting a tournament in the middle. The delay never changes a choice."""

    name: ClassVar[str] = "slow"

    def choose(self, view: View) -> Action:
        delay = float(os.environ.get("KELTIS_TEST_BOT_DELAY", "0"))
        if delay:
            time.sleep(delay)
        return self.rng.choice(view.legal)


@dataclass(frozen=True)
class Settings:
    """A bot's settings as a dataclass, like ``keltis.bots.ismcts.SearchConfig``."""

    depth: int = 1
    width: float = 0.5

    def __post_init__(self) -> None:
        if self.depth < 1:
            raise ValueError(f"depth must be at least 1, not {self.depth}")


class ConfigBot(FirstBot):
    """Takes its settings as a dataclass, plus one plain option."""

    name: ClassVar[str] = "config"

    def __init__(
        self, seed: int | None = None, settings: Settings | None = None, verbose: bool = False
    ) -> None:
        super().__init__(seed)
        self.settings = settings or Settings()
        self.verbose = verbose


class DyingBot(Bot):
    """Ends its whole process on its fifth decision, as a crash in native code would."""

    name: ClassVar[str] = "dying"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.calls = 0

    def choose(self, view: View) -> Action:
        self.calls += 1
        if self.calls == 5:
            os._exit(3)
        return view.legal[0]

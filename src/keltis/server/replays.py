"""Replays of finished matches for ``GET /api/matches/{id}/replay``: every position from the
spectator's side (or one seat's), kept for a few matches at a time.

A finished match's record is replayed once, narrated, and every position's public view
(``view(None)``: hands and the draw pile only as counts) and every step are kept; a request
for one position is then a look-up and one view's JSON. A seat's views (its own hand, as it
saw the game) are replayed when first asked for: only ever of a finished match, whose record
with every card is public by then.
"""

from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from keltis.core.protocol import View
from keltis.match import Match, Step, spectator_positions
from keltis.record import GameRecord


@dataclass(frozen=True)
class Replay:
    """Every position of a record: ``views[k]`` after ``k`` actions (``views[0]``: the
    start), ``steps[k - 1]`` the action that led there."""

    views: list[View]
    steps: list[Step]
    record: GameRecord | None = None
    """The record replayed (for the seats' views)."""
    seat_views: dict[int, list[View]] = field(default_factory=dict)
    """Each seat's views asked for so far, ``seat_views[s][k]`` after ``k`` actions."""

    @property
    def total(self) -> int:
        """The number of actions: the last position's number."""
        return len(self.steps)

    @classmethod
    def build(cls, record: GameRecord) -> Replay:
        """Replay ``record`` (left unchanged)."""
        views, steps, _ = spectator_positions(record)
        return cls(views, steps, record)

    def position(self, ply: int, seat: int | None = None) -> dict[str, Any]:
        """Position ``ply`` (0 to :attr:`total`) in wire form: ``view`` and ``step`` (the
        action that led there; ``None`` at the start) as a spectator sees them, or as
        ``seat`` saw them."""
        views = self.views if seat is None else self._seat_views(seat)
        return {
            "view": views[ply].to_json(),
            "step": self.steps[ply - 1].to_json(seat) if ply > 0 else None,
        }

    def _seat_views(self, seat: int) -> list[View]:
        """``seat``'s view after each action (replayed once, then kept)."""
        views = self.seat_views.get(seat)
        if views is None:
            assert self.record is not None
            record = self.record
            copy = dataclasses.replace(record, actions=[], meta=dict(record.meta), result=None)
            match = Match(copy, narrate=False)
            views = [match.view(seat)]
            for text in self.record.actions:
                match.replay_action(text)
                views.append(match.view(seat))
            self.seat_views[seat] = views
        return views


class ReplayCache:
    """The replays of the ``size`` matches asked for most recently (thread-safe: the routes
    build them in worker threads)."""

    def __init__(self, size: int) -> None:
        self.size = max(1, size)
        self._replays: OrderedDict[tuple[str, int, tuple[str, ...]], Replay] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, match_id: str, record: GameRecord) -> Replay:
        """The replay of match ``match_id`` (its finished ``record``)."""
        # the players' names are part of the key: an account deleted meanwhile (elsewhere,
        # too) renames its seat, and a replay must not show the old name
        key = (match_id, len(record.actions), tuple(p.name for p in record.players))
        with self._lock:
            replay = self._replays.get(key)
            if replay is not None:
                self._replays.move_to_end(key)
                return replay
        replay = Replay.build(record)  # outside the lock: one slow build holds up no other
        with self._lock:
            self._replays[key] = replay
            self._replays.move_to_end(key)
            while len(self._replays) > self.size:
                self._replays.popitem(last=False)
        return replay

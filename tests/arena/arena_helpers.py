"""Helpers of the arena tests (a plain module: conftest names clash between folders)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from keltis.arena import Tournament, parse_bots


def small_tournament(
    bots: tuple[str, ...] = ("greedy", "random", "r2=random"), games: int = 9, seed: int = 3
) -> Tournament:
    """A quick board-game tournament between cheap bots."""
    return Tournament.create("board", parse_bots(list(bots)), games=games, seed=seed)


def played(out: Path) -> dict[str, Any]:
    """What must not depend on how a tournament was run: every record (less its creation time
    and think times) and results.json (less its timing)."""
    records = {}
    for path in sorted((out / "games").glob("[0-9][0-9][0-9][0-9][0-9].json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        data.pop("created")
        data["meta"]["arena"].pop("think_seconds")
        records[path.name] = data
    results = json.loads((out / "results.json").read_text(encoding="utf-8"))
    results.pop("timing")
    return {"records": records, "results": results}

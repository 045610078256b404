"""Where the terminal game keeps its records: unique names, never overwriting a record, the
list of saved games and the most recent one (``--resume last``).

Games are saved under ``$XDG_DATA_HOME/keltis/games/`` (``~/.local/share`` by default) as
``<game>-<date>-<time>.json``; a name already taken — by an earlier game, or by another game
started in the same second — gets ``-2``, ``-3`` … The first save *claims* the file (it is
created only if it does not exist, atomically), so two games can never share one, and a record
given with ``--save`` that already exists is refused rather than replaced.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from keltis.core.errors import RecordError
from keltis.record import GameRecord

#: How many numbered variants of a default name are tried before giving up.
MAX_SUFFIX = 1000


def games_dir(env: Mapping[str, str] | None = None) -> Path:
    """``$XDG_DATA_HOME/keltis/games`` (``~/.local/share/keltis/games`` by default)."""
    env = os.environ if env is None else env
    base = Path(env.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "keltis" / "games"


def default_name(game: str, now: datetime | None = None) -> str:
    """``board-20261126-093000.json``."""
    stamp = (now or datetime.now()).strftime("%Y%m%d-%H%M%S")
    return f"{game}-{stamp}.json"


def claim(record: GameRecord, wanted: Path | None, env: Mapping[str, str] | None = None) -> Path:
    """Save a new game's record for the first time, never over an existing file.

    ``wanted`` is the ``--save`` path: an existing directory means "a new name in there"; an
    existing file is refused (:class:`FileExistsError`, naming it). Without ``wanted``, the
    default directory. Default names that are taken get a number. Other failures (no
    permission, not a directory, disk full) raise :class:`RecordError` with the reason.
    """
    if wanted is not None and not wanted.is_dir():
        if wanted.exists():
            raise FileExistsError(str(wanted))
        record.save(wanted, new=True)
        return wanted
    folder = wanted if wanted is not None else games_dir(env)
    name = Path(default_name(record.game))
    for number in range(1, MAX_SUFFIX + 1):
        path = folder / (name.name if number == 1 else f"{name.stem}-{number}{name.suffix}")
        try:
            record.save(path, new=True)
        except FileExistsError:
            continue
        return path
    raise RecordError(f"cannot find a free name for the record in {folder}")


@dataclass(frozen=True)
class SavedGame:
    """A record file found in the games folder, with what a list of games shows."""

    path: Path
    modified: datetime
    game: str
    players: tuple[str, ...]
    moves: int
    finished: bool


def saved_games(env: Mapping[str, str] | None = None) -> list[SavedGame]:
    """The records in the games folder, most recently saved first (unreadable files are
    left out)."""
    folder = games_dir(env)
    found = []
    for path in folder.glob("*.json") if folder.is_dir() else ():
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            record = GameRecord.from_json(data)
            modified = datetime.fromtimestamp(path.stat().st_mtime)
        except (OSError, ValueError):
            continue
        found.append(
            SavedGame(
                path=path,
                modified=modified,
                game=record.game,
                players=tuple(p.name for p in record.players),
                moves=len(record.actions),
                finished=record.result is not None,
            )
        )
    found.sort(key=lambda s: (s.modified, s.path.name), reverse=True)
    return found


def last_unfinished(env: Mapping[str, str] | None = None) -> Path | None:
    """The most recently saved game that has not ended, if any (``--resume last``)."""
    for game in saved_games(env):
        if not game.finished:
            return game.path
    return None

"""Game records: the project's PGN. Versioned JSON, documented in ``docs/records.md``.

A record holds everything needed to replay a game exactly: the game, the players, the rules
variant with every switch spelt out (and, for the board game, the board layout), the set-up —
the seed *and the cards and tiles it dealt*, or an explicit set-up — and the actions in
notation, one per line. Since version 2 a record keeps the dealt set-up itself: Python
promises the same ``random()`` stream for a seed, not the same ``shuffle``, so a record
that kept only the seed could deal differently after a Python upgrade. Later versions of this
package keep loading older record versions (a version-1 record is converted on load).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from keltis.core.actions import Action, parse_action
from keltis.core.errors import KeltisError, NotationError, RecordError
from keltis.core.protocol import JSON, GameState
from keltis.core.setup import fresh_seed
from keltis.games import GAME_NAMES, get_game

FORMAT: Final = "keltis-record"
VERSION: Final = 2
_ACTIONS_KEY: Final = re.compile(r'"actions"\s*:\s*\[')
_STRING: Final = re.compile(r'"(?:[^"\\]|\\.)*"|\]')


def indented_json(value: Any) -> str:
    """``json.dumps(value, indent=2, ensure_ascii=False)``, the same text, about twice as fast
    for a record: the standard library writes indented JSON with its pure-Python encoder,
    value by value, while this writes each text with the C string encoder and joins the lines
    itself. Anything but plain JSON of dicts, lists, texts and numbers (keys that are not
    texts, other types) goes to ``json.dumps`` whole, with its text or its error."""
    try:
        return _indented(value, "\n")
    except _NotPlainError:
        return json.dumps(value, indent=2, ensure_ascii=False)


class _NotPlainError(Exception):
    """A value :func:`indented_json` leaves to ``json.dumps``."""


_encode_text: Final = json.encoder.encode_basestring  # the C function where there is one
_FLOATS: Final = {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}


def _indented(value: Any, newline: str) -> str:
    kind = type(value)
    if kind is str:
        return _encode_text(value)
    if kind is dict:
        if not value:
            return "{}"
        inner = newline + "  "
        parts = []
        for key, item in value.items():
            if type(key) is not str:
                raise _NotPlainError
            parts.append(inner + _encode_text(key) + ": " + _indented(item, inner))
        return "{" + ",".join(parts) + newline + "}"
    if kind is list or kind is tuple:
        if not value:
            return "[]"
        inner = newline + "  "
        try:  # a list of texts (the actions, hands, decks): every item at C speed
            return "[" + inner + ("," + inner).join(map(_encode_text, value)) + newline + "]"
        except TypeError:  # not all of them texts
            pass
        return "[" + ",".join(inner + _indented(item, inner) for item in value) + newline + "]"
    if kind is int:
        return int.__repr__(value)
    if kind is bool:
        return "true" if value else "false"
    if value is None:
        return "null"
    if kind is float:
        text = float.__repr__(value)
        return _FLOATS.get(text, text)
    raise _NotPlainError


@dataclass
class PlayerInfo:
    """A seat: a display name and what plays it (``human``, ``random``, ``greedy``, …)."""

    name: str
    kind: str = "human"

    def to_json(self) -> JSON:
        """``{"name": …, "kind": …}``."""
        return {"name": self.name, "kind": self.kind}


@dataclass
class GameRecord:
    """A game's record: create one with :meth:`start`, append actions, save with :meth:`save`.

    >>> record = GameRecord.start("board", [PlayerInfo("Ann"), PlayerInfo("Bob", "greedy")], seed=7)
    >>> record.dealt["hands"][0]  # what the seed dealt is kept, not just the seed
    ['Y4', 'R2', 'R5', 'R8', 'P6', 'P10', 'B0', 'B6']
    >>> record.actions.append("Y4")
    >>> state = record.replay()
    >>> state.phase_name, state.history
    ('figure', [Action('Y4')])
    >>> GameRecord.from_json(record.to_json()) == record
    True
    """

    game: str
    players: list[PlayerInfo]
    seed: int | None = None
    setup: JSON | None = None
    """An explicit set-up chosen by hand (then ``seed`` is ``None``)."""
    dealt: JSON | None = None
    """The set-up ``seed`` dealt, as an explicit set-up: what replay starts from."""
    variant: JSON = field(default_factory=dict)
    layout: JSON | None = None
    actions: list[str] = field(default_factory=list)
    result: JSON | None = None
    created: str = ""
    meta: JSON = field(default_factory=dict)
    version: int = VERSION

    @classmethod
    def start(
        cls,
        game: str,
        players: list[PlayerInfo],
        *,
        seed: int | None = None,
        setup: JSON | None = None,
        variant: JSON | None = None,
        layout: JSON | None = None,
    ) -> GameRecord:
        """A record of a new game (not yet played); ``new_state()`` gives its start.

        With neither ``seed`` nor ``setup``, a fresh random seed is drawn. A seed's deal is
        kept in the record (``dealt``), and the variant with every switch spelt out, so the
        record means the same game after a Python upgrade or a change of defaults."""
        if seed is not None and setup is not None:
            raise RecordError("a record's set-up is either a seed or an explicit set-up")
        if seed is None and setup is None:
            seed = fresh_seed()
        rules = get_game(game)
        try:
            rules.check_players(len(players))
            full_variant = rules.variant_json(variant)
            dealt = None
            if seed is not None:
                dealt = rules.deal(len(players), seed, **({"layout": layout} if layout else {}))
        except (KeltisError, ValueError) as error:
            raise RecordError(f"bad set-up: {error}") from error
        record = cls(
            game=game,
            players=players,
            seed=seed,
            setup=setup,
            dealt=dealt,
            variant=full_variant,
            layout=layout,
            created=datetime.now(UTC).replace(microsecond=0).isoformat(),
        )
        if setup is not None:  # refuse a bad set-up now rather than at replay time; a seed's
            record.new_state()  # deal is the engine's own, and the match builds it anyway
        return record

    # -- replay --------------------------------------------------------------------------

    def new_state(self) -> GameState:
        """The state before the first action: from the dealt set-up when the record keeps
        one, else from the explicit set-up, else (never for a loaded record) the seed."""
        rules = get_game(self.game)
        setup = self.dealt if self.dealt is not None else self.setup
        seed = None if setup is not None else self.seed
        options = {} if self.layout is None else {"layout": self.layout}
        try:
            return rules.new_game(
                len(self.players), seed=seed, setup=setup, variant=self.variant, **options
            )
        except KeltisError as error:
            raise RecordError(f"bad set-up: {error}") from error

    def replay(self, upto: int | None = None, *, lines: list[int] | None = None) -> GameState:
        """The state after the first ``upto`` actions (all by default), as
        :class:`keltis.match.Match` replays a record (it does so with :func:`recorded_action`).

        A bad action raises :class:`RecordError` naming its number (1-based), its text, the
        seat that took it and, when ``lines`` are known (as for a loaded file), its line.
        """
        state = self.new_state()
        actions = self.actions if upto is None else self.actions[:upto]
        for number, text in enumerate(actions, 1):
            line = lines[number - 1] if lines is not None and number <= len(lines) else None
            if state.over:
                raise RecordError(
                    f"{text!r} comes after the end of the game", line=line, action=number
                )
            with recorded_action(text, state.current_player, number, line) as action:
                state.apply(action)
        return state

    # -- JSON ----------------------------------------------------------------------------

    def to_json(self) -> JSON:
        """The record as a JSON-ready dict (see docs/records.md)."""
        out: JSON = {
            "format": FORMAT,
            "version": self.version,
            "game": self.game,
            "created": self.created,
            "players": [p.to_json() for p in self.players],
            "variant": self.variant,
        }
        if self.layout is not None:
            out["layout"] = self.layout
        if self.seed is not None:
            out["setup"] = {"seed": self.seed, "dealt": self.dealt}
        else:
            out["setup"] = {"explicit": self.setup}
        if self.meta:
            out["meta"] = self.meta
        if self.result is not None:
            out["result"] = self.result
        out["actions"] = list(self.actions)
        return out

    def dumps(self) -> str:
        """The record as text: indented JSON, one action per line."""
        return indented_json(self.to_json()) + "\n"

    def save(self, path: str | Path, *, new: bool = False) -> Path:
        """Write the record atomically: a crash never leaves half a file, and a failure leaves
        no temporary file behind. With ``new``, an existing file is never replaced
        (:class:`FileExistsError`); the file appears whole or not at all. Other failures raise
        :class:`RecordError` naming the path and the reason."""
        target = Path(path)
        temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        try:
            if target.is_dir():
                raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(target))
            if not target.parent.is_dir():
                target.parent.mkdir(parents=True)
            temporary.write_text(self.dumps(), encoding="utf-8")
            if new:
                try:
                    os.link(temporary, target)  # fails if the target exists: atomic, exclusive
                finally:
                    temporary.unlink()
            else:
                temporary.replace(target)
        except FileExistsError:
            if new and target.exists():
                raise
            error = OSError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(target.parent))
            raise RecordError(f"cannot save the record to {target}: {error.strerror}") from None
        except OSError as error:
            with contextlib.suppress(OSError):
                temporary.unlink(missing_ok=True)
            reason = error.strerror or str(error)
            raise RecordError(f"cannot save the record to {target}: {reason}") from None
        return target

    def finish(self, state: GameState) -> None:
        """Copy the actions of ``state`` and, if it is over, its result into the record."""
        self.actions = [str(a) for a in state.history]
        self.result = state.outcome().to_json() if state.over else None

    @classmethod
    def loads(cls, text: str) -> tuple[GameRecord, list[int]]:
        """Read a record; returns it with the line number of each action.

        Raises :class:`RecordError` naming the first bad line or entry.
        """
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise RecordError(f"not valid JSON: {error.msg}", line=error.lineno) from None
        record = cls.from_json(data)
        return record, _action_lines(text, len(record.actions))

    @classmethod
    def load(cls, path: str | Path) -> tuple[GameRecord, list[int]]:
        """Read a record file (see :meth:`loads`)."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            raise RecordError(f"cannot read {path}: {error}") from None
        return cls.loads(text)

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """Check and read the JSON form."""
        if not isinstance(data, dict):
            raise RecordError("a record is a JSON object")
        if data.get("format") != FORMAT:
            raise RecordError(f'not a keltis record: "format" must be "{FORMAT}"')
        version = data.get("version")
        if not isinstance(version, int) or isinstance(version, bool) or version < 1:
            raise RecordError('"version" must be a whole number from 1')
        if version > VERSION:
            raise RecordError(
                f"record version {version} is newer than this keltis understands ({VERSION}): "
                "upgrade keltis"
            )
        game = data.get("game")
        if game not in GAME_NAMES:
            raise RecordError(f'"game" must be one of {", ".join(GAME_NAMES)}, not {game!r}')
        players_data = data.get("players")
        if not isinstance(players_data, list) or not 2 <= len(players_data) <= 4:
            raise RecordError('"players" must list 2-4 seats')
        players = []
        for i, p in enumerate(players_data):
            if not isinstance(p, dict) or not isinstance(p.get("name"), str):
                raise RecordError(f'player {i} must be an object with a "name"')
            players.append(PlayerInfo(p["name"], str(p.get("kind", "human"))))
        variant = data.get("variant") or {}
        if not isinstance(variant, dict):
            raise RecordError('"variant" must be an object')
        setup = data.get("setup")
        if not isinstance(setup, dict) or ("seed" in setup) == ("explicit" in setup):
            raise RecordError('"setup" must be {"seed": N, "dealt": {...}} or {"explicit": {...}}')
        seed = setup.get("seed")
        if "seed" in setup and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise RecordError('"setup": the seed must be a whole number')
        dealt = setup.get("dealt")
        if "seed" in setup and version >= 2 and not isinstance(dealt, dict):
            raise RecordError('"setup": a version-2 record keeps the dealt set-up under "dealt"')
        if isinstance(variant, dict):  # a default that changed since, stated as it was then
            variant = get_game(game).record_variant(variant, version)
        actions = data.get("actions", [])
        if not isinstance(actions, list):
            raise RecordError('"actions" must be a list of action notations')
        for i, a in enumerate(actions):
            if not isinstance(a, str):
                raise RecordError(f"action {i + 1} is not a text: {a!r}")
        layout = data.get("layout")
        if layout is not None and not isinstance(layout, dict):
            raise RecordError('"layout" must be an object')
        meta = data.get("meta") or {}
        result = data.get("result")
        rules = get_game(game)
        try:
            variant = rules.variant_json(variant)
            if isinstance(seed, int) and dealt is None:  # version 1: deal now, as replay did
                dealt = rules.deal(len(players), seed, **({"layout": layout} if layout else {}))
        except KeltisError as error:
            raise RecordError(f"bad set-up: {error}") from error
        return cls(
            game=game,
            players=players,
            seed=seed if "seed" in setup else None,
            setup=setup.get("explicit") if "explicit" in setup else None,
            dealt=dealt if "seed" in setup else None,
            variant=variant,
            layout=layout,
            actions=list(actions),
            result=result if isinstance(result, dict) else None,
            created=str(data.get("created", "")),
            meta=meta if isinstance(meta, dict) else {},
            version=VERSION,
        )


def _action_lines(text: str, count: int) -> list[int]:
    """1-based line of each entry of the ``actions`` array (best effort)."""
    found = _ACTIONS_KEY.search(text)
    if not found:
        return []
    lines: list[int] = []
    for match in _STRING.finditer(text, found.end()):
        if match.group() == "]" or len(lines) == count:
            break
        lines.append(text.count("\n", 0, match.start()) + 1)
    return lines


@contextmanager
def recorded_action(text: str, seat: int, number: int, line: int | None) -> Iterator[Action]:
    """Action ``number`` (1-based) of a record, ``text``, read for ``seat``; an unreadable one,
    or one the block finds illegal, raises :class:`RecordError` naming its number, text, seat
    and ``line`` (its line in the file, if known)."""
    try:
        yield parse_action(text)
    except NotationError as error:
        raise RecordError(f"{text!r} by seat {seat}: {error}", line=line, action=number) from error
    except KeltisError as error:
        raise RecordError(
            f"{text!r} by seat {seat} is illegal: {error}", line=line, action=number
        ) from error

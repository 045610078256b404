"""``keltis replay``: show a recorded game move by move, or its final state as JSON."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any, TextIO

from keltis.core.errors import RecordError
from keltis.core.protocol import GameState
from keltis.i18n import Translator
from keltis.match import Match
from keltis.record import GameRecord


def final_json(record: GameRecord, state: GameState) -> dict[str, Any]:
    """The replayed final state as JSON: ``scores`` (totals by seat), ``breakdown``,
    ``winners``, ``end_reason`` (``null`` if the record stops before the end) and ``state``
    (everything, hidden cards included)."""
    outcome = state.outcome()
    return {
        "game": record.game,
        "players": [p.to_json() for p in record.players],
        "actions": len(record.actions),
        "turns": state.turn,
        "over": state.over,
        "end_reason": state.end_reason.value if state.end_reason else None,
        "scores": list(outcome.scores),
        "breakdown": [dict(b) for b in outcome.breakdown],
        "winners": list(outcome.winners),
        "state": state.to_json(),
    }


def replay_file(
    path: str | Path, *, as_json: bool, out: TextIO, lang: str = "en", check_result: bool = True
) -> GameState:
    """Replay a record file to ``out``. Raises :class:`RecordError` on a bad record."""
    record, lines = GameRecord.load(path)
    if as_json:
        state = record.replay(lines=lines)
        _check_result(record, state, check_result)
        out.write(json.dumps(final_json(record, state), indent=2, ensure_ascii=False) + "\n")
        return state

    t = Translator(lang)
    names = [p.name for p in record.players]
    width = max(len(n) for n in names)
    setup = t("replay.seed", seed=record.seed) if record.seed is not None else t("replay.explicit")
    out.write(t(f"replay.title.{record.game}", count=len(names), setup=setup) + "\n")
    for seat, player in enumerate(record.players):
        out.write("  " + t("replay.seat", seat=seat, name=player.name, kind=player.kind) + "\n")
    match = Match(dataclasses.replace(record, actions=[], meta=dict(record.meta)))
    for i, text in enumerate(record.actions):
        step = match.replay_action(text, line=lines[i] if i < len(lines) else None)
        events = t.events(list(step.events))
        out.write(f"{i + 1:5d}. {names[step.seat]:<{width}}  {text:<12} {events}\n")
    state = match.final_state() if match.over else record.replay()
    _check_result(record, state, check_result)
    outcome = state.outcome()
    out.write("\n")
    if state.over and state.end_reason is not None:
        out.write(t(f"end.{state.end_reason.value}") + ".\n")
    else:
        out.write(t("replay.unfinished") + "\n")
    for seat, name in enumerate(names):
        parts = ", ".join(
            f"{t.get(f'score.{k}', k)} {v}" for k, v in outcome.breakdown[seat].items()
        )
        mark = "  " + t("replay.winner") if state.over and seat in outcome.winners else ""
        out.write(f"  {name:<{width}}  {outcome.scores[seat]:4d}  ({parts}){mark}\n")
    return state


def _check_result(record: GameRecord, state: GameState, check: bool) -> None:
    if not check or record.result is None:
        return
    replayed = state.outcome().to_json() if state.over else None
    if replayed != record.result:
        raise RecordError(
            "the result stored in the record does not match its replay "
            f"(stored {record.result}, replayed {replayed}): the record is damaged or was "
            "written under different rules"
        )

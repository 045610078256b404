"""``keltis replay``: step through a recorded game on a terminal, or print it move by move,
one position (``--at N``) or its final state as JSON.

On a terminal (stdin and stdout both) the replay is interactive (:mod:`keltis.tui.replay_view`);
otherwise, or with ``--text``, it prints every move in words, then the scores. A closed pipe
(``keltis replay FILE | head``) ends it quietly.
"""

from __future__ import annotations

import argparse
import dataclasses
import errno
import io
import json
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TextIO

from keltis.core.errors import RecordError
from keltis.core.protocol import GameState, Outcome
from keltis.i18n import Translator
from keltis.match import Match
from keltis.names import shown_name
from keltis.record import GameRecord
from keltis.tui.replay_view import EXIT_INTERRUPTED, Positions, ReplayViewer, render_position


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
    names = [shown_name(t, p.name) for p in record.players]  # a deleted account's, in words
    width = max(len(n) for n in names)
    setup = t("replay.seed", seed=record.seed) if record.seed is not None else t("replay.explicit")
    out.write(t(f"replay.title.{record.game}", count=len(names), setup=setup) + "\n")
    for seat, player in enumerate(record.players):
        out.write("  " + t("replay.seat", seat=seat, name=names[seat], kind=player.kind) + "\n")
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


def run_replay(
    args: argparse.Namespace,
    stdin: TextIO | None = None,
    out: TextIO | None = None,
    env: Mapping[str, str] | None = None,
) -> int:
    """Run ``keltis replay`` from parsed options; returns the exit status (0; 130 after
    Ctrl-C). Interactive when ``stdin`` and ``out`` are terminals and neither ``--json``,
    ``--text`` nor ``--at`` is given. ``stdin``, ``out`` and ``env`` default to the
    process's own. Raises :class:`RecordError` on a bad record and ``ValueError`` on a
    move number the record lacks."""
    from keltis.i18n import detect_language  # here: --json and --text need no catalogs

    stdin = sys.stdin if stdin is None else stdin
    out = sys.stdout if out is None else out
    env = os.environ if env is None else env
    lang = detect_language(args.lang, env)
    check = not args.no_check
    try:
        if args.json or args.text:
            replay_file(args.file, as_json=args.json, out=out, lang=lang, check_result=check)
            status = 0
        else:
            at = args.at
            interactive = at is None and _isatty(stdin) and _isatty(out)
            if at is None and not interactive:
                replay_file(args.file, as_json=False, out=out, lang=lang, check_result=check)
                status = 0
            else:
                status = _show(args.file, at, lang, check, stdin, out, env)
        out.flush()
    except BrokenPipeError:
        quiet_pipe(out)
        return 0
    except KeyboardInterrupt:  # Ctrl-C during a long listing
        return EXIT_INTERRUPTED
    return status


def _show(
    path: str,
    at: int | None,
    lang: str,
    check: bool,
    stdin: TextIO,
    out: TextIO,
    env: Mapping[str, str],
) -> int:
    """The positions of a record: one (``at``) printed, or all stepped through."""
    # here: only the terminal's positions need rich and the terminal game
    from keltis.tui.app import make_screen
    from keltis.tui.style import make_output

    record, lines = GameRecord.load(path)
    t = Translator(lang)
    positions = Positions.build(record, lines)
    _check_outcome(record, positions.outcome, check)
    if at is not None and not 0 <= at <= positions.last:
        raise ValueError(t("replay.no_move", number=at, total=positions.last))
    encoding = (getattr(out, "encoding", None) or "utf-8").lower().replace("-", "")
    if not encoding.startswith("utf") and isinstance(out, io.TextIOWrapper):
        out.reconfigure(errors="replace")  # a letter the terminal cannot show becomes "?"
    output = make_output(out, env)
    # Rich would exit with status 1 on a closed pipe; run_replay ends quietly instead
    output.console.on_broken_pipe = _broken_pipe  # type: ignore[method-assign]
    screen = make_screen(record.game, t, output, [shown_name(t, p.name) for p in record.players])
    if at is not None:
        output.console.print(render_position(positions, at, screen, t))
        return 0
    return ReplayViewer(positions, screen, output, t, stdin).run()


def _isatty(stream: object) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(callable(isatty) and isatty())
    except ValueError:  # a closed file
        return False


def _broken_pipe() -> None:
    raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))


def quiet_pipe(out: TextIO) -> None:
    """The reader of ``out`` has gone (``| head``): send what is still buffered, and what
    the interpreter flushes at exit, to the null device instead of a traceback."""
    try:
        fd = out.fileno()
    except (AttributeError, OSError, ValueError):
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


def _check_result(record: GameRecord, state: GameState, check: bool) -> None:
    _check_outcome(record, state.outcome() if state.over else None, check)


def _check_outcome(record: GameRecord, outcome: Outcome | None, check: bool) -> None:
    if not check or record.result is None:
        return
    replayed = outcome.to_json() if outcome is not None else None
    if replayed != record.result:
        raise RecordError(
            "the result stored in the record does not match its replay "
            f"(stored {record.result}, replayed {replayed}): the record is damaged or was "
            "written under different rules"
        )

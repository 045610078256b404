"""Driving ``keltis play`` with scripted input and captured output."""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from keltis.cli import build_parser
from keltis.tui.app import run_play

ANSI = re.compile(r"\x1b[\[\]()]")
#: Enough "1" lines to finish any game against bots by always taking the first option.
MANY = 4000


class TtyIO(io.StringIO):
    """Captured output that claims to be a terminal."""

    def isatty(self) -> bool:
        return True


class ScriptedInput(io.StringIO):
    """Input lines from a script; then an exception (``EOFError`` is the end of input)."""

    def __init__(self, lines: Iterable[str], then: type[BaseException] | None = None) -> None:
        super().__init__()
        self.lines = list(lines)
        self.then = then
        self.read_count = 0

    def readline(self, size: int | None = -1) -> str:
        if self.read_count < len(self.lines):
            line = self.lines[self.read_count]
            self.read_count += 1
            return line + "\n"
        if self.then is not None:
            raise self.then
        return ""


class AnswerInput(io.StringIO):
    """Input that answers from what was printed so far: ``answer(output) -> line``."""

    def __init__(self, out: io.StringIO, answer: Callable[[str], str], limit: int = 5000):
        super().__init__()
        self.out = out
        self.answer = answer
        self.limit = limit
        self.read_count = 0

    def readline(self, size: int | None = -1) -> str:
        self.read_count += 1
        if self.read_count > self.limit:
            return ""
        return self.answer(self.out.getvalue()) + "\n"


@dataclass
class Played:
    """The result of one scripted run."""

    status: int
    output: str
    record: Path


def play(
    argv: list[str],
    lines: Iterable[str] = (),
    *,
    tmp: Path,
    env: Mapping[str, str] | None = None,
    out: io.StringIO | None = None,
    stdin: io.StringIO | None = None,
    then: type[BaseException] | None = None,
    name: str = "game.json",
) -> Played:
    """Run ``keltis play ARGV`` with scripted input; the record goes to ``tmp/name`` unless
    ``argv`` says otherwise."""
    record = tmp / name
    if "--save" not in argv and "--resume" not in argv:
        argv = [*argv, "--save", str(record)]
    args = build_parser().parse_args(["play", *argv])
    out = io.StringIO() if out is None else out
    stdin = ScriptedInput(lines, then) if stdin is None else stdin
    status = run_play(args, stdin=stdin, out=out, env=dict(env or {}))
    output = out.getvalue() if isinstance(out, io.StringIO) else ""
    return Played(status, output, record)


def screens(output: str, separator: str = "═" * 20) -> list[str]:
    """The output cut into screens (plain output separates them with a rule)."""
    return [part for part in output.split(separator) if part.strip()]

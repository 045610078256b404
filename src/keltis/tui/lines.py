"""What the terminal game and the replay viewer share about the terminal: reading a line from
the player, and the rule between two screens in plain output."""

from __future__ import annotations

import contextlib
import sys
from typing import TextIO

from rich.console import Console
from rich.text import Text

from keltis.tui.style import DIM, EMPHASIS, Output


def is_tty(stream: TextIO) -> bool:
    """Whether ``stream`` is a terminal (``False`` for anything that cannot say)."""
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def read_line(console: Console, stdin: TextIO, prompt: str) -> str:
    """One line of input after ``prompt``, without its line end; ``EOFError`` when the input
    ends. On the process's own terminal, with line editing (readline); from any other input,
    the line is echoed so that a transcript shows it."""
    console.print(Text(prompt, style=EMPHASIS), end="")
    console.file.flush()
    if stdin is sys.stdin and is_tty(stdin):
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401  (line editing for input())
        return input()
    line = stdin.readline()
    if not line:
        raise EOFError
    line = line.rstrip("\r\n")
    console.print(Text(line, style=DIM))
    return line


def screen_rule(output: Output) -> None:
    """The line between two screens in plain output (where screens are not cleared)."""
    output.console.rule(characters="=" if output.glyphs.sep == "|" else "═")

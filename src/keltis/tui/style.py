"""Console set-up, colour styles and symbols of the terminal game.

Colour is never the only clue: every card keeps its colour letter (``G7``), every figure its
seat number, every tile its symbol. Output is plain text — no ANSI escape at all — when it
does not go to a terminal, when ``NO_COLOR`` is set (https://no-color.org) or when ``TERM`` is
``dumb``; symbols fall back to ASCII when the output encoding cannot show them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, TextIO

from rich.console import Console, ConsoleDimensions
from rich.text import Text

from keltis.core.card_codes import CARD_COLOUR, CARD_TEXT

#: Rich styles of the five colours (green, yellow, red, pink, blue), then point cards.
COLOUR_STYLES: Final = (
    "bold green",
    "bold yellow",
    "bold red",
    "bold magenta",
    "bold bright_blue",
)
POINT_STYLE: Final = "bold cyan"
DIM: Final = "dim"
EMPHASIS: Final = "bold"
ERROR_STYLE: Final = "bold red"
#: The widest anything is drawn, whatever the terminal's width; output that is no terminal
#: is PLAIN_WIDTH × PLAIN_HEIGHT unless COLUMNS and LINES say otherwise.
MAX_WIDTH: Final = 100
PLAIN_WIDTH: Final = 80
PLAIN_HEIGHT: Final = 24


@dataclass(frozen=True)
class Glyphs:
    """The symbols a screen draws with (Unicode, or ASCII for limited encodings)."""

    clover: str
    wish: str
    up: str
    down: str
    open: str
    turn: str
    sep: str
    dash: str
    closed: str
    to: str


UNICODE: Final = Glyphs(
    clover="♣",
    wish="◆",
    up="↑",
    down="↓",
    open="↕",
    turn="▶",
    sep="│",
    dash="–",
    closed="■",
    to="→",
)
ASCII: Final = Glyphs(
    clover="%",
    wish="@",
    up="^",
    down="v",
    open="~",
    turn=">",
    sep="|",
    dash="-",
    closed="#",
    to="->",
)


@dataclass(frozen=True)
class Output:
    """The console of a game and how it was chosen."""

    console: Console
    plain: bool
    """No escape sequences at all (not a terminal, ``NO_COLOR`` or ``TERM=dumb``)."""
    glyphs: Glyphs


def _isatty(out: TextIO) -> bool:
    isatty = getattr(out, "isatty", None)
    try:
        return bool(callable(isatty) and isatty())
    except ValueError:  # a closed file
        return False


def is_plain(out: TextIO, env: Mapping[str, str]) -> bool:
    """Whether output to ``out`` must be plain text (see the module docstring)."""
    if env.get("NO_COLOR", "") != "":
        return True
    if env.get("TERM", "").lower() in ("dumb", "unknown"):
        return True
    return not _isatty(out)


class CappedConsole(Console):
    """A Rich console no wider than :data:`MAX_WIDTH`. Without a fixed size it asks the
    terminal for its size whenever it draws, so a resized terminal is drawn at its new size."""

    @property
    def size(self) -> ConsoleDimensions:
        """The terminal's size now, the width at most :data:`MAX_WIDTH`."""
        width, height = super().size
        return ConsoleDimensions(min(width, MAX_WIDTH), height)

    @size.setter
    def size(self, new_size: tuple[int, int]) -> None:
        self._width, self._height = new_size


def _number(env: Mapping[str, str], name: str, least: int) -> int | None:
    value = env.get(name, "")
    return int(value) if value.isdigit() and int(value) >= least else None


def make_output(
    out: TextIO, env: Mapping[str, str], *, width: int | None = None, height: int | None = None
) -> Output:
    """A Rich console writing to ``out``: coloured on a terminal, plain text otherwise.

    On a terminal the size is read afresh for each screen (``COLUMNS`` and ``LINES`` are
    ignored there: they go stale when the terminal is resized); other output is
    ``COLUMNS`` × ``LINES`` (default 80 × 24). ``width`` and ``height`` fix the size."""
    plain = is_plain(out, env)
    encoding = (getattr(out, "encoding", None) or "utf-8").lower().replace("-", "")
    glyphs = UNICODE if encoding.startswith("utf") else ASCII
    environ = dict(env)
    if _isatty(out):
        environ.pop("COLUMNS", None)
        environ.pop("LINES", None)
    else:
        width = width or _number(env, "COLUMNS", 40) or PLAIN_WIDTH
        height = height or _number(env, "LINES", 10) or PLAIN_HEIGHT
    console = CappedConsole(
        file=out,
        force_terminal=not plain,
        color_system=None if plain else "auto",
        no_color=plain,
        width=width,
        height=height,
        highlight=False,
        markup=False,
        emoji=False,
        soft_wrap=False,
        _environ=environ,
    )
    return Output(console, plain, glyphs)


def colour_style(colour: int) -> str:
    """The style of colour ``colour`` (0-4), or of point cards (-1)."""
    return COLOUR_STYLES[colour] if colour >= 0 else POINT_STYLE


def card_text(card: int) -> Text:
    """A card in notation (``G7``, ``RX``, ``*3``), styled in its colour."""
    return Text(CARD_TEXT[card], style=colour_style(CARD_COLOUR[card]))


def cards_text(cards: tuple[int, ...] | list[int], sep: str = " ") -> Text:
    """Several cards, styled, separated by ``sep``."""
    return Text(sep).join(card_text(c) for c in cards)

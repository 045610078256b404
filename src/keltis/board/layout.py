"""The board: which stones hold path tiles (B-4), and the tiles themselves (B-3).

The board layout is data. The default is the project's documented reconstruction (RULES.md
B-4); another layout can be loaded from a JSON file::

    {"name": "my board", "dark": {"G": [2, 4, 6, 8], "Y": [1, 3, 5, 7], ...}}

Any 20 dark stones on rows 1-8 are allowed; every end stone (row 9) also holds a tile.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from keltis.board.tables import LAST_ROW
from keltis.core.card_codes import COLOUR_LETTERS, COLOUR_NAMES, NUM_COLOURS
from keltis.core.errors import SetupError

NO_TILE: Final = 0
"""No tile on the stone (or its wish stone was taken)."""
CLOVER: Final = 4
WISH: Final = 5
TILE_LETTERS: Final = ".123CW"
"""Text of a tile code: ``.`` none, ``1``-``3`` point tile, ``C`` clover, ``W`` wish stone."""
TILE_NAMES: Final = ("none", "1 point", "2 points", "3 points", "clover", "wish stone")

#: The 25 path tiles (B-3): 9 wish stones, 9 clovers, point tiles 1,1,2,2,2,3,3.
ALL_TILES: Final = (WISH,) * 9 + (CLOVER,) * 9 + (1, 1, 2, 2, 2, 3, 3)
DARK_STONES: Final = 20


@dataclass(frozen=True)
class Layout:
    """Dark stones (rows 1-8) per path; with the five end stones they are the 25 tile places."""

    name: str
    dark: tuple[tuple[int, ...], ...]

    def __reduce__(self) -> tuple[object, tuple[str, tuple[tuple[int, ...], ...]]]:
        """Pickled by its fields (a compiled frozen dataclass cannot be restored one by one)."""
        return (Layout, (self.name, self.dark))

    def __post_init__(self) -> None:
        if len(self.dark) != NUM_COLOURS:
            raise SetupError(f"layout {self.name!r}: needs dark stones for all 5 paths")
        total = 0
        for colour, rows in enumerate(self.dark):
            if len(set(rows)) != len(rows):
                raise SetupError(
                    f"layout {self.name!r}: {COLOUR_NAMES[colour]} path lists a row twice"
                )
            for row in rows:
                if not 1 <= row <= 8:
                    raise SetupError(
                        f"layout {self.name!r}: {COLOUR_NAMES[colour]} row {row} is not 1-8 "
                        "(B-4: dark stones lie on rows 1-8; row 9 is the end stone)"
                    )
            total += len(rows)
        if total != DARK_STONES:
            raise SetupError(
                f"layout {self.name!r}: has {total} dark stones, B-4 needs exactly {DARK_STONES}"
            )

    def places(self) -> list[tuple[int, int]]:
        """The 25 tile places as (path colour, row), ordered by path then row."""
        return [
            (colour, row)
            for colour in range(NUM_COLOURS)
            for row in sorted((*self.dark[colour], LAST_ROW))
        ]

    def deal_tiles(self, rng: random.Random) -> list[list[int]]:
        """The 25 tiles shuffled with ``rng`` onto this layout's places (B-5):
        ``tiles[colour][row]`` for rows 0-9, ``NO_TILE`` where none lies."""
        shuffled = list(ALL_TILES)
        rng.shuffle(shuffled)
        tiles = [[NO_TILE] * (LAST_ROW + 1) for _ in range(NUM_COLOURS)]
        for (colour, row), tile in zip(self.places(), shuffled, strict=True):
            tiles[colour][row] = tile
        return tiles

    def to_json(self) -> dict[str, Any]:
        """``{"name": …, "dark": {"G": [rows…], …}}``."""
        return {
            "name": self.name,
            "dark": {COLOUR_LETTERS[c]: sorted(self.dark[c]) for c in range(NUM_COLOURS)},
        }

    @classmethod
    def from_json(cls, data: Any) -> Layout:
        """Read a layout from its JSON form (see the module docstring)."""
        if not isinstance(data, dict) or not isinstance(data.get("dark"), dict):
            raise SetupError('a layout is an object with "dark": {"G": [rows], ...}')
        dark: list[tuple[int, ...]] = []
        for letter in COLOUR_LETTERS:
            rows = data["dark"].get(letter, data["dark"].get(letter.lower()))
            if not isinstance(rows, list) or not all(
                isinstance(r, int) and not isinstance(r, bool) for r in rows
            ):
                raise SetupError(f"layout: dark stones of path {letter} must be a list of rows")
            dark.append(tuple(sorted(rows)))
        name = data.get("name", "custom")
        return cls(str(name), tuple(dark))

    @classmethod
    def load(cls, path: str | Path) -> Layout:
        """Read a layout from a JSON file."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as error:
            raise SetupError(f"cannot read layout {path}: {error}") from error
        return cls.from_json(data)


#: The default reconstruction (RULES.md B-4): 4 dark stones per path plus every end stone.
DEFAULT_LAYOUT: Final = Layout(
    "default",
    ((2, 4, 6, 8), (1, 3, 5, 7), (2, 3, 5, 8), (1, 4, 6, 7), (3, 4, 6, 8)),
)


def layout_from_json(data: Any) -> Layout:
    """A layout from a record's ``layout`` entry: ``"default"``, ``None`` or an object."""
    if data is None or data == "default" or data == {"name": "default"}:
        return DEFAULT_LAYOUT
    return Layout.from_json(data)

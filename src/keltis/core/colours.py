"""The five colours of both games (B-1, C-1) as plain constants: their number, their letters
(notation and screens) and their English names. ``keltis.core.card_codes`` builds the cards and
the :class:`~keltis.core.card_codes.Colour` enum on them; this module imports nothing, so the
refusals' English can name colours without importing the cards."""

from __future__ import annotations

from typing import Final

NUM_COLOURS: Final = 5
COLOUR_LETTERS: Final = "GYRPB"
COLOUR_NAMES: Final = ("green", "yellow", "red", "pink", "blue")

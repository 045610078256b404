"""Number types for command-line options: the value, or a clear refusal."""

from __future__ import annotations

import argparse
from collections.abc import Callable


def number(
    convert: Callable[[str], float], minimum: float, *, above: bool = False
) -> Callable[[str], float]:
    """An argparse type: ``convert(text)`` that is at least ``minimum`` (more than it, with
    ``above``); ``convert`` is ``int`` (a whole number) or ``float``."""
    kind = "a whole number" if convert is int else "a number"

    def parse(text: str) -> float:
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {kind}") from None
        if value < minimum or (above and value == minimum):
            limit = "more than" if above else "at least"
            raise argparse.ArgumentTypeError(f"must be {limit} {minimum:g}")
        return value

    return parse

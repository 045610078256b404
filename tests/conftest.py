"""Shared test options and fixtures.

``pytest --update-golden`` rewrites golden files (``tests/data/**``) instead of comparing with
them; review the diff before committing it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).parent / "data"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="rewrite golden files under tests/data instead of comparing with them",
    )


@pytest.fixture
def golden(request: pytest.FixtureRequest) -> Callable[[str, Any], None]:
    """``golden("board/playthrough-3p-seed1.json", data)`` compares ``data`` (JSON-ready) with
    the stored file, or stores it under ``--update-golden``. Missing files fail the test."""
    update = bool(request.config.getoption("--update-golden"))

    def check(relative: str, data: Any) -> None:
        path = DATA / relative
        text = json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True) + "\n"
        if update:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            return
        if not path.exists():
            pytest.fail(f"golden file {path} is missing: run pytest --update-golden and review it")
        expected = path.read_text(encoding="utf-8")
        if expected != text:
            diff_at = next(
                (i for i, (a, b) in enumerate(zip(expected, text, strict=False)) if a != b),
                min(len(expected), len(text)),
            )
            line = expected.count("\n", 0, diff_at) + 1
            pytest.fail(
                f"{relative} differs from the stored golden file from line {line}; if the change "
                "is intended, run pytest --update-golden and review the diff"
            )

    return check

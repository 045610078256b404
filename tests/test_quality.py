"""ruff (lint and format) and mypy --strict are part of the test suite."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent))
    if found is None:
        pytest.fail(f"{name} is not installed in the test environment (pip install -e '.[dev]')")
    return found


def _run(*args: str) -> None:
    result = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, check=False)
    assert result.returncode == 0, f"{' '.join(args)} failed:\n{result.stdout}\n{result.stderr}"


def test_ruff_lint() -> None:
    _run(_tool("ruff"), "check", "src", "tests", "benchmarks", "examples", "tools")


def test_ruff_format() -> None:
    _run(_tool("ruff"), "format", "--check", "src", "tests", "benchmarks", "examples", "tools")


def test_mypy_strict() -> None:
    _run(_tool("mypy"))

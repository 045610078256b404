"""Shared test options, markers and fixtures.

``pytest --update-golden`` rewrites golden files (``tests/data/**``) instead of comparing with
them; review the diff before committing it.

The lanes (``make check``, ``make test``) choose tests by marker (``pyproject.toml`` declares
them; docs/testing.md). Here ``postgres`` is set on every test of the PostgreSQL backend (the
``postgresql`` parameter of ``tests/server``'s database fixtures), and ``engine_free`` tests
are left out of the ``KELTIS_PURE_PYTHON=1`` pass, where they would only repeat the first
pass's result. pytest's header names the engine a run uses.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).parent / "data"
#: Where each test's servers' logs stood when it began (``tests/server/harness.Server``).
_LOG_START = pytest.StashKey[dict[int, int]]()
#: The most lines of a server's log a failed test shows.
LOG_LINES = 200


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="rewrite golden files under tests/data instead of comparing with them",
    )


#: The database fixtures of ``tests/server/conftest.py`` and their PostgreSQL parameter.
DATABASE_FIXTURES = ("database", "shared_database")
POSTGRES_PARAM = "postgresql"


def _pure_pass() -> bool:
    """Whether ``KELTIS_PURE_PYTHON`` forces pure Python on this run (``make test``'s second
    pass): the engine this environment decides on is the one the switch alone gives."""
    from keltis import _native

    return _native.decide(os.environ) == _native.decide({_native.PURE_ENV: "1"})


def pytest_report_header() -> str:
    """``keltis engine: compiled (mypyc)``, or ``pure Python (why)``."""
    from keltis import _native

    return f"keltis engine: {_native.decide(os.environ)}"


# tryfirst: before ``-m`` deselects by the markers added here.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        if any(params.get(name) == POSTGRES_PARAM for name in DATABASE_FIXTURES):
            item.add_marker(pytest.mark.postgres)
    if _pure_pass():
        again = [item for item in items if item.get_closest_marker("engine_free")]
        if again:
            config.hook.pytest_deselected(items=again)
            items[:] = [item for item in items if not item.get_closest_marker("engine_free")]


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


def _servers(item: pytest.Item) -> list[Any]:
    """The running servers (``server.harness.Server``) among a test's fixtures."""
    values = getattr(item, "funcargs", {}).values()
    return [v for v in values if type(v).__name__ == "Server" and isinstance(v.log, list)]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    item.stash[_LOG_START] = {id(server): len(server.log) for server in _servers(item)}
    return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A failed test that used a server shows what the server logged while it ran (a bot
    that failed, a refused request): the server runs in a process of its own."""
    report = yield
    if report.when == "call" and report.failed:
        starts = item.stash.get(_LOG_START, {})
        for server in _servers(item):
            lines = server.log[starts.get(id(server), 0) :]
            shown = "".join(lines[-LOG_LINES:]) or "(nothing)\n"
            report.sections.append((f"server log ({server.base})", shown))
    return report

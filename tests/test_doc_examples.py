"""The public API shows itself in runnable examples: the docstring examples of the game, the
state, the record, the bot and the match, and every ``python`` block of README.md and docs/,
run as written (a page may leave a block out, or mark it slow, in an HTML comment before it,
giving the reason; the skip says it).

Docstrings are read from the source files (a module compiled with mypyc keeps no doctest
that ``doctest`` could find), so the examples run under either engine.
"""

from __future__ import annotations

import ast
import contextlib
import doctest
import importlib
import io
import re
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: The modules whose docstrings show the public API.
MODULES = (
    "keltis",
    "keltis.games",
    "keltis.core.gamestate",
    "keltis.record",
    "keltis.bots.base",
    "keltis.match",
)


def _docstrings(module: str) -> list[tuple[str, str, int]]:
    """(name, docstring, line) of the module and every class and function in its source."""
    spec = importlib.util.find_spec(module)
    assert spec is not None
    assert spec.origin is not None
    origin = Path(spec.origin)  # a compiled module's is its extension: read the .py beside it
    source = (
        origin
        if origin.name == "__init__.py"
        else origin.parent / f"{module.rsplit('.', 1)[-1]}.py"
    )
    assert source.exists(), f"no source for {module}"
    tree = ast.parse(source.read_text())
    out = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            text = ast.get_docstring(node, clean=False)
            if text and ">>>" in text:
                name = getattr(node, "name", module)
                line = node.body[0].lineno if node.body else 0
                out.append((f"{module}.{name}" if name != module else module, text, line))
    return out


@pytest.mark.parametrize("module", MODULES)
def test_docstring_examples_run(module: str) -> None:
    examples = _docstrings(module)
    assert examples, f"{module} shows no example"
    namespace = vars(importlib.import_module(module))
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    report = io.StringIO()
    for name, text, line in examples:
        test = parser.get_doctest(text, dict(namespace), name, module, line)
        runner.run(test, out=report.write)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, report.getvalue()
    assert result.attempted >= 4


def test_the_readme_python_example_runs() -> None:
    readme = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", readme, re.S)
    assert blocks, "README.md has no Python example"
    for block in blocks:
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(block, "README.md", "exec"), {})
        assert printed.getvalue().strip(), "the example prints the outcome"


# -- every Python block of the documentation ------------------------------------------------

#: The pages whose ``python`` blocks run: the README and everything under docs/.
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
#: A fenced ``python`` block, indented or not (a block inside a list item is indented).
PYTHON_BLOCK = re.compile(
    r"^(?P<indent>[ \t]*)```python[ \t]*\n(?P<body>.*?)^(?P=indent)```[ \t]*$",
    re.MULTILINE | re.DOTALL,
)
#: The page's own word on a block, in an HTML comment on the line before it (readers of the
#: source see it, the rendered page does not): ``<!-- not run: why -->`` leaves the block out
#: and says why in the skip reason; ``<!-- slow: why -->`` runs it with the ``slow`` marker.
DIRECTIVE = re.compile(r"<!--\s*(?P<kind>not run|slow):\s*(?P<why>\S.*?)\s*-->")
#: A block whose first line is ``# name.py`` is that module: every block of the page runs in
#: a folder holding it (docs/arena.md's ``mybots.py``), as the reader's current directory.
MODULE_HEADER = re.compile(r"#\s*(?P<name>[A-Za-z_]\w*\.py)\s*$")
#: ``No module named 'x'``: an optional extra that is not installed, if x is one of theirs.
MISSING_MODULE = re.compile(r"ModuleNotFoundError: No module named '(?P<name>[\w.]+)'")
#: The modules of the optional extras (pyproject.toml) that the pages' blocks import.
OPTIONAL = {"numpy", "numba", "gymnasium", "pettingzoo", "pyspiel", "open_spiel", "ray",
            "torch", "matplotlib", "openskill", "stable_baselines3", "sb3_contrib"}  # fmt: skip


@dataclass(frozen=True)
class Block:
    page: str  # relative to the repository
    line: int  # the line of its opening fence
    code: str
    directive: tuple[str, str] | None  # ("not run" | "slow", why)

    @property
    def module(self) -> str | None:
        first = self.code.splitlines()[0] if self.code.strip() else ""
        found = MODULE_HEADER.fullmatch(first.strip())
        return found["name"] if found else None


def _blocks(page: Path) -> list[Block]:
    text = page.read_text(encoding="utf-8")
    out = []
    for found in PYTHON_BLOCK.finditer(text):
        before = text[: found.start()].rstrip().rsplit("\n", 1)[-1].strip()
        directive = DIRECTIVE.fullmatch(before)
        out.append(
            Block(
                str(page.relative_to(ROOT)),
                text.count("\n", 0, found.start()) + 1,
                textwrap.dedent(found["body"]),
                (directive["kind"], directive["why"]) if directive else None,
            )
        )
    return out


BLOCKS = [block for page in PAGES for block in _blocks(page)]


def _param(block: Block) -> Any:
    marks: list[Any] = []
    if block.directive and block.directive[0] == "not run":
        marks.append(pytest.mark.skip(reason=f"not run, says the page: {block.directive[1]}"))
    elif block.directive:
        marks += [pytest.mark.slow, pytest.mark.timeout(900)]
    return pytest.param(block, marks=marks, id=f"{block.page}:{block.line}")


def test_the_pages_show_python_and_few_blocks_are_left_out() -> None:
    assert len(BLOCKS) >= 15
    left_out = [b for b in BLOCKS if b.directive and b.directive[0] == "not run"]
    assert len(left_out) <= 3, [f"{b.page}:{b.line}" for b in left_out]


@pytest.mark.parametrize("block", [_param(b) for b in BLOCKS])
def test_every_python_block_of_the_docs_runs(block: Block, tmp_path: Path) -> None:
    """Each block runs as written, on its own, as a script in an empty folder (with the
    page's ``# name.py`` modules beside it), in a fresh Python: what a reader who pastes it
    into a file gets. A block that needs an optional extra which is not installed is
    skipped, naming it."""
    for other in BLOCKS:
        if other.page == block.page and other.module:
            (tmp_path / other.module).write_text(other.code, encoding="utf-8")
    script = tmp_path / "example.py"
    script.write_text(block.code, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=840 if block.directive else 240,
        check=False,
    )
    if done.returncode != 0:
        missing = MISSING_MODULE.search(done.stderr)
        if missing and missing["name"].split(".")[0] in OPTIONAL:
            pytest.skip(f"{block.page}:{block.line} needs {missing['name']}, not installed")
    assert done.returncode == 0, (
        f"{block.page}:{block.line} fails (exit status {done.returncode}):\n"
        f"{block.code}\n--- stderr ---\n{done.stderr[-4000:]}"
    )

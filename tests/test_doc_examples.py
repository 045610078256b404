"""The public API shows itself in runnable examples: the docstring examples of the game, the
state, the record, the bot and the match, and the README's Python example, run as written.

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
from pathlib import Path

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

"""Measures of the code's shape, from the import graph and the syntax trees of ``src/keltis``.

Run it (``python tools/architecture.py [SRC]``, SRC default ``src``) for the numbers
docs/architecture.md quotes, as JSON; ``tests/test_architecture.py`` holds the code to them:

* **circles**: groups of modules that import each other, directly or round about (imports
  under ``if TYPE_CHECKING:`` do not count: they never run);
* **upward imports**: a module importing one of a higher layer (:data:`LAYERS`);
* **imports inside functions**, each with the comment that says why;
* **places naming a game** outside its package and the registry: a ``"board"``/``"cards"``
  text used as a game's name, or an import of a game's package;
* **the longest functions**.
"""

from __future__ import annotations

import ast
import json
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

SRC = Path(sys.argv[1] if __name__ == "__main__" and len(sys.argv) > 1 else "src").resolve()
if not (SRC / "keltis").is_dir():
    SRC = Path(__file__).resolve().parent.parent / "src"
GAMES = ("board", "cards")

#: Layers, lowest first: a module may import its own layer's modules and those below. The
#: first pattern a module's name matches gives its layer. A game's package spans several
#: layers: its rules at the bottom, its heavy parts beside the subsystem that uses them.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("ground", (r"keltis\._native", r"keltis\.core(\..*)?")),
    (
        "rules",
        tuple(
            rf"keltis\.{g}(\.(actions|tables|layout|state|view|labels|preview|events|setup|sample|rewind|policy|lesson))?"
            for g in GAMES
        ),
    ),
    ("registry", (r"keltis\.games",)),
    ("bots", (r"keltis\.bots(\..*)?",)),
    (
        "match",
        (
            r"keltis\.(record|match|wire|describe|messages|catalogs|i18n|argtypes|names|review)",
            r"keltis\.schemas",
        ),
    ),
    ("env", (r"keltis\.env(\..*)?", *(rf"keltis\.{g}\.encoding" for g in GAMES))),
    ("fast", (r"keltis\.fast(\..*)?", *(rf"keltis\.{g}\.kernel" for g in GAMES))),
    ("jax", (r"keltis\.jax(\..*)?", *(rf"keltis\.{g}\.jax" for g in GAMES))),
    ("cluster", (r"keltis\.cluster",)),
    ("learn", (r"keltis\.learn(\..*)?",)),
    ("arena", (r"keltis\.arena(\..*)?", r"keltis\.bench")),
    (
        "terminal",
        (
            r"keltis\.tui(\..*)?",
            r"keltis\.replay(_view)?",  # (replay_view: before it moved into tui)
            *(rf"keltis\.{g}\.screen" for g in GAMES),
        ),
    ),
    ("server", (r"keltis\.server(\..*)?",)),
    ("front door", (r"keltis", r"keltis\.cli", r"keltis\.__main__")),
)


def layer_of(module: str) -> int:
    """The index in :data:`LAYERS` of ``module``'s layer."""
    for index, (_, patterns) in enumerate(LAYERS):
        if any(re.fullmatch(p, module) for p in patterns):
            return index
    raise LookupError(f"{module} is in no layer: add it to tools/architecture.py's LAYERS")


@dataclass(frozen=True)
class Import:
    """One import of a keltis module by another."""

    source: str
    target: str
    line: int
    in_function: bool
    reason: str
    """The comment on the import's line or the line above it (imports inside functions)."""


def modules() -> dict[str, Path]:
    """Every module of the package by dotted name."""
    out: dict[str, Path] = {}
    for path in sorted((SRC / "keltis").rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        if "migrations" in parts:
            continue  # Alembic's scripts: loaded by Alembic, not imported
        out[".".join(parts)] = path
    return out


def _resolve(name: str, known: dict[str, Path]) -> str | None:
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def _is_type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _reason(lines: list[str], at: int) -> str:
    """The comment on line ``at`` (0-based), or above the block of imports it belongs to."""
    if "#" in lines[at]:
        return lines[at].split("#", 1)[1].strip()
    at -= 1
    while at >= 0 and (
        not lines[at].strip() or lines[at].strip().startswith(("from ", "import ", "try:"))
    ):
        if "#" in lines[at]:
            return lines[at].split("#", 1)[1].strip()
        at -= 1  # the comment may stand above a block of imports
    if at >= 0 and "#" in lines[at]:  # a comment line, or one ending ``try:  # why``
        return lines[at].split("#", 1)[1].strip()
    return ""


def _visit(
    node: ast.AST, in_function: bool, module: str, package: str, lines: list[str], known: dict
) -> Iterator[Import]:
    for child in ast.iter_child_nodes(node):
        if _is_type_checking(child):
            continue
        inner = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
        if isinstance(child, ast.Import):
            names = [alias.name for alias in child.names]
        elif isinstance(child, ast.ImportFrom):
            base = child.module or ""
            if child.level:
                up = package.split(".")[: len(package.split(".")) - child.level + 1]
                base = ".".join([*up, base] if base else up)
            # ``from a import b``: module a.b when there is one, else module a
            names = [
                f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in child.names
            ]
        else:
            yield from _visit(child, inner, module, package, lines, known)
            continue
        line = child.lineno
        comment = _reason(lines, line - 1) if inner else ""
        for name in dict.fromkeys(names):
            target = _resolve(name, known)
            if target and target != module and target.startswith("keltis"):
                yield Import(module, target, line, in_function, comment)


def imports(known: dict[str, Path] | None = None) -> list[Import]:
    """Every import between keltis modules that runs (not those for type checking only)."""
    known = known or modules()
    found: list[Import] = []
    for module, path in known.items():
        text = path.read_text()
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        found.extend(_visit(ast.parse(text), False, module, package, text.splitlines(), known))
    return found


def circles(edges: list[Import]) -> list[list[str]]:
    """The groups of modules that import each other round about (strongly connected
    components of more than one module, or a module importing itself)."""
    graph: dict[str, set[str]] = {}
    for e in edges:
        graph.setdefault(e.source, set()).add(e.target)
        graph.setdefault(e.target, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def connect(v: str) -> None:  # Tarjan's algorithm
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * len(graph)))
    for v in sorted(graph):
        if v not in index:
            connect(v)
    return sorted(groups)


def upward(edges: list[Import]) -> list[Import]:
    """Imports of a module from a higher layer than the importer's."""
    return [e for e in edges if layer_of(e.target) > layer_of(e.source)]


def _in_game(module: str) -> bool:
    return module == "keltis.games" or any(
        module == f"keltis.{g}" or module.startswith(f"keltis.{g}.") for g in GAMES
    )


#: A comment that marks the word "board" or "cards" on its line as not a game's name.
NOT_A_GAME = "not a game's name"


def game_names(known: dict[str, Path] | None = None) -> dict[str, list[str]]:
    """``path:line`` of the places outside the games' packages and the registry that name a
    game, in two lists: ``places`` (a text ``"board"`` or ``"cards"`` used as a game's name,
    or an import of a game's package: what adding a game could make someone edit) and
    ``defaults`` (a default argument naming the game a function or option starts with).
    Docstrings, dictionary keys (a JSON field ``"cards"``) and lines marked
    :data:`NOT_A_GAME` do not count."""
    known = known or modules()
    places: list[str] = []
    defaults: list[str] = []
    for module, path in known.items():
        if _in_game(module):
            continue
        text = path.read_text()
        lines = text.splitlines()
        tree = ast.parse(text)
        skip: set[int] = set()
        default: set[int] = set()
        for node in ast.walk(tree):
            body = getattr(node, "body", None)
            if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
                skip.add(id(body[0].value))  # a docstring
            if isinstance(node, ast.Dict):
                skip.update(id(k) for k in node.keys if k is not None)
            if isinstance(node, ast.arguments):
                default.update(id(d) for d in (*node.defaults, *node.kw_defaults) if d)
            if isinstance(node, ast.keyword) and node.arg == "default":
                default.add(id(node.value))
        rel = path.relative_to(SRC)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Constant) or node.value not in GAMES or id(node) in skip:
                continue
            if NOT_A_GAME in lines[node.lineno - 1]:
                continue
            (defaults if id(node) in default else places).append(f"{rel}:{node.lineno}")
    for e in imports(known):
        if not _in_game(e.source) and _in_game(e.target) and e.target != "keltis.games":
            places.append(f"{known[e.source].relative_to(SRC)}:{e.line}")

    def order(p: str) -> tuple[str, int]:
        return p.split(":")[0], int(p.split(":")[1])

    return {"places": sorted(set(places), key=order), "defaults": sorted(set(defaults), key=order)}


def longest_functions(known: dict[str, Path] | None = None, top: int = 10) -> list[str]:
    """The ``top`` longest functions (``lines path:line name``), longest first."""
    known = known or modules()
    found: list[tuple[int, str]] = []
    for path in known.values():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                found.append((length, f"{path.relative_to(SRC)}:{node.lineno} {node.name}"))
    found.sort(key=lambda item: (-item[0], item[1]))
    return [f"{n} {where}" for n, where in found[:top]]


def measures() -> dict[str, object]:
    """Everything above, JSON-ready."""
    known = modules()
    edges = imports(known)
    inner = [e for e in edges if e.in_function]
    return {
        "modules": len(known),
        "imports": len(edges),
        "circles": circles(edges),
        "upward_imports": [f"{e.source}:{e.line} -> {e.target}" for e in upward(edges)],
        "imports_in_functions": len(inner),
        "imports_in_functions_without_reason": [
            f"{e.source}:{e.line} -> {e.target}" for e in inner if not e.reason
        ],
        "naming_a_game": game_names(known),
        "longest_functions": longest_functions(known),
    }


if __name__ == "__main__":
    print(json.dumps(measures(), indent=1))

"""``make play`` on a fresh clone says what it does while the engine compiles (issue 40 §2.11):
``tools/install_progress.py`` turns ``pip install -v`` into a few lines, with never more than
about ten seconds of silence, and every install of the Makefile goes through it."""

from __future__ import annotations

import importlib.util
import io
import itertools
import re
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]

#: What ``pip install -v -e '.[server]'`` said on a fresh clone (2 cores, busy), shortened:
#: seconds since the start, then the line as pip printed it. The C compiler's big step is the
#: silence from 57 s to 224 s.
PIP_SAYS = """\
1.0|Using pip 26.3 from /tmp/fresh/.venv/lib/python3.11/site-packages/pip (python 3.11)
1.3|Obtaining file:///tmp/fresh
1.3|  Installing build dependencies: started
3.0|  Collecting setuptools>=77
3.8|  Collecting mypy>=2.0
5.4|  Installing collected packages: typing_extensions, setuptools, mypy
8.2|  Successfully installed mypy-2.4.1 setuptools-84.2.1
8.6|  Installing build dependencies: finished with status 'done'
11.5|  Getting requirements to build editable: started
13.0|  keltis: compiling 16 modules with mypyc
22.7|  src/keltis/board/setup.py:221: warning: Treating generator comprehension as list
27.7|  Preparing editable metadata (pyproject.toml): started
29.6|  keltis: compiling 16 modules with mypyc
40.0|Collecting fastapi>=0.110 (from keltis==0.1.0)
40.2|  Downloading fastapi-0.136.0-py3-none-any.whl (117 kB)
41.0|Processing /opt/pypi/files/mako-1.4.3-py3-none-any.whl (from alembic>=1.13->keltis==0.1.0)
44.0|Collecting openskill>=6 (from keltis==0.1.0)
47.6|  Building editable for keltis (pyproject.toml): started
48.8|  keltis: compiling 16 modules with mypyc
57.3|  running build_ext
57.3|  building '9e406662fd527b2bed10__mypyc' extension
57.3|  gcc -O3 -c build/__native_9e406662fd527b2bed10.c -o build/__native.o
224.3|  gcc -shared build/__native.o -o build/9e406662fd527b2bed10__mypyc.so
226.4|  building 'keltis.board.layout' extension
229.5|  building 'keltis.board.policy' extension
263.1|  building 'keltis.match' extension
267.5|  Building editable for keltis (pyproject.toml): finished with status 'done'
267.8|Installing collected packages: websockets, fastapi, openskill, keltis
291.1|Successfully installed fastapi-0.136.0 keltis-0.1.0 openskill-6.2.0 websockets-17.4
"""


def load() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "install_progress", ROOT / "tools" / "install_progress.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def replay(tick: float = 1.0) -> list[tuple[float, str]]:
    """What a person sees of PIP_SAYS, with the time each line comes: the clock runs on in
    steps of ``tick`` seconds between pip's lines, as the script's loop wakes up."""
    progress_module = load()
    said: list[tuple[float, str]] = []
    clock = [0.0]
    progress = progress_module.Progress(lambda text: said.append((clock[0], text)), 0.0)
    for entry in PIP_SAYS.splitlines():
        at, text = entry.split("|", 1)
        while clock[0] + tick < float(at):
            clock[0] += tick
            progress.tick(clock[0])
        clock[0] = float(at)
        progress.line(text + "\n", clock[0])
        progress.tick(clock[0])
    return said


def test_every_step_is_said_and_no_silence_is_longer_than_ten_seconds() -> None:
    said = replay()
    texts = [text for _, text in said]
    steps = [
        "Getting the build tools",
        "Translating the engine's 16 modules to C",
        "Fetching the packages keltis needs",
        "Compiling the engine's C code",
        "  [1/16] keltis.board.layout",
        "  [3/16] keltis.match",
        "Installing the packages",
        "Done: keltis is installed (4 min 51 s).",
    ]
    found = [next(i for i, text in enumerate(texts) if text.startswith(s)) for s in steps]
    assert found == sorted(found), texts
    # the build tools' own packages (indented: pip's build step) are neither the packages
    # keltis needs nor the end of the install
    assert texts.index("Installing the packages…") > found[4]
    assert sum(text.startswith("Done") for text in texts) == 1
    # the compiler's silent minutes: a line at least every ten seconds, with the time so far
    times = [0.0] + [at for at, _ in said]
    gaps = [later - earlier for earlier, later in itertools.pairwise(times)]
    assert max(gaps) <= 10, list(zip(times[1:], gaps, texts, strict=True))
    still = [text for at, text in said if 60 < at < 224]
    assert len(still) >= (224 - 57) // 10
    assert all(text.startswith("  … still compiling the engine's C code (") for text in still)
    assert still[-1] == "  … still compiling the engine's C code (3 min 37 s in all)"
    # while packages come in, how many so far
    assert "  … still fetching packages: 3 so far (48 s in all)" in texts


def test_the_start_says_how_long_it_may_take() -> None:
    makefile = (ROOT / "Makefile").read_text()
    setup = makefile.split("$(BIN)/python:\n", 1)[1].split("\n\n", 1)[0]
    first = setup.splitlines()[0]
    assert first.startswith("\t@echo")
    assert "the first time takes 2 to 5 minutes" in first
    # and the compiler's step, the longest, when it begins
    texts = [text for _, text in replay()]
    assert (
        "Compiling the engine's C code: the longest step, a minute or more (several when busy)…"
        in texts
    )


def test_a_failed_install_shows_the_end_of_its_log_and_its_status(tmp_path: Path) -> None:
    progress_module = load()
    log = tmp_path / "install.log"
    out = io.StringIO()
    code = progress_module.run(
        [
            sys.executable,
            "-c",
            "print('Collecting fastapi'); print('error: no C compiler here'); raise SystemExit(3)",
        ],
        log,
        out,
    )
    assert code == 3
    assert log.read_text().splitlines() == ["Collecting fastapi", "error: no C compiler here"]
    shown = out.getvalue().splitlines()
    assert shown[0] == "Fetching the packages keltis needs…"
    assert shown[-3:] == [
        f"The install failed (exit status 3); the end of {log}:",
        "  Collecting fastapi",
        "  error: no C compiler here",
    ]


def test_every_install_of_the_makefile_goes_through_it() -> None:
    """Each ``pip install`` of keltis in the Makefile runs verbose under the progress script
    (pip's ``--quiet`` alone hid the compiler's minutes: that was the silence)."""
    makefile = (ROOT / "Makefile").read_text()
    installs = [line.strip() for line in makefile.splitlines() if "pip install" in line]
    keltis = [line for line in installs if "--upgrade pip" not in line]
    assert len(keltis) >= 4, installs
    for line in keltis:
        assert line.startswith("@$(PROGRESS) -- $(BIN)/python -m pip install -v "), line
    assert re.search(r"^PROGRESS := \$\(BIN\)/python tools/install_progress\.py ", makefile, re.M)

"""Shows what a long ``pip install`` of keltis does, in a few lines, so that ``make play`` on
a fresh clone never sits silent while the engine compiles (issue 40 §2.11).

The Makefile runs its installs through this script::

    python tools/install_progress.py .venv/install.log -- python -m pip install -v -e .

It runs the command, writes everything it says to the log file, and prints instead: each step
once as it begins (the build tools, the packages, translating the engine to C with mypyc,
the C compiler, each compiled module as ``[3/16] keltis.board.policy``, installing), and
whenever nothing was printed for :data:`EVERY` seconds, a line saying which step still runs
and for how long. The C compiler's one big step takes a minute or more with no output of its
own: that line is what the player sees then. When the command fails, the last lines of the
log follow. The exit status is the command's.

The script needs only the standard library: it runs before keltis is installed.
"""

from __future__ import annotations

import queue
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO

#: Seconds without a printed line after which a "still working" line comes.
EVERY = 8.0
#: Lines of the log shown when the command fails.
TAIL = 40

#: The steps, by a line of ``pip install -v`` that starts them: (pattern, step, what to say);
#: a pattern that starts with ``^`` is pip's own line, not one of a build step's (indented).
STEPS: tuple[tuple[re.Pattern[str], str, str], ...] = (
    (
        re.compile(r"Installing build dependencies: started"),
        "tools",
        "Getting the build tools (setuptools, mypy)…",
    ),
    (
        re.compile(r"keltis: compiling (?P<count>\d+) modules with mypyc"),
        "translate",
        "Translating the engine's {count} modules to C with mypyc…",
    ),
    (
        re.compile(r"building '\w+__mypyc' extension"),
        "compile",
        "Compiling the engine's C code: the longest step, a minute or more (several when busy)…",
    ),
    (
        re.compile(r"^Installing collected packages: (?P<names>.*)"),
        "install",
        "Installing the packages…",
    ),
)
#: A package pip fetches or takes from a local file (its first line about it).
PACKAGE = re.compile(r"^(?:Collecting|Processing) (?P<name>\S+)")
#: A compiled module's own small extension, built after the big C file.
MODULE = re.compile(r"building '(?P<name>keltis(?:\.\w+)+)' extension")
#: What setup.py says when it builds no compiled modules (and why).
PURE = re.compile(r"keltis: building pure Python.*")
DONE = re.compile(r"^Successfully installed")

#: The words of a "still working" line, by step.
STILL = {
    "start": "starting pip",
    "tools": "getting the build tools",
    "packages": "fetching packages",
    "translate": "translating the engine to C",
    "compile": "compiling the engine's C code",
    "modules": "compiling the engine's modules",
    "install": "installing the packages",
}


def elapsed(seconds: float) -> str:
    """``45 s``, ``2 min 05 s``."""
    whole = int(seconds)
    if whole < 60:
        return f"{whole} s"
    return f"{whole // 60} min {whole % 60:02d} s"


class Progress:
    """Turns the lines of ``pip install -v`` into a few lines for a person: :meth:`line` for
    each line the command prints, :meth:`tick` now and then (it prints a "still working" line
    when nothing was printed for ``every`` seconds). Times are the caller's clock, so that a
    test can drive it."""

    def __init__(self, write: Callable[[str], None], now: float, every: float = EVERY) -> None:
        self.write = write
        self.start = now
        self.every = every
        self.step = "start"
        self.said: set[str] = set()
        self.packages = 0
        self.modules = 0
        self.total = 0
        self.last = now

    def say(self, text: str, now: float) -> None:
        self.write(text)
        self.last = now

    def line(self, raw: str, now: float) -> None:
        """One line of the command's output. pip indents what its build steps say (the build
        tools' own packages, say): only its own unindented lines count packages."""
        raw = raw.rstrip()
        text = raw.strip()
        pure = PURE.search(text)
        if pure and "pure" not in self.said:
            self.said.add("pure")
            self.say(pure.group(0), now)
            return
        for pattern, step, words in STEPS:
            found = pattern.search(raw)
            if found is None:
                continue
            if step == "translate":
                self.total = int(found.group("count"))
            self.step = step
            if step not in self.said:
                self.said.add(step)
                self.say(words.format(**found.groupdict()), now)
            return
        module = MODULE.search(text)
        if module and self.total:
            self.step = "modules"
            self.modules += 1
            self.say(f"  [{self.modules}/{self.total}] {module.group('name')}", now)
            return
        if PACKAGE.match(raw):
            if self.step != "packages":
                self.step = "packages"
                if "packages" not in self.said:
                    self.said.add("packages")
                    self.say("Fetching the packages keltis needs…", now)
            self.packages += 1
            return
        if DONE.match(raw):
            self.say(f"Done: keltis is installed ({elapsed(now - self.start)}).", now)

    def tick(self, now: float) -> None:
        """Says which step still runs, when nothing was printed for ``every`` seconds."""
        if now - self.last < self.every:
            return
        what = STILL[self.step]
        if self.step == "packages":
            what += f": {self.packages} so far"
        self.say(f"  … still {what} ({elapsed(now - self.start)} in all)", now)


def run(
    command: Sequence[str],
    log: Path,
    out: IO[str] | None = None,
    every: float = EVERY,
    clock: Callable[[], float] = time.monotonic,
) -> int:
    """Runs ``command``, its output to ``log``, a few lines about it to ``out`` (default
    stdout); returns its exit status."""
    stream = out if out is not None else sys.stdout

    def write(text: str) -> None:
        stream.write(text + "\n")
        stream.flush()

    progress = Progress(write, clock(), every)
    lines: queue.Queue[str | None] = queue.Queue()
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("w", encoding="utf-8") as kept:
        child = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            text=True,
            encoding="utf-8",
            errors="replace",
            bufsize=1,
        )
        assert child.stdout is not None
        output = child.stdout

        def read() -> None:
            for text in output:
                lines.put(text)
            lines.put(None)

        threading.Thread(target=read, daemon=True).start()
        while True:
            try:
                text = lines.get(timeout=min(1.0, every))
            except queue.Empty:
                progress.tick(clock())
                continue
            if text is None:
                break
            kept.write(text)
            progress.line(text, clock())
            progress.tick(clock())
        code = child.wait()
    if code != 0:
        tail = log.read_text(encoding="utf-8", errors="replace").splitlines()[-TAIL:]
        write(f"The install failed (exit status {code}); the end of {log}:")
        for text in tail:
            write(f"  {text}")
    return code


def main(argv: Sequence[str]) -> int:
    if len(argv) < 3 or argv[1] != "--":
        print(__doc__, file=sys.stderr)
        return 2
    return run(argv[2:], Path(argv[0]))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""``keltis replay FILE | head``: when the reader of the output goes away, the replay ends
quietly — status 0, nothing on stderr (no traceback, no "Exception ignored" at exit)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from keltis.bots import make_bot
from keltis.record import GameRecord, PlayerInfo
from keltis.replay import replay_file

#: Linux lets a pipe shrink to one page, so that a long replay cannot fit into it.
SMALL_PIPE = 4096


@pytest.fixture(scope="module")
def long_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    seats = ["random"] * 4
    record = GameRecord.start(
        "board", [PlayerInfo(f"R{i}", k) for i, k in enumerate(seats)], seed=3
    )
    state = record.new_state()
    bots = [make_bot(kind, i) for i, kind in enumerate(seats)]
    while not state.over:
        state.apply(bots[state.current_player].choose(state.view(state.current_player)))
    record.finish(state)
    return record.save(tmp_path_factory.mktemp("pipe") / "long.json")


def _pipe() -> tuple[int, int, int]:
    """A pipe (read end, write end) and how much it holds."""
    read, write = os.pipe()
    size = 65536
    if sys.platform == "linux":
        import fcntl

        size = fcntl.fcntl(write, fcntl.F_SETPIPE_SZ, SMALL_PIPE)
    return read, write, size


@pytest.mark.parametrize("options", [[], ["--at", "40"], ["--lang", "hu"]])
def test_a_reader_that_stops_after_one_line_ends_the_replay_quietly(
    long_record: Path, options: list[str]
) -> None:
    full = io.StringIO()
    replay_file(long_record, as_json=False, out=full)
    read, write, size = _pipe()
    # more than the pipe and the reader's buffer hold together: the writer meets the closed pipe
    assert len(full.getvalue().encode()) > size + 2 * 8192
    env = {k: v for k, v in os.environ.items() if k not in ("KELTIS_LANG", "NO_COLOR")}
    env["COLUMNS"] = "80"
    with subprocess.Popen(
        [sys.executable, "-m", "keltis", "replay", str(long_record), *options],
        stdout=write,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        env=env,
    ) as process:
        os.close(write)
        with os.fdopen(read, "rb") as reader:
            first = reader.readline()
        # the reader is gone now, as `head -1` would be
        assert process.stderr is not None
        errors = process.stderr.read()
        status = process.wait(timeout=60)
    assert first.strip()
    assert errors == b""
    assert status == 0


@pytest.mark.parametrize("options", [[], ["--at", "3"], ["--json"], ["--text"]])
def test_a_reader_gone_before_the_first_line_ends_the_replay_quietly(
    long_record: Path, options: list[str]
) -> None:
    """The output is still in the buffer when the pipe turns out to be closed: the flush at
    the end must not complain either."""
    read, write, _ = _pipe()
    os.close(read)
    try:
        result = subprocess.run(
            [sys.executable, "-m", "keltis", "replay", str(long_record), *options],
            stdout=write,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            timeout=60,
            check=False,
        )
    finally:
        os.close(write)
    assert result.stderr == b""
    assert result.returncode == 0

"""``keltis serve`` as ``make play`` runs it: the address once it listens, ``--open`` (a
browser command, or a clear word that none could be opened), a port already in use (one line,
no traceback), Ctrl-C (a clean stop)."""

from __future__ import annotations

import errno
import os
import signal
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from keltis.server.cli import listen_error, page_address
from server.harness import WAIT, Server, create, free_port

from .helpers import wait_finished

#: Variables by which Python's webbrowser finds a browser.
BROWSER_VARIABLES = ("BROWSER", "DISPLAY", "WAYLAND_DISPLAY")


def wait_for_line(server: Server, text: str) -> str:
    """The server's first output line containing ``text`` (waiting for it)."""
    found = [line for line in server.logged(text).splitlines() if text in line]
    if not found:
        raise AssertionError(f"no line with {text!r}:\n{''.join(server.log)}")
    return found[0]


def stop_cleanly(server: Server) -> None:
    """Ctrl-C: the server stops with status 0 and no traceback."""
    server.stop()
    assert server.process is not None
    assert server.process.returncode == 0, "".join(server.log)
    assert "Traceback" not in "".join(server.log)


def test_open_runs_the_browser_command_with_the_address(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened = tmp_path / "opened.txt"
    browser = tmp_path / "fake-browser"
    browser.write_text(f'#!/bin/sh\necho "$1" > {opened}\n')
    browser.chmod(browser.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("BROWSER", str(browser))
    server = Server(f"sqlite:///{tmp_path / 'db.sqlite3'}", "--open").start()
    try:
        address = f"http://127.0.0.1:{server.port}"
        assert wait_for_line(server, "Keltis is ready:") == f"Keltis is ready: {address}"
        assert wait_for_line(server, "Opened") == f"Opened {address} in your browser."
        assert opened.read_text().strip() == address
    finally:
        stop_cleanly(server)


def test_without_a_browser_the_address_is_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in BROWSER_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    server = Server(f"sqlite:///{tmp_path / 'db.sqlite3'}", "--open").start()
    try:
        address = f"http://127.0.0.1:{server.port}"
        assert wait_for_line(server, "Keltis is ready:") == f"Keltis is ready: {address}"
        line = wait_for_line(server, "No browser")
        assert line == f"No browser could be opened here: open {address} in yours."
    finally:
        stop_cleanly(server)


def test_a_port_in_use_is_one_clear_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "keltis", "serve", "--port", str(port), "--open"],
            capture_output=True,
            text=True,
            timeout=WAIT,
            env={**os.environ, "KELTIS_DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"},
        )
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert str(port) in lines[0]
    assert "already in use" in lines[0]
    assert "--port" in lines[0]
    assert "Keltis is ready" not in done.stdout


def test_port_zero_serves_on_a_free_port(tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path / 'db.sqlite3'}", "--port", "0").start()
    try:
        line = wait_for_line(server, "Keltis is ready:")
        port = int(line.rsplit(":", 1)[1])
        assert port not in (0, server.port)  # the last --port counts: 0, any free port
        server.port = port
        with server.http() as http:
            assert http.get("/api/health").json()["ok"] is True
    finally:
        stop_cleanly(server)


def test_ctrl_c_stops_the_server_and_its_bot_workers_quietly(tmp_path: Path) -> None:
    """A terminal's Ctrl-C goes to the whole process group (``make play``'s job): the bot
    workers leave it to the server, which stops cleanly — no traceback from anyone."""
    server = Server(f"sqlite:///{tmp_path / 'db.sqlite3'}").start()
    bots = [{"kind": "bot", "level": "easy"}, {"kind": "bot", "level": "random"}]
    wait_finished(server, create(server, game="cards", seats=bots, seat=None)["id"])
    assert server.process is not None
    os.killpg(server.process.pid, signal.SIGINT)
    try:
        server.process.wait(timeout=WAIT)
    finally:
        server.kill()
    log = "".join(server.log)
    assert server.process.returncode == 0, log
    assert "Traceback" not in log
    assert "KeyboardInterrupt" not in log


def test_addresses_and_reasons() -> None:
    assert page_address("127.0.0.1", 8000) == "http://127.0.0.1:8000"
    assert page_address("0.0.0.0", 8000) == "http://127.0.0.1:8000"
    assert page_address("::", 8001) == "http://[::1]:8001"
    assert page_address("::1", 8001) == "http://[::1]:8001"
    assert page_address("keltis.example", 80) == "http://keltis.example:80"
    denied = listen_error("0.0.0.0", 80, OSError(errno.EACCES, "Permission denied"))
    assert "port 80" in denied
    assert "--port" in denied
    unknown = listen_error("nowhere.invalid", 8000, OSError(errno.EADDRNOTAVAIL, "no such"))
    assert "nowhere.invalid" in unknown
    assert "--host" in unknown
    assert free_port() > 0

"""The same tournament as Ray tasks on a local Ray instance gives the same results; ``local``
is private and bound to the loopback address, and a cluster that is gone fails fast."""

from __future__ import annotations

import importlib
import shutil
import socket
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from arena_helpers import played, small_tournament

from keltis.arena import TournamentError, run_tournament, write_report
from keltis.arena.ray_connect import LOOPBACK, connect_ray, recorded_cluster_file
from keltis.arena.run import ray_results

ray: Any = pytest.importorskip("ray", reason="Ray is not installed (pip install 'keltis[ray]')")

# A Ray instance takes 5-25 s to start on a busy 2-core machine, and a test may start two:
# more room than the suite's default timeout.
pytestmark = pytest.mark.timeout(600)


def dead_address() -> str:
    """A loopback address where nothing listens (a port just handed out and closed again)."""
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        return f"{LOOPBACK}:{probe.getsockname()[1]}"


@pytest.fixture
def stale_ray_record(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A private Ray temp dir (``RAY_TMPDIR``) whose ``ray_current_cluster`` names a cluster
    that is gone, as ``ray start`` then ``ray stop`` of a crashed head leave it; the address.

    Short, under /tmp rather than pytest's tmp_path: Ray puts its Unix sockets there, whose
    paths may not exceed 107 characters."""
    temp = tempfile.mkdtemp(prefix="keltis-ray-", dir="/tmp")
    monkeypatch.setenv("RAY_TMPDIR", temp)
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    address = dead_address()
    record = recorded_cluster_file()
    record.parent.mkdir()
    record.write_text(address, encoding="utf-8")
    try:
        yield address
    finally:
        shutil.rmtree(temp, ignore_errors=True)


@pytest.mark.ray
def test_the_command_line_starts_and_stops_a_private_ray_instance(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from keltis.cli import main

    assert not ray.is_initialized()  # this test runs before those using the fixture
    local = tmp_path / "local"
    assert main(["arena", "--quiet", "greedy", "random", "--games", "4", "--workers", "1",
                 "--out", str(local), "--no-plot"]) == 0  # fmt: skip
    on_ray = tmp_path / "ray"
    assert main(["arena", "--quiet", "greedy", "random", "--games", "4", "--ray", "local",
                 "--out", str(on_ray), "--no-plot"]) == 0  # fmt: skip
    assert not ray.is_initialized()
    assert played(on_ray) == played(local)
    assert "(ray local)" not in capsys.readouterr().err  # --quiet: no progress bar


@pytest.mark.ray
def test_a_stale_cluster_record_neither_traps_local_nor_hangs_auto(
    stale_ray_record: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from keltis.cli import main

    assert not ray.is_initialized()  # this test runs before those using the fixture
    games = ["arena", "--quiet", "greedy", "random", "--games", "4", "--no-plot"]

    # auto: Ray itself would retry the recorded address for over ten minutes.
    start = time.perf_counter()
    assert main([*games, "--ray", "auto", "--out", str(tmp_path / "auto")]) == 2
    assert time.perf_counter() - start < 30
    error = capsys.readouterr().err
    assert error.startswith(f"keltis arena: cannot connect to Ray at {stale_ray_record} ")
    assert str(recorded_cluster_file()) in error
    assert "ray stop" in error
    assert "--ray local" in error
    assert error.count("\n") == 1  # one line, no traceback
    assert not (tmp_path / "auto").exists()  # nothing written

    # host:port, and auto from RAY_ADDRESS, fail as fast, naming the address.
    for address in (dead_address(), "auto"):
        monkeypatch.setenv("RAY_ADDRESS", stale_ray_record)
        start = time.perf_counter()
        assert main([*games, "--ray", address, "--out", str(tmp_path / "other")]) == 2
        assert time.perf_counter() - start < 30
        error = capsys.readouterr().err
        expected = stale_ray_record if address == "auto" else address
        assert error.startswith(f"keltis arena: cannot connect to Ray at {expected}")
        assert error.count("\n") == 1

    # local: a private instance, whatever the record and RAY_ADDRESS say.
    local = tmp_path / "local"
    assert main([*games, "--workers", "1", "--out", str(local)]) == 0
    on_ray = tmp_path / "ray"
    assert main([*games, "--ray", "local", "--out", str(on_ray)]) == 0
    assert not ray.is_initialized()
    assert played(on_ray) == played(local)


def test_auto_without_a_cluster_says_how_to_get_one(
    stale_ray_record: str, capsys: pytest.CaptureFixture[str]
) -> None:
    recorded_cluster_file().unlink()
    with pytest.raises(TournamentError, match=r"no running Ray cluster to join") as caught:
        connect_ray("auto")
    assert str(recorded_cluster_file()) in str(caught.value)
    assert "ray start --head" in str(caught.value)


def test_a_silent_address_gives_up_after_the_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    def silent(address: tuple[str, int], timeout: float) -> socket.socket:
        assert address == ("head.example", 6379)
        raise TimeoutError

    monkeypatch.setattr(socket, "create_connection", silent)
    with pytest.raises(TournamentError, match=r"^cannot connect to Ray at head\.example:6379: "):
        connect_ray("head.example:6379", timeout=30)
    with pytest.raises(TournamentError, match=r"no answer within 30 s"):
        connect_ray("head.example:6379")


@pytest.mark.parametrize("address", ["junk", "ray://", "host:port", ":6379"])
def test_an_address_that_is_not_one_is_refused_before_ray(address: str) -> None:
    with pytest.raises(TournamentError, match="is not a Ray address"):
        connect_ray(address)


def test_the_record_is_looked_for_where_ray_looks(monkeypatch: pytest.MonkeyPatch) -> None:
    ray_files = importlib.import_module("ray._common.utils")  # where Ray 2.5x keeps it
    for temp in ("/tmp/somewhere", None):
        if temp is None:
            monkeypatch.delenv("RAY_TMPDIR", raising=False)
        else:
            monkeypatch.setenv("RAY_TMPDIR", temp)
        assert str(recorded_cluster_file()) == ray_files.get_ray_address_file(None)


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    connect_ray("local", num_cpus=2)
    try:
        yield
    finally:
        ray.shutdown()


@pytest.mark.ray
def test_ray_plays_the_same_tournament_as_a_local_run(local_ray: None, tmp_path: Path) -> None:
    local = tmp_path / "local"
    summary = run_tournament(small_tournament(), local, workers=1)
    write_report(summary, plot=False)

    on_ray = tmp_path / "ray"
    summary = run_tournament(small_tournament(), on_ray, ray="auto")
    assert summary.complete
    assert summary.played_now == 9
    write_report(summary, plot=False)
    assert played(on_ray) == played(local)
    assert ray.is_initialized()  # a connection made by the caller is left open


@pytest.mark.ray
def test_an_interrupted_ray_run_resumes_locally_to_the_same_results(
    local_ray: None, tmp_path: Path
) -> None:
    whole = tmp_path / "whole"
    write_report(run_tournament(small_tournament(), whole, workers=1), plot=False)

    def stop(done: int, total: int) -> None:
        if done >= 3:
            raise KeyboardInterrupt

    out = tmp_path / "cut"
    first = run_tournament(small_tournament(), out, ray="auto", on_game=stop)
    assert first.interrupted
    second = run_tournament(small_tournament(), out, resume=True, workers=1)
    assert second.played_now == 9 - first.done
    write_report(second, plot=False)
    assert played(out) == played(whole)


@pytest.mark.ray
def test_ray_results_yields_each_game_once(local_ray: None) -> None:
    tournament = small_tournament(games=12)
    results = list(ray_results([tournament.task(i) for i in range(12)], "auto"))
    assert sorted(r.index for r in results) == list(range(12))
    assert all(r.error is None for r in results)


@pytest.mark.ray
def test_a_local_instance_listens_on_the_loopback_address_only(local_ray: None) -> None:
    import psutil  # Ray's own (Ray puts it on the path)

    assert ray.get_runtime_context().gcs_address.startswith(f"{LOOPBACK}:")
    assert ray.nodes()[0]["NodeManagerAddress"] == LOOPBACK
    listening = [
        (process.name(), connection.laddr.ip)
        for process in psutil.Process().children(recursive=True)
        for connection in process.net_connections(kind="inet")
        if connection.status == psutil.CONN_LISTEN
    ]
    names = {name for name, _ in listening}
    assert {"gcs_server", "raylet"} <= names
    assert all(ip in (LOOPBACK, f"::ffff:{LOOPBACK}") for _, ip in listening), listening

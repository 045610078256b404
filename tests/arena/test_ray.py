"""The same tournament as Ray tasks on a local Ray instance gives the same results."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from arena_helpers import played, small_tournament

from keltis.arena import run_tournament, write_report
from keltis.arena.run import ray_results

ray: Any = pytest.importorskip("ray", reason="Ray is not installed (pip install 'keltis[ray]')")


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


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


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


def test_ray_results_yields_each_game_once(local_ray: None) -> None:
    tournament = small_tournament(games=12)
    results = list(ray_results([tournament.task(i) for i in range(12)], "auto"))
    assert sorted(r.index for r in results) == list(range(12))
    assert all(r.error is None for r in results)

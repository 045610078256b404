"""Self-play and the learned-vs-hard measurement as Ray tasks on a local Ray instance: the
same shard, and the same games, as local processes; clear errors when Ray is missing or the
address does not answer."""

from __future__ import annotations

import importlib.util
import shutil
import socket
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from keltis.cluster import LOOPBACK, connect_ray, ordered_tasks
from keltis.learn.cli import main
from keltis.learn.net import load_net, shipped_path
from keltis.learn.selfplay import FIELDS, SelfPlayConfig, generate, local_spec, ship_weights

ray: Any = pytest.importorskip("ray", reason="Ray is not installed (pip install 'keltis[ray]')")

# A Ray instance takes 5-25 s to start on a busy 2-core machine.
pytestmark = pytest.mark.timeout(600)

STRENGTH = Path(__file__).resolve().parents[2] / "benchmarks" / "strength.py"
#: The learned search and hard at a test's budget (their spec as LEARNED and hard but for the
#: playouts, and no time net: a game is then its seed's alone, on any machine).
TINY_LEARNED = "learned-search:iterations=16,playout_rounds=1,seconds=none"
TINY_HARD = "ismcts:iterations=16,playout_rounds=5,seconds=none"


def dead_address() -> str:
    """A loopback address where nothing listens (a port just handed out and closed again)."""
    with socket.socket() as probe:
        probe.bind((LOOPBACK, 0))
        return f"{LOOPBACK}:{probe.getsockname()[1]}"


def shard(path: Path) -> dict[str, np.ndarray[Any, Any]]:
    with np.load(path) as data:
        return {name: data[name] for name in data.files}


def assert_same_shard(a: Path, b: Path) -> None:
    first, second = shard(a), shard(b)
    assert first.keys() == second.keys()
    assert set(FIELDS) <= first.keys()
    for name, array in first.items():
        assert array.dtype == second[name].dtype, name
        assert np.array_equal(array, second[name]), name
    assert len(first["action"]) > 0


@pytest.fixture(scope="module")
def strength() -> ModuleType:
    spec = importlib.util.spec_from_file_location("strength_benchmark", STRENGTH)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


# -- without a Ray instance (these run before the module's instance starts) ------------------


def test_a_dead_address_fails_at_once_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], strength: ModuleType
) -> None:
    assert not ray.is_initialized()
    address = dead_address()
    out = tmp_path / "s.npz"
    start = time.perf_counter()
    command = ["selfplay", "--game", "cards", "--players", "2", "--games", "2"]
    assert main([*command, "--ray", address, "--out", str(out)]) == 2
    assert time.perf_counter() - start < 30
    error = capsys.readouterr().err
    assert error.startswith(f"error: cannot connect to Ray at {address}: ")
    assert error.count("\n") == 1  # one line, no traceback
    assert not out.exists()

    results = tmp_path / "results"
    line = ["--game", "cards", "--lines", "learned-vs-hard", "--games", "1"]
    assert strength.main([*line, "--ray", address, "--results", str(results)]) == 2
    error = capsys.readouterr().err
    assert error.startswith(f"strength.py: cannot connect to Ray at {address}: ")
    assert not results.exists()  # nothing written, not even the summary


def test_without_ray_the_error_says_how_to_install_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray: ImportError
    command = ["selfplay", "--game", "cards", "--players", "2", "--games", "2"]
    assert main([*command, "--ray", "local", "--out", str(tmp_path / "s.npz")]) == 2
    assert "pip install 'keltis[ray]'" in capsys.readouterr().err


def test_workers_and_ray_exclude_each_other(capsys: pytest.CaptureFixture[str]) -> None:
    command = ["selfplay", "--game", "cards", "--players", "2", "--games", "2", "--out", "x"]
    with pytest.raises(SystemExit):
        main([*command, "--workers", "2", "--ray", "local"])
    assert "not allowed with argument" in capsys.readouterr().err


def test_a_shipped_weights_file_becomes_a_copy_on_the_worker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "worker"))  # the worker's temp
    (tmp_path / "worker").mkdir()
    original = tmp_path / "mine.npz"
    shutil.copyfile(shipped_path("cards", 2), original)
    spec = f"learned-search:iterations=8,weights={original},value_weight=0.5"
    store: dict[int, bytes] = {}

    def put(data: bytes) -> int:
        store[len(store)] = data
        return len(store) - 1

    shipped = ship_weights(spec, put)
    assert shipped == (str(original), 0)
    original.unlink()  # a worker on another machine has no such file
    spec_there = local_spec(spec, shipped, store.__getitem__)
    copy = spec_there.split("weights=")[1].split(",")[0]
    assert Path(copy).parent == tmp_path / "worker"
    assert spec_there == spec.replace(str(original), copy)
    assert Path(copy).read_bytes() == store[0]
    assert load_net(copy).game == "cards"
    assert local_spec(spec, shipped, store.__getitem__) == spec_there  # one copy a machine
    assert ship_weights("learned-search:iterations=8", put) is None
    assert local_spec("heuristic", None, store.__getitem__) == "heuristic"


# -- on a private local Ray instance ------------------------------------------------------


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    connect_ray("local", num_cpus=2)
    try:
        yield
    finally:
        ray.shutdown()


@pytest.mark.ray
def test_tasks_come_back_in_the_order_of_the_jobs(local_ray: None) -> None:
    # The first job takes far longer than the others, which finish before it.
    jobs = [range(3_000_000), range(3), range(5), range(7)]
    assert list(ordered_tasks(statistics.fmean, jobs, window=4)) == [1_499_999.5, 1, 2, 3]


@pytest.mark.ray
def test_ray_writes_the_shard_local_processes_write(local_ray: None, tmp_path: Path) -> None:
    config = SelfPlayConfig("cards", 2, games=5, seed=4, sample=0.2)
    local = generate(config, tmp_path / "local.npz", workers=1, chunk=1)
    pool = generate(config, tmp_path / "pool.npz", workers=2, chunk=3)
    tasks = generate(config, tmp_path / "tasks.npz", chunk=1, ray="auto")  # five tasks
    out = tmp_path / "cli.npz"
    command = ["selfplay", "--game", "cards", "--players", "2", "--games", "5", "--seed", "4"]
    assert main([*command, "--sample", "0.2", "--ray", "local", "--out", str(out)]) == 0
    for other in (pool, tasks, out):
        assert_same_shard(local, other)
    assert ray.is_initialized()  # a connection made by the caller is left open


@pytest.mark.ray
def test_a_learned_bot_plays_the_same_on_ray_with_its_weights_shipped(
    local_ray: None, tmp_path: Path
) -> None:
    weights = tmp_path / "mine.npz"
    shutil.copyfile(shipped_path("board", 2), weights)
    config = SelfPlayConfig("board", 2, games=2, seed=2, bot=f"{TINY_LEARNED},weights={weights}")
    local = generate(config, tmp_path / "local.npz", workers=1, chunk=1)
    on_ray = generate(config, tmp_path / "ray.npz", chunk=1, ray="auto")
    assert_same_shard(local, on_ray)
    assert str(shard(on_ray)["meta_bot"]) == config.bot  # the spec as given, not the copy's


@pytest.mark.ray
def test_learned_vs_hard_on_ray_plays_the_games_it_plays_locally(
    local_ray: None, strength: ModuleType, tmp_path: Path
) -> None:
    """The line as its command plays it with ``--hero-spec`` naming a weights file (a round's
    new network), at a test's budget: hero and opponent as LEARNED and hard but for the
    playouts."""
    line = strength.Line("learned-vs-hard", strength.LEARNED, TINY_HARD, 2, 0.60)
    weights = tmp_path / "r1.npz"
    shutil.copyfile(shipped_path("cards", 2), weights)
    hero = f"{TINY_LEARNED},weights={weights}"
    seeds = range(11, 14)
    strength.play_missing("cards", [line], seeds, tmp_path / "local", 1, hero)
    strength.play_missing("cards", [line], seeds, tmp_path / "ray", 1, hero, ray="auto")

    def games(results: Path) -> list[dict[str, Any]]:
        specs = line.specs(hero)
        played = strength.load_games(strength.line_file(results, "cards", line), line, specs)
        machine = ("times", "opponent_times", "host")  # CPU times and where: not the game
        return [{k: v for k, v in played[s].items() if k not in machine} for s in seeds]

    local, on_ray = games(tmp_path / "local"), games(tmp_path / "ray")
    assert on_ray == local
    assert {g["hero_spec"] for g in on_ray} == {hero}  # as given, not the worker's copy
    assert [g["hero_seat"] for g in on_ray] == [1, 0, 1]

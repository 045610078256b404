"""Running a tournament: in-process, on a local process pool, or as Ray tasks; resumable.

The output directory holds ``tournament.json`` (the specification), ``games/NNNNN.json`` (one
record per finished game, written atomically by the driver as each game comes back),
``results.json`` and ``report.png``. A game whose record is on disk is never played again, so
an interrupted tournament resumes where it stopped, and the results — computed from the
records in game order — are the same as those of an uninterrupted run.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import queue
import re
import signal
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from keltis.arena.game import GameResult, play_game, result_of
from keltis.arena.ray_connect import connect_ray, ray_module
from keltis.arena.tournament import GameTask, Tournament, TournamentError
from keltis.core.errors import RecordError
from keltis.record import GameRecord

TOURNAMENT_FILE = "tournament.json"
RESULTS_FILE = "results.json"
REPORT_FILE = "report.png"
GAMES_DIR = "games"
_GAME_FILE = re.compile(r"(\d+)\.json\Z")

Progress = Callable[[int, int], None]
"""Called after each saved game with (games done, games in the tournament)."""


def default_out_dir() -> Path:
    """``arena-out/<date-time>`` under the current directory."""
    return Path("arena-out") / datetime.now().strftime("%Y%m%d-%H%M%S")


def game_path(out: Path, index: int) -> Path:
    """Where game ``index``'s record lives."""
    return out / GAMES_DIR / f"{index:05d}.json"


def failed_path(out: Path, index: int) -> Path:
    """Where the partial record of game ``index`` goes when a bot failed in it."""
    return out / GAMES_DIR / f"{index:05d}.failed.json"


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` so that a crash leaves either the old file or the new one, never half."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(path)


# -- the output directory --------------------------------------------------------------------


def start_dir(out: Path, tournament: Tournament) -> None:
    """Create ``out`` for a new tournament; refuse a directory that already holds one."""
    if (out / TOURNAMENT_FILE).exists():
        raise TournamentError(
            f"{out} already holds a tournament: continue it with keltis arena --resume {out}, "
            "or choose another --out"
        )
    if out.exists() and any(out.iterdir()):
        raise TournamentError(f"{out} is not empty: choose another --out")
    write_atomic(out / TOURNAMENT_FILE, json.dumps(tournament.to_json(), indent=2) + "\n")


def load_dir(out: Path, *, games: int | None = None) -> Tournament:
    """The tournament stored in ``out``; ``games`` (more than stored) extends it."""
    path = out / TOURNAMENT_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise TournamentError(f"{out} holds no tournament ({TOURNAMENT_FILE} is missing)") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise TournamentError(f"cannot read {path}: {error}") from None
    tournament = Tournament.from_json(data)
    if games is not None and games != tournament.games:
        if games < tournament.games:
            raise TournamentError(
                f"the tournament in {out} has {tournament.games} games; --games may only add more"
            )
        tournament = Tournament(
            tournament.game,
            tournament.bots,
            tournament.players,
            games,
            tournament.seed,
            tournament.variant,
        )
        write_atomic(path, json.dumps(tournament.to_json(), indent=2) + "\n")
    return tournament


def load_games(out: Path, tournament: Tournament) -> dict[int, GameRecord]:
    """The finished games on disk, by index, each checked against the tournament."""
    games_dir = out / GAMES_DIR
    found: dict[int, GameRecord] = {}
    if not games_dir.is_dir():
        return found
    for path in sorted(games_dir.iterdir()):
        match = _GAME_FILE.match(path.name)
        if not match:
            continue
        index = int(match.group(1))
        if index >= tournament.games:
            continue
        try:
            record, _ = GameRecord.load(path)
        except RecordError as error:
            raise TournamentError(f"{path}: {error} (delete the file to play it again)") from None
        _check_record(path, record, tournament.task(index))
        found[index] = record
    return found


def _check_record(path: Path, record: GameRecord, task: GameTask) -> None:
    arena = record.meta.get("arena", {})
    expected = [(s.name, s.text) for s in task.seats]
    actual = [(p.name, p.kind) for p in record.players]
    if (
        record.game != task.game
        or record.seed != task.seed
        or arena.get("game") != task.index
        or actual != expected
    ):
        raise TournamentError(
            f"{path} is not game {task.index} of this tournament (expected {task.game}, "
            f"seed {task.seed}, seats {[s.name for s in task.seats]}): was it copied from "
            "another tournament?"
        )
    if record.result is None:
        raise TournamentError(f"{path} holds no result (delete the file to play it again)")


# -- executors -------------------------------------------------------------------------------


def safe_play(task: GameTask) -> GameResult:
    """:func:`~keltis.arena.game.play_game`, turning any unexpected error into a failed
    result (bot errors are already reported that way)."""
    try:
        return play_game(task)
    except Exception as error:
        return GameResult(task.index, "", f"game {task.index}: {type(error).__name__}: {error}")


def serial_results(tasks: Iterable[GameTask]) -> Iterator[GameResult]:
    """Play the games one after another in this process."""
    for task in tasks:
        yield safe_play(task)


def _worker(tasks: Any, results: Any) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    pid = os.getpid()
    while (task := tasks.get()) is not None:
        results.put((pid, task.index, None))
        results.put((pid, task.index, safe_play(task)))


def pool_results(tasks: Iterable[GameTask], workers: int) -> Iterator[GameResult]:
    """Play the games on ``workers`` local processes, yielding results as they finish.

    Workers ignore Ctrl-C; closing this generator (as the driver does when interrupted)
    terminates them at once, dropping the games in flight, to be replayed on resume. A worker
    that dies (killed, out of memory, a crash in native code) yields a failed result naming
    its game instead of hanging the tournament.
    """
    context = multiprocessing.get_context("spawn")
    todo = list(tasks)
    task_queue = context.Queue()
    result_queue = context.Queue()
    for task in todo:
        task_queue.put(task)
    for _ in range(workers):
        task_queue.put(None)
    processes = [
        context.Process(target=_worker, args=(task_queue, result_queue), daemon=True)
        for _ in range(workers)
    ]
    for process in processes:
        process.start()
    playing: dict[int, int] = {}
    remaining = len(todo)
    try:
        while remaining:
            try:
                pid, index, result = result_queue.get(timeout=0.5)
            except queue.Empty:
                dead = next((p for p in processes if p.exitcode not in (None, 0)), None)
                if dead is None:
                    continue
                yield from _drain(result_queue)
                game = playing.get(dead.pid or -1, -1)
                where = f"game {game}: its worker process" if game >= 0 else "a worker process"
                yield GameResult(
                    game,
                    "",
                    f"{where} died (exit code {dead.exitcode}: out of memory, killed, or a "
                    "crash in native code)",
                )
                return
            if result is None:
                playing[pid] = index
            else:
                playing.pop(pid, None)
                remaining -= 1
                yield result
    finally:
        for process in processes:
            if process.is_alive():
                process.terminate()
        for process in processes:
            process.join()
        task_queue.cancel_join_thread()
        result_queue.cancel_join_thread()


def _drain(results: Any) -> Iterator[GameResult]:
    """The finished games still waiting in a worker result queue."""
    while True:
        try:
            _, _, result = results.get(timeout=0.1)
        except queue.Empty:
            return
        if result is not None:
            yield result


def ray_results(tasks: Iterable[GameTask], address: str) -> Iterator[GameResult]:
    """Play the games as Ray tasks on a cluster, yielding results as they finish.

    Connects as :func:`connect_ray` does (and then disconnects at the end); a connection
    already open in this process is used as it is. Closing the generator cancels the tasks
    still in flight.
    """
    ray = ray_module()
    started = connect_ray(address)
    remote = ray.remote(num_cpus=1)(safe_play)
    window = max(4, 2 * int(ray.cluster_resources().get("CPU", 1)))
    waiting = iter(tasks)
    pending: list[Any] = []
    index_of: dict[Any, int] = {}
    try:
        for task in waiting:
            pending.append(remote.remote(task))
            index_of[pending[-1]] = task.index
            if len(pending) >= window:
                break
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                index = index_of.pop(ref)
                try:
                    yield ray.get(ref)
                except ray.exceptions.RayError as error:
                    yield GameResult(index, "", f"game {index}: its Ray task failed: {error}")
            for task in waiting:
                pending.append(remote.remote(task))
                index_of[pending[-1]] = task.index
                break
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()


# -- the driver ------------------------------------------------------------------------------


@dataclass
class RunSummary:
    """What :func:`run_tournament` did: games played now and in all, and how it stopped."""

    tournament: Tournament
    out: Path
    played_now: int
    done: int
    interrupted: bool = False
    failure: str | None = None
    wall_seconds: float = 0.0
    records: dict[int, GameRecord] = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        """True when every game of the tournament has been played."""
        return self.done == self.tournament.games


def run_tournament(
    tournament: Tournament,
    out: Path,
    *,
    resume: bool = False,
    workers: int | None = None,
    ray: str | None = None,
    on_game: Progress | None = None,
) -> RunSummary:
    """Play the games of ``tournament`` not yet in ``out`` and save each record as it comes.

    ``workers``: processes of the local pool (default: the machine's cores; 1 plays in this
    process). ``ray``: run as Ray tasks instead, on the cluster at this address (see
    :func:`connect_ray`; Ray is connected before anything is written). ``resume``: ``out``
    may already hold this tournament. Ctrl-C (``KeyboardInterrupt``) stops cleanly: the
    summary says ``interrupted`` and every finished game is on disk. A bot failure stops the
    tournament too: ``failure`` says which game and bot, and the failed game's partial record
    is kept as ``games/NNNNN.failed.json``.
    """
    own_ray = ray is not None and connect_ray(ray)
    try:
        return _run(tournament, out, resume, workers, ray, on_game)
    finally:
        if own_ray:
            ray_module().shutdown()


def _run(
    tournament: Tournament,
    out: Path,
    resume: bool,
    workers: int | None,
    ray: str | None,
    on_game: Progress | None,
) -> RunSummary:
    if resume:
        if load_dir(out).to_json() != tournament.to_json():
            raise TournamentError(f"{out} holds a different tournament")
    else:
        start_dir(out, tournament)
    records = load_games(out, tournament)
    todo = [tournament.task(i) for i in range(tournament.games) if i not in records]
    summary = RunSummary(tournament, out, 0, len(records), records=records)
    if on_game is not None:
        on_game(summary.done, tournament.games)
    if not todo:
        return summary
    if ray is not None:
        results = ray_results(todo, ray)
    else:
        count = workers if workers is not None else (os.cpu_count() or 1)
        count = max(1, min(count, len(todo)))
        results = serial_results(todo) if count == 1 else pool_results(todo, count)
    start = time.perf_counter()
    try:
        for result in results:
            if result.error is not None:
                if result.record:
                    write_atomic(failed_path(out, result.index), result.record)
                summary.failure = result.error
                break
            record = result.game or GameRecord.from_json(json.loads(result.record))
            write_atomic(game_path(out, result.index), result.record)
            failed_path(out, result.index).unlink(missing_ok=True)
            records[result.index] = record
            summary.played_now += 1
            summary.done += 1
            if on_game is not None:
                on_game(summary.done, tournament.games)
    except KeyboardInterrupt:
        summary.interrupted = True
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            close()
        summary.wall_seconds = time.perf_counter() - start
    return summary


def game_results(summary_records: dict[int, GameRecord]) -> list[dict[str, Any]]:
    """The finished games' results in game order (see :func:`keltis.arena.game.result_of`)."""
    return [result_of(summary_records[i]) for i in sorted(summary_records)]

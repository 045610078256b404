"""Running tournaments: determinism across executors, interruption and resume, records."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from arena_helpers import played, small_tournament

from keltis.arena import (
    Tournament,
    TournamentError,
    load_dir,
    parse_bots,
    run_tournament,
    write_report,
)
from keltis.cli import main
from keltis.record import GameRecord


def run(out: Path, tournament: Tournament | None = None, **kwargs: object) -> dict[str, object]:
    summary = run_tournament(tournament or small_tournament(), out, **kwargs)  # type: ignore[arg-type]
    assert summary.complete
    write_report(summary, plot=False)
    return played(out)


def test_a_local_pool_plays_the_same_games_as_one_process(tmp_path: Path) -> None:
    serial = run(tmp_path / "serial", workers=1)
    pooled = run(tmp_path / "pool", workers=2)
    assert pooled == serial
    assert len(serial["records"]) == 9  # type: ignore[arg-type]


def test_another_seed_plays_other_games(tmp_path: Path) -> None:
    one = run(tmp_path / "one", workers=1)
    other = run(tmp_path / "other", small_tournament(seed=4), workers=1)
    assert one["records"] != other["records"]


class StopAfter:
    """An ``on_game`` hook that presses Ctrl-C once ``count`` games are done."""

    def __init__(self, count: int) -> None:
        self.count = count

    def __call__(self, done: int, total: int) -> None:
        if done >= self.count:
            raise KeyboardInterrupt


@pytest.mark.parametrize("workers", [1, 2])
def test_an_interrupted_tournament_resumes_to_the_same_results(
    tmp_path: Path, workers: int
) -> None:
    whole = run(tmp_path / "whole", workers=1)
    out = tmp_path / "cut"
    first = run_tournament(small_tournament(), out, workers=workers, on_game=StopAfter(4))
    assert first.interrupted
    assert not first.complete
    assert 4 <= first.done < 9
    assert len(list((out / "games").glob("*.json"))) == first.done
    write_report(first, plot=False)
    partial = json.loads((out / "results.json").read_text())
    assert partial["games_played"] == first.done
    assert partial["complete"] is False

    second = run_tournament(load_dir(out), out, resume=True, workers=workers)
    assert second.complete
    assert second.played_now == 9 - first.done
    write_report(second, plot=False)
    assert played(out) == whole


def test_resume_ignores_half_written_and_failed_files(tmp_path: Path) -> None:
    whole = run(tmp_path / "whole", workers=1)
    out = tmp_path / "crashed"
    run_tournament(small_tournament(), out, workers=1, on_game=StopAfter(5))
    (out / "games" / "00005.json.tmp").write_text('{"format": "keltis-rec')
    (out / "games" / "00006.failed.json").write_text("{}")
    (out / "games" / "00007.json").unlink(missing_ok=True)
    summary = run_tournament(load_dir(out), out, resume=True, workers=1)
    assert summary.played_now == 4
    assert not (out / "games" / "00006.failed.json").exists()
    write_report(summary, plot=False)
    assert played(out) == whole


def test_extending_a_tournament_plays_only_the_new_games(tmp_path: Path) -> None:
    bigger = run(tmp_path / "twelve", small_tournament(games=12), workers=1)
    out = tmp_path / "grown"
    run(out, workers=1)
    extended = load_dir(out, games=12)
    assert extended.games == 12
    assert load_dir(out).games == 12  # stored
    summary = run_tournament(extended, out, resume=True, workers=1)
    assert summary.played_now == 3
    write_report(summary, plot=False)
    assert played(out) == bigger
    with pytest.raises(TournamentError, match="has 12 games; --games may only add more"):
        load_dir(out, games=10)


def test_records_replay_to_their_stored_results(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "t"
    tournament = small_tournament()
    run(out, tournament, workers=1)
    seats_seen: set[tuple[str, ...]] = set()
    for index in range(tournament.games):
        record, _ = GameRecord.load(out / "games" / f"{index:05d}.json")
        task = tournament.task(index)
        assert record.seed == task.seed
        assert [p.name for p in record.players] == [s.name for s in task.seats]
        assert [p.kind for p in record.players] == [
            "greedy" if s.name == "greedy" else "random" for s in task.seats
        ]
        assert record.meta["arena"]["game"] == index
        assert record.meta["arena"]["bot_seeds"] == list(task.bot_seeds)
        assert sum(record.meta["arena"]["decisions"]) == len(record.actions)
        state = record.replay()
        assert state.over
        assert state.outcome().to_json() == record.result
        seats_seen.add(tuple(p.name for p in record.players))
    assert len(seats_seen) == 6  # 9 games of 3 bots in 3 seats: every seating order
    assert main(["replay", str(out / "games" / "00004.json")]) == 0
    assert "Game over" in capsys.readouterr().out


def test_results_fields(tmp_path: Path) -> None:
    out = tmp_path / "t"
    summary = run_tournament(small_tournament(), out, workers=1)
    results = write_report(summary, plot=False)
    assert json.loads((out / "results.json").read_text()) == results
    assert results["format"] == "keltis-arena-results"
    assert results["games_played"] == 9
    assert results["complete"] is True
    assert results["tournament"] == small_tournament().to_json()
    assert sum(results["end_reasons"].values()) == 9
    assert results["mean_actions"] > 0
    names = [b["name"] for b in results["bots"]]
    assert names == ["greedy", "random", "r2"]
    for bot in results["bots"]:
        assert bot["games"] == bot["seat_games"] == 9
        assert 0 <= bot["win_rate_ci95"][0] <= bot["win_rate"] <= bot["win_rate_ci95"][1] <= 1
        assert set(bot["rating"]) == {"mu", "sigma", "ordinal"}
        assert len(bot["scores"]) == 9
        assert [s["seat_games"] for s in bot["by_seat"]] == [3, 3, 3]
        assert results["timing"]["seconds_per_decision"][bot["name"]] > 0
    assert sorted(b["rank"] for b in results["bots"]) == [1, 2, 3]
    assert sum(b["wins"] for b in results["bots"]) == pytest.approx(9)
    assert results["pairwise"]["greedy"]["random"]["meetings"] == 9
    # greedy lays cards; random mostly throws the game away
    assert results["bots"][0]["rank"] == 1


def test_a_directory_holds_one_tournament(tmp_path: Path) -> None:
    out = tmp_path / "t"
    run(out, workers=1)
    with pytest.raises(TournamentError, match="already holds a tournament: continue it with"):
        run_tournament(small_tournament(), out, workers=1)
    with pytest.raises(TournamentError, match="holds a different tournament"):
        run_tournament(small_tournament(seed=8), out, resume=True, workers=1)
    with pytest.raises(TournamentError, match="holds no tournament"):
        load_dir(tmp_path / "nothing")
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "notes.txt").write_text("mine")
    with pytest.raises(TournamentError, match="is not empty"):
        run_tournament(small_tournament(), tmp_path / "busy", workers=1)


def test_a_record_from_another_tournament_is_refused(tmp_path: Path) -> None:
    run(tmp_path / "a", workers=1)
    run(tmp_path / "b", small_tournament(seed=4), workers=1)
    (tmp_path / "a" / "games" / "00002.json").write_bytes(
        (tmp_path / "b" / "games" / "00002.json").read_bytes()
    )
    with pytest.raises(TournamentError, match=r"00002\.json is not game 2 of this tournament"):
        run_tournament(load_dir(tmp_path / "a"), tmp_path / "a", resume=True, workers=1)


def test_a_damaged_record_is_named(tmp_path: Path) -> None:
    run(tmp_path / "a", workers=1)
    (tmp_path / "a" / "games" / "00001.json").write_text("{not json")
    with pytest.raises(TournamentError, match=r"00001.json: line 1: not valid JSON.*delete"):
        run_tournament(load_dir(tmp_path / "a"), tmp_path / "a", resume=True, workers=1)


@pytest.mark.parametrize(
    ("bot", "message"),
    [
        (
            "arena_bots:CrashBot",
            r"bot 'arena_bots:CrashBot' \(seat \d\) failed: RuntimeError: boom",
        ),
        ("arena_bots:CheatBot", r"chose an illegal action pass: "),
    ],
)
@pytest.mark.parametrize("workers", [1, 2])
def test_a_failing_bot_stops_the_tournament_and_keeps_its_game(
    tmp_path: Path, bot: str, message: str, workers: int
) -> None:
    tournament = Tournament.create("board", parse_bots(["random", bot]), games=4, seed=1)
    summary = run_tournament(tournament, tmp_path, workers=workers)
    assert summary.failure is not None
    assert summary.failure.startswith("game ")
    assert re.search(message, summary.failure)
    failed = list((tmp_path / "games").glob("*.failed.json"))
    assert len(failed) == 1
    record, _ = GameRecord.load(failed[0])
    assert record.result is None
    record.replay()  # the moves before the failure are legal
    assert not (tmp_path / "games" / failed[0].name.replace(".failed", "")).exists()


@pytest.mark.parametrize("game", ["board", "cards"])
def test_both_games_with_more_seats_than_bots(tmp_path: Path, game: str) -> None:
    if game == "cards":
        cards = pytest.importorskip("keltis.cards", reason="the card game is not written yet")
        if not hasattr(cards, "CardGame"):
            pytest.skip("the card game is not written yet")
    tournament = Tournament.create(
        game, parse_bots(["greedy", "random"]), players=4, games=12, seed=11
    )
    assert tournament.balance_period == 12
    serial = run(tmp_path / "serial", tournament, workers=1)
    pooled = run(tmp_path / "pool", tournament, workers=2)
    assert pooled == serial
    results = serial["results"]
    assert isinstance(results, dict)
    assert results["tournament"]["game"] == game
    for bot in results["bots"]:
        assert bot["games"] == 12
        assert bot["seat_games"] == 24  # tables of 3+1, 2+2 and 1+3 seats, 4 games each
        assert [s["seat_games"] for s in bot["by_seat"]] == [6, 6, 6, 6]
    for index in range(12):
        record, _ = GameRecord.load(tmp_path / "serial" / "games" / f"{index:05d}.json")
        assert record.game == game
        assert record.replay().outcome().to_json() == record.result


def test_a_dead_worker_process_stops_the_tournament_instead_of_hanging(tmp_path: Path) -> None:
    tournament = Tournament.create(
        "board", parse_bots(["random", "arena_bots:DyingBot"]), games=4, seed=1
    )
    summary = run_tournament(tournament, tmp_path, workers=2)
    assert summary.failure is not None
    assert re.fullmatch(
        r"game [0-3]: its worker process died \(exit code 3: out of memory, killed, or a "
        r"crash in native code\)",
        summary.failure,
    )
    assert not summary.complete
    assert not list((tmp_path / "games").glob("*.failed.json"))  # nothing to keep

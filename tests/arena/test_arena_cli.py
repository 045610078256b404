"""``keltis arena`` on the command line: outputs, errors, Ctrl-C and --resume."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from arena_helpers import played

from keltis.cli import main

HERE = Path(__file__).parent


def arena(*args: str) -> int:
    return main(["arena", "--quiet", *args])


def test_a_tournament_writes_records_results_and_a_plot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "t"
    assert arena("greedy", "random", "--games", "6", "--seed", "2", "--workers", "1",
                 "--out", str(out), "--json") == 0  # fmt: skip
    printed = json.loads(capsys.readouterr().out)
    assert printed == json.loads((out / "results.json").read_text())
    assert printed["tournament"]["seed"] == 2
    assert printed["tournament"]["variant"] == {"turn_cap": 1000, "no_take_back": True}
    assert [b["name"] for b in printed["bots"]] == ["greedy", "random"]
    assert sorted(p.name for p in (out / "games").iterdir()) == [f"{i:05d}.json" for i in range(6)]
    assert json.loads((out / "tournament.json").read_text())["games"] == 6
    png = (out / "report.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(png) > 10_000


def test_the_table_names_the_bots_and_where_the_files_are(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "t"
    assert arena("greedy", "random", "third=random", "--games", "3", "--workers", "1",
                 "--out", str(out), "--no-plot") == 0  # fmt: skip
    captured = capsys.readouterr()
    for text in ("win rate", "95% CI", "greedy", "third", "head to head", "3/3 games"):
        assert text in captured.out
    assert f"Results in {out / 'results.json'}" in captured.err
    assert not (out / "report.png").exists()


def test_list_bots(capsys: pytest.CaptureFixture[str]) -> None:
    assert arena("--list-bots") == 0
    listed = capsys.readouterr().out
    assert "greedy" in listed
    assert "package.module:ClassName" in listed


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["greedy"], "name at least two bots"),
        (["greedy", "nope"], "unknown bot 'nope'"),
        (["greedy", "random", "--players", "5"], "is for 2-4 players, not 5"),
        (["greedy", "greedy"], "given twice"),
        (["greedy", "random", "--game", "chess"], "unknown game 'chess'"),
        (["greedy", "random", "--game", "cards", "--take-back"], "board-game variant"),
        (["greedy:depth=2", "random"], "bot 'greedy' has no option 'depth'"),
        (["greedy", "random", "--turn-cap", "-1"], None),
    ],
)
def test_bad_input_gets_a_clear_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str | None
) -> None:
    if message is None:  # refused by argparse itself
        with pytest.raises(SystemExit):
            arena(*args, "--out", str(tmp_path / "t"))
        assert "--turn-cap: must be 0 (no cap) or more" in capsys.readouterr().err
        return
    assert arena(*args, "--out", str(tmp_path / "t")) == 2
    err = capsys.readouterr().err
    assert err.startswith("keltis arena: ")
    assert message in err
    assert not (tmp_path / "t").exists()


@pytest.mark.parametrize(
    ("options", "no_take_back"), [([], True), (["--take-back"], False), (["--no-take-back"], True)]
)
def test_take_back_is_a_board_game_variant_stated_in_the_tournament(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str], no_take_back: bool
) -> None:
    # B-15: no take-back by default; --take-back allows it; the old --no-take-back is a no-op.
    out = tmp_path / "t"
    assert arena("greedy", "random", "--games", "1", "--workers", "1", "--no-plot",
                 "--out", str(out), *options) == 0  # fmt: skip
    capsys.readouterr()
    variant = json.loads((out / "tournament.json").read_text())["variant"]
    assert variant == {"turn_cap": 1000, "no_take_back": no_take_back}
    record = json.loads((out / "games" / "00000.json").read_text())
    assert record["variant"]["no_take_back"] is no_take_back
    assert arena("--resume", str(out), "--take-back") == 2
    assert "not --take-back" in capsys.readouterr().err


def test_resume_of_nothing(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert arena("--resume", str(tmp_path / "none")) == 2
    assert "holds no tournament (tournament.json is missing)" in capsys.readouterr().err


def test_resume_takes_only_run_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "t"
    assert arena("greedy", "random", "--games", "2", "--workers", "1", "--out", str(out)) == 0
    assert arena("--resume", str(out), "greedy", "--seed", "3") == 2
    assert "give only --games" in capsys.readouterr().err
    assert arena("--resume", str(out), "--games", "4", "--workers", "1", "--json") == 0
    assert json.loads(capsys.readouterr().out)["games_played"] == 4


def test_an_import_path_bot_from_the_current_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "my_arena_bot_xyz.py").write_text(
        "from keltis.bots import RandomBot\n\nclass Mine(RandomBot):\n    name = 'mine'\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    assert arena("me=my_arena_bot_xyz:Mine", "greedy", "--games", "2", "--workers", "2",
                 "--out", str(tmp_path / "t"), "--json") == 0  # fmt: skip
    results = json.loads(capsys.readouterr().out)
    assert results["bots"][0]["name"] == "me"
    assert results["bots"][0]["spec"] == "my_arena_bot_xyz:Mine"


@pytest.mark.slow
def test_ctrl_c_keeps_the_finished_games_and_resume_completes_them(tmp_path: Path) -> None:
    # Slow games (a delay per decision) and far more of them than it takes for the first two
    # to finish, so that Ctrl-C lands mid-tournament even on a busy machine; the resumed and
    # the whole tournament run here without the delay.
    out = tmp_path / "cut"
    command = [sys.executable, "-m", "keltis", "arena", "greedy", "arena_bots:SlowBot",
               "--games", "60", "--seed", "5", "--workers", "2", "--out", str(out)]  # fmt: skip
    env = {**os.environ, "KELTIS_TEST_BOT_DELAY": "0.004"}
    # A terminal's program gets Ctrl-C; one started under a shell that ignores SIGINT (a
    # background job, as CI may run us) would inherit the ignoring: restore the default.
    process = subprocess.Popen(
        command, cwd=HERE, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while len(list((out / "games").glob("*.json"))) < 2:
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "no game finished within a minute"
            time.sleep(0.05)
        os.killpg(process.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole group
        _, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    assert process.returncode == 130, err
    assert "Interrupted after" in err
    assert f"keltis arena --resume {out}" in err
    assert "Traceback" not in err
    results = json.loads((out / "results.json").read_text())
    saved = sorted((out / "games").glob("*.json"))
    assert results["complete"] is False
    assert 2 <= results["games_played"] == len(saved) < 60
    assert not list((out / "games").glob("*.tmp"))

    whole = tmp_path / "whole"
    assert arena("--resume", str(out), "--workers", "1", "--no-plot") == 0
    assert arena(*command[4:-4], "--workers", "1", "--out", str(whole), "--no-plot") == 0
    assert played(out) == played(whole)


def test_ctrl_c_while_setting_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import keltis.arena.cli

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(keltis.arena.cli, "run_tournament", interrupted)
    assert arena("greedy", "random", "--out", str(tmp_path / "t")) == 130
    assert capsys.readouterr().err == "Interrupted.\n"

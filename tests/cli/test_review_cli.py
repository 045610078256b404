"""``keltis review RECORD``: a finished game's review on the command line (issue 41) — the JSON
validates against its schema, the table shows every decision reviewed in the player's
language, ``--seat``/``--all`` choose the seats, and every error is one clear line with its
exit status. The budget is tiny (16 playouts a decision), so each review takes about a second."""

from __future__ import annotations

import argparse
import dataclasses
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from keltis.bots import make_bot
from keltis.cli import build_parser, main
from keltis.i18n import Translator
from keltis.record import GameRecord, PlayerInfo
from keltis.review import Luck, Review, ReviewBudget, review
from keltis.tui import review_table
from keltis.tui.review_table import luck_lines, render, run_review
from keltis.wire import validate

BUDGET = "iterations=16,width=2,luck_playouts=2"

#: The records: (game, seats' kinds, seed); "human" seats are played by a greedy bot.
GAMES = {
    "board2": ("board", ["human", "greedy"], 1),
    "cards2": ("cards", ["greedy", "human"], 2),
    "board4": ("board", ["greedy", "human", "greedy", "human"], 3),
    "cards4": ("cards", ["greedy"] * 4, 4),
}


def _record(game: str, kinds: list[str], seed: int, moves: int | None = None) -> GameRecord:
    """A seeded game of greedy bots (a "human" seat too), to its end or ``moves`` moves."""
    names = ["Ann", "Bob", "Cid", "Dag"]
    players = [PlayerInfo(names[i], kind) for i, kind in enumerate(kinds)]
    record = GameRecord.start(game, players, seed=seed)
    state = record.new_state()
    bots = [make_bot("greedy", i) for i in range(len(kinds))]
    while not state.over and (moves is None or len(state.history) < moves):
        state.apply(bots[state.current_player].choose(state.view(state.current_player)))
    record.finish(state)
    return record


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("review")
    out = {name: _record(*spec).save(folder / f"{name}.json") for name, spec in GAMES.items()}
    out["unfinished"] = _record("board", ["human", "greedy"], 1, moves=30).save(
        folder / "unfinished.json"
    )
    bad = folder / "bad.json"
    bad.write_text('{"format": "keltis-record", "version": 1, "actions": [', encoding="utf-8")
    out["bad"] = bad
    return out


@pytest.fixture(scope="module")
def board2_review(files: dict[str, Path]) -> tuple[GameRecord, Review]:
    """The review of the two-player board game for its person's seat (seat 0)."""
    record, _ = GameRecord.load(files["board2"])
    return record, review(record, [0], ReviewBudget.parse(BUDGET))


@pytest.fixture(autouse=True)
def _plain_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("KELTIS_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", "NO_COLOR"):
        monkeypatch.delenv(name, raising=False)


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["review", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _args(path: Path, *more: str) -> argparse.Namespace:
    return build_parser(["review"]).parse_args(["review", str(path), "--budget", BUDGET, *more])


class Terminal(io.StringIO):
    """A text stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


# -- JSON -------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(GAMES))
def test_json_is_the_review_and_nothing_else_and_validates(
    name: str, files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = _run(capsys, str(files[name]), "--json", "--budget", BUDGET)
    assert status == 0
    assert err == ""  # standard error is no terminal here: no progress bar
    doc = json.loads(out)  # the whole of standard output is the one document
    validate("review", doc)
    game, kinds, _ = GAMES[name]
    people = [seat for seat, kind in enumerate(kinds) if kind == "human"]
    assert doc["game"] == game
    assert doc["seats"] == (people or list(range(len(kinds))))
    assert doc["budget"] == {"iterations": 16, "width": 2, "luck_playouts": 2, "seed": 0}
    assert doc["decisions"], "a whole game has decisions to judge"
    assert {d["seat"] for d in doc["decisions"]} == set(doc["seats"])
    assert [s["seat"] for s in doc["summaries"]] == doc["seats"]


def test_all_and_seat_choose_the_seats(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = _run(capsys, str(files["board4"]), "--json", "--all", "--budget", BUDGET)
    assert status == 0
    assert json.loads(out)["seats"] == [0, 1, 2, 3]
    # seats are counted from 1 on the command line, from 0 in the JSON
    status, out, _ = _run(
        capsys, str(files["board4"]), "--json", "--seat", "3", "--seat", "1", "--budget", BUDGET
    )
    assert status == 0
    doc = json.loads(out)
    assert doc["seats"] == [0, 2]
    assert {d["seat"] for d in doc["decisions"]} == {0, 2}


# -- the table --------------------------------------------------------------------------------


def _table_rows(text: str) -> dict[int, str]:
    """The table's lines by move number (the lines that start with a number)."""
    rows = {}
    for line in text.splitlines():
        found = re.match(r"\s*(\d+)\s", line)
        if found:
            rows[int(found.group(1))] = line
    return rows


def test_the_table_has_a_line_for_every_decision(
    board2_review: tuple[GameRecord, Review],
) -> None:
    record, result = board2_review
    text = render(result, record, Translator("en"))
    rows = _table_rows(text)
    assert set(rows) == {d.index + 1 for d in result.decisions}
    for d in result.decisions:
        cells = rows[d.index + 1].split()
        assert cells[1] == str(d.turn + 1)
        assert d.played.action.split()[0] in cells
        assert f"{round(d.played.win * 100)}%" in cells
        assert cells[-1] == d.mark
        if d.mark != "best":
            assert f"±{round(d.error * 100)}" in cells
    summary = result.summaries[0]
    assert f"Ann (1): accuracy {round(summary.accuracy)}%" in text
    assert "Marks: best {best} · good {good} · inaccuracy".format(**summary.marks) in text
    assert "16 playouts per decision" in text
    assert "\x1b" not in text


def test_the_table_on_the_command_line_shows_the_reviewed_seat_only(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = _run(capsys, str(files["board4"]), "--seat", "2", "--budget", BUDGET)
    assert (status, err) == (0, "")
    rows = _table_rows(out)
    assert rows
    assert all(" Bob (2) " in line for line in rows.values())
    assert "Bob (2): accuracy" in out
    assert "Ann (1): accuracy" not in out
    assert "\x1b" not in out  # not a terminal: no colour


def test_a_language_of_its_own(
    board2_review: tuple[GameRecord, Review], files: dict[str, Path]
) -> None:
    record, result = board2_review
    german = render(result, record, Translator("de"))
    assert german.startswith("Analyse: Brettspiel, 2 Spieler")
    for word in ("Wertung", "Genauigkeit", "Ungenauigkeit", "Patzer", "Punkte Siegchance"):
        assert word in german
    for english in ("Mark", "accuracy", "inaccuracy", "blunder", "points of win chance"):
        assert english not in german
    # the environment chooses it as for keltis play
    out = io.StringIO()
    assert run_review(_args(files["cards2"]), out, io.StringIO(), {"LANG": "cs_CZ.UTF-8"}) == 0
    assert out.getvalue().startswith("Rozbor: karetní hra, 2 hráči")
    assert "přesnost" in out.getvalue()


def test_marks_are_coloured_on_a_terminal_only(files: dict[str, Path]) -> None:
    plain, terminal, no_color = io.StringIO(), Terminal(), Terminal()
    for out, env in ((plain, {}), (terminal, {"TERM": "xterm"}), (no_color, {"NO_COLOR": "1"})):
        assert run_review(_args(files["cards2"]), out, io.StringIO(), env) == 0
    assert "\x1b[" not in plain.getvalue()
    assert "\x1b[" not in no_color.getvalue()
    assert "\x1b[1;32mbest\x1b[0m" in terminal.getvalue()
    # the table's words are the same, colour or not
    uncoloured = re.sub(r"\x1b\[[0-9;]*m", "", terminal.getvalue())
    assert _table_rows(uncoloured) == _table_rows(plain.getvalue())


def test_progress_goes_to_a_terminal_on_standard_error_and_is_wiped(
    files: dict[str, Path],
) -> None:
    err, quiet = Terminal(), io.StringIO()
    assert run_review(_args(files["cards2"], "--json"), io.StringIO(), err, {}) == 0
    assert run_review(_args(files["cards2"], "--json"), io.StringIO(), quiet, {}) == 0
    shown = err.getvalue()
    total = int(re.search(r"Reviewing: 0/(\d+)", shown).group(1))  # type: ignore[union-attr]
    assert f"Reviewing: {total}/{total} [{'#' * 30}]" in shown
    assert shown.endswith("\r")
    assert shown.rsplit("\r", 2)[-2].strip() == ""  # the last line drawn: spaces only
    assert quiet.getvalue() == ""


def test_luck_in_words() -> None:
    names = ["Ann (1)", "Bob (2)"]
    events = [
        Luck("deal", 0, 0, None, (0.5, 0.5), (0.45, 0.55), 8, error=(0.03, 0.03)),
        Luck("draw", 40, 30, 0, (0.6, 0.4), (0.42, 0.58), 2, error=(0.06, 0.06)),
        Luck("draw", 43, 31, 1, (0.42, 0.58), (0.43, 0.57), 2, error=(0.005, 0.005)),
        # under a point: left out
        Luck("draw", 46, 32, 0, (0.43, 0.57), (0.435, 0.565), 2, error=(0.0, 0.0)),
        # larger than the others but within its own error (noise): left out
        Luck("draw", 49, 33, 1, (0.435, 0.565), (0.135, 0.865), 2, error=(0.31, 0.31)),
    ]
    t = Translator("en")
    assert luck_lines(events, 0, names, t) == [
        "Turn 31: your draw from the draw pile cost you 18 points of win chance.",
        "The deal of the hands cost you 5 points of win chance.",
        "Turn 32: Bob (2) drew from the draw pile; that gave you 1 point of win chance.",
    ]
    assert luck_lines(events, 1, names, t)[0] == (
        "Turn 31: Ann (1) drew from the draw pile; that gave you 18 points of win chance."
    )
    assert luck_lines(events, 0, names, Translator("pl"))[0] == (
        "Tura 31: twoja karta z zakrytego stosu kosztowała cię 18 punktów szansy na wygraną."
    )


def test_a_seats_luck_is_told_with_its_error(board2_review: tuple[GameRecord, Review]) -> None:
    record, result = board2_review
    summary = result.summaries[0]
    points = round(summary.luck * 100)
    sign = "+" if points > 0 else ("−" if points < 0 else "")
    text = " ".join(render(result, record, Translator("en")).split())
    assert (
        f"Luck: {sign}{abs(points)} point{'' if abs(points) == 1 else 's'} of win chance "
        f"(±{round(summary.luck_error * 100)}) from the deal and the draws"
    ) in text
    # a review without luck (luck_playouts=0) says nothing about it, rather than "0 points"
    unmeasured = render(dataclasses.replace(result, luck=()), record, Translator("en"))
    assert "Luck:" not in unmeasured
    assert "Marks:" in unmeasured


# -- errors -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "options", "status", "words"),
    [
        ("unfinished", [], 1, "is not over: only a finished game can be reviewed"),
        ("missing", [], 1, "There is no record at"),
        ("bad", [], 1, "cannot be read: line 1: not valid JSON"),
        ("board2", ["--seat", "3"], 2, "There is no seat 3 in this game: its seats are 1 to 2."),
        ("board2", ["--seat", "0"], 2, "There is no seat 0 in this game"),
        ("board2", ["--budget", "iterations=many"], 2, "iterations must be a whole number"),
        ("board2", ["--budget", "depth=3"], 2, "unknown budget part 'depth'"),
        ("board2", ["--budget", "iterations=2"], 2, "iterations must lie in 16…100000"),
    ],
)
def test_errors_are_one_clear_line(
    name: str,
    options: list[str],
    status: int,
    words: str,
    files: dict[str, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = files.get(name, tmp_path / "nowhere.json")
    got, out, err = _run(capsys, str(path), *options)
    assert got == status
    assert out == ""
    assert err.startswith("keltis review: ")
    assert words in err
    assert err.count("\n") == 1


def test_an_error_in_the_players_language(
    files: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = _run(capsys, str(files["unfinished"]), "--lang", "es")
    assert status == 1
    assert "no ha terminado: solo se puede analizar una partida acabada" in err


def test_ctrl_c_stops_cleanly(files: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*args: object, **kwargs: object) -> Review:
        raise KeyboardInterrupt

    monkeypatch.setattr(review_table, "review", interrupted)
    out, err = io.StringIO(), Terminal()
    assert run_review(_args(files["board2"]), out, err, {}) == 130
    assert out.getvalue() == ""
    assert err.getvalue() == "keltis review: Review stopped: nothing was printed.\n"


def test_help_says_how_seats_are_counted(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["review", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "counted from 1" in text
    default = ReviewBudget()  # the help's default is the review's
    assert (
        f"iterations={default.iterations},width={default.width},"
        f"luck_playouts={default.luck_playouts},seed={default.seed} (the default" in text
    )


# -- the real command -------------------------------------------------------------------------


def _environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("KELTIS_LANG", "NO_COLOR")}
    env["LANG"] = "C.UTF-8"
    return env


def test_the_command_prints_json_to_a_pipe(files: dict[str, Path]) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "keltis",
            "review",
            str(files["cards2"]),
            "--json",
            "--budget",
            BUDGET,
        ],
        capture_output=True,
        text=True,
        env=_environment(),
        timeout=120,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    validate("review", json.loads(done.stdout))


def test_the_command_refuses_a_bad_budget_without_a_traceback(files: dict[str, Path]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "keltis", "review", str(files["board2"]), "--budget", "width=0"],
        capture_output=True,
        text=True,
        env=_environment(),
        timeout=120,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == (
        "keltis review: Cannot read the budget “width=0”: width must lie in 1…20, not 0. "
        "Give, e.g., iterations=400,width=3,luck_playouts=128,seed=0.\n"
    )


def test_a_closed_pipe_ends_the_command_quietly(files: dict[str, Path]) -> None:
    read, write = os.pipe()
    os.close(read)  # the reader is gone before the table is written
    try:
        done = subprocess.run(
            [sys.executable, "-m", "keltis", "review", str(files["cards2"]), "--budget", BUDGET],
            stdout=write,
            stderr=subprocess.PIPE,
            env=_environment(),
            timeout=120,
            check=False,
        )
    finally:
        os.close(write)
    assert (done.returncode, done.stderr) == (0, b"")

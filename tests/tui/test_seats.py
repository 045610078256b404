"""``keltis play``'s seats: every bot spec the arena takes (levels and personas in any case,
options, import paths, labels), readable seat names, the spec kept in the record for
``--resume``, and the command that continues a game."""

from __future__ import annotations

import argparse
import os
import re
import shlex
import sys
from pathlib import Path

import pytest

from keltis.cli import main
from keltis.i18n import Translator
from keltis.record import GameRecord
from keltis.tui.app import resume_command, seat_names, seats_from_args, split_seats

from .helpers import play

EN = Translator("en")


def _args(**given: object) -> argparse.Namespace:
    values: dict[str, object] = {"seats": None, "hotseat": False, "players": 3, "bot": "medium"}
    values.update(given)
    return argparse.Namespace(**values)


@pytest.mark.parametrize(
    ("given", "seats"),
    [
        ({}, ["human", "medium", "medium"]),
        ({"bot": "Morrigan"}, ["human", "hard", "hard"]),
        ({"bot": "HARD:seconds=2", "players": 2}, ["human", "hard:seconds=2"]),
        ({"bot": "ismcts:iterations=50,seconds=1", "players": 2},
         ["human", "ismcts:iterations=50,seconds=1"]),
        ({"seats": "Human,GREEDY,brigid"}, ["human", "greedy", "easy"]),
        ({"seats": "human,ismcts:iterations=50,seconds=1,greedy"},
         ["human", "ismcts:iterations=50,seconds=1", "greedy"]),
        ({"seats": "human;me=ismcts:iterations=50,seconds=1;a=greedy"},
         ["human", "me=ismcts:iterations=50,seconds=1", "a=greedy"]),
        ({"seats": "human,a=greedy,b=greedy"}, ["human", "a=greedy", "b=greedy"]),
        ({"seats": "human,keltis.bots.base:RandomBot"}, ["human", "keltis.bots.base:RandomBot"]),
        ({"hotseat": True, "players": 2}, ["human", "human"]),
    ],
)  # fmt: skip
def test_seats_take_every_bot_spec(given: dict[str, object], seats: list[str]) -> None:
    assert seats_from_args(_args(**given)) == seats


def test_split_seats() -> None:
    assert split_seats("human, greedy ,random") == ["human", "greedy", "random"]
    assert split_seats("human,hard:seconds=2,width=3,easy") == [
        "human",
        "hard:seconds=2,width=3",
        "easy",
    ]
    assert split_seats("human;x=greedy") == ["human", "x=greedy"]


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"bot": "ismcts:iterations=abc"},
         "--bot: ismcts option iterations: 'abc' is not a whole number"),
        ({"bot": "clever"}, "--bot: unknown bot 'clever': choose one of random, greedy"),
        ({"seats": "human,greedy,hard:depth=2"},
         "--seats, seat 3: bot 'hard' has no option 'depth'"),
        ({"seats": "human,no_such_module_xyz:Bot"}, "cannot import 'no_such_module_xyz'"),
        ({"seats": "human,greedy,greedy,greedy,greedy"}, "2-4 players, not 5"),
    ],
)  # fmt: skip
def test_bad_seats_are_refused_clearly(given: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        seats_from_args(_args(**given))


def test_seat_names_stay_readable() -> None:
    kinds = ["human", "hard:seconds=2", "mine=ismcts:iterations=50", "keltis.bots.base:RandomBot"]
    assert seat_names(kinds, None, EN) == [
        "You",
        "Morrigan bot 2",
        "mine bot 3",
        "RandomBot bot 4",
    ]
    assert seat_names(["human", "ismcts:iterations=5"], None, EN)[1] == "Ismcts bot 2"


def test_the_record_keeps_the_spec_and_resume_rebuilds_the_bot(tmp_path: Path) -> None:
    spec = "ismcts:iterations=5,playout_rounds=1"
    first = play(["--seats", f"human,{spec}", "--seed", "3"], ["1", "1"], tmp=tmp_path)
    assert first.status == 0
    record, _ = GameRecord.load(first.record)
    assert [p.kind for p in record.players] == ["human", spec]
    assert record.players[1].name == "Ismcts bot 2"
    moves = len(record.actions)
    second = play(["--resume", str(first.record)], ["1", "1"], tmp=tmp_path)
    assert second.status == 0
    again, _ = GameRecord.load(first.record)
    assert len(again.actions) > moves
    assert again.actions[:moves] == record.actions


def test_levels_by_persona_in_any_case(tmp_path: Path) -> None:
    run = play(["--bot", "BRIGID", "--players", "2", "--seed", "3"], ["quit"], tmp=tmp_path)
    assert run.status == 0
    record, _ = GameRecord.load(run.record)
    assert [(p.name, p.kind) for p in record.players] == [
        ("You", "human"),
        ("Brigid bot 2", "easy"),
    ]


def test_a_bad_bot_option_is_one_clear_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--bot", "ismcts:iterations=abc"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "keltis play: --bot: ismcts option iterations: 'abc' is not a whole number "
        "(a seat is human or a bot)\n"
    )


def test_list_bots_describes_the_levels(tmp_path: Path) -> None:
    run = play(["--list-bots"], [], tmp=tmp_path)
    assert run.status == 0
    for persona in ("Brigid", "Fionn", "Morrigan"):
        assert persona in run.output
    assert "learned-search" in run.output
    assert "package.module:ClassName" in run.output


def test_the_resume_command_names_the_program_as_it_can_be_typed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "my game.json"
    program = tmp_path / "bin" / "keltis"
    program.parent.mkdir()
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    monkeypatch.setenv("PATH", "/nonexistent")
    quoted = shlex.quote(str(path))
    # not on the PATH (after make install: .venv/bin/keltis): the program as it was started
    assert resume_command(path, str(program)) == f"{program} play --resume {quoted}"
    monkeypatch.chdir(tmp_path)
    assert resume_command(path, "bin/keltis") == f"bin/keltis play --resume {quoted}"
    # on the PATH: plain keltis
    monkeypatch.setenv("PATH", str(program.parent) + os.pathsep + "/nonexistent")
    assert resume_command(path, str(program)) == f"keltis play --resume {quoted}"
    # python -m keltis
    main_py = str(Path(sys.modules["keltis"].__file__ or "").with_name("__main__.py"))
    assert resume_command(path, main_py) == (
        f"{shlex.quote(sys.executable)} -m keltis play --resume {quoted}"
    )

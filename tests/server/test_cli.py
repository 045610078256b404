"""``keltis serve``'s options."""

from __future__ import annotations

from typing import get_args

import pytest

from keltis.cli import build_parser
from keltis.server.app import create_app
from keltis.server.bodies import SeatRequest
from keltis.server.cli import STAND_IN_LEVELS, config_from_args
from keltis.server.config import ServerConfig
from keltis.server.db import default_url
from keltis.server.workers import BOT_LEVELS


def test_defaults_serve_sqlite_in_the_data_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KELTIS_DATABASE_URL", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", "/tmp/keltis-data")
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port) == ("127.0.0.1", 8000)
    config = config_from_args(args)
    assert config.database == "sqlite:////tmp/keltis-data/keltis/server.sqlite3"
    assert config.database == default_url()
    assert config.presence_interval < config.away_after
    assert config.burst == 2 * config.rate


def test_options_and_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KELTIS_DATABASE_URL", "postgresql://keltis@db/keltis")
    args = build_parser().parse_args(
        ["serve", "--away-after", "30", "--bot-delay", "0", "--stand-in", "hard", "--rate", "5"]
    )
    config = config_from_args(args)
    assert config.database == "postgresql://keltis@db/keltis"
    assert (config.away_after, config.bot_delay, config.stand_in_level) == (30, 0, "hard")
    assert config.presence_interval == 10
    assert (config.rate, config.burst) == (5, 10)
    explicit = config_from_args(build_parser().parse_args(["serve", "--db", "sqlite:///x.db"]))
    assert explicit.database == "sqlite:///x.db"


def test_every_bot_level_is_offered_for_seats_and_stand_ins() -> None:
    """The written-out levels (a seat's ``level``, ``--stand-in``) are the levels for people,
    after ``random``."""
    assert BOT_LEVELS == ("random", "easy", "medium", "hard")
    assert STAND_IN_LEVELS == BOT_LEVELS
    assert get_args(SeatRequest.model_fields["level"].annotation) == BOT_LEVELS
    args = build_parser().parse_args(["serve", "--stand-in", "hard"])
    assert config_from_args(args).stand_in_level == "hard"


def test_review_options_and_a_bad_budget_refused_with_what_is_wrong() -> None:
    defaults = config_from_args(build_parser().parse_args(["serve"]))
    assert (defaults.review_budget, defaults.review_workers) == ("", 1)
    assert (defaults.review_rate, defaults.review_lease) == (10.0, 60.0)
    args = build_parser().parse_args(
        [
            "serve",
            "--review-budget",
            "iterations=800,width=4",
            "--review-workers",
            "0",
            "--review-rate",
            "3",
            "--review-lease",
            "20",
        ]
    )
    config = config_from_args(args)
    assert config.review_budget == "iterations=800,width=4"
    assert (config.review_workers, config.review_rate, config.review_lease) == (0, 3, 20)
    bad = build_parser().parse_args(["serve", "--review-budget", "iterations=800,depth=4"])
    with pytest.raises(ValueError, match="--review-budget 'iterations=800,depth=4': unknown"):
        config_from_args(bad)
    with pytest.raises(ValueError, match="iterations must lie in 16"):
        create_app(ServerConfig("sqlite://", review_budget="iterations=2"))


@pytest.mark.parametrize(
    "options",
    [
        ["--port", "http"],
        ["--bot-delay", "-1"],
        ["--stand-in", "genius"],
        ["--rate", "0"],
        ["--review-rate", "0"],
        ["--review-workers", "-1"],
    ],
)
def test_bad_options_are_refused(options: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        build_parser().parse_args(["serve", *options])
    assert exited.value.code == 2
    assert options[0] in capsys.readouterr().err


def test_a_database_that_is_no_url_is_refused_with_what_one_looks_like(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    args = build_parser().parse_args(["serve", "--db", "/tmp/keltis.db"])
    with pytest.raises(ValueError, match=r"'/tmp/keltis.db' is not a database URL: give e.g."):
        config_from_args(args)
    monkeypatch.setenv("KELTIS_DATABASE_URL", "keltis.sqlite3")
    with pytest.raises(ValueError, match="not a database URL"):
        config_from_args(build_parser().parse_args(["serve"]))


def test_the_servers_own_lines_follow_log_level(capsys: pytest.CaptureFixture[str]) -> None:
    """``--log-level info`` shows the server's info lines (a review claimed, a seat out of
    time), not only uvicorn's; ``warning`` hides them; asking twice adds no second handler."""
    import logging

    from keltis.server.cli import server_logging

    logger = logging.getLogger("keltis")
    before = list(logger.handlers), logger.level
    try:
        server_logging("info")
        server_logging("info")
        assert len(logger.handlers) == len(before[0]) + 1
        logging.getLogger("keltis.server").info("review of match %s claimed", "m1")
        assert "INFO:keltis.server: review of match m1 claimed" in capsys.readouterr().err
        server_logging("warning")
        logging.getLogger("keltis.server").info("not shown")
        logging.getLogger("keltis.server").warning("shown")
        err = capsys.readouterr().err
        assert "not shown" not in err
        assert "WARNING:keltis.server: shown" in err
    finally:
        logger.handlers[:] = before[0]
        logger.setLevel(before[1])

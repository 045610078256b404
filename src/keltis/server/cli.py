"""``keltis serve``: its options (imported by ``keltis --help``, so nothing heavy here) and
the command (which starts uvicorn)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from keltis.argtypes import number

#: Seconds (0 or more), a count (0 or more) and a rate (more than 0).
_seconds = number(float, 0)
_count = number(int, 0)
_positive = number(float, 0, above=True)


def add_serve_parser(sub: Any) -> None:
    """``keltis serve``'s options on the ``keltis`` command's sub-parsers."""
    serve = sub.add_parser(
        "serve",
        help="run the game server (play in the browser, online with friends)",
        description="Run the Keltis game server: matches over HTTP and WebSocket, stored in "
        "a database (by default SQLite in your data folder). See docs/server.md.",
    )
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    serve.add_argument("--port", type=_count, default=8000, help="port (default 8000)")
    serve.add_argument(
        "--db",
        default=None,
        metavar="URL",
        help="a SQLAlchemy database URL, e.g. postgresql://user@host/keltis (default: "
        "SQLite at $XDG_DATA_HOME/keltis/server.sqlite3); also $KELTIS_DATABASE_URL",
    )
    serve.add_argument(
        "--bot-delay", type=_seconds, default=0.6, help="pause before each bot move (0.6 s)"
    )
    serve.add_argument(
        "--bot-workers",
        type=_count,
        default=None,
        help="processes for bots and hints (default: CPUs, at most 4; 0: threads)",
    )
    serve.add_argument(
        "--away-after",
        type=_seconds,
        default=120.0,
        help="seconds unseen before the others may hand a player's seat to a bot (120)",
    )
    serve.add_argument(
        "--stand-in",
        choices=("random", "easy", "medium", "hard"),
        default="medium",
        help="level of the bot that plays for an away player (medium)",
    )
    serve.add_argument(
        "--rate",
        type=_positive,
        default=25.0,
        help="messages per second one connection may send on average, twice that at once "
        "(25); more are refused, and a flood closes the connection",
    )
    serve.add_argument(
        "--create-rate",
        type=_positive,
        default=1.0,
        help="matches one address may create per second on average, burst 30 (1)",
    )
    serve.add_argument(
        "--log-level",
        choices=("critical", "error", "warning", "info", "debug"),
        default="info",
        help="how much to log (info)",
    )


def config_from_args(args: argparse.Namespace) -> Any:
    """The :class:`~keltis.server.config.ServerConfig` of ``keltis serve``'s options."""
    from keltis.server.config import ServerConfig
    from keltis.server.db import default_url

    workers = args.bot_workers
    if workers is None:
        workers = max(1, min(4, os.cpu_count() or 1))
    away = args.away_after
    return ServerConfig(
        database=args.db or os.environ.get("KELTIS_DATABASE_URL") or default_url(),
        bot_delay=args.bot_delay,
        bot_workers=workers,
        away_after=away,
        stand_in_level=args.stand_in,
        presence_interval=max(0.05, min(20.0, away / 3)),
        rate=args.rate,
        create_rate=args.create_rate,
        burst=max(1, round(2 * args.rate)),
    )


def run_serve(args: argparse.Namespace) -> int:
    """Start the server and serve until interrupted."""
    try:
        import uvicorn

        from keltis.server.app import create_app
    except ImportError as error:
        print(
            f"keltis serve: the server needs its extra: pip install 'keltis[server]' ({error})",
            file=sys.stderr,
        )
        return 2
    import sqlalchemy as sa

    config = config_from_args(args)
    shown = sa.make_url(config.database).render_as_string(hide_password=True)
    print(f"Keltis server on http://{args.host}:{args.port}/ (database: {shown})", flush=True)
    uvicorn.run(
        create_app(config),
        host=args.host,
        port=args.port,
        ws_max_size=config.max_frame,
        log_level=args.log_level,
        lifespan="on",
    )
    return 0

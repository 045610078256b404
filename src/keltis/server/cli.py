"""``keltis serve``: its options (imported by ``keltis --help``, so nothing heavy here) and
the command (which starts uvicorn)."""

from __future__ import annotations

import argparse
import errno
import logging
import os
import socket
import sys
import threading
from typing import Any
from urllib.parse import urlsplit

from keltis.argtypes import number
from keltis.server.config import ServerConfig

#: Seconds (0 or more), a count (0 or more) and a rate (more than 0).
_seconds = number(float, 0)
_count = number(int, 0)
_positive = number(float, 0, above=True)
#: ``--stand-in``'s choices: ``keltis.server.workers.BOT_LEVELS``, written out because
#: importing the levels would load the bots on ``keltis --help`` (a test keeps them equal).
STAND_IN_LEVELS = ("random", "easy", "medium", "hard")


def add_serve_parser(sub: Any) -> None:
    """``keltis serve``'s options on the ``keltis`` command's sub-parsers."""
    serve = sub.add_parser(
        "serve",
        help="run the game server (play in the browser, online with friends)",
        description="Run the Keltis game server: matches over HTTP and WebSocket, stored in "
        "a database (by default SQLite in your data folder). See docs/server.md.",
    )
    _add_play_options(serve)
    _add_client_options(serve)
    _add_password_options(serve)
    _add_lobby_options(serve)
    _add_mail_options(serve)
    _add_review_options(serve)
    serve.add_argument(
        "--open",
        action="store_true",
        help="open the start page in your browser once the server listens",
    )
    serve.add_argument(
        "--allow-setup",
        action="store_true",
        help="let new matches choose the deal by hand (an explicit set-up): for tests and "
        "demos only, since whoever creates such a match knows every hand",
    )
    serve.add_argument(
        "--log-level",
        choices=("critical", "error", "warning", "info", "debug"),
        default="info",
        help="how much to log (info)",
    )


def _add_play_options(serve: argparse.ArgumentParser) -> None:
    """Where the server listens and stores, and how its bots play."""
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
        choices=STAND_IN_LEVELS,
        default="medium",
        help="level of the bot that plays for an away player (medium)",
    )


def _add_client_options(serve: argparse.ArgumentParser) -> None:
    """How players reach the server, and what one connection, one address and the whole
    process may ask of it."""
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
        "--login-rate",
        type=_positive,
        default=10.0,
        help="log-in attempts one address may make per minute on average, as many at once "
        "(10); five failures in a row lock an account's log-in for 15 minutes besides",
    )
    serve.add_argument(
        "--signup-rate",
        type=_positive,
        default=1.0,
        help="accounts one address may create per minute on average, 5 at once (1)",
    )
    serve.add_argument(
        "--public-url",
        default=None,
        metavar="URL",
        help="the address players reach this server at, for invite and spectator links "
        "(e.g. https://keltis.example.org); also $KELTIS_PUBLIC_URL; default: the address "
        "it listens on",
    )
    serve.add_argument(
        "--max-connections-per-address",
        type=number(int, 1),
        default=64,
        metavar="N",
        help="live connections one address may hold at once (64)",
    )
    serve.add_argument(
        "--max-connections",
        type=_count,
        default=0,
        metavar="N",
        help="live connections the process holds at once (default: its open-file limit less 100)",
    )
    serve.add_argument(
        "--forwarded-allow-ips",
        default="",
        metavar="ADDRESSES",
        help="the reverse proxies (comma-separated addresses or networks, '*' for any) whose "
        "X-Forwarded-For and X-Forwarded-Proto are believed; a client's address is then the "
        "one the proxy saw (default: none, every request's address is its connection's)",
    )
    serve.add_argument(
        "--hello-timeout",
        type=_positive,
        default=10.0,
        metavar="S",
        help="seconds a new live connection may take to say hello before it is closed (10)",
    )


def _add_lobby_options(serve: argparse.ArgumentParser) -> None:
    """What one account and one address may ask of the lobby (docs/server.md, "The lobby:
    seeks")."""
    serve.add_argument(
        "--seek-rate",
        type=_positive,
        default=10.0,
        help="changes to the lobby's seeks (open, join, leave, cancel) one account may make "
        "per minute on average, half as many at once, at least 5 (10); one address three "
        "times as many",
    )


def _add_review_options(serve: argparse.ArgumentParser) -> None:
    """Reviews of finished matches (docs/server.md, "Reviews")."""
    serve.add_argument(
        "--review-budget",
        default="",
        metavar="TEXT",
        help="how hard a review looks, e.g. iterations=800,width=4: any of iterations, width, "
        "luck_playouts, seed (default: the review's own, docs/bots.md)",
    )
    serve.add_argument(
        "--review-workers",
        type=_count,
        default=1,
        metavar="N",
        help="reviews this process computes at once, each one step at a time in the bot "
        "workers (1; 0: none here, another process computes them)",
    )
    serve.add_argument(
        "--review-rate",
        type=_positive,
        default=10.0,
        metavar="R",
        help="new reviews one account may ask for per hour on average, as many at once (10); "
        "one address three times as many",
    )
    serve.add_argument(
        "--review-lease",
        type=_positive,
        default=60.0,
        metavar="S",
        help="seconds a process's claim on a review holds without progress: a review whose "
        "process died is taken over this long after (60)",
    )


def _add_password_options(serve: argparse.ArgumentParser) -> None:
    """Password hashes, apart from the database's work (docs/server.md, "Log-in limits")."""
    serve.add_argument(
        "--password-threads",
        type=number(int, 1),
        default=1,
        metavar="N",
        help="threads that hash and check passwords, apart from the database's (1: argon2id "
        "uses several cores for each check)",
    )
    serve.add_argument(
        "--password-queue",
        type=_count,
        default=8,
        metavar="N",
        help="password checks that may wait for those threads; more are refused at once (8)",
    )
    serve.add_argument(
        "--password-rate",
        type=_positive,
        default=1.0,
        metavar="R",
        help="password checks a second on average, 10 at once, whoever asks (1): beyond, "
        "503 at once, so a flood of guesses takes no more CPU than that",
    )


def _add_mail_options(serve: argparse.ArgumentParser) -> None:
    """The SMTP server that tells players of correspondence matches it is their turn
    (docs/server.md, "Being told it is your turn"); without --smtp-host no e-mail is
    sent."""
    serve.add_argument(
        "--smtp-host",
        default=None,
        metavar="HOST",
        help="the SMTP server for e-mails about correspondence turns (default: none, no "
        "e-mail is sent)",
    )
    serve.add_argument(
        "--smtp-port",
        type=number(int, 1),
        default=None,
        metavar="N",
        help="its port (default: 25, 587 with --smtp-tls starttls, 465 with tls)",
    )
    serve.add_argument(
        "--smtp-tls",
        choices=("none", "starttls", "tls"),
        default="none",
        help="plain SMTP, STARTTLS, or TLS from the start (none)",
    )
    serve.add_argument(
        "--smtp-from",
        default=None,
        metavar="ADDRESS",
        help="the sender of the e-mails (default: keltis@ the --public-url's host)",
    )
    serve.add_argument(
        "--smtp-user",
        default=None,
        metavar="USER",
        help="log in to the SMTP server as USER, with the password in $KELTIS_SMTP_PASSWORD",
    )
    serve.add_argument(
        "--mail-rate",
        type=_positive,
        default=10.0,
        help="e-mails one address may ask for (links to set a new password or to confirm "
        "an address) per hour on average, as many at once (10); besides, an account is sent "
        "at most one such link in 15 minutes",
    )


def public_url(text: str) -> str:
    """``--public-url``'s address checked: ``http(s)://host[:port][/path]``, without a
    query or fragment; returned without a trailing ``/``."""
    try:
        parts = urlsplit(text.strip())
        parts.port  # noqa: B018 - a bad port raises here
    except ValueError as error:
        raise ValueError(f"--public-url {text!r} is not an address: {error}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(
            f"--public-url {text!r} must be an http:// or https:// address with a host, "
            "e.g. https://keltis.example.org"
        )
    if parts.query or parts.fragment or parts.username or parts.password:
        raise ValueError(
            f"--public-url {text!r} must be a plain address, without a user, query or '#'"
        )
    return text.strip().rstrip("/")


def config_from_args(args: argparse.Namespace, port: int | None = None) -> ServerConfig:
    """The :class:`~keltis.server.config.ServerConfig` of ``keltis serve``'s options
    (``port``: the one it listens on, if not ``--port``; raises ``ValueError`` for a bad
    ``--public-url``, database URL or ``--review-budget``)."""
    # keltis.server.db loads SQLAlchemy: not for keltis --help, which imports this module
    from keltis.server.db import checked_url, default_url
    from keltis.server.reviews import server_budget

    server_budget(args.review_budget)  # a ValueError saying what is wrong

    workers = args.bot_workers
    if workers is None:
        workers = max(1, min(4, os.cpu_count() or 1))
    away = args.away_after
    return ServerConfig(
        database=checked_url(args.db or os.environ.get("KELTIS_DATABASE_URL") or default_url()),
        bot_delay=args.bot_delay,
        bot_workers=workers,
        away_after=away,
        stand_in_level=args.stand_in,
        presence_interval=max(0.05, min(20.0, away / 3)),
        rate=args.rate,
        create_rate=args.create_rate,
        login_rate=args.login_rate,
        signup_rate=args.signup_rate,
        seek_rate=args.seek_rate,
        password_threads=args.password_threads,
        password_queue=args.password_queue,
        password_rate=args.password_rate,
        forwarded_allow_ips=args.forwarded_allow_ips.strip(),
        burst=max(1, round(2 * args.rate)),
        allow_setup=args.allow_setup,
        hello_timeout=args.hello_timeout,
        max_connections_per_address=args.max_connections_per_address,
        max_connections=args.max_connections,
        smtp_host=args.smtp_host or None,
        smtp_port=args.smtp_port,
        smtp_tls=args.smtp_tls,
        smtp_from=args.smtp_from or None,
        smtp_user=args.smtp_user or None,
        smtp_password=os.environ.get("KELTIS_SMTP_PASSWORD") or None,
        mail_rate=args.mail_rate,
        review_budget=args.review_budget,
        review_workers=args.review_workers,
        review_rate=args.review_rate,
        review_lease=args.review_lease,
        public_url=public_url(
            args.public_url
            or os.environ.get("KELTIS_PUBLIC_URL")
            or page_address(args.host, args.port if port is None else port)
        ),
    )


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host`` and ``port`` (0: any free port), for uvicorn to listen
    on; raises ``OSError`` if the address cannot be had."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    return sock


def listen_error(host: str, port: int, error: OSError) -> str:
    """One line saying why ``keltis serve`` cannot listen on ``host``:``port``."""
    if error.errno == errno.EADDRINUSE:
        return (
            f"keltis serve: port {port} is already in use on {host} (another Keltis server?): "
            "stop that program, or choose another port with --port"
        )
    if error.errno == errno.EACCES:
        return (
            f"keltis serve: not allowed to listen on port {port} ({error.strerror}): "
            "choose another port with --port (1024 or above)"
        )
    reason = error.strerror or str(error)
    return f"keltis serve: cannot listen on {host}, port {port} ({reason}): check --host and --port"


def page_address(host: str, port: int) -> str:
    """The start page's address for a server listening on ``host``: a wildcard address is
    reached on this machine's loopback."""
    if host in ("", "0.0.0.0"):
        host = "127.0.0.1"
    elif host == "::":
        host = "::1"
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}"


def open_browser(url: str) -> None:
    """Open ``url`` in the default browser (``webbrowser``), or say that none could be.

    Without ``$BROWSER`` and without a graphical session (no ``$DISPLAY`` nor
    ``$WAYLAND_DISPLAY``, on a system other than macOS or Windows) Python would pick a
    console browser, which would take over this terminal: then none is opened."""
    # only where a browser is to be opened: keltis --help imports this module
    import webbrowser

    graphical = (
        sys.platform in ("darwin", "win32")
        or os.environ.get("BROWSER")
        or os.environ.get("DISPLAY")
        or os.environ.get("WAYLAND_DISPLAY")
    )
    try:
        opened = bool(graphical) and webbrowser.open(url)
    except Exception:  # a broken browser command: the address is printed anyway
        opened = False
    if opened:
        print(f"Opened {url} in your browser.", flush=True)
    else:
        print(f"No browser could be opened here: open {url} in yours.", flush=True)


def run_serve(args: argparse.Namespace) -> int:
    """Start the server and serve until interrupted."""
    # The server's extra, imported only to serve: keltis --help imports this module, and
    # works without the extra installed.
    try:
        import uvicorn

        from keltis.server.app import create_app, stopping
        from keltis.server.transport import LiveProtocol
    except ImportError as error:
        print(
            f"keltis serve: the server needs its extra: pip install 'keltis[server]' ({error})",
            file=sys.stderr,
        )
        return 2
    # the extra is there: the rest of it
    import sqlalchemy as sa

    from keltis.server.guards import raise_file_limit

    try:
        sock = listen(args.host, args.port)
    except OSError as error:
        print(listen_error(args.host, args.port, error), file=sys.stderr)
        return 1
    try:
        config = config_from_args(args, sock.getsockname()[1])
    except ValueError as error:
        sock.close()
        print(f"keltis serve: {error}", file=sys.stderr)
        return 2
    raise_file_limit()
    url = page_address(args.host, sock.getsockname()[1])
    shown = sa.make_url(config.database).render_as_string(hide_password=True)
    print(f"Keltis server starting (database: {shown})", flush=True)

    def ready() -> None:
        print(f"Keltis is ready: {url}", flush=True)
        if args.host in ("", "0.0.0.0", "::") and config.public_url == url:
            print(
                f"Invitation links name {url}: give --public-url with the address other "
                "players reach this server at.",
                flush=True,
            )
        print("Ctrl-C stops the server.", flush=True)
        if args.open:  # a thread: a browser command may take its time
            threading.Thread(target=open_browser, args=(url,), daemon=True).start()

    server_logging(args.log_level)
    app = create_app(config)

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets=sockets)
            if not self.should_exit:
                ready()

        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            stopping(app)  # answers that never end by themselves (the lobby's streams) end
            await super().shutdown(sockets=sockets)

    server = Server(
        uvicorn.Config(
            app,
            host=args.host,
            port=sock.getsockname()[1],
            ws=LiveProtocol,
            ws_max_size=config.max_frame,
            # a client's address is its connection's unless a trusted proxy says otherwise
            proxy_headers=bool(config.forwarded_allow_ips),
            forwarded_allow_ips=config.forwarded_allow_ips or None,
            log_level=args.log_level,
            lifespan="on",
        )
    )
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # Ctrl-C: uvicorn stopped cleanly, then passed the signal on
        pass
    finally:
        sock.close()
    return 0


def server_logging(level: str) -> None:
    """The server's own lines (the ``keltis`` loggers: a review claimed, a seat out of time, a
    mail sent) on stderr at ``level``, as uvicorn writes its own: without a handler Python
    would print only warnings and worse, whatever ``--log-level`` says."""
    logger = logging.getLogger("keltis")
    if not any(getattr(h, "keltis_serve", False) for h in logger.handlers):
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(levelname)s:%(name)s: %(message)s"))
        handler.keltis_serve = True  # type: ignore[attr-defined]
        logger.addHandler(handler)
    logger.setLevel(level.upper())

"""Behind a real reverse proxy (issue 39, §3.1): Debian's nginx, started here with the
configuration docs/server.md gives, in front of two ``keltis serve`` processes sharing one
database (SQLite and PostgreSQL). Pages, the API and WebSocket upgrades pass through it;
each client — on its own loopback address — is limited as itself, and a header a client
forges is ignored, by nginx (which sets the header anew) and by a server reached directly
(which believes only the proxy's address)."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .harness import WAIT, Player, Server, free_port
from .people import PASSWORD, signup

#: The proxy's configuration: docs/server.md's, with the test's ports and folders (a test of
#: the docs checks the two stay the same).
CONFIG = """
worker_processes 1;
daemon off;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 512; }}
http {{
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
{keltis}
}}
"""

#: The part of the configuration docs/server.md shows (the ``http`` block's contents).
KELTIS = """
    map $http_upgrade $connection_upgrade {{
        default upgrade;
        ''      close;
    }}
    upstream keltis {{
        server 127.0.0.1:{first};
        server 127.0.0.1:{second};
    }}
    server {{
        listen 127.0.0.1:{port};
        client_max_body_size 64k;
        location / {{
            proxy_pass http://keltis;
            proxy_http_version 1.1;
            proxy_set_header Host $host;
            # the client's own address, replacing whatever the client sent
            proxy_set_header X-Forwarded-For $remote_addr;
            proxy_set_header X-Forwarded-Proto $scheme;
            # live play: the WebSocket upgrade, and connections that stay open
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_read_timeout 1h;
            # the lobby's event stream goes out as it is written
            proxy_buffering off;
        }}
    }}
"""


class Proxy:
    """nginx on a free port in front of ``upstreams``; quacks like a :class:`Server` for
    the test clients (``base``, ``ws``, ``http``)."""

    def __init__(self, folder: Path, upstreams: list[Server]) -> None:
        self.port = free_port()
        self.folder = folder
        keltis = KELTIS.format(first=upstreams[0].port, second=upstreams[1].port, port=self.port)
        (folder / "nginx.conf").write_text(CONFIG.format(folder=folder, keltis=keltis))
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws(self, match_id: str) -> str:
        return f"ws://127.0.0.1:{self.port}/api/matches/{match_id}/live"

    def http(self, address: str = "127.0.0.1") -> httpx.Client:
        """A client on its own loopback ``address``."""
        transport = httpx.HTTPTransport(local_address=address)
        return httpx.Client(base_url=self.base, timeout=WAIT, transport=transport)

    def start(self) -> Proxy:
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        self.process = subprocess.Popen(
            [nginx, "-p", str(self.folder), "-c", str(self.folder / "nginx.conf")],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.HTTPError), self.http() as http:
                if http.get("/api/health").status_code == 200:
                    return self
            if self.process.poll() is not None:
                break
            time.sleep(0.05)
        log = (
            (self.folder / "error.log").read_text() if (self.folder / "error.log").exists() else ""
        )
        raise RuntimeError(f"nginx did not start: {log}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=WAIT)


@pytest.fixture
def proxied(servers: Callable[..., Server], tmp_path: Path) -> Iterator[tuple[Proxy, list[Server]]]:
    if shutil.which("nginx") is None and not Path("/usr/sbin/nginx").exists():
        if os.environ.get("KELTIS_REQUIRE_NGINX"):
            pytest.fail("KELTIS_REQUIRE_NGINX is set but nginx is not installed")
        pytest.skip("no nginx: apt-get install nginx-light (.ci/run installs it)")
    upstreams = [servers("--forwarded-allow-ips", "127.0.0.1") for _ in range(2)]
    proxy = Proxy(tmp_path, upstreams).start()
    try:
        yield proxy, upstreams
    finally:
        proxy.stop()


def _log_in(http: httpx.Client, name: str, password: str, **headers: str) -> Any:
    return http.post("/api/sessions", json={"name": name, "password": password}, headers=headers)


def test_pages_api_and_live_play_pass_through_the_proxy(
    proxied: tuple[Proxy, list[Server]],
) -> None:
    proxy, upstreams = proxied
    with proxy.http() as http:
        page = http.get("/")
        assert page.status_code == 200
        assert "text/html" in page.headers["content-type"]
        made = http.post(
            "/api/matches",
            json={
                "game": "cards",
                "seats": [{"kind": "person"}, {"kind": "bot", "level": "random"}],
            },
        )
        assert made.status_code == 201, made.text
        body = made.json()
        # both processes answer for the match (the proxy takes turns between them)
        for _ in range(4):
            assert http.get(f"/api/matches/{body['id']}").status_code == 200
    seated = Player(proxy, body["id"], body["token"]).connect()  # type: ignore[arg-type]
    try:
        assert seated.seat == 0
        assert seated.view["hand"]
    finally:
        seated.close()
    for upstream in upstreams:
        assert "Traceback" not in "".join(upstream.log)


def test_each_client_is_limited_as_itself_and_forged_headers_are_ignored(
    proxied: tuple[Proxy, list[Server]],
) -> None:
    proxy, upstreams = proxied
    signup(upstreams[0], "proxied", PASSWORD).close()
    with proxy.http("127.0.0.2") as attacker, proxy.http("127.0.0.3") as owner:
        # the attacker poses as the owner's address: nginx sets the header anew
        tries = [
            _log_in(attacker, "proxied", "wrong password!", **{"X-Forwarded-For": "127.0.0.3"})
            for _ in range(7)
        ]
        assert [t.status_code for t in tries] == [401] * 5 + [429] * 2
        assert _log_in(attacker, "proxied", PASSWORD).status_code == 429
        # the owner, at another address, is not locked out
        assert _log_in(owner, "proxied", PASSWORD).status_code == 200
    # a client reaching a server directly cannot pose as anyone: only the proxy's header
    # counts (the server believes 127.0.0.1, and this client is 127.0.0.4)
    transport = httpx.HTTPTransport(local_address="127.0.0.4")
    with httpx.Client(base_url=upstreams[1].base, timeout=WAIT, transport=transport) as direct:
        forged = [
            _log_in(direct, "proxied", "wrong password!", **{"X-Forwarded-For": f"10.0.0.{n}"})
            for n in range(6)
        ]
    assert [f.status_code for f in forged] == [401] * 5 + [429]


def test_the_documented_proxy_configuration_is_the_tested_one() -> None:
    docs = (Path(__file__).parents[2] / "docs" / "server.md").read_text(encoding="utf-8")
    shown = KELTIS.format(first=8001, second=8002, port=80).replace("127.0.0.1:80;", "80;")
    for line in shown.strip().splitlines():
        assert line.strip() in docs, line

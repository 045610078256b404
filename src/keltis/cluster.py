"""Connecting to Ray, and running a list of jobs as Ray tasks (``--ray ADDRESS``).

The one connection logic of every command that runs on a cluster: ``keltis arena --ray``
(:mod:`keltis.arena`), ``python -m keltis.learn selfplay --ray`` (:mod:`keltis.learn`) and
``benchmarks/strength.py --ray``. Nothing here imports the rest of keltis.

``local`` starts a private Ray instance every time, bound to the loopback address, whatever
``RAY_ADDRESS`` or an earlier ``ray start`` recorded. ``auto`` joins the running cluster:
the one ``RAY_ADDRESS`` names, else the one ``ray start`` recorded in Ray's temp dir
(``ray_current_cluster``). ``host:port`` and ``ray://host:port`` join that cluster.

A cluster must answer before ``ray.init`` is called: Ray itself retries a dead address for
more than ten minutes (and a head that crashed, or was stopped other than by ``ray stop``,
leaves its record behind), so the address is probed first: a refusal, or silence for
:data:`CONNECT_TIMEOUT` seconds, fails at once with the address named. A process there
that answers but is not a working Ray cluster is left to Ray's own retries.
"""

from __future__ import annotations

import importlib
import os
import socket
import sys
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

Job = TypeVar("Job")
Result = TypeVar("Result")


class ClusterError(RuntimeError):
    """Ray is missing, or the cluster at an address cannot be reached: the message says
    which, and what to do (one line, for a command's error output)."""


LOCAL = "local"
AUTO = "auto"
CONNECT_TIMEOUT = 30.0
"""Seconds to wait for a cluster's address to answer before giving up."""
LOOPBACK = "127.0.0.1"
_CLIENT_PORT = 10001  # Ray Client's default port, for ray://host without a port


def ray_module() -> Any:
    """The ``ray`` package, or a :class:`ClusterError` saying how to install it."""
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise ClusterError(
            "--ray needs Ray: pip install 'keltis[ray]' (or pip install ray)"
        ) from None


def connect_ray(
    address: str, *, num_cpus: int | None = None, timeout: float = CONNECT_TIMEOUT
) -> bool:
    """Connect to Ray unless this process already is; True if this call connected.

    ``address``: ``local`` (start a private instance on this machine, bound to the loopback
    address; ``num_cpus`` limits it), ``auto`` (the running cluster), ``host:port`` or
    ``ray://host:port``. A cluster that does not answer within ``timeout`` seconds is a
    :class:`ClusterError` naming the address tried.
    """
    ray = ray_module()
    if ray.is_initialized():
        return False
    target, origin = _target(address)
    try:
        if target == LOCAL:
            with _loopback_node():
                ray.init(
                    address=LOCAL,
                    num_cpus=num_cpus,
                    include_dashboard=False,
                    logging_level="WARNING",
                    _node_ip_address=LOOPBACK,
                )
            return True
        _probe(target, origin, timeout)
        ray.init(address=target, logging_level="WARNING")
    except ClusterError:
        raise
    except (ConnectionError, RuntimeError, ValueError) as error:
        message = " ".join(str(error).split())  # Ray's messages may span lines
        if target == LOCAL:
            raise ClusterError(f"cannot start a private Ray instance: {message}") from None
        raise ClusterError(
            f"cannot connect to Ray at {_where(target, origin)}: {message}"
        ) from None
    return True


def recorded_cluster_file() -> Path:
    """Where ``ray start`` records the address of the cluster it started, and where Ray's
    ``auto`` looks for it: ``ray/ray_current_cluster`` under ``$RAY_TMPDIR``, else
    ``$TMPDIR`` (on Linux), else ``/tmp``."""
    if "RAY_TMPDIR" in os.environ:
        base = os.environ["RAY_TMPDIR"]
    elif sys.platform.startswith("linux") and "TMPDIR" in os.environ:
        base = os.environ["TMPDIR"]
    else:
        base = "/tmp"
    return Path(base) / "ray" / "ray_current_cluster"


def _target(address: str) -> tuple[str, str]:
    """The address to give ``ray.init`` for ``--ray address``, and where it came from."""
    if address != AUTO:
        return address, ""
    from_env = os.environ.get("RAY_ADDRESS", "")
    if from_env and from_env != AUTO:
        return from_env, "--ray auto, from RAY_ADDRESS"
    record = recorded_cluster_file()
    try:
        recorded = record.read_text(encoding="utf-8").strip()
    except OSError:
        recorded = ""
    if not recorded:
        raise ClusterError(
            f"--ray auto: no running Ray cluster to join (RAY_ADDRESS is not set and no "
            f"`ray start` cluster is recorded in {record}); start one with `ray start --head`, "
            "or use --ray local for a private instance"
        )
    return recorded, f"--ray auto, recorded in {record}"


def _probe(target: str, origin: str, timeout: float) -> None:
    """Raise a :class:`ClusterError` unless something accepts connections at ``target``."""
    host, port = _host_port(target, origin)
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return
    except TimeoutError:
        reason = f"no answer within {timeout:g} s"
    except OSError as error:
        reason = error.strerror or str(error)
    hint = ""
    if "recorded in" in origin:
        hint = (
            "; the record may be left by a stopped cluster (`ray stop` removes it), "
            "or use --ray local for a private instance"
        )
    raise ClusterError(f"cannot connect to Ray at {_where(target, origin)}: {reason}{hint}")


def _where(target: str, origin: str) -> str:
    return f"{target} ({origin})" if origin else target


def _host_port(target: str, origin: str) -> tuple[str, int]:
    """The host and port to probe for ``target``: ``host:port``, ``[ipv6]:port`` or
    ``ray://host[:port]`` (Ray Client, port 10001 by default)."""
    scheme, _, rest = target.rpartition("://")
    host, colon, port = rest.rpartition(":")
    if not colon or "]" in port:  # no port, or a bare [IPv6] address
        host, port = rest, str(_CLIENT_PORT) if scheme else ""
    host = host.removeprefix("[").removesuffix("]")
    if not host or not port.isdigit():
        raise ClusterError(
            f"{_where(repr(target), origin)} is not a Ray address: use auto, local, "
            "host:port or ray://host:port"
        )
    return host, int(port)


@contextmanager
def _loopback_node() -> Iterator[None]:
    """While a private instance starts, have Ray take 127.0.0.1 as this node's address.

    Ray turns ``_node_ip_address="127.0.0.1"`` into the machine's network address unless
    its multi-node support is off (as on macOS and Windows); and its servers (GCS, raylet,
    workers) listen on all interfaces unless the node's address is 127.0.0.1. So the switch
    is turned off for the start: the processes then bind to the loopback address only.
    """
    try:
        constants: Any = importlib.import_module("ray._private.ray_constants")
    except ImportError:  # pragma: no cover - another Ray layout: its defaults apply
        constants = None
    if not hasattr(constants, "ENABLE_RAY_CLUSTER"):  # pragma: no cover - as above
        yield
        return
    before = constants.ENABLE_RAY_CLUSTER
    constants.ENABLE_RAY_CLUSTER = False
    try:
        yield
    finally:
        constants.ENABLE_RAY_CLUSTER = before


def ordered_tasks(
    function: Callable[[Job], Result], jobs: Sequence[Job], *, window: int | None = None
) -> Generator[Result, None, None]:
    """``function(job)`` of every job as a Ray task (one CPU each) on the cluster this process
    is connected to, yielded in the order of ``jobs`` whatever order they finish in.

    At most ``window`` tasks (default: twice the cluster's CPUs) are submitted or finished
    and not yet yielded at a time, so a long list neither floods the cluster's queue nor
    piles up results in the driver. A task that fails raises its error here (Ray's
    ``RayTaskError``, naming the job's exception); closing the generator cancels the tasks
    still in flight.
    """
    ray = ray_module()
    remote = ray.remote(num_cpus=1)(function)
    if window is None:
        window = max(4, 2 * int(ray.cluster_resources().get("CPU", 1)))
    pending: list[Any] = []  # in job order: the next one to yield comes first
    submitted = 0
    try:
        while submitted < len(jobs) or pending:
            while submitted < len(jobs) and len(pending) < window:
                pending.append(remote.remote(jobs[submitted]))
                submitted += 1
            yield ray.get(pending.pop(0))
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)

"""The arena's side of :mod:`keltis.cluster` (``keltis arena --ray ADDRESS``): the same
connection, its failures as :class:`TournamentError` like the arena's other errors."""

from __future__ import annotations

from typing import Any

from keltis.arena.tournament import TournamentError
from keltis.cluster import (
    AUTO,
    CONNECT_TIMEOUT,
    LOCAL,
    LOOPBACK,
    ClusterError,
    recorded_cluster_file,
)
from keltis.cluster import connect_ray as _connect_ray
from keltis.cluster import ray_module as _ray_module

__all__ = [
    "AUTO",
    "CONNECT_TIMEOUT",
    "LOCAL",
    "LOOPBACK",
    "connect_ray",
    "ray_module",
    "recorded_cluster_file",
]


def ray_module() -> Any:
    """The ``ray`` package (:func:`keltis.cluster.ray_module`)."""
    try:
        return _ray_module()
    except ClusterError as error:
        raise TournamentError(str(error)) from None


def connect_ray(
    address: str, *, num_cpus: int | None = None, timeout: float = CONNECT_TIMEOUT
) -> bool:
    """Connect to Ray unless this process already is (:func:`keltis.cluster.connect_ray`)."""
    try:
        return _connect_ray(address, num_cpus=num_cpus, timeout=timeout)
    except ClusterError as error:
        raise TournamentError(str(error)) from None

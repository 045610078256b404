"""``GET /api/health``: whether the server is up, for monitors and load balancers."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from keltis.core.version import __version__

router = APIRouter()


@router.get("/api/health", tags=["server"])
async def health() -> dict[str, Any]:
    """Whether the server is up, and its version."""
    return {"ok": True, "version": __version__}

"""Markers for tests that need a real local service (CI installs and starts them)."""

from __future__ import annotations

import socket

import pytest

REDIS_HOST, REDIS_PORT = "127.0.0.1", 6379


def _answers(host: str, port: int) -> bool:
    try:
        socket.create_connection((host, port), timeout=1).close()
    except OSError:
        return False
    return True


requires_redis = pytest.mark.skipif(not _answers(REDIS_HOST, REDIS_PORT),
                                    reason=f"no Redis at {REDIS_HOST}:{REDIS_PORT}")

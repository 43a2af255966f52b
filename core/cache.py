"""Django's Redis cache backend, with one Redis client per connection pool.

``django.core.cache.backends.redis.RedisCacheClient.get_client`` builds a new
``redis.Redis`` object for every cache operation. With redis-py 8 that constructor fills
a table of ~170 response callbacks each time: about 0.25 ms of CPU per ``get`` or ``set``,
more than the round trip to Redis itself. Every API request makes three (the token's
user, the rate limit's read and write), login rate limits and sessions more.

A ``redis.Redis`` client holds no connection of its own (it borrows one from its pool for
each command) and is safe to share between threads, so this backend keeps the client of
each pool and reuses it. Everything else is Django's backend. Decision 0602 records why
this and not django-redis.

``FaultTolerantRedisCache`` (what production runs) adds one thing: with Redis stopped or
unreachable it keeps what it must in the process's own memory, logs a warning at most once
a minute and lets the site answer from the database (docs/reliability.md).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import redis
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.backoff import NoBackoff
from redis.retry import Retry


class ReusedClientRedisCacheClient(RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class ReusedClientRedisCache(RedisCache):
    """``CACHES["default"]["BACKEND"] = "core.cache.ReusedClientRedisCache"``."""

    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = ReusedClientRedisCacheClient


# --- Redis away: the site answers without its cache -------------------------------------

DOWN_SECONDS = 5  # after a failure, no new attempt for this long: each request stays fast
WARNING_INTERVAL = 60  # one log line a minute at most while Redis is away

logger = logging.getLogger(__name__)

# what a Redis that is stopped, restarting or unreachable raises
REDIS_UNAVAILABLE = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)


class CacheHealth:
    """Is the cache's server reachable, as far as the last operations of this process
    know. Shared by the cache backend and the rate limits (core/throttles.py)."""

    def __init__(self) -> None:
        self._down_until = 0.0
        self._warned_at: float | None = None
        self._lock = threading.Lock()

    def is_down(self) -> bool:
        return time.monotonic() < self._down_until

    def failed(self, error: BaseException) -> None:
        now = time.monotonic()
        with self._lock:
            self._down_until = now + DOWN_SECONDS
            if self._warned_at is None or now - self._warned_at >= WARNING_INTERVAL:
                self._warned_at = now
                logger.warning(
                    "Redis cache unreachable (%s): answering without the cache "
                    "(reads from the database, rate limits counted in each process)",
                    error,
                )

    def recovered(self) -> None:
        self._down_until = 0.0


def _tolerant(name: str) -> Callable[..., Any]:
    parent = getattr(RedisCache, name)

    def method(self: FaultTolerantRedisCache, *args: Any, **kwargs: Any) -> Any:
        if self.health.is_down():
            return getattr(self.local, name)(*args, **kwargs)
        try:
            return parent(self, *args, **kwargs)
        except REDIS_UNAVAILABLE as error:
            if not self.health.is_down():
                self.local.clear()  # nothing left from an earlier outage
            self.health.failed(error)
            return getattr(self.local, name)(*args, **kwargs)

    method.__name__ = name
    method.__doc__ = parent.__doc__
    return method


class FaultTolerantRedisCache(ReusedClientRedisCache):
    """The Redis cache for production: when Redis is stopped or unreachable every
    operation goes to a cache in this process's memory instead of raising, so pages and
    the API answer (what was cached is read from the database again) and the login rate
    limits count in each process. After a failure the backend does not try Redis again for
    ``DOWN_SECONDS``, and it logs a warning at most once a minute. What the process kept
    meanwhile is dropped when Redis answers again.

    ``CACHES["default"]["BACKEND"] = "core.cache.FaultTolerantRedisCache"``."""

    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self.health = CacheHealth()
        self.local = LocMemCache(f"config-cache-fallback-{id(self)}",
                                 {"OPTIONS": {"MAX_ENTRIES": 10000}})
        # fail fast: a stopped Redis refuses at once, an unreachable one must not hold a
        # worker for redis-py's default retries with back-off (seconds per operation)
        self._options = {"socket_connect_timeout": 0.5, "socket_timeout": 1.0,
                         "retry": Retry(NoBackoff(), 1), **self._options}

    def ping(self) -> bool:
        """Does Redis answer now? (the health check)"""
        try:
            ok = bool(self._cache.get_client(write=True).ping())
        except REDIS_UNAVAILABLE as error:
            self.health.failed(error)
            return False
        self.health.recovered()
        return ok

    add = _tolerant("add")
    get = _tolerant("get")
    set = _tolerant("set")
    touch = _tolerant("touch")
    delete = _tolerant("delete")
    get_many = _tolerant("get_many")
    has_key = _tolerant("has_key")
    incr = _tolerant("incr")
    set_many = _tolerant("set_many")
    delete_many = _tolerant("delete_many")
    clear = _tolerant("clear")

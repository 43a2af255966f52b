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
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.redis import RedisCache, RedisCacheClient


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
    """``CACHES["default"]["BACKEND"] = "config.cache.ReusedClientRedisCache"``."""

    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = ReusedClientRedisCacheClient

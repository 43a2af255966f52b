"""The Redis cache backend (production's cache when REDIS_URL is set), against a real Redis.

CI installs and starts redis-server (.ci/run); elsewhere these tests run when a Redis
answers at 127.0.0.1:6379.
"""

from __future__ import annotations

import threading
import uuid

import pytest

from core.cache import ReusedClientRedisCache
from tests.services import requires_redis

pytestmark = requires_redis


@pytest.fixture
def redis_cache() -> ReusedClientRedisCache:
    return ReusedClientRedisCache("redis://127.0.0.1:6379/14",
                                  {"KEY_PREFIX": f"test-{uuid.uuid4().hex}"})


def test_it_is_django_s_redis_cache(redis_cache: ReusedClientRedisCache) -> None:
    history = [(1.5, 2.5, 1000), (0.5, 0.5, 3)]
    redis_cache.set("history", history, 30)
    assert redis_cache.get("history") == history
    assert redis_cache.get("missing", "default") == "default"
    assert redis_cache.add("counter", 1, 30) and not redis_cache.add("counter", 5, 30)
    assert redis_cache.incr("counter", 2) == 3
    redis_cache.delete("history")
    assert redis_cache.get("history") is None
    assert redis_cache.get_many(["counter", "history"]) == {"counter": 3}


def test_one_client_serves_every_operation(redis_cache: ReusedClientRedisCache) -> None:
    backend = redis_cache._cache
    reads = {id(backend.get_client("a")) for _ in range(5)}
    writes = {id(backend.get_client("a", write=True)) for _ in range(5)}
    assert len(reads) == 1 and reads == writes  # one server: one pool, one client

    # the shared client is safe for threads: each command borrows a pooled connection
    errors: list[BaseException] = []

    def work(n: int) -> None:
        try:
            for i in range(50):
                redis_cache.set(f"k{n}-{i}", [n, i], 30)
                assert redis_cache.get(f"k{n}-{i}") == [n, i]
        except BaseException as err:  # reported below, in the main thread
            errors.append(err)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []

"""The API's rate limits: a sliding window of questions kept in at most 61 slots.

The scenarios run on both ways of counting: in Python over the cache (the database cache
here) and as one Lua script in a real Redis (what production runs)."""

from __future__ import annotations

import threading
import uuid

import pytest
from django.core.cache import cache
from rest_framework.test import APIRequestFactory

from core.cache import ReusedClientRedisCache
from core.throttles import WeightedAnonRateThrottle, WeightedUserRateThrottle
from tests.factories import UserFactory
from tests.services import requires_redis

pytestmark = pytest.mark.django_db

REDIS_URL = "redis://127.0.0.1:6379/13"


@pytest.fixture(params=["cache", pytest.param("redis", marks=requires_redis)])
def counted_in(request):  # type: ignore[no-untyped-def]
    """The cache a throttle counts in: the default cache (Python) or Redis (Lua)."""
    if request.param == "cache":
        yield cache
        return
    yield ReusedClientRedisCache(REDIS_URL, {"KEY_PREFIX": f"test-{uuid.uuid4().hex}"})


def _history(throttle) -> list[tuple[float, float, int]]:  # type: ignore[no-untyped-def]
    """The throttle's stored history, newest first, whichever way it counts."""
    if not isinstance(throttle.cache, ReusedClientRedisCache):
        return list(throttle.cache.get(throttle.key, []))
    client = throttle.cache._cache.get_client()
    key = throttle.cache.make_and_validate_key(throttle.key)
    slots = [entry.decode().split() for entry in client.lrange(key + ":slots", 0, -1)]
    history = [(float(first), float(last), int(used)) for first, last, used in slots]
    assert int(client.get(key + ":total") or 0) == sum(used for *_, used in history)
    return history


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    cache.clear()
    return Clock()


def _throttle(cls, clock: Clock, rate: str, counted_in=None):  # type: ignore[no-untyped-def]
    throttle = cls()
    if counted_in is not None:
        throttle.cache = counted_in
    throttle.rate = rate
    throttle.num_requests, throttle.duration = throttle.parse_rate(rate)
    throttle.timer = clock
    return throttle


def _request(weight: int | None = None, user=None):  # type: ignore[no-untyped-def]
    request = APIRequestFactory().post("/api/v1/score/batch", REMOTE_ADDR="198.51.100.7")
    if user is not None:
        request.user = user
    else:
        from django.contrib.auth.models import AnonymousUser

        request.user = AnonymousUser()
    if weight is not None:
        request.throttle_weight = weight
    return request


def test_a_batch_is_one_entry_of_its_weight(clock: Clock, counted_in) -> None:
    user = UserFactory()
    throttle = _throttle(WeightedUserRateThrottle, clock, "1000/min", counted_in)
    assert throttle.allow_request(_request(600, user), None)
    clock.now += 1
    assert throttle.allow_request(_request(400, user), None)
    history = _history(throttle)
    # newest first: (first request, last request, questions); a second apart, two slots
    assert history == [(clock.now, clock.now, 400), (clock.now - 1, clock.now - 1, 600)]
    # the budget of the minute is used: one more question is refused ...
    clock.now += 1
    refused = _throttle(WeightedUserRateThrottle, clock, "1000/min", counted_in)
    assert not refused.allow_request(_request(None, user), None)
    # ... until the first batch leaves the window: 58 s from now
    assert refused.wait() == pytest.approx(58.0)
    clock.now += 58.001
    assert refused.allow_request(_request(None, user), None)
    assert [used for *_, used in _history(refused)] == [1, 400]  # the 600 left


def test_the_wait_is_until_enough_questions_have_left_the_window(clock: Clock, counted_in
                                                                ) -> None:
    throttle = _throttle(WeightedAnonRateThrottle, clock, "10/min", counted_in)
    for weight in (3, 3, 3):  # at 0 s, 10 s, 20 s
        assert throttle.allow_request(_request(weight), None)
        clock.now += 10
    # 9 used at 30 s; 5 more need the first two entries gone: the second leaves at 70 s
    assert not throttle.allow_request(_request(5), None)
    assert throttle.wait() == pytest.approx(40.0)
    # a request larger than the whole budget never fits: no Retry-After
    assert not throttle.allow_request(_request(11), None)
    assert throttle.wait() is None


def test_the_history_stays_small_whatever_the_traffic(clock: Clock, counted_in) -> None:
    user = UserFactory()
    throttle = _throttle(WeightedUserRateThrottle, clock, "100000/min", counted_in)
    for _ in range(5000):  # 20 requests a second for 250 seconds
        assert throttle.allow_request(_request(None, user), None)
        clock.now += 0.05
    history = _history(throttle)
    assert len(history) <= 61
    assert sum(used for *_, used in history) == pytest.approx(1200, abs=20)  # the last minute


def test_a_slot_leaves_the_window_with_its_last_request(clock: Clock, counted_in) -> None:
    throttle = _throttle(WeightedAnonRateThrottle, clock, "10/min", counted_in)
    assert throttle.allow_request(_request(5), None)
    clock.now += 0.9
    assert throttle.allow_request(_request(5), None)  # the same slot (slots are 1 s long)
    assert _history(throttle) == [(clock.now - 0.9, clock.now, 10)]
    # 60.5 s after the first request: the first five have left, the slot has not: the
    # limit is never looser than a window of single timestamps
    clock.now += 59.6
    assert not throttle.allow_request(_request(1), None)
    assert throttle.wait() == pytest.approx(0.4)
    clock.now += 0.45
    assert throttle.allow_request(_request(10), None)


def test_clients_are_counted_apart(clock: Clock, counted_in) -> None:
    first, second = UserFactory(), UserFactory()
    throttle = _throttle(WeightedUserRateThrottle, clock, "5/min", counted_in)
    assert throttle.allow_request(_request(5, first), None)
    assert not throttle.allow_request(_request(1, first), None)
    assert throttle.allow_request(_request(5, second), None)
    # the anonymous throttle leaves token users to the user throttle, and vice versa
    anon = _throttle(WeightedAnonRateThrottle, clock, "1/min", counted_in)
    assert anon.allow_request(_request(50, first), None)
    assert anon.allow_request(_request(1), None)
    assert not anon.allow_request(_request(1), None)


def test_no_rate_means_no_limit(clock: Clock) -> None:
    throttle = WeightedUserRateThrottle()
    throttle.rate = None
    assert throttle.allow_request(_request(10_000, UserFactory()), None)


@requires_redis
def test_in_redis_two_workers_cannot_both_take_the_last_place(clock: Clock) -> None:
    """The Lua script runs atomically: 8 threads (as 8 workers would) asking at once for
    a budget of 50 get exactly 50 places; a read then a write lets some pass twice."""
    redis_cache = ReusedClientRedisCache(REDIS_URL, {"KEY_PREFIX": f"test-{uuid.uuid4().hex}"})
    allowed = []
    start = threading.Barrier(8)

    def client() -> None:
        throttle = _throttle(WeightedAnonRateThrottle, clock, "50/min", redis_cache)
        start.wait()
        allowed.extend(throttle.allow_request(_request(), None) for _ in range(20))

    threads = [threading.Thread(target=client) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert allowed.count(True) == 50 and len(allowed) == 160


@requires_redis
def test_with_redis_as_the_default_cache_the_script_counts(clock: Clock, settings) -> None:
    """DRF's throttles count in ``django.core.cache.cache`` (a proxy of the default cache):
    with Redis configured as in production, the check is the Lua script."""
    settings.CACHES = {"default": {
        "BACKEND": "core.cache.ReusedClientRedisCache", "LOCATION": REDIS_URL,
        "KEY_PREFIX": f"test-{uuid.uuid4().hex}"}}
    throttle = _throttle(WeightedAnonRateThrottle, clock, "2/min")
    assert throttle.cache is cache  # DRF's default, not a backend given by the test
    assert throttle.allow_request(_request(2), None)
    assert not throttle.allow_request(_request(1), None)
    assert throttle.wait() == pytest.approx(60.0)
    from django.core.cache import caches

    client = caches["default"]._cache.get_client()
    key = caches["default"].make_and_validate_key(throttle.key)
    assert client.lrange(key + ":slots", 0, -1) == [b"1000000.0000 1000000.0000 2"]
    assert client.get(key + ":total") == b"2"


@requires_redis
def test_a_history_left_by_the_python_path_does_not_break_the_script(clock: Clock) -> None:
    """After an upgrade Redis may still hold a history pickled by the Python path under
    the plain key; the script's keys are its own, so requests are still counted."""
    redis_cache = ReusedClientRedisCache(REDIS_URL, {"KEY_PREFIX": f"test-{uuid.uuid4().hex}"})
    throttle = _throttle(WeightedAnonRateThrottle, clock, "2/min", redis_cache)
    redis_cache.set("throttle:slots:anon:198.51.100.7", [(clock.now, clock.now, 2)], 60)
    assert throttle.allow_request(_request(2), None)
    assert not throttle.allow_request(_request(1), None)

"""The API's rate limits: a sliding window of questions kept in at most 61 slots."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.test import APIRequestFactory

from federation.api_throttles import WeightedAnonRateThrottle, WeightedUserRateThrottle
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    cache.clear()
    return Clock()


def _throttle(cls, clock: Clock, rate: str):  # type: ignore[no-untyped-def]
    throttle = cls()
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


def test_a_batch_is_one_entry_of_its_weight(clock: Clock) -> None:
    user = UserFactory()
    throttle = _throttle(WeightedUserRateThrottle, clock, "1000/min")
    assert throttle.allow_request(_request(600, user), None)
    clock.now += 1
    assert throttle.allow_request(_request(400, user), None)
    history = cache.get(throttle.key)
    # newest first: (first request, last request, questions); a second apart, two slots
    assert history == [(clock.now, clock.now, 400), (clock.now - 1, clock.now - 1, 600)]
    # the budget of the minute is used: one more question is refused ...
    clock.now += 1
    refused = _throttle(WeightedUserRateThrottle, clock, "1000/min")
    assert not refused.allow_request(_request(None, user), None)
    # ... until the first batch leaves the window: 58 s from now
    assert refused.wait() == pytest.approx(58.0)
    clock.now += 58.001
    assert refused.allow_request(_request(None, user), None)
    assert [used for *_, used in cache.get(refused.key)] == [1, 400]  # the 600 left


def test_the_wait_is_until_enough_questions_have_left_the_window(clock: Clock) -> None:
    throttle = _throttle(WeightedAnonRateThrottle, clock, "10/min")
    for weight in (3, 3, 3):  # at 0 s, 10 s, 20 s
        assert throttle.allow_request(_request(weight), None)
        clock.now += 10
    # 9 used at 30 s; 5 more need the first two entries gone: the second leaves at 70 s
    assert not throttle.allow_request(_request(5), None)
    assert throttle.wait() == pytest.approx(40.0)
    # a request larger than the whole budget never fits: no Retry-After
    assert not throttle.allow_request(_request(11), None)
    assert throttle.wait() is None


def test_the_history_stays_small_whatever_the_traffic(clock: Clock) -> None:
    user = UserFactory()
    throttle = _throttle(WeightedUserRateThrottle, clock, "100000/min")
    for _ in range(5000):  # 20 requests a second for 250 seconds
        assert throttle.allow_request(_request(None, user), None)
        clock.now += 0.05
    history = cache.get(throttle.key)
    assert len(history) <= 61
    assert sum(used for *_, used in history) == pytest.approx(1200, abs=20)  # the last minute


def test_a_slot_leaves_the_window_with_its_last_request(clock: Clock) -> None:
    throttle = _throttle(WeightedAnonRateThrottle, clock, "10/min")
    assert throttle.allow_request(_request(5), None)
    clock.now += 0.9
    assert throttle.allow_request(_request(5), None)  # the same slot (slots are 1 s long)
    assert len(cache.get(throttle.key)) == 1
    # 60.5 s after the first request: the first five have left, the slot has not: the
    # limit is never looser than a window of single timestamps
    clock.now += 59.6
    assert not throttle.allow_request(_request(1), None)
    assert throttle.wait() == pytest.approx(0.4)
    clock.now += 0.45
    assert throttle.allow_request(_request(10), None)


def test_clients_are_counted_apart(clock: Clock) -> None:
    first, second = UserFactory(), UserFactory()
    throttle = _throttle(WeightedUserRateThrottle, clock, "5/min")
    assert throttle.allow_request(_request(5, first), None)
    assert not throttle.allow_request(_request(1, first), None)
    assert throttle.allow_request(_request(5, second), None)
    # the anonymous throttle leaves token users to the user throttle, and vice versa
    anon = _throttle(WeightedAnonRateThrottle, clock, "1/min")
    assert anon.allow_request(_request(50, first), None)
    assert anon.allow_request(_request(1), None)
    assert not anon.allow_request(_request(1), None)


def test_no_rate_means_no_limit(clock: Clock) -> None:
    throttle = WeightedUserRateThrottle()
    throttle.rate = None
    assert throttle.allow_request(_request(10_000, UserFactory()), None)

"""Rate limits of the API: a sliding window of questions, in a history of bounded size.

``API_ANON_RATE`` (per IP address) and ``API_USER_RATE`` (per token user) are budgets of
questions: a request to ``POST /api/v1/score/batch`` with 100 questions uses 100 of them,
every other request one (the batch view sets ``request.throttle_weight``).

DRF's own throttles keep one timestamp per request and read and write that whole list in
the shared cache on every request; counting a batch of 1,000 that way wrote 1,000
timestamps, and a busy client's list grew to thousands of entries that every request
moved to Redis and back. Here the history is a list of slots ``(first, last, weight)``:
the requests of one sixtieth of the window share a slot, so it never holds more than 61,
whatever the rate or the batch sizes. A slot leaves the window when its *last* request
does, so the limit is never looser than DRF's (at most ``num_requests`` questions in any
``duration`` seconds); it can be stricter by one slot's length at most. Decision 0602.
"""

from __future__ import annotations

from typing import Any

from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

SLOTS_PER_WINDOW = 60

Slot = tuple[float, float, int]  # first request, last request, questions


class WeightedRateMixin:
    """DRF's ``SimpleRateThrottle`` contract (rates, scopes, cache keys, ``wait``), each
    request counted as ``request.throttle_weight`` questions (default 1)."""

    # not DRF's key format: its entries are bare timestamps, ours are slots
    cache_format = "throttle:slots:%(scope)s:%(ident)s"

    def allow_request(self, request: Any, view: Any) -> bool:
        if self.rate is None:  # type: ignore[attr-defined]
            return True
        self.key = self.get_cache_key(request, view)  # type: ignore[attr-defined]
        if self.key is None:
            return True
        weight = max(1, int(getattr(request, "throttle_weight", 1)))
        duration: float = self.duration  # type: ignore[attr-defined]
        self.now = now = self.timer()  # type: ignore[attr-defined]
        # newest first; the slots whose last request has left the window are dropped
        history: list[Slot] = [
            slot for slot in self.cache.get(self.key, ())  # type: ignore[attr-defined]
            if slot[1] > now - duration
        ]
        self.history = history
        self.weight = weight
        if sum(slot[2] for slot in history) + weight > self.num_requests:  # type: ignore[attr-defined]
            return False
        if history and now - history[0][0] < duration / SLOTS_PER_WINDOW:
            first, _last, used = history[0]
            history[0] = (first, now, used + weight)
        else:
            history.insert(0, (now, now, weight))
        self.cache.set(self.key, history, duration)  # type: ignore[attr-defined]
        return True

    def wait(self) -> float | None:
        """Seconds until enough questions have left the window for the refused request
        (``Retry-After``); None when the request is larger than the whole budget."""
        limit: int = self.num_requests  # type: ignore[attr-defined]
        if self.weight > limit:
            return None
        needed = sum(slot[2] for slot in self.history) + self.weight - limit
        freed = 0
        for _first, last, used in reversed(self.history):  # oldest first
            freed += used
            if freed >= needed:
                return max(0.0, last + self.duration - self.now)  # type: ignore[attr-defined]
        return float(self.duration)  # type: ignore[attr-defined]


class WeightedAnonRateThrottle(WeightedRateMixin, AnonRateThrottle):
    """Anonymous clients, per IP address: ``API_ANON_RATE`` (scope ``anon``)."""


class WeightedUserRateThrottle(WeightedRateMixin, UserRateThrottle):
    """Clients with a token (or a session), per user: ``API_USER_RATE`` (scope ``user``)."""

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

With Redis (``REDIS_URL``, what production runs) the whole check is one Lua script that
Redis runs atomically: one round trip instead of a read and a write, and two workers
counting the same client at once cannot both take the last place. With another cache
(the database cache of development, the tests' caches) the same steps run here, read
then written (not atomic: two workers may both take the last place, as with DRF's own
throttles). ``tests/federation/test_api_throttles.py`` runs every scenario on both.

With Redis away (stopped, restarting, unreachable) the limits are not dropped: each process
counts in its own memory, the same steps as above, until Redis answers again (the cache
backend logs that once a minute; docs/reliability.md).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.core.cache import DEFAULT_CACHE_ALIAS, caches
from django.core.cache import cache as default_cache
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

from core.cache import REDIS_UNAVAILABLE

SLOTS_PER_WINDOW = 60

Slot = tuple[float, float, int]  # first request, last request, questions


def slots_check(history: list[Slot], now: float, duration: float, limit: int, weight: int
                ) -> tuple[list[Slot] | None, float | None]:
    """One request of ``weight`` questions against ``history`` (newest first).

    Returns ``(new history, None)`` when the request is allowed, ``(None, wait)`` when it
    is refused: ``wait`` is the seconds until enough questions have left the window
    (``Retry-After``), None when the request is larger than the whole budget. The Lua
    script below is this function, step for step."""
    kept = [slot for slot in history if slot[1] > now - duration]
    used = sum(slot[2] for slot in kept)
    if used + weight > limit:
        if weight > limit:
            return None, None
        needed, freed = used + weight - limit, 0
        for _first, last, questions in reversed(kept):  # oldest first
            freed += questions
            if freed >= needed:
                return None, max(0.0, last + duration - now)
        return None, float(duration)
    if kept and now - kept[0][0] < duration / SLOTS_PER_WINDOW:
        first, _last, questions = kept[0]
        kept[0] = (first, now, questions + weight)
    else:
        kept.insert(0, (now, now, weight))
    return kept, None


# slots_check in Lua, with O(1) work per allowed request: the slots are a Redis list,
# newest first, each "first last questions" (times with 4 decimals, 0.1 ms), and a second
# key holds their total. Slots that have left the window are popped from the tail; the
# whole list is read only to tell a refused client how long to wait. Returns {1} when
# allowed, {0, wait} when refused (wait a string, "" when the request is larger than the
# budget: Redis would truncate a Lua number to an integer).
SLOTS_SCRIPT = """
local slots, total = KEYS[1], KEYS[2]
local now = tonumber(ARGV[1])
local duration = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local weight = tonumber(ARGV[4])
local slot_length = duration / tonumber(ARGV[5])
local function parse(slot)
  local first, last, questions = string.match(slot, '(%S+) (%S+) (%d+)')
  return tonumber(first), tonumber(last), tonumber(questions)
end
while true do
  local oldest = redis.call('LINDEX', slots, -1)
  if not oldest then break end
  local _, last, questions = parse(oldest)
  if last > now - duration then break end
  redis.call('RPOP', slots)
  redis.call('DECRBY', total, questions)
end
local used = tonumber(redis.call('GET', total) or '0')
if used + weight > limit then
  if weight > limit then return {0, ''} end
  local kept = redis.call('LRANGE', slots, 0, -1)
  local needed, freed = used + weight - limit, 0
  for i = #kept, 1, -1 do
    local _, last, questions = parse(kept[i])
    freed = freed + questions
    if freed >= needed then
      return {0, string.format('%.4f', math.max(0, last + duration - now))}
    end
  end
  return {0, string.format('%.4f', duration)}
end
local newest = redis.call('LINDEX', slots, 0)
local first, _, questions
if newest then first, _, questions = parse(newest) end
if newest and now - first < slot_length then
  redis.call('LSET', slots, 0, string.format('%.4f %.4f %d', first, now, questions + weight))
else
  redis.call('LPUSH', slots, string.format('%.4f %.4f %d', now, now, weight))
end
redis.call('INCRBY', total, weight)
local ttl = math.ceil(duration * 1000)
redis.call('PEXPIRE', slots, ttl)
redis.call('PEXPIRE', total, ttl)
return {1}
"""

_script: Any = None  # redis-py's Script (its SHA1 computed once), run with any client

# the counts of this process while the shared cache is away
local_cache = LocMemCache("config-throttles-fallback", {"OPTIONS": {"MAX_ENTRIES": 10000}})


def _shared_cache_down(cache: Any) -> bool:
    if cache is default_cache:
        cache = caches[DEFAULT_CACHE_ALIAS]
    health = getattr(cache, "health", None)
    return health is not None and health.is_down()


def _shared_cache_failed(cache: Any, error: BaseException) -> None:
    if cache is default_cache:
        cache = caches[DEFAULT_CACHE_ALIAS]
    health = getattr(cache, "health", None)
    if health is not None:
        health.failed(error)


def _redis_script(cache: Any) -> Any:
    """The script, bound to this Redis cache's client; None for other caches."""
    global _script
    if cache is default_cache:  # DRF's throttles count in django.core.cache.cache, a proxy
        cache = caches[DEFAULT_CACHE_ALIAS]
    if not isinstance(cache, RedisCache):
        return None
    client = cache._cache.get_client(write=True)
    if _script is None:
        _script = client.register_script(SLOTS_SCRIPT)
    return partial(_script, client=client)


class WeightedRateMixin:
    """DRF's ``SimpleRateThrottle`` contract (rates, scopes, cache keys, ``wait``), each
    request counted as ``request.throttle_weight`` questions (default 1)."""

    # not DRF's key format: its entries are bare timestamps, ours are slots
    cache_format = "throttle:slots:%(scope)s:%(ident)s"
    # the request's attribute that says how many questions it asks
    weight_attribute = "throttle_weight"

    def allow_request(self, request: Any, view: Any) -> bool:
        if self.rate is None:  # type: ignore[attr-defined]
            return True
        self.key = self.get_cache_key(request, view)  # type: ignore[attr-defined]
        if self.key is None:
            return True
        weight = max(1, int(getattr(request, self.weight_attribute, 1)))
        duration: float = self.duration  # type: ignore[attr-defined]
        limit: int = self.num_requests  # type: ignore[attr-defined]
        now: float = self.timer()  # type: ignore[attr-defined]
        cache = self.cache  # type: ignore[attr-defined]
        if _shared_cache_down(cache):
            cache = local_cache
        script = _redis_script(cache)
        if script is not None:
            key = cache.make_and_validate_key(self.key)
            # keys of their own: a history pickled under the plain key by the Python
            # path (an earlier release, or another cache) is left to expire, not misread
            try:
                answer = script(keys=[key + ":slots", key + ":total"],
                                args=[f"{now:.4f}", duration, limit, weight, SLOTS_PER_WINDOW])
            except REDIS_UNAVAILABLE as error:
                _shared_cache_failed(cache, error)
                cache = local_cache
            else:
                allowed = answer[0] == 1
                self.retry_after = float(answer[1]) if not allowed and answer[1] else None
                return allowed
        history, self.retry_after = slots_check(
            list(cache.get(self.key, ())), now, duration, limit, weight)
        if history is None:
            return False
        cache.set(self.key, history, duration)
        return True

    def wait(self) -> float | None:
        """Seconds until enough questions have left the window for the refused request
        (``Retry-After``); None when the request is larger than the whole budget."""
        return self.retry_after


class WeightedAnonRateThrottle(WeightedRateMixin, AnonRateThrottle):
    """Anonymous clients, per IP address: ``API_ANON_RATE`` (scope ``anon``)."""


class WeightedUserRateThrottle(WeightedRateMixin, UserRateThrottle):
    """Clients with a token (or a session), per user: ``API_USER_RATE`` (scope ``user``)."""


class MemberLookupRateThrottle(WeightedRateMixin, UserRateThrottle):
    """Rows that name a member number, per user (the organizer): ``API_MEMBER_LOOKUP_RATE``
    (scope ``member_lookup``, default 1,000 a day). A request counts as
    ``request.member_lookups`` (set by the view that matches member numbers); one naming
    none is not counted. A member number paired with a name is a question about a person:
    the budget bounds how many such questions an organizer can ask (issue 37, item 2)."""

    scope = "member_lookup"
    weight_attribute = "member_lookups"

    def get_rate(self) -> str | None:
        from django.conf import settings

        return getattr(settings, "API_MEMBER_LOOKUP_RATE", None)

    def allow_request(self, request: Any, view: Any) -> bool:
        if not getattr(request, self.weight_attribute, 0):
            return True
        return super().allow_request(request, view)


def member_lookups_allowed(request: Any, lookups: int = 1) -> bool:
    """For a page (not the API): may ``request.user`` look up ``lookups`` more member
    numbers? Counted in the same budget as the API's (MemberLookupRateThrottle)."""
    request.member_lookups = lookups
    return MemberLookupRateThrottle().allow_request(request, None)

"""API tokens (DRF's authtoken): one per user, shown on the account page, renewable."""

from __future__ import annotations

import time
from datetime import timedelta

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save
from django.utils import timezone
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token


def api_token_get_or_create(*, user) -> Token:
    """The user's token, created on first use."""
    token, _created = Token.objects.get_or_create(user=user)
    return token


@transaction.atomic
def api_token_renew(*, user) -> Token:
    """Replace the user's token by a new one (the old key stops working at once)."""
    Token.objects.filter(user=user).delete()
    return Token.objects.create(user=user)


# --- token authentication without a database query on every request -----------------------

TOKEN_CACHE_SECONDS = 60
# how often a process reads the revocations the shared cache did not hear; a revocation
# made while Redis could not hear it returns only after this long, so that once it has
# returned every process distrusts what Redis still holds for the token
UNHEARD_CHECK_SECONDS = 1.0
# a cached authentication outlives its revocation by TOKEN_CACHE_SECONDS at most (Redis
# expires keys by the clock, also over a pause); the rows are kept well beyond that
UNHEARD_KEEP_SECONDS = 10 * 60


def _token_cache_key(key: str) -> str:
    return f"api-token:{key}"


class _Unheard:
    """This process's copy of the revocations the shared cache did not hear."""

    checked = float("-inf")
    keys: frozenset[str] = frozenset()


_unheard = _Unheard()
_clock = time.monotonic  # the tests move it


def unheard_revocations() -> frozenset[str]:
    """The token keys revoked lately while Redis could not hear it, read from the database
    at most once every UNHEARD_CHECK_SECONDS (one small query a second for a busy
    process, none for an idle one)."""
    now = _clock()
    if now - _unheard.checked >= UNHEARD_CHECK_SECONDS:
        from core.models import UnheardTokenRevocation

        since = timezone.now() - timedelta(seconds=UNHEARD_KEEP_SECONDS)
        _unheard.keys = frozenset(UnheardTokenRevocation.objects.filter(
            created_at__gte=since).values_list("key", flat=True))
        _unheard.checked = now
    return _unheard.keys


class CachedTokenAuthentication(TokenAuthentication):
    """DRF's token authentication, the token's user kept in the shared cache for a minute.

    High-volume endpoints (the scoring API) would otherwise spend a database round trip
    on each request. A renewed or deleted token, a changed user (saved, or deactivated in
    bulk through the user model's ``QuerySet.update``, federation/models.py) is forgotten
    at once through ``api_tokens_forget_users`` and the signals below (with Redis, in every
    worker; with the per-process cache, the other processes forget within
    TOKEN_CACHE_SECONDS). A revocation Redis cannot hear (paused, away) still happens in
    the database, the source of truth, and is written down there too
    (``UnheardTokenRevocation``): every process then distrusts what Redis holds for that
    token and asks the database (issue 37, item 3).
    """

    def authenticate_credentials(self, key):
        health = getattr(cache, "health", None)  # the Redis backend (core/cache.py)
        if health is not None and health.is_down():
            # Redis away: the processes could not tell each other of a deactivation
            return super().authenticate_credentials(key)
        cached = cache.get(_token_cache_key(key))
        if cached is not None:
            # (a cache of this process alone, without ``health``, always hears revocations)
            if health is None or key not in unheard_revocations():
                return cached
            cache.delete(_token_cache_key(key))  # revoked while Redis could not hear it
        user, token = super().authenticate_credentials(key)
        cache.set(_token_cache_key(key), (user, token), TOKEN_CACHE_SECONDS)
        return user, token


def _unheard_record(keys: list[str]) -> None:
    """The revocation of these tokens did not reach Redis: written down in the database
    (in the revoking change's transaction when there is one)."""
    from core.models import UnheardTokenRevocation

    UnheardTokenRevocation.objects.filter(
        created_at__lt=timezone.now() - timedelta(seconds=UNHEARD_KEEP_SECONDS)).delete()
    UnheardTokenRevocation.objects.bulk_create(
        [UnheardTokenRevocation(key=key) for key in keys])


def _every_process_has_read() -> None:
    """Return once every process has read the revocations again (a second at most): from
    then on no process takes the token from Redis."""
    time.sleep(UNHEARD_CHECK_SECONDS)


def _cache_down() -> bool:
    health = getattr(cache, "health", None)  # the Redis backend (core/cache.py)
    return health is not None and health.is_down()


def _forget_keys(keys: list[str], *, revoking: bool) -> None:
    """Forget these tokens' cached authentications. ``revoking``: the change takes access
    away: when Redis cannot hear the forgetting, the revocation goes through anyway and is
    written down as unheard (``UnheardTokenRevocation``), so that no process takes the
    token from Redis again."""
    if not keys:
        return
    cache_keys = [_token_cache_key(k) for k in keys]
    cache.delete_many(cache_keys)
    if not revoking:
        return
    if _cache_down():
        # the delete went to this process's memory only: the entry may still be in Redis
        _unheard_record(keys)
        transaction.on_commit(_every_process_has_read)
        return

    def forget_again() -> None:
        # a request between the delete above and the commit could cache the old state
        cache.delete_many(cache_keys)
        if _cache_down():
            _unheard_record(keys)
            _every_process_has_read()

    transaction.on_commit(forget_again)


def _forget_token(sender, instance, **kwargs) -> None:
    _forget_keys([instance.key], revoking=True)


def api_tokens_forget_users(*, user_ids, revoking: bool = False) -> None:
    """Forget the cached authentication of these users' tokens: the next request with one
    of them is checked against the database (an account deactivated in bulk, the user
    model's ``QuerySet.update``, is refused at once). ``revoking`` (a deactivation): call
    inside the change's transaction; when Redis cannot hear it the revocation is written
    down as unheard (``_forget_keys``)."""
    keys = Token.objects.filter(user_id__in=list(user_ids)).values_list("key", flat=True)
    _forget_keys(list(keys), revoking=revoking)


def _forget_users_tokens(sender, instance, **kwargs) -> None:
    # an inactive account's tokens must be forgotten for sure; other saves (a login's
    # last_login) only refresh what is cached
    api_tokens_forget_users(user_ids=[instance.pk], revoking=not instance.is_active)


post_delete.connect(_forget_token, sender=Token, dispatch_uid="api_token_forget")
post_save.connect(_forget_users_tokens, sender=settings.AUTH_USER_MODEL,
                  dispatch_uid="api_token_forget_user")

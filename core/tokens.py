"""API tokens (DRF's authtoken): one per user, shown on the account page, renewable."""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save
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


def _token_cache_key(key: str) -> str:
    return f"api-token:{key}"


class CachedTokenAuthentication(TokenAuthentication):
    """DRF's token authentication, the token's user kept in the shared cache for a minute.

    High-volume endpoints (the scoring API) would otherwise spend a database round trip
    on each request. A renewed or deleted token, a changed user (saved, or deactivated in
    bulk through the user model's ``QuerySet.update``, federation/models.py) is forgotten
    at once through ``api_tokens_forget_users`` and the signals below (with Redis, in every
    worker; with the per-process cache, the other processes forget within
    TOKEN_CACHE_SECONDS). A revocation the shared cache cannot hear (Redis paused) is
    refused: ``TokenRevocationError`` rolls the change back.
    """

    def authenticate_credentials(self, key):
        health = getattr(cache, "health", None)  # the Redis backend (core/cache.py)
        if health is not None and health.is_down():
            # Redis away: the processes could not tell each other of a deactivation
            return super().authenticate_credentials(key)
        cached = cache.get(_token_cache_key(key))
        if cached is not None:
            return cached
        user, token = super().authenticate_credentials(key)
        cache.set(_token_cache_key(key), (user, token), TOKEN_CACHE_SECONDS)
        return user, token


class TokenRevocationError(RuntimeError):
    """The shared cache could not be told to forget a token's authentication (Redis
    paused or away). The change that revokes it (a deactivation, a deleted token or user)
    is refused and rolled back: otherwise the entry would outlive the outage and the token
    work again for up to TOKEN_CACHE_SECONDS once Redis answers."""


def _forget_keys(keys: list[str], *, revoking: bool) -> None:
    """Forget these tokens' cached authentications. ``revoking``: the change takes access
    away, so the forgetting must have reached the shared cache, else TokenRevocationError
    (raised inside the change's transaction, which is rolled back)."""
    if not keys:
        return
    cache_keys = [_token_cache_key(k) for k in keys]
    cache.delete_many(cache_keys)
    health = getattr(cache, "health", None)  # the Redis backend (core/cache.py)
    if revoking and health is not None and health.is_down():
        # the delete went to this process's memory only: the entry may still be in Redis
        raise TokenRevocationError("the shared cache could not forget the revoked tokens")
    if revoking:
        # a request between this delete and the commit could cache the old state again
        transaction.on_commit(lambda: cache.delete_many(cache_keys))


def _forget_token(sender, instance, **kwargs) -> None:
    _forget_keys([instance.key], revoking=True)


def api_tokens_forget_users(*, user_ids, revoking: bool = False) -> None:
    """Forget the cached authentication of these users' tokens: the next request with one
    of them is checked against the database (an account deactivated in bulk, the user
    model's ``QuerySet.update``, is refused at once). ``revoking`` (a deactivation): call
    inside the change's transaction; TokenRevocationError when the cache cannot be told."""
    keys = Token.objects.filter(user_id__in=list(user_ids)).values_list("key", flat=True)
    _forget_keys(list(keys), revoking=revoking)


def _forget_users_tokens(sender, instance, **kwargs) -> None:
    # an inactive account's tokens must be forgotten for sure; other saves (a login's
    # last_login) only refresh what is cached and must work with Redis away
    api_tokens_forget_users(user_ids=[instance.pk], revoking=not instance.is_active)


post_delete.connect(_forget_token, sender=Token, dispatch_uid="api_token_forget")
post_save.connect(_forget_users_tokens, sender=settings.AUTH_USER_MODEL,
                  dispatch_uid="api_token_forget_user")

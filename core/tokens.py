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
    TOKEN_CACHE_SECONDS).
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


def _forget_token(sender, instance, **kwargs) -> None:
    cache.delete(_token_cache_key(instance.key))


def api_tokens_forget_users(*, user_ids) -> None:
    """Forget the cached authentication of these users' tokens: the next request with one
    of them is checked against the database (an account deactivated in bulk, the user
    model's ``QuerySet.update``, is refused at once)."""
    keys = Token.objects.filter(user_id__in=list(user_ids)).values_list("key", flat=True)
    cache.delete_many([_token_cache_key(k) for k in keys])


def _forget_users_tokens(sender, instance, **kwargs) -> None:
    api_tokens_forget_users(user_ids=[instance.pk])


post_delete.connect(_forget_token, sender=Token, dispatch_uid="api_token_forget")
post_save.connect(_forget_users_tokens, sender=settings.AUTH_USER_MODEL,
                  dispatch_uid="api_token_forget_user")

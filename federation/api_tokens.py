"""API tokens (DRF's authtoken): one per user, shown on the account page, renewable."""

from __future__ import annotations

from django.db import transaction
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

"""The address of the client a request came from, as the nearest of our own proxies saw it."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str:
    """The client's address: the one the nearest of our own ``TRUSTED_PROXIES`` proxies saw
    (REST_FRAMEWORK's NUM_PROXIES rule), else the connection's."""
    proxies = settings.TRUSTED_PROXIES
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if proxies > 0 and forwarded:
        addresses = [a.strip() for a in forwarded.split(",")]
        return addresses[-min(proxies, len(addresses))]
    return request.META.get("REMOTE_ADDR", "")

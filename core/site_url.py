"""The site's public address, for every link the site sends out (e-mails, the online
payment's return page, the membership card's check link and QR code).

One rule: the configured address (the ``SITE_URL`` environment variable, read into
``settings.MEMBERSHIP_SITE_URL``) when there is one; otherwise the address of the request
being served (development: whatever host and port the browser used), recorded for the
request by ``SiteAddressMiddleware`` so that mail sent after the request's transaction sees
it too. Outside any request and without ``SITE_URL`` (a management command on a development
machine) the last resort is ``http://localhost``.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from django.conf import settings

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.http import HttpRequest, HttpResponse

FALLBACK_BASE_URL = "http://localhost"

_request_base_url: ContextVar[str] = ContextVar("request_base_url", default="")


def request_base_url(request: HttpRequest) -> str:
    return f"{request.scheme}://{request.get_host()}"


def site_base_url(request: HttpRequest | None = None) -> str:
    """The scheme and host (no trailing slash) that links sent out start with."""
    configured = str(getattr(settings, "MEMBERSHIP_SITE_URL", "") or "").strip()
    if configured:
        return configured.rstrip("/")
    if request is not None:
        return request_base_url(request)
    return _request_base_url.get() or FALLBACK_BASE_URL


def site_absolute_url(path: str, request: HttpRequest | None = None) -> str:
    return site_base_url(request) + path


def payment_host() -> str:
    """django-payments' PAYMENT_HOST when the environment does not set it: the host (and
    port) of the site's address."""
    return urlsplit(site_base_url()).netloc


class SiteAddressMiddleware:
    """Records the request's address for links built while it is served."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        token = _request_base_url.set(request_base_url(request))
        try:
            return self.get_response(request)
        finally:
            _request_base_url.reset(token)

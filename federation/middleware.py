"""Middleware of the site."""

from __future__ import annotations

from django.middleware.locale import LocaleMiddleware as DjangoLocaleMiddleware


class LocaleMiddleware(DjangoLocaleMiddleware):
    """Django's LocaleMiddleware, except that an API 404 stays a 404.

    Django redirects a 404 outside the language prefix to the prefixed path when that path
    resolves, and Wagtail's catch-all page route resolves every path: without this an API
    client asking for a tournament it may not see would get a redirect to an HTML page.
    """

    def process_response(self, request, response):
        if request.path_info.startswith("/api/"):
            return response
        return super().process_response(request, response)

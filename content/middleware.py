"""Whole-page cache of the rulebook's pages (rules, chapters, fan tables, fan pages) for
anonymous visitors.

Placed before the session and authentication middleware, so that a cached page costs a
cache lookup and the content version (four small aggregate queries), not Wagtail's page
routing. A response is stored only when the page marked it cacheable
(``content.fan_pages.cached_serve``: anonymous GET, no preview). Requests with a session
cookie (logged-in users, editors) always go to the page. The key holds the content
version, so a publish of any fan, example or page is visible at once in every process.

The home page of each language is kept the same way, its key also holding
``HomePage.cache_stamp()`` (the rating list's stamp, today's date and the upcoming
tournaments as shown: two small queries), for five minutes at most (a player renamed in the
leaders' list). A request carrying messages (``messages`` cookie: "You have signed out")
is never served from nor stored in the cache.

A page is kept per the query parameters it reads (``PAGE_PARAMETERS``), not per the whole
query string: ``?utm_source=...`` or any other invented parameter is the same page, and a
free-text search (``q``) is rendered and not kept (``core.cache_keys``, decision 0503).
"""

from __future__ import annotations

import hashlib
import re

from django.conf import settings
from django.core.cache import cache

from core.cache_keys import NUMBER, TOKEN, ParameterShapes, page_query_key
from core.shared_pages import MESSAGES_COOKIE, shared_page_reader, with_own_account_nav

CACHE_SECONDS = 3600
HOME_CACHE_SECONDS = 300
CACHEABLE_PATH = re.compile(r"^/[a-z-]+/rules/")
HOME_PATH = re.compile(r"^/[a-z]{2}(-[a-z]+)?/$")

# The query parameters each kind of page reads (content.fan_pages.fan_table_context: the fan
# table's filters); the home page reads none.
RULEBOOK_PARAMETERS: ParameterShapes = {"points": NUMBER, "category": TOKEN, "q": None}
HOME_PARAMETERS: ParameterShapes = {}


class RulebookCacheMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if (
            request.method != "GET"
            or settings.SESSION_COOKIE_NAME in request.COOKIES
            or MESSAGES_COOKIE in request.COOKIES
        ):
            return self.get_response(request)
        key, seconds = self._key(request)
        if key is None:
            return self.get_response(request)
        response = cache.get(key)
        if response is not None:
            return response
        response = self.get_response(request)
        if getattr(request, "rulebook_cacheable", False) and response.status_code == 200:
            if hasattr(response, "render") and not response.is_rendered:
                response.render()
            cache.set(key, response, seconds)
        return response

    @staticmethod
    def _key(request) -> tuple[str | None, int]:
        """The cache key of the page asked for and how long it is kept; None when the page
        is not one this middleware keeps."""
        from rulebook.selectors import content_version

        path = request.path
        if CACHEABLE_PATH.match(path):
            parameters = RULEBOOK_PARAMETERS
        elif HOME_PATH.match(path):
            parameters = HOME_PARAMETERS
        else:
            return None, 0
        query = page_query_key(request.GET, parameters)
        if query is None:
            return None, 0
        if parameters is HOME_PARAMETERS:
            from content.models import HomePage

            prefix, seconds = f"home:page:{HomePage.cache_stamp()}", HOME_CACHE_SECONDS
        else:
            prefix, seconds = "rulebook:page", CACHE_SECONDS
        address = f"{path}?{query}" if query else path
        digest = hashlib.sha256(address.encode("utf-8")).hexdigest()[:40]
        return f"{prefix}:{content_version()}:{digest}", seconds


class RulebookSignedInMiddleware:
    """The rulebook's cached rendering for signed-in visitors too (issue 43): a rulebook
    page does not depend on who reads it except for the account links of the header, so
    a signed-in visitor (not staff: editors see warnings) gets the anonymous rendering kept
    by RulebookCacheMiddleware (rendered as anonymous and kept when there is none) with the
    account links rendered for them (``_account_nav.html``). Placed after the
    authentication and messages middleware; a request with messages waiting renders whole."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if (
            request.method != "GET"
            or not CACHEABLE_PATH.match(request.path)
            or not shared_page_reader(request)
        ):
            return self.get_response(request)
        key, seconds = RulebookCacheMiddleware._key(request)
        if key is None:
            return self.get_response(request)
        cached = cache.get(key)
        if cached is None:
            from django.contrib.auth.models import AnonymousUser

            request.user = AnonymousUser()
            try:
                response = self.get_response(request)
            finally:
                request.user = user
            if not (getattr(request, "rulebook_cacheable", False)
                    and response.status_code == 200):
                return self.get_response(request)  # not a page kept: render it for the user
            if hasattr(response, "render") and not response.is_rendered:
                response.render()
            cache.set(key, response, seconds)
            cached = response
        return self._for(request, cached)

    @staticmethod
    def _for(request, cached):
        return with_own_account_nav(
            request, cached.content.decode(cached.charset), status=cached.status_code,
            content_type=cached["Content-Type"],
            headers={h: cached[h] for h in ("Content-Language", "Vary") if cached.has_header(h)})

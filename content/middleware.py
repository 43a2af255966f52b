"""Whole-page cache of the rulebook's pages (rules, chapters, fan tables, fan pages) for
anonymous visitors.

Placed before the session and authentication middleware, so that a cached page costs a
cache lookup and the content version (four small aggregate queries), not Wagtail's page
routing. A response is stored only when the page marked it cacheable
(``content.fan_pages.cached_serve``: anonymous GET, no preview). Requests with a session
cookie (logged-in users, editors) always go to the page. The key holds the content
version, so a publish of any fan, example or page is visible at once in every process.
"""

from __future__ import annotations

import hashlib
import re

from django.conf import settings
from django.core.cache import cache

CACHE_SECONDS = 3600
CACHEABLE_PATH = re.compile(r"^/[a-z-]+/rules/")


class RulebookCacheMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if (
            request.method != "GET"
            or not CACHEABLE_PATH.match(request.path)
            or settings.SESSION_COOKIE_NAME in request.COOKIES
        ):
            return self.get_response(request)
        from rulebook.selectors import content_version

        path = request.get_full_path()
        digest = hashlib.sha256(path.encode("utf-8")).hexdigest()[:40]
        key = f"rulebook:page:{content_version()}:{digest}"
        response = cache.get(key)
        if response is not None:
            return response
        response = self.get_response(request)
        if getattr(request, "rulebook_cacheable", False) and response.status_code == 200:
            if hasattr(response, "render") and not response.is_rendered:
                response.render()
            cache.set(key, response, CACHE_SECONDS)
        return response

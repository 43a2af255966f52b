"""The Content-Security-Policy of every response (decision 0905).

django-csp's middleware writes the header; this subclass gives the Wagtail admin (every
path under /admin/) its own, looser policy: Wagtail 8's admin still renders inline scripts
(date pickers, inline panels, workflow dialogs) and inline styles, so there
`script-src`/`style-src` allow 'unsafe-inline'. Everything else (the public pages, the
API, /api/docs/, the health check) gets `CONTENT_SECURITY_POLICY`: scripts and styles only
from our own static files, or inline with the request's nonce.
"""

from __future__ import annotations

from typing import Any

from csp.middleware import CSPMiddleware, PolicyParts
from django.conf import settings
from django.http import HttpRequest
from django.http.response import HttpResponseBase

ADMIN_PREFIX = "/admin/"


def admin_policy() -> dict[str, Any]:
    """The admin's directives (`CONTENT_SECURITY_POLICY_ADMIN`)."""
    return dict(settings.CONTENT_SECURITY_POLICY_ADMIN["DIRECTIVES"])


class SiteCSPMiddleware(CSPMiddleware):
    def get_policy_parts(
        self, request: HttpRequest, response: HttpResponseBase, report_only: bool = False
    ) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        if (
            not report_only
            and parts.config is None  # a view's own @csp_override still wins
            and request.path_info.startswith(ADMIN_PREFIX)
        ):
            parts.config = admin_policy()
        return parts

"""Pages that do not depend on who reads them, kept once and served to signed-in visitors
too (issue 43): the anonymous rendering with the header's account links rendered for the
visitor. Used by the rulebook's pages (``content.middleware``) and the rating list.

The account links sit between ``<!--account-nav-->`` markers in ``base.html``; everything
else of such a page is the same for every visitor who is not staff (editors and officers
see warnings and buttons of their own) and has no message waiting (a message is shown once,
in the page it comes with)."""

from __future__ import annotations

import re
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

ACCOUNT_NAV = re.compile(r"<!--account-nav-->.*?<!--/account-nav-->", re.DOTALL)
#: the cookie of Django's messages (CookieStorage's name, used by the default FallbackStorage)
MESSAGES_COOKIE = "messages"


def shared_page_reader(request: HttpRequest) -> bool:
    """May this signed-in visitor get the page kept for everyone? Not staff, and no message
    waiting."""
    user: Any = getattr(request, "user", None)
    session: Any = getattr(request, "session", {})
    return bool(user is not None and user.is_authenticated and not user.is_staff
                and MESSAGES_COOKIE not in request.COOKIES and "_messages" not in session)


def with_own_account_nav(request: HttpRequest, html: str, *, status: int = 200,
                         content_type: str = "text/html; charset=utf-8",
                         headers: dict[str, str] | None = None) -> HttpResponse:
    """The kept page ``html`` with the account links rendered for ``request``'s visitor;
    private to them (``Cache-Control: private``)."""
    nav = render_to_string("_account_nav.html", request=request)
    page = ACCOUNT_NAV.sub(lambda _m: f"<!--account-nav-->{nav}<!--/account-nav-->", html,
                           count=1)
    response = HttpResponse(page, status=status, content_type=content_type)
    for header, value in (headers or {}).items():
        response[header] = value
    response["Cache-Control"] = "private"
    return response

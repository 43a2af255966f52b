"""What no request may carry, refused before any view reads it (docs/reliability.md, issue
37 items 14 and 16):

- a NUL character in a query or form parameter (PostgreSQL cannot hold one in a text
  value, so a search or a filter with ``%00`` ended in a 500): 400 naming the parameter;
- a page's body larger than ``PAGE_MAX_BODY_BYTES`` (an image for the admin fits): 413
  saying the limit, decided from ``Content-Length`` before the body is read (the CSRF check
  used to answer 403 first, which told a person nothing). The API's own limit is
  ``API_MAX_BODY_BYTES`` (``core.api_errors``).

Under ``/api/`` the answers are the API's JSON errors; on pages, the site's error page.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, QueryDict
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.api_errors import API_PREFIX, error_response

E_BAD_CHARACTER = "bad_character"
FORM_TYPE = "application/x-www-form-urlencoded"


def page_max_body_bytes() -> int:
    return int(getattr(settings, "PAGE_MAX_BODY_BYTES", 12_582_912))


def _with_nul(params: QueryDict) -> str | None:
    """The name of the first parameter whose name or a value holds a NUL."""
    for name, values in params.lists():
        if "\x00" in name or any("\x00" in value for value in values):
            return name.replace("\x00", "") or "?"
    return None


def _values_to_check(request: HttpRequest) -> Iterable[QueryDict]:
    yield request.GET
    # a form's fields (a multipart body is left to the forms, whose fields refuse NUL)
    if request.method == "POST" and request.content_type == FORM_TYPE:
        yield request.POST


def _page(request: HttpRequest, status: int, title: str, reason: str) -> HttpResponse:
    response = TemplateResponse(request, "400.html", {"title": title, "reason": reason},
                                status=status)
    return response.render()


def bad_parameter_page(request: HttpRequest, name: str, message: str) -> HttpResponse:
    """A page's answer to a query parameter it cannot use: 400, the parameter named."""
    return _page(request, 400, _("The request cannot be read"),
                 _("The parameter “%(name)s”: %(message)s") % {"name": name, "message": message})


class RequestLimitsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        api = request.path.startswith(API_PREFIX)
        if not api:
            refused = self._too_large(request)
            if refused is not None:
                return refused
        for params in _values_to_check(request):
            name = _with_nul(params)
            if name is not None:
                message = _("The parameter “%(name)s” holds a NUL character.") % {
                    "name": name}
                if api:
                    return error_response(E_BAD_CHARACTER, message, field=name)
                return _page(request, 400, _("The request cannot be read"), message)
        return self.get_response(request)

    def _too_large(self, request: HttpRequest) -> HttpResponse | None:
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return None
        limit = page_max_body_bytes()
        if length <= limit:
            return None
        megabytes = limit // (1024 * 1024)
        return _page(request, 413, _("The upload is too large"), ngettext(
            "What you sent is larger than %(limit)s MB, the most this site accepts at once.",
            "What you sent is larger than %(limit)s MB, the most this site accepts at once.",
            megabytes) % {"limit": megabytes})

"""Pages of the API's lists (decision 0713): ``?page=N`` (from 1), a fixed number of rows a
page, and the links to the next and previous pages.

The body of a list keeps its shape (a client that reads it still finds the same fields);
the page's place travels beside it: ``Link: <...>; rel="next"`` and ``rel="prev"`` headers
(RFC 8288) and ``X-Total-Count`` on every paginated answer, and ``count``, ``next`` and
``previous`` keys where the body is already an object. A config leaf module: it imports no
app, so that every app's API may use it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.functional import lazy
from django.utils.translation import gettext

if TYPE_CHECKING:
    from django.http import HttpRequest, HttpResponseBase

# no list has a million pages; a larger number (35 digits) would overflow the database's
# OFFSET (issue 37, item 13)
MAX_PAGE = 1_000_000


def _page_invalid() -> str:
    return gettext("Enter a page number: a whole number from 1 to %(max)s.") % {
        "max": MAX_PAGE}


PAGE_INVALID = lazy(_page_invalid, str)()


@dataclass(frozen=True)
class ApiPage:
    number: int
    size: int
    count: int
    next: str | None
    previous: str | None

    @property
    def start(self) -> int:
        return (self.number - 1) * self.size

    @property
    def stop(self) -> int:
        return self.number * self.size

    def headers(self) -> dict[str, str]:
        links = [f'<{url}>; rel="{rel}"'
                 for url, rel in ((self.next, "next"), (self.previous, "prev")) if url]
        out = {"X-Total-Count": str(self.count)}
        if links:
            out["Link"] = ", ".join(links)
        return out

    def apply(self, response: HttpResponseBase) -> HttpResponseBase:
        for name, value in self.headers().items():
            response[name] = value
        return response


def page_number(request: HttpRequest) -> int | None:
    """The page the request asks for (1 without ``?page=``), None when it is not a whole
    number from 1 to ``MAX_PAGE``."""
    text = request.GET.get("page")
    if text is None or text == "":
        return 1
    if len(text) > len(str(MAX_PAGE)):
        return None
    try:
        number = int(text)
    except ValueError:
        return None
    return number if 1 <= number <= MAX_PAGE else None


def _url(request: HttpRequest, number: int) -> str:
    query = request.GET.copy()
    query["page"] = str(number)
    return request.build_absolute_uri(f"{request.path}?{query.urlencode()}")


def api_page(request: HttpRequest, *, number: int, count: int, size: int) -> ApiPage:
    """Page ``number`` of a list of ``count`` rows, ``size`` a page. A page past the end
    is empty and links back to the last page."""
    last = max(1, -(-count // size))
    return ApiPage(
        number=number,
        size=size,
        count=count,
        next=_url(request, number + 1) if number < last else None,
        previous=_url(request, min(number - 1, last)) if number > 1 else None,
    )

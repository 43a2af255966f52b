"""GET /api/v1/search: the site's one search (content.site_search) as JSON (decision 0525).

``?q=`` (required), ``?lang=`` (a site language, default the site's default language),
``?type=`` (fan, rule, example, page, player, club, tournament; several as ``type=a&type=b``
or ``type=a,b``; default every kind), ``?page=`` (from 1). Anonymous clients are welcome,
under the API's usual rate limits. Errors: 400 with ``{"errors": [{"field", "message"}]}``.
"""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext_lazy as _
from django.utils.translation import override
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from content.search_backends import site_languages
from content.site_search import KINDS, MAX_QUERY, PER_PAGE, site_search
from core.pagination import PAGE_INVALID, api_page, page_number

QUERY_EMPTY = _("Enter something to search for.")
QUERY_LONG = _("A search is at most %(max)d characters long.")
TYPE_INVALID = _("Unknown type %(value)s: use one of %(choices)s.")
LANG_INVALID = _("Unknown language %(value)s: use one of %(choices)s.")


def _error(field: str, message: str) -> Response:
    return Response({"errors": [{"field": field, "message": message}]}, status=400)


def _kinds(request: Request) -> list[str] | str:
    values = [v for raw in request.query_params.getlist("type") for v in raw.split(",")]
    kinds = [v.strip().lower() for v in values if v.strip()]
    for kind in kinds:
        if kind not in KINDS:
            return str(TYPE_INVALID % {"value": kind, "choices": ", ".join(KINDS)})
    return kinds or list(KINDS)


class SearchView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="search",
        summary="Search fans, rules, worked examples, pages, players, clubs and tournaments",
        parameters=[
            OpenApiParameter("q", str, required=True, description="What to look for."),
            OpenApiParameter("lang", str, enum=site_languages(),
                             description=f"Language of the results (default {settings.LANGUAGE_CODE})."),
            OpenApiParameter("type", str, many=True, enum=list(KINDS),
                             description="Only these kinds of results (default: all)."),
            OpenApiParameter("page", int, description=f"From 1; {PER_PAGE} results a page."),
        ],
        responses={200: dict},
    )
    def get(self, request: Request) -> Response:
        query = " ".join(request.query_params.get("q", "").split())
        if not query:
            return _error("q", str(QUERY_EMPTY))
        if len(query) > MAX_QUERY:
            return _error("q", str(QUERY_LONG % {"max": MAX_QUERY}))
        language = request.query_params.get("lang", "").strip().lower() or settings.LANGUAGE_CODE
        languages = site_languages()
        if language not in languages:
            return _error("lang", str(LANG_INVALID % {"value": language,
                                                      "choices": ", ".join(languages)}))
        kinds = _kinds(request)
        if isinstance(kinds, str):
            return _error("type", kinds)
        number = page_number(request)
        if number is None:
            return _error("page", str(PAGE_INVALID))
        found = site_search(query, language=language, kinds=kinds, page=number)
        page = api_page(request, number=number, count=found.count, size=PER_PAGE)
        with override(language):
            results = [result.as_json() for result in found.results]
        return page.apply(Response({
            "count": found.count, "next": page.next, "previous": page.previous,
            "results": results,
        }))

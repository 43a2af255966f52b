"""REST API of the rulebook: GET /api/v1/fans and GET /api/v1/examples (?rules=&lang=).

Both answer with an ETag (a conditional GET gets 304 Not Modified) and are paginated only
when asked (``?page=`` or ``?page_size=``).
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.utils.decorators import method_decorator
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import condition
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from rulebook import rulesets, selectors

LANGUAGES = [code for code, _name in settings.LANGUAGES]


class QuerySerializer(serializers.Serializer):
    rules = serializers.ChoiceField(choices=list(rulesets.codes()), default=rulesets.DEFAULT_CODE)
    lang = serializers.ChoiceField(choices=LANGUAGES, required=False)

    def validate_lang(self, value: str) -> str:
        return value.lower()


class FanTableEntrySerializer(serializers.Serializer):
    id = serializers.CharField(help_text=_('The fan\'s number: "1".."81", "57A", "57B" for MCR.'))
    points = serializers.IntegerField(help_text=_("Its value (HKOS: doublings; see unit)."))
    unit = serializers.ChoiceField(choices=["points", "doublings"])
    name = serializers.CharField()
    description = serializers.CharField()
    category = serializers.CharField(help_text=_("MCR category key, empty for the others."))
    url = serializers.CharField(help_text=_("The fan's page in that language."))


class WorkedExampleFanSerializer(serializers.Serializer):
    id = serializers.CharField()
    points = serializers.IntegerField(help_text=_("Points of one occurrence."))
    count = serializers.IntegerField()


class WorkedExampleSerializer(serializers.Serializer):
    id = serializers.CharField()
    fan = serializers.CharField(help_text=_("The fan the example illustrates."))
    hand = serializers.CharField(help_text=_("The hand in the calculator's notation."))
    context = serializers.DictField(help_text=_("The score call's context keys."))
    book_fans = serializers.ListField(
        child=serializers.CharField(), help_text=_("The fan ids the book lists.")
    )
    result = inline_serializer(
        "WorkedExampleResult",
        {
            "ok": serializers.BooleanField(),
            "total": serializers.IntegerField(),
            "fans": WorkedExampleFanSerializer(many=True),
        },
    )


class OptionalPagination(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 500


PARAMETERS = [
    OpenApiParameter(
        "rules", OpenApiTypes.STR, enum=list(rulesets.codes()), default=rulesets.DEFAULT_CODE,
        description="The ruleset: mcr, hkos or red.",
    ),
    OpenApiParameter(
        "lang", OpenApiTypes.STR, enum=LANGUAGES,
        description="Language of names and URLs (default: the request's language).",
    ),
    OpenApiParameter(
        "page", OpenApiTypes.INT, description="Ask for pages: page number (default: everything)."
    ),
    OpenApiParameter(
        "page_size", OpenApiTypes.INT, description="Ask for pages: items per page (50, at most 500)."
    ),
]


def _query(request) -> tuple[str, str]:
    query = QuerySerializer(data=request.query_params)
    query.is_valid(raise_exception=True)
    language = query.validated_data.get("lang") or (get_language() or "ru").lower()
    if language not in LANGUAGES:
        language = settings.LANGUAGE_CODE
    return query.validated_data["rules"], language


def _etag(request, *args, **kwargs) -> str:
    key = f"{selectors.content_version()}|{request.path}|{request.GET.urlencode()}|{get_language()}"
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:32]


class _RulebookListView(APIView):
    permission_classes = [AllowAny]
    pagination_class = OptionalPagination

    def items(self, ruleset: str, language: str) -> list[dict]:
        raise NotImplementedError

    def get(self, request):
        ruleset, language = _query(request)
        items = self.items(ruleset, language)
        if "page" in request.query_params or "page_size" in request.query_params:
            paginator = self.pagination_class()
            page = paginator.paginate_queryset(items, request, view=self)
            response = paginator.get_paginated_response(page)
        else:
            response = Response(items)
        response["Cache-Control"] = "public, max-age=300"
        return response


@method_decorator(condition(etag_func=_etag), name="get")
class FanListView(_RulebookListView):
    @extend_schema(
        operation_id="fans_list",
        summary="The fan table of a ruleset in one language",
        parameters=PARAMETERS,
        responses=FanTableEntrySerializer(many=True),
    )
    def get(self, request):
        return super().get(request)

    def items(self, ruleset: str, language: str) -> list[dict]:
        return selectors.fan_list(ruleset, language)


@method_decorator(condition(etag_func=_etag), name="get")
class ExampleListView(_RulebookListView):
    @extend_schema(
        operation_id="examples_list",
        summary="The worked examples of a ruleset, with the scoring core's live result",
        parameters=PARAMETERS,
        responses=WorkedExampleSerializer(many=True),
    )
    def get(self, request):
        return super().get(request)

    def items(self, ruleset: str, language: str) -> list[dict]:
        return selectors.example_list(ruleset, language)

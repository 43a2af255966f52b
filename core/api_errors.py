"""Errors under /api/ are always JSON (docs/reliability.md, items 5, 7 and 13).

- :class:`ApiErrorsMiddleware` refuses a body larger than ``API_MAX_BODY_BYTES`` before
  anything reads it (413, the limit said), and turns whatever would reach an API client as
  an HTML error page (a body too large, a request Django finds suspicious, an exception in
  a view) into JSON.
- :class:`JSONParser` is DRF's, except that JSON nested too deep or not UTF-8 is a
  ``ParseError`` naming the body (400), not an exception.
- :func:`exception_handler` gives DRF's errors the API's shape.

The body of every error: ``{"code", "message", "field", "errors": [{"field", "code",
"message", ...}]}``: the scoring API's ``code``/``message`` and the tournament API's
``errors`` list, so that each client reads what it already reads.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from rest_framework import exceptions, parsers
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from core.errors import DomainError

logger = logging.getLogger(__name__)

API_PREFIX = "/api/"
# JSON nested deeper than this is refused (Python's own parsers give up near 1,000)
MAX_JSON_DEPTH = 64

E_TOO_LARGE = "too_large"
E_TOO_DEEP = "too_deep"
E_BAD_ENCODING = "bad_encoding"
E_BAD_JSON = "bad_json"
E_BAD_REQUEST = "bad_request"
E_SERVER_ERROR = "server_error"


def max_body_bytes() -> int:
    return int(getattr(settings, "API_MAX_BODY_BYTES", settings.DATA_UPLOAD_MAX_MEMORY_SIZE))


def error_body(code: str, message: str, field: str | None = None, **extra: Any
               ) -> dict[str, Any]:
    item: dict[str, Any] = {"code": code, "message": message}
    if field:
        item["field"] = field
    item.update(extra)
    return {**item, "errors": [item]}


def error_response(code: str, message: str, *, status: int = 400, field: str | None = None,
                   **extra: Any) -> JsonResponse:
    return JsonResponse(error_body(code, message, field, **extra), status=status)


def too_large_response() -> JsonResponse:
    limit = max_body_bytes()
    return error_response(
        E_TOO_LARGE, ngettext("The body is larger than %(limit)s byte.",
                              "The body is larger than %(limit)s bytes.", limit)
        % {"limit": limit},
        status=413, field="body", limit=limit)


def too_deep_message() -> str:
    return ngettext("The JSON is nested more than %(limit)s level deep.",
                    "The JSON is nested more than %(limit)s levels deep.",
                    MAX_JSON_DEPTH) % {"limit": MAX_JSON_DEPTH}


def bad_encoding_message() -> str:
    return _("The body is not valid UTF-8.")


def json_depth(value: Any) -> int:
    """How deep a parsed JSON value is nested (a scalar: 0), without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in children)
    return deepest


def _as_json(status: int) -> JsonResponse:
    """An error page that would have been HTML, as the API's JSON."""
    if status >= 500:
        return error_response(E_SERVER_ERROR, _("The server could not answer this request."),
                              status=status)
    if status == 413:
        return too_large_response()
    if status == 404:
        return error_response("not_found", _("Not found."), status=404)
    if status == 405:
        return error_response("method_not_allowed", _("This method is not allowed here."),
                              status=405)
    return error_response(E_BAD_REQUEST, _("The request cannot be read."), status=status)


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX)


class ApiErrorsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not _is_api(request):
            return self.get_response(request)
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > max_body_bytes():
            return too_large_response()
        response = self.get_response(request)
        if response.status_code >= 400 and not response.get("Content-Type", "").startswith(
                "application/json"):
            return _as_json(response.status_code)
        return response

    def process_exception(self, request: HttpRequest, exception: Exception
                          ) -> HttpResponse | None:
        if not _is_api(request):
            return None
        if isinstance(exception, DomainError):
            return JsonResponse(exception.body(), status=exception.status)
        if isinstance(exception, RequestDataTooBig):
            return too_large_response()
        if isinstance(exception, RecursionError):
            return error_response(E_TOO_DEEP, too_deep_message(), field="body",
                                  limit=MAX_JSON_DEPTH)
        if isinstance(exception, UnicodeDecodeError):
            return error_response(E_BAD_ENCODING, bad_encoding_message(), field="body")
        if isinstance(exception, SuspiciousOperation):
            return error_response(E_BAD_REQUEST, _("The request cannot be read."))
        logger.exception("API error on %s", request.path)
        return error_response(E_SERVER_ERROR, _("The server could not answer this request."),
                              status=500)


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser; too deep or not UTF-8: a ParseError naming the body."""

    def parse(self, stream: Any, media_type: str | None = None,
              parser_context: dict[str, Any] | None = None) -> Any:
        raw = stream.read() if stream is not None else b""
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise BodyError(E_BAD_ENCODING, bad_encoding_message()) from None
        try:
            data = json.loads(text)
        except RecursionError:
            raise BodyError(E_TOO_DEEP, too_deep_message()) from None
        except ValueError as err:
            raise BodyError(E_BAD_JSON, _("The body is not JSON: %(error)s")
                            % {"error": err}) from None
        if json_depth(data) > MAX_JSON_DEPTH:
            raise BodyError(E_TOO_DEEP, too_deep_message())
        return data


class BodyError(exceptions.ParseError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message, code=code)
        self.error_code = code


def exception_handler(exc: Exception, context: dict[str, Any]) -> Any:
    """DRF's handler; a body that cannot be read answers in the API's error shape; a domain
    error (``core.errors.DomainError``) answers ``{"errors": [...]}`` with its status."""
    if isinstance(exc, DomainError):
        return _drf_response(exc.body(), exc.status)
    if isinstance(exc, BodyError):
        extra = {"limit": MAX_JSON_DEPTH} if exc.error_code == E_TOO_DEEP else {}
        return _drf_response(error_body(exc.error_code, str(exc.detail), "body", **extra), 400)
    if isinstance(exc, exceptions.ParseError):
        return _drf_response(error_body(E_BAD_JSON, str(exc.detail), "body"), 400)
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(response.data, dict) and "detail" in response.data:
        detail = response.data["detail"]
        code = getattr(detail, "code", None) or E_BAD_REQUEST
        response.data = {"detail": str(detail), **error_body(str(code), str(detail))}
    return response


def _drf_response(data: dict[str, Any], status: int) -> Response:
    return Response(data, status=status)

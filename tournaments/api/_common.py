"""What every tournament endpoint shares: the view base (token first), a serializer's
errors as the API's error items, and the tournament asked for as the caller may reach it
(visible to them, their own, or as an accreditation officer).
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from rest_framework.authentication import SessionAuthentication
from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.tokens import CachedTokenAuthentication
from tournaments import selectors
from tournaments.models import Tournament
from tournaments.permissions import can_accredit, is_organizer


class TournamentAPIView(APIView):
    """Token first: an anonymous write gets 401 with ``WWW-Authenticate: Token``."""

    authentication_classes = [CachedTokenAuthentication, SessionAuthentication]
    permission_classes = [AllowAny]


def _errors(items: list[dict[str, Any]], code: int = 400) -> Response:
    return Response({"errors": items}, status=code)


def _serializer_errors(errors: Any, prefix: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if isinstance(errors, list):
        for index, item in enumerate(errors, start=1):
            if item:
                out.extend(_serializer_errors(item, {**(prefix or {}), "row": index}))
        return out
    if errors and all(isinstance(key, int) for key in errors):  # a list's errors by index
        for index, item in sorted(errors.items()):
            out.extend(_serializer_errors(item, {**(prefix or {}), "row": index + 1}))
        return out
    for name, messages in errors.items():
        for message in messages if isinstance(messages, list) else [messages]:
            field = None if name == "non_field_errors" else name
            entry = {**(prefix or {})}
            if field:
                entry["field"] = field
            entry["code"] = getattr(message, "code", None) or "invalid"
            entry["message"] = str(message)
            out.append(entry)
    return out


def _visible(request: Request, pk: int) -> Tournament:
    return get_object_or_404(selectors.tournaments_visible_to(request.user), pk=pk)


def _own(request: Request, pk: int) -> Tournament:
    """The caller's own tournament: 404 if they cannot see it, 403 if it is not theirs."""
    if not request.user.is_authenticated:
        raise NotAuthenticated()
    tournament = _visible(request, pk)
    if not is_organizer(request.user, tournament):
        raise PermissionDenied()
    return tournament


def _officer(request: Request, pk: int) -> Tournament:
    if not request.user.is_authenticated:
        raise NotAuthenticated()
    tournament = _visible(request, pk)
    if not can_accredit(request.user):
        raise PermissionDenied()
    return tournament

"""Players' own entries: the public entrants list (contact details for the organizer),
entering oneself, withdrawing an entry.
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments import selectors, services
from tournaments.api._common import TournamentAPIView, _errors, _serializer_errors, _visible
from tournaments.models import Entry
from tournaments.permissions import is_organizer


class EntryInSerializer(serializers.Serializer):
    first_name = serializers.CharField(max_length=100)
    last_name = serializers.CharField(max_length=100)
    country = serializers.CharField(max_length=100)
    ema_number = serializers.CharField(required=False, allow_blank=True, max_length=20,
                                       default="")
    team = serializers.CharField(required=False, allow_blank=True, max_length=200, default="")
    reduced = serializers.BooleanField(required=False, default=False,
                                       help_text="the person claims the reduced fee")
    ema_number_none = serializers.BooleanField(
        required=False, default=False,
        help_text="the person has no EMA number yet (a MERS tournament asks for the number "
                  "or this)")


class EntryOutSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Entry.Status.choices)
    fee = serializers.CharField(help_text="decimal string")
    reduced = serializers.BooleanField()
    paid = serializers.BooleanField()
    invoice = serializers.CharField(allow_null=True, help_text="the invoice number")


class EntryListItemSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    country = serializers.CharField()
    status = serializers.CharField()
    paid = serializers.BooleanField()
    email = serializers.CharField(required=False, help_text="its organizer only")


class EntryListSerializer(serializers.Serializer):
    entries = EntryListItemSerializer(many=True)


def entry_json(entry: Entry) -> dict[str, Any]:
    return {
        "id": entry.pk, "status": entry.status, "fee": str(entry.fee),
        "reduced": entry.reduced, "paid": selectors.entry_is_paid(entry),
        "invoice": entry.invoice.number if entry.invoice_id else None,
    }


def entry_list_json(row: selectors.EntryRow, *, contact: bool) -> dict[str, Any]:
    entry = row.entry
    out: dict[str, Any] = {
        "id": entry.pk, "name": entry.name, "country": entry.country, "status": entry.status,
        "paid": row.paid,
    }
    if contact:
        out["email"] = (entry.member.email if entry.member and entry.member.email
                        else entry.user.email)
        out["phone"] = entry.member.phone if entry.member else ""
        out["ema_number"] = entry.ema_number
        out["team"] = entry.team
        out["fee"] = str(entry.fee)
        out["reduced"] = entry.reduced
        out["invoice"] = entry.invoice.number if entry.invoice_id else None
    return out


class EntriesView(TournamentAPIView):
    @extend_schema(request=None, responses=EntryListSerializer)
    def get(self, request: Request, pk: int) -> Response:
        """The public entrants list; contact details only for the tournament's organizer."""
        tournament = _visible(request, pk)
        contact = is_organizer(request.user, tournament)
        rows = selectors.tournament_entries(tournament, public=not contact)
        return Response({"entries": [entry_list_json(r, contact=contact) for r in rows]})

    @extend_schema(request=EntryInSerializer, responses={201: EntryOutSerializer})
    def post(self, request: Request, pk: int) -> Response:
        """Enter the signed-in person."""
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        tournament = _visible(request, pk)
        serializer = EntryInSerializer(data=request.data)
        if not serializer.is_valid():
            return _errors(_serializer_errors(serializer.errors))
        entry = services.entry_create(tournament=tournament, user=request.user,
                                      **serializer.validated_data)
        return Response(entry_json(entry), status=status.HTTP_201_CREATED)


class EntryWithdrawView(TournamentAPIView):
    @extend_schema(request=None, responses=EntryOutSerializer)
    def post(self, request: Request, pk: int, entry: int) -> Response:
        """Withdraw an entry: the person who entered, or the tournament's organizer."""
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        tournament = _visible(request, pk)
        row = get_object_or_404(Entry, pk=entry, tournament=tournament)
        if row.user_id != request.user.pk and not is_organizer(request.user, tournament):
            raise PermissionDenied()
        row = services.entry_withdraw(entry=row, user=request.user)
        return Response(entry_json(row))

"""Player identity (docs/decisions/0811-player-identity.md): merging two players (the
membership officer), undoing a merge, a member's claim of a player and its decision."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import NotAuthenticated, PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from tournaments.api._common import TournamentAPIView, _errors
from tournaments.models import Player, PlayerClaim, PlayerMerge
from tournaments.problem_texts import error_message
from tournaments.services import identity

PERMISSION = "tournaments.change_player"  # the membership officer's


def _membership_officer(request: Request) -> None:
    if not request.user.is_authenticated:
        raise NotAuthenticated()
    if not request.user.has_perm(PERMISSION):
        raise PermissionDenied()


def player_json(player: Player) -> dict[str, Any]:
    return {"id": player.pk, "name": str(player), "country": player.country,
            "ema_number": player.ema_number, "member": player.member_id,
            "merged_into": player.merged_into_id}


def claim_json(claim: PlayerClaim) -> dict[str, Any]:
    return {"id": claim.pk, "player": claim.player_id, "member": claim.member_id,
            "state": claim.state, "claimed_at": claim.claimed_at.isoformat()}


class MergeView(TournamentAPIView):
    """``{"into": id}``: this player is the same person as ``into``, who is kept."""

    @extend_schema(request=None, responses={200: dict})
    def post(self, request: Request, pk: int) -> Response:
        _membership_officer(request)
        player = get_object_or_404(Player, pk=pk)
        into = request.data.get("into") if isinstance(request.data, dict) else None
        if not isinstance(into, int) or isinstance(into, bool):
            return _errors([{"field": "into", "code": "required",
                             "message": error_message("merge_into_required")}])
        kept = get_object_or_404(Player, pk=into)
        kept = identity.player_merge(player=player, into=kept, user=request.user)
        merge = PlayerMerge.objects.filter(kept=kept, merged=player).first()
        return Response({**player_json(kept), "merge": merge.pk if merge else None})


class MergeUndoView(TournamentAPIView):
    @extend_schema(request=None, responses={200: dict})
    def post(self, request: Request, pk: int) -> Response:
        _membership_officer(request)
        merge = get_object_or_404(PlayerMerge, pk=pk)
        player = identity.player_merge_undo(merge=merge, user=request.user)
        return Response(player_json(player))


class ClaimView(TournamentAPIView):
    """A member says "this is me"."""

    @extend_schema(request=None, responses={201: dict})
    def post(self, request: Request, pk: int) -> Response:
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        player = get_object_or_404(Player, pk=pk)
        claim = identity.player_claim(player=player, user=request.user)
        return Response(claim_json(claim), status=201)


class ClaimsView(TournamentAPIView):
    """The claims waiting for the membership officer."""

    @extend_schema(request=None, responses={200: dict})
    def get(self, request: Request) -> Response:
        _membership_officer(request)
        claims = PlayerClaim.objects.filter(state=PlayerClaim.State.PENDING)
        return Response([claim_json(c) for c in claims])


class ClaimDecisionView(TournamentAPIView):
    """``{"confirm": true | false}``."""

    @extend_schema(request=None, responses={200: dict})
    def post(self, request: Request, pk: int) -> Response:
        _membership_officer(request)
        claim = get_object_or_404(PlayerClaim, pk=pk)
        confirm = request.data.get("confirm") if isinstance(request.data, dict) else None
        if not isinstance(confirm, bool):
            return _errors([{"field": "confirm", "code": "required",
                             "message": error_message("claim_confirm_required")}])
        claim = identity.player_claim_decide(claim=claim, user=request.user, confirm=confirm)
        return Response(claim_json(claim))

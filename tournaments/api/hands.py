"""A tournament's hands (issue 40): ``GET /api/v1/tournaments/{id}/hands/top``, the biggest
hands, the biggest of each session, the fans scored least often, each player's figures and
the prize list; empty until the results are confirmed (hidden sessions stay hidden)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from rulebook.fan_labels import fan_name_map
from tournaments.api._common import TournamentAPIView, _visible
from tournaments.models import HandRecord, HandStats, Tournament
from tournaments.selectors.hand_stats import tournament_hands, tournament_prizes


def player_json(player: Any) -> dict[str, Any] | None:
    return None if player is None else {"id": player.pk, "name": str(player)}


def fans_json(fans: Any, names: dict[str, str]) -> list[dict[str, Any]]:
    """``[{"fan", "name", "count"}]`` from ``{id: count}`` or ``[(id, count)]``."""
    items = fans.items() if isinstance(fans, dict) else fans
    return [{"fan": fan, "name": names.get(fan, fan), "count": count} for fan, count in items]


def hand_json(hand: HandRecord | None, names: dict[str, str]) -> dict[str, Any] | None:
    """One stored hand: where it was played, who won it, from whom, its points and fans."""
    if hand is None:
        return None
    counts: dict[str, int] = {}
    for fan in hand.fans or ():
        counts[str(fan)] = counts.get(str(fan), 0) + 1
    return {
        "tournament": hand.tournament_id, "session": hand.session, "table": hand.table,
        "hand": hand.number, "points": hand.points,
        "winner": player_json(hand.winner), "discarder": player_json(hand.discarder),
        "self_drawn": hand.discarder_id is None, "tiles": hand.tiles or None,
        "fans": fans_json(counts, names),
    }


def figures_json(row: HandStats) -> dict[str, Any]:
    return {
        "player": player_json(row.player), "hands_played": row.hands_played,
        "hands_won": row.hands_won, "self_drawn": row.self_drawn, "dealt_in": row.dealt_in,
        "points_won": row.points_won, "largest_hand": row.largest_points,
        "most_wins_in_a_session": row.best_session_wins, "longest_streak": row.longest_streak,
    }


class TopHandsView(TournamentAPIView):
    @extend_schema(responses={200: dict})
    def get(self, request: Request, pk: int) -> Response:
        tournament = _visible(request, pk)
        confirmed = tournament.state == Tournament.State.RESULTS_CONFIRMED
        body: dict[str, Any] = {"tournament": tournament.pk, "confirmed": confirmed,
                                "winning_hands": 0, "hands": [], "sessions": [],
                                "rarest_fans": [], "players": [], "prizes": []}
        if not confirmed:
            return Response(body)
        names = fan_name_map(tournament.ruleset)
        hands = tournament_hands(tournament)
        body.update({
            "winning_hands": hands.winning_hands,
            "hands": [hand_json(h, names) for h in hands.top],
            "sessions": [hand_json(h, names) for h in hands.by_session],
            "rarest_fans": fans_json(hands.rarest, names),
            "players": [figures_json(row) for row in hands.players],
            "prizes": [{"prize": p.code, "value": p.value,
                        "players": [player_json(x) for x in p.players]}
                       for p in tournament_prizes(hands)],
        })
        return Response(body)

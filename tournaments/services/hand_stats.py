"""Keeping the hand statistics (``HandStats``, issue 40; decision 0735): one row per player
per confirmed tournament, written from the stored hands by ``tournaments.rules.hand_stats``
when the results are confirmed or corrected, and again for the tournaments a merged (or
unmerged) player played. Pages and the API add these rows up; none reads every hand."""

from __future__ import annotations

from collections import defaultdict

from django.db import transaction
from django.db.models import Q

from tournaments.models import HandRecord, HandStats, Player, TableResult, Tournament
from tournaments.rules.hand_stats import HandLine, tally


@transaction.atomic
def hand_stats_refresh(tournament: Tournament) -> int:
    """Write the tournament's rows again from its hands (none unless its results are
    confirmed); the number of rows written."""
    HandStats.objects.filter(tournament=tournament).delete()
    if tournament.state != Tournament.State.RESULTS_CONFIRMED:
        return 0
    lines = [
        HandLine(key=pk, session=session, table=table, number=number, kind=kind,
                 winner=winner, discarder=discarder, points=points,
                 fans=tuple(str(f) for f in (fans or ())))
        for pk, session, table, number, kind, winner, discarder, points, fans
        in HandRecord.objects.filter(tournament=tournament).values_list(
            "pk", "session", "table", "number", "kind", "winner_id", "discarder_id",
            "points", "fans")
    ]
    if not lines:
        return 0
    seats: dict[tuple[int, int], list[int]] = defaultdict(list)
    for session, table, player in TableResult.objects.filter(tournament=tournament).values_list(
            "session", "table", "player_id"):
        seats[(session, table)].append(player)
    rows = [
        HandStats(
            tournament=tournament, player_id=player, ruleset=tournament.ruleset,
            year=tournament.end_date.year, hands_played=t.hands_played,
            hands_won=t.hands_won, self_drawn=t.self_drawn, dealt_in=t.dealt_in,
            points_won=t.points_won, largest_points=t.largest_points,
            largest_hand_id=t.largest_hand, best_session_wins=t.best_session_wins,
            longest_streak=t.longest_streak, fans=dict(sorted(t.fans.items())),
        )
        for player, t in sorted(tally(lines, seats).items())
    ]
    HandStats.objects.bulk_create(rows, batch_size=1000)
    return len(rows)


def hand_stats_refresh_for_player(player: Player) -> int:
    """After a merge or its undo: every confirmed tournament the player has results or
    statistics in is counted again (the rows of both players follow their results)."""
    tournaments = Tournament.objects.filter(
        Q(pk__in=TableResult.objects.filter(player=player).values("tournament_id"))
        | Q(pk__in=HandStats.objects.filter(player=player).values("tournament_id"))
    )
    return sum(hand_stats_refresh(t) for t in tournaments)

"""The federation's qualification lists (decision 0842): the candidates of a list in the
order of its rule, read from what is stored (the EMA ranking, the rating list, the series'
final standings), through the pure rule ``ratings.rules.qualification``."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from ratings.models import QualificationList, StoredRanking
from ratings.rules import qualification as rule
from ratings.selectors.lists import latest_period_with_results, period_list
from tournaments.models import Player, Tournament, TournamentResult


@dataclass(frozen=True, slots=True)
class QualificationRow:
    position: int
    player: Player
    status: str
    figure: str
    """What the order is by: the EMA score, the rating, or the series' points."""


def _ema(ql: QualificationList, stored: StoredRanking | None,
         wanted: int) -> list[tuple[int, str]]:
    if stored is None:
        return []
    rows = stored.ema_rows.order_by("rank", "player_id")
    if ql.country:
        rows = rows.filter(player__country__iexact=ql.country)
    return [(pid, str(score)) for pid, score in rows.values_list("player_id", "score")[:wanted]]


def _rating(ql: QualificationList, wanted: int) -> list[tuple[int, str]]:
    period = latest_period_with_results(ql.ruleset)
    if period is None:
        return []
    entries = period_list(period, ql.ruleset)
    allowed = None
    if ql.country:
        allowed = set(Player.objects.filter(country__iexact=ql.country)
                      .values_list("pk", flat=True))
    out = []
    for e in entries:
        if allowed is None or e.player_id in allowed:
            out.append((e.player_id, str(round(Decimal(e.rating), 1))))
            if len(out) >= wanted:
                break
    return out


def _series(ql: QualificationList, wanted: int) -> list[tuple[int, str]]:
    try:
        points = rule.parse_points(ql.points)
    except rule.PointsInvalid:
        points = ()
    rows = TournamentResult.objects.filter(
        tournament__in=ql.tournaments.all(), tournament__state=Tournament.State.RESULTS_CONFIRMED)
    if ql.country:
        rows = rows.filter(player__country__iexact=ql.country)
    places: dict[int, list[tuple[int, int]]] = {}
    for tid, pid, rank in rows.values_list("tournament_id", "player_id", "rank"):
        places.setdefault(tid, []).append((pid, rank))
    scores = rule.series_scores(places, points)
    return [(s.player, str(s.points)) for s in scores[:wanted]]


def qualification_rows(ql: QualificationList,
                       stored_ema: StoredRanking | None) -> list[QualificationRow]:
    """The qualified players, then the reserves, of a list (a fixed number of queries)."""
    wanted = ql.seats + ql.reserves
    if ql.rule == QualificationList.Rule.EMA:
        ordered = _ema(ql, stored_ema, wanted)
    elif ql.rule == QualificationList.Rule.RATING:
        ordered = _rating(ql, wanted)
    else:
        ordered = _series(ql, wanted)
    figures = dict(ordered)
    lines = rule.qualification([pid for pid, _ in ordered], ql.seats, ql.reserves)
    players = Player.objects.in_bulk([line.player for line in lines])
    return [QualificationRow(line.position, players[line.player], line.status,
                             figures[line.player]) for line in lines]

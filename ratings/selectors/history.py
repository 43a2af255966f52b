"""Rating histories month by month: a player's (with the chart and the games of each period
explained) and a whole ruleset's."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from django.db.models import Exists, OuterRef

from core.rules.date_windows import window
from ratings.models import DEFAULT_RULESET, RatingEntry
from ratings.rules import glicko
from ratings.rules.glicko import Rating
from ratings.rules.method import (
    Outcome,
    Period,
    PlayerState,
    pairwise_results,
    parse_period,
    period_first_day,
    period_label,
    period_of,
    rating_at,
    start_of_period,
)
from ratings.selectors.lists import latest_period_with_results, method_config
from tournaments.models import Player


def player_history(player: Player, ruleset: str = DEFAULT_RULESET) -> list[RatingEntry]:
    """The stored rows of the player's history: the periods in which they played."""
    return list(RatingEntry.objects.filter(player=player, ruleset=ruleset).order_by("period"))


@dataclass(frozen=True, slots=True)
class HistoryMonth:
    """A month of a player's history: the rating, RD and volatility at its end, the games
    played in it (0 for an idle month, whose RD has widened) and the move since the month
    before (None for the first month)."""

    period: str
    rating: float
    rd: float
    vol: float
    games: int
    change: float | None
    entry: RatingEntry | None  # the stored row; None for an idle month

    @property
    def low(self) -> float:
        return self.rating - 2 * self.rd

    @property
    def high(self) -> float:
        return self.rating + 2 * self.rd


def player_months(history: list[RatingEntry], until: str | None) -> list[HistoryMonth]:
    """Every period from the first with games to `until` (the latest list; at least the
    last period with games): the rating at the end of each month, idle months with their
    closed-form RD increase, exactly as the list of that month shows the player."""
    if not history:
        return []
    config = method_config()
    by_period = {parse_period(e.period): e for e in history}
    # only the months of plausible tournament dates (docs/reliability.md, item 2; issue 37
    # item 16): a result dated year 1 or 9999 must not make 24,000 months a player
    earliest, latest = (period_of(day) for day in window("tournament"))
    first = min(by_period)
    last = min(max(parse_period(until) if until else first, max(by_period)), latest)
    state: PlayerState | None = None
    if first < earliest:
        before = [period for period in by_period if period < earliest]
        if before:  # the rating the implausible months left, carried into the window
            entry = by_period[max(before)]
            state = PlayerState(Rating(entry.rating, entry.rd, entry.vol), max(before), first)
        first = earliest
    if first > last:
        return []
    months = []
    previous: float | None = None
    for period in range(first, last + 1):
        entry = by_period.get(period)
        if entry is not None:
            state = PlayerState(Rating(entry.rating, entry.rd, entry.vol), period, first)
        assert state is not None
        rating = rating_at(state, period, config)
        months.append(
            HistoryMonth(
                period=period_label(period),
                rating=rating.rating,
                rd=rating.rd,
                vol=rating.vol,
                games=entry.games if entry else 0,
                change=None if previous is None else rating.rating - previous,
                entry=entry,
            )
        )
        previous = rating.rating
    return months


@dataclass(frozen=True, slots=True)
class ChartPoint:
    period: str
    rating: float
    rd: float
    games: int


def player_chart(history: list[RatingEntry], until: str | None) -> list[ChartPoint]:
    """Month by month from the first period with games to `until`: the rating and RD at the end
    of each month (idle months with their RD increase), for the chart's band."""
    return [
        ChartPoint(period=m.period, rating=m.rating, rd=m.rd, games=m.games)
        for m in player_months(history, until)
    ]


@dataclass(frozen=True, slots=True)
class ExplanationLine:
    opponent_id: int
    rating: float  # the opponent's rating at the start of the period
    rd: float
    games: int
    score: float
    expected: float


def period_explanations(
    player: Player, entries: list[RatingEntry]
) -> dict[str, list[ExplanationLine]]:
    """For each period of `entries` (a page of the player's history): the player's games by
    opponent, with each opponent's rating at the start of the period and the expected score,
    derived by the rating method itself (`pairwise_results`, `start_of_period`,
    `glicko.expected_scores`) from the confirmed results the last recompute used.

    Three queries whatever the history: the tables the player sat at in those periods' tournaments,
    the opponents' rows of those periods (a rated opponent's rating at the start of the period
    is the ``rating_before`` the recompute stored), and the rows before them of the opponents
    who have none in a period (substitutes, who are not rated), read only when there are such."""
    from tournaments.models import TableResult

    if not entries:
        return {}
    config = method_config()
    ruleset = entries[0].ruleset
    tournament_ids = {t for entry in entries for t in entry.tournaments}
    mine = TableResult.objects.filter(
        tournament_id=OuterRef("tournament_id"), session=OuterRef("session"),
        table=OuterRef("table"), player_id=player.pk,
    )
    seats: dict[tuple[int, int, int], list[tuple[int, int]]] = {}
    rows = (
        TableResult.objects.filter(tournament_id__in=tournament_ids)
        .filter(Exists(mine))
        .values_list("tournament_id", "session", "table", "player_id", "game_points")
    )
    for tid, session, table, player_id, points in rows:
        seats.setdefault((tid, session, table), []).append((player_id, points))
    opponents = {p for value in seats.values() for p, _ in value} - {player.pk}
    labels = [entry.period for entry in entries]
    starts: dict[tuple[int, str], Rating] = {
        (opponent, label): Rating(rating, rd, vol)
        for opponent, label, rating, rd, vol in RatingEntry.objects.filter(
            player_id__in=opponents, ruleset=ruleset, period__in=labels
        ).values_list("player_id", "period", "rating_before", "rd_before", "vol_before")
    }

    scores_by_period: dict[str, dict[int, list[float]]] = {}
    for entry in entries:
        period = parse_period(entry.period)
        scores: dict[int, list[float]] = {}
        for (tid, session, table), table_seats in sorted(seats.items()):
            if tid not in entry.tournaments:
                continue
            outcome = Outcome(tid, period_first_day(period), session, table, tuple(table_seats))
            for result in pairwise_results(outcome):
                if result.player == player.pk:
                    scores.setdefault(result.opponent, []).append(result.score)
        scores_by_period[entry.period] = scores

    unrated = {o for label, scores in scores_by_period.items() for o in scores
               if (o, label) not in starts}
    if unrated:  # opponents not rated in that period: their last row before it
        their_rows: dict[int, list[tuple[Period, Rating]]] = {}
        for opponent, label, rating, rd, vol in (
            RatingEntry.objects.filter(player_id__in=unrated, ruleset=ruleset,
                                       period__lt=max(labels))
            .order_by("period")
            .values_list("player_id", "period", "rating", "rd", "vol")
        ):
            their_rows.setdefault(opponent, []).append(
                (parse_period(label), Rating(rating, rd, vol)))
        for label, scores in scores_by_period.items():
            period = parse_period(label)
            for opponent in scores:
                if (opponent, label) in starts:
                    continue
                before = [row for row in their_rows.get(opponent, []) if row[0] < period]
                state = None
                if before:
                    last_period, rating = before[-1]
                    state = PlayerState(rating, last_period, last_period)
                starts[(opponent, label)] = start_of_period(state, period, config)

    out: dict[str, list[ExplanationLine]] = {}
    for entry in entries:
        scores = scores_by_period[entry.period]
        before = Rating(entry.rating_before, entry.rd_before, entry.vol_before)
        ratings = {o: starts[(o, entry.period)] for o in sorted(scores)}
        expected = glicko.expected_scores(before, list(ratings.values()))
        out[entry.period] = [
            ExplanationLine(
                opponent_id=o,
                rating=ratings[o].rating,
                rd=ratings[o].rd,
                games=len(scores[o]),
                score=sum(scores[o]),
                expected=e * len(scores[o]),
            )
            for o, e in zip(ratings, expected, strict=True)
        ]
    return out


@dataclass(frozen=True, slots=True)
class HistoryRow:
    """One line of a ruleset's whole rating history: a player at the end of a month."""

    player: Player
    month: HistoryMonth


def ruleset_history(ruleset: str, *, chunk: int = 1000) -> Iterator[HistoryRow]:
    """Every player of the ruleset, every month from their first period with games to the
    ruleset's latest list (idle months with games 0 and their widened RD, as the player's
    page shows them), in the order of the players' ids. Read `chunk` players at a time:
    three queries a chunk, whatever the size of the history."""
    until = latest_period_with_results(ruleset)
    last_id = 0
    while True:
        ids = list(
            RatingEntry.objects.filter(ruleset=ruleset, player_id__gt=last_id)
            .order_by("player_id").values_list("player_id", flat=True).distinct()[:chunk]
        )
        if not ids:
            return
        players = Player.objects.in_bulk(ids)
        histories: dict[int, list[RatingEntry]] = {pk: [] for pk in ids}
        for entry in RatingEntry.objects.filter(ruleset=ruleset, player_id__in=ids).order_by(
            "player_id", "period"
        ):
            histories[entry.player_id].append(entry)
        for pk in ids:
            for month in player_months(histories[pk], until):
                yield HistoryRow(players[pk], month)
        last_id = ids[-1]

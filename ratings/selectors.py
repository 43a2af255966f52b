"""Reads of ratings: the method's settings, lists of a period, a player's history."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from fractions import Fraction
from typing import Any, NamedTuple

from django.conf import settings
from django.core.cache import cache
from django.db.models import Exists, Max, OuterRef

from federation.models import Club
from federation.selectors import members_public_list, members_with_status
from ratings.models import (
    DEFAULT_RULESET,
    PublishedRating,
    RatingEntry,
    RatingPeriod,
    RatingRecompute,
    Ruleset,
)
from ratings.rules import ema, glicko
from ratings.rules.ema import AgeStep, EmaConfig
from ratings.rules.glicko import Rating
from ratings.rules.method import (
    MethodConfig,
    Outcome,
    Period,
    PlayerState,
    is_provisional,
    pairwise_results,
    parse_period,
    period_first_day,
    period_label,
    period_of,
    rating_at,
    rating_list,
    start_of_period,
)
from ratings.rules.method import (
    club_ranking as method_club_ranking,
)
from tournaments.models import Player

#: The rulesets with a rating list, in the order the pages show them.
RULESETS: tuple[str, ...] = tuple(choice.value for choice in Ruleset)


def ruleset_or_none(text: str | None) -> str | None:
    """The ruleset a request asks for: `DEFAULT_RULESET` when it names none, None when the
    name is unknown."""
    if not text:
        return DEFAULT_RULESET
    return text if text in RULESETS else None


def ruleset_name(ruleset: str) -> str:
    """The ruleset's name in the reader's language (the tournaments' names of the rules)."""
    return str(Ruleset(ruleset).label)


def method_config() -> MethodConfig:
    """The rating method's settings (RATINGS_TAU, RATINGS_PROVISIONAL_RD, RATINGS_MAX_RD)."""
    return MethodConfig(
        tau=float(getattr(settings, "RATINGS_TAU", glicko.DEFAULT_TAU)),
        provisional_rd=float(getattr(settings, "RATINGS_PROVISIONAL_RD", 110.0)),
        max_rd=float(getattr(settings, "RATINGS_MAX_RD", glicko.NEW_RD)),
    )


class ListEntry(NamedTuple):
    """One row of a period's list (live or published). A NamedTuple: lists of 10,000 rows are
    cached, and tuples pickle and unpickle several times faster than dataclasses."""

    rank: int
    player_id: int
    rating: float
    rd: float
    vol: float
    games: int
    provisional: bool
    change: float | None
    last_period: str

    @property
    def low(self) -> float:
        return self.rating - 2 * self.rd

    @property
    def high(self) -> float:
        return self.rating + 2 * self.rd


def latest_period_with_results(ruleset: str = DEFAULT_RULESET) -> str | None:
    """The list shown by default: the latest period with results that has ended (before
    the current month); while none has, the latest with results."""
    with_results = RatingPeriod.objects.filter(ruleset=ruleset, has_results=True)
    current = period_label(period_of(date.today()))
    ended = with_results.filter(period__lt=current).aggregate(p=Max("period"))["p"]
    return ended or with_results.aggregate(p=Max("period"))["p"]


def first_period_with_results(ruleset: str = DEFAULT_RULESET) -> str | None:
    row = (
        RatingPeriod.objects.filter(ruleset=ruleset, has_results=True).order_by("period").first()
    )
    return row.period if row else None


def list_periods(ruleset: str = DEFAULT_RULESET) -> list[RatingPeriod]:
    return list(RatingPeriod.objects.filter(ruleset=ruleset).order_by("-period"))


def player_rulesets(player: Player) -> list[str]:
    """The rulesets in which the player has a rating, in the order of `RULESETS`."""
    played = set(
        RatingEntry.objects.filter(player=player).order_by()
        .values_list("ruleset", flat=True).distinct()
    )
    return [r for r in RULESETS if r in played]


def list_countries(ruleset: str = DEFAULT_RULESET) -> list[str]:
    """The countries of rated players, for the list's filter (cached until the next recompute)."""
    key = f"ratings:countries:{_stamp()}:{ruleset}"
    countries: list[str] | None = cache.get(key)
    if countries is None:
        countries = list(
            Player.objects.filter(rating_entries__ruleset=ruleset)
            .exclude(country="")
            .order_by("country")
            .values_list("country", flat=True)
            .distinct()
        )
        cache.set(key, countries, timeout=24 * 3600)
    return countries


def list_stamp() -> str:
    """Changes with every recompute and publication: the key of everything cached."""
    return _stamp()


def _stamp() -> str:
    row = RatingRecompute.objects.filter(pk=1).values_list("stamp", flat=True).first()
    return row or "none"


def _live_list(ruleset: str, period: Period) -> list[ListEntry]:
    config = method_config()
    history: dict[int, list[tuple[Period, Rating, int]]] = {}
    rows = RatingEntry.objects.filter(
        ruleset=ruleset, period__lte=period_label(period)
    ).values_list(
        "player_id", "period", "rating", "rd", "vol", "games"
    )
    for player_id, label, rating, rd, vol, games in rows.iterator(chunk_size=5000):
        history.setdefault(player_id, []).append(
            (parse_period(label), Rating(rating, rd, vol), games)
        )
    return [
        ListEntry(
            rank=row.rank,
            player_id=row.player,
            rating=row.rating.rating,
            rd=row.rating.rd,
            vol=row.rating.vol,
            games=row.games,
            provisional=row.provisional,
            change=row.change,
            last_period=period_label(row.last_period),
        )
        for row in rating_list(period, history, config)
    ]


#: The lists this process has read lately, by (stamp, ruleset, period). The stamp changes with every
#: recompute and publication, so an entry can never be stale; a 10,000-row list then costs a
#: request nothing but the stamp's query.
_RECENT: OrderedDict[tuple[str, str, str], list[ListEntry]] = OrderedDict()
_RECENT_SIZE = 12


def period_list(period: str, ruleset: str = DEFAULT_RULESET) -> list[ListEntry]:
    """The list of a ruleset for a "YYYY-MM" period: the frozen rows once published, else
    computed from the history (cached until the next recompute or publication)."""
    parse_period(period)
    stamp = _stamp()
    local = _RECENT.get((stamp, ruleset, period)) if stamp != "none" else None
    if local is not None:
        _RECENT.move_to_end((stamp, ruleset, period))
        return local
    entries = _period_list(ruleset, period, stamp)
    if stamp != "none":
        _RECENT[(stamp, ruleset, period)] = entries
        while len(_RECENT) > _RECENT_SIZE:
            _RECENT.popitem(last=False)
    return entries


def _period_list(ruleset: str, period: str, stamp: str) -> list[ListEntry]:
    published = RatingPeriod.objects.filter(
        ruleset=ruleset, period=period, published=True
    ).first()
    if published is not None:
        return [
            ListEntry(
                rank=r.rank,
                player_id=r.player_id,
                rating=r.rating,
                rd=r.rd,
                vol=r.vol,
                games=r.games,
                provisional=r.provisional,
                change=r.change,
                last_period=r.last_period,
            )
            for r in PublishedRating.objects.filter(period=published).order_by("rank")
        ]
    key = f"ratings:list:{stamp}:{ruleset}:{period}"
    cached: list[tuple[Any, ...]] | None = cache.get(key)
    if cached is None:
        entries = _live_list(ruleset, parse_period(period))
        # Plain tuples in the shared cache: they unpickle several times faster than objects.
        cache.set(key, [tuple(e) for e in entries], timeout=24 * 3600)
        return entries
    return [ListEntry._make(row) for row in cached]


@dataclass(frozen=True, slots=True)
class PlayerRatingNow:
    period: str
    rating: Rating
    provisional: bool


def player_current(
    player: Player, period: str | None = None, ruleset: str = DEFAULT_RULESET
) -> PlayerRatingNow | None:
    """The player's rating at the end of `period` (default: the ruleset's latest period with
    results)."""
    period = period or latest_period_with_results(ruleset)
    if period is None:
        return None
    last = (
        RatingEntry.objects.filter(player=player, ruleset=ruleset, period__lte=period)
        .order_by("-period")
        .first()
    )
    if last is None:
        return None
    config = method_config()
    state = PlayerState(
        rating=Rating(last.rating, last.rd, last.vol),
        period=parse_period(last.period),
        first_period=parse_period(last.period),
    )
    rating = rating_at(state, parse_period(period), config)
    return PlayerRatingNow(period=period, rating=rating, provisional=is_provisional(rating, config))


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
    first = min(by_period)
    last = max(parse_period(until) if until else first, max(by_period))
    months = []
    state: PlayerState | None = None
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


def players_by_id(ids: set[int]) -> dict[int, Player]:
    return Player.objects.in_bulk(ids)


@dataclass(frozen=True)
class ListLeaders:
    """The top of the list the rating page shows first (the latest period with results)."""

    period: str
    period_date: date
    rows: list[tuple[ListEntry, Player]]


def list_leaders(*, limit: int, ruleset: str = DEFAULT_RULESET) -> ListLeaders | None:
    """The best established players of the ruleset's latest list, best first; None before
    any rating exists. Provisional players are not ranked, as on the list page."""
    period = latest_period_with_results(ruleset)
    if period is None:
        return None
    entries = [e for e in period_list(period, ruleset) if not e.provisional][:limit]
    players = players_by_id({e.player_id for e in entries})
    return ListLeaders(
        period=period,
        period_date=period_first_day(parse_period(period)),
        rows=[(e, players[e.player_id]) for e in entries],
    )


@dataclass(frozen=True, slots=True)
class PlayerTournament:
    tournament_id: int
    name: str
    end_date: object
    city: str
    country: str
    rank: int | None
    players: int
    table_points: float
    game_points: int


def player_tournament_results(player: Player, ruleset: str | None = DEFAULT_RULESET):
    """The player's stored final standings (``tournaments.models.TournamentResult``) in the
    confirmed tournaments of `ruleset` (None: any), newest first, with their tournament: a
    queryset, so that a page of them is one query (and its count another)."""
    from tournaments.models import Tournament, TournamentResult

    rows = TournamentResult.objects.filter(
        player=player, tournament__state=Tournament.State.RESULTS_CONFIRMED
    )
    if ruleset is not None:
        rows = rows.filter(tournament__ruleset=ruleset)
    return rows.select_related("tournament").order_by("-tournament__end_date", "tournament_id")


def player_tournaments(
    player: Player, ruleset: str | None = DEFAULT_RULESET, *, rows: Any = None
) -> list[PlayerTournament]:
    """The confirmed tournaments the player played under `ruleset` (None: any), newest first,
    with their standing; `rows`: a slice of `player_tournament_results` (a page) instead of
    all of them."""
    if rows is None:
        rows = player_tournament_results(player, ruleset)
    return [
        PlayerTournament(
            tournament_id=row.tournament_id,
            name=row.tournament.name,
            end_date=row.tournament.end_date,
            city=row.tournament.city,
            country=row.tournament.country,
            rank=row.rank,
            players=row.players,
            table_points=float(row.table_points),
            game_points=row.game_points,
        )
        for row in rows
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


# -- the EMA ranking (MERS, decision 0806) -------------------------------------------------


def ema_config() -> EmaConfig:
    """The EMA ranking's settings: the age window (EMA_AGE_STEPS)."""
    steps = getattr(settings, "EMA_AGE_STEPS", None)
    if not steps:
        return EmaConfig()
    return EmaConfig(
        age_steps=tuple(AgeStep(int(days), Fraction(str(factor))) for days, factor in steps)
    )


@dataclass(frozen=True, slots=True)
class EmaTournament:
    id: int
    name: str
    end_date: date
    mers_weight: Decimal
    players: int
    """Players ranked (substitutes left out)."""


def _ema_results(
    ruleset: str, on: date, config: EmaConfig, player: Player | None = None
) -> tuple[dict[int, list[ema.Result]], dict[int, EmaTournament], dict[int, dict[int, int]]]:
    """The results of the MERS tournaments of `ruleset` in the window before `on`, per
    player, with the tournaments and each player's place among the ranked (3 queries)."""
    from tournaments.models import Registration, Tournament, TournamentResult

    longest = max((s.days for s in config.age_steps), default=0)
    tournaments = Tournament.objects.filter(
        ruleset=ruleset, mers=True, mers_weight__gt=0,
        state=Tournament.State.RESULTS_CONFIRMED,
        end_date__lte=on, end_date__gt=on - timedelta(days=longest),
    )
    if player is not None:
        tournaments = tournaments.filter(final_results__player=player)
    rows = list(
        TournamentResult.objects.filter(tournament__in=tournaments)
        .select_related("tournament")
        .only("tournament_id", "player_id", "rank", "tournament__name",
              "tournament__end_date", "tournament__mers_weight")
    )
    substitutes = set(
        Registration.objects.filter(tournament__in=tournaments, substitute=True)
        .values_list("tournament_id", "player_id")
    )
    placings: dict[int, list[ema.Placing]] = {}
    info: dict[int, Any] = {}
    for row in rows:
        placings.setdefault(row.tournament_id, []).append(
            ema.Placing(row.player_id, row.rank,
                        (row.tournament_id, row.player_id) in substitutes)
        )
        info[row.tournament_id] = row.tournament
    results: dict[int, list[ema.Result]] = {}
    events: dict[int, EmaTournament] = {}
    places: dict[int, dict[int, int]] = {}
    for tid, field in placings.items():
        t = info[tid]
        ranked = ema.base_ranks(field)
        events[tid] = EmaTournament(tid, t.name, t.end_date, t.mers_weight, len(ranked))
        places[tid] = {p.player: p.rank for p in field if p.player in ranked}
        weight = Fraction(str(t.mers_weight))
        for pid, base in ranked.items():
            results.setdefault(pid, []).append(ema.Result(tid, t.end_date, base, weight))
    return results, events, places


def ema_ranking(ruleset: str, on: date) -> list[ema.RankedPlayer]:
    """The EMA ranking of `ruleset` on `on`, best first (computed live, 3 queries)."""
    config = ema_config()
    results, _, _ = _ema_results(ruleset, on, config)
    return ema.ranking(results, on, config)


@dataclass(frozen=True, slots=True)
class EmaCalculation:
    score: ema.PlayerScore
    tournaments: dict[int, EmaTournament]
    places: dict[int, int]
    """The player's place in each tournament (ties: the same place)."""
    config: EmaConfig


def ema_player(player: Player, ruleset: str, on: date) -> EmaCalculation:
    """The player's EMA score on `on`, with every result it counts (4 queries)."""
    config = ema_config()
    results, events, places = _ema_results(ruleset, on, config, player)
    score = ema.player_score(player.pk, results.get(player.pk, []), on, config)
    mine = {tid: ranks[player.pk] for tid, ranks in places.items() if player.pk in ranks}
    return EmaCalculation(score, events, mine, config)


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


# -- clubs (decision 0808) -------------------------------------------------------------------


def club_listed_members(club_id: int | None = None) -> list[Any]:
    """The members a club's public page may name: active members who consented to public
    lists (the federation's public list), of one club or of every club."""
    consenting = members_public_list().filter(club__isnull=False)
    if club_id is not None:
        consenting = consenting.filter(club_id=club_id)
    return list(members_with_status("active", consenting).order_by("name_latin", "pk"))


def club_of_players(club_id: int | None = None) -> dict[int, int]:
    """player id -> club id of the players who are listed members of a club."""
    members = {m.pk: m.club_id for m in club_listed_members(club_id)}
    rows = Player.objects.filter(member_id__in=list(members)).values_list("pk", "member_id")
    return {pk: members[member] for pk, member in rows}


@dataclass(frozen=True, slots=True)
class ClubRatingRow:
    entry: ListEntry
    player: Player


@dataclass(frozen=True, slots=True)
class ClubRatings:
    ruleset: str
    period: str
    rows: list[ClubRatingRow]


def club_ratings(club_id: int) -> list[ClubRatings]:
    """The current ratings of a club's listed players, per ruleset (those with a list), in
    the order of each ruleset's list."""
    players_of_club = club_of_players(club_id)
    if not players_of_club:
        return []
    out = []
    wanted: set[int] = set()
    for ruleset in RULESETS:
        period = latest_period_with_results(ruleset)
        if period is None:
            continue
        entries = [e for e in period_list(period, ruleset) if e.player_id in players_of_club]
        if entries:
            out.append((ruleset, period, entries))
            wanted.update(e.player_id for e in entries)
    loaded = Player.objects.in_bulk(list(wanted))
    return [ClubRatings(ruleset, period, [ClubRatingRow(e, loaded[e.player_id]) for e in entries])
            for ruleset, period, entries in out]


@dataclass(frozen=True, slots=True)
class ClubRankingRow:
    score: Any  # ratings.rules.method.ClubScore
    club: Club
    counted: list[tuple[Player, float]]


def club_ranking(ruleset: str) -> tuple[str | None, list[ClubRankingRow]]:
    """The club ranking of a ruleset on its latest list: the mean of the best
    `CLUB_RANKING_PLAYERS` established ratings of each club's listed players (provisional
    ratings are not counted). A fixed number of queries, however many clubs and players."""
    period = latest_period_with_results(ruleset)
    if period is None:
        return None, []
    clubs_of = club_of_players()
    by_club: dict[int, list[tuple[int, float]]] = {}
    for entry in period_list(period, ruleset):
        club = clubs_of.get(entry.player_id)
        if club is not None and not entry.provisional:
            by_club.setdefault(club, []).append((entry.player_id, entry.rating))
    scores = method_club_ranking(by_club, int(getattr(settings, "CLUB_RANKING_PLAYERS", 3)))
    clubs = Club.objects.in_bulk([s.club for s in scores])
    players = Player.objects.in_bulk([p for s in scores for p, _ in s.counted])
    return period, [
        ClubRankingRow(s, clubs[s.club], [(players[p], r) for p, r in s.counted]) for s in scores
    ]

"""The rating lists: the rulesets that have one, the method's settings, a period's list (live or
published, cached until the next recompute), the periods, the countries, the leaders."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from datetime import date
from typing import Any, NamedTuple

from django.conf import settings
from django.core.cache import cache
from django.db.models import Max

from ratings.models import (
    DEFAULT_RULESET,
    PublishedRating,
    RatingEntry,
    RatingPeriod,
    RatingRecompute,
)
from ratings.rules import glicko
from ratings.rules.glicko import Rating
from ratings.rules.method import (
    MethodConfig,
    Period,
    parse_period,
    period_first_day,
    period_label,
    period_of,
    rating_list,
)
from rulebook import rulesets
from tournaments.models import Player

#: The rulesets with a rating list, in the order the pages show them.
RULESETS: tuple[str, ...] = rulesets.rating_list_codes()


def ruleset_or_none(text: str | None) -> str | None:
    """The ruleset a request asks for: `DEFAULT_RULESET` when it names none, None when the
    name is unknown."""
    if not text:
        return DEFAULT_RULESET
    return text if text in RULESETS else None


def ruleset_name(ruleset: str) -> str:
    """The ruleset's name in the reader's language (the registry's, rulebook.rulesets)."""
    return str(rulesets.ruleset(ruleset).name)


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
    # a player merged into another (decision 0811) is on no list: the recompute after the
    # merge moved their games; this guards the rows of a ruleset not yet recomputed
    merged = set(Player.objects.filter(merged_into__isnull=False).values_list("pk", flat=True))
    for player_id, label, rating, rd, vol, games in rows.iterator(chunk_size=5000):
        if player_id in merged:
            continue
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
            # a published list keeps its ranks; a player merged since is left out
            # (decision 0813)
            for r in PublishedRating.objects.filter(period=published)
            .exclude(player__merged_into__isnull=False).order_by("rank")
        ]
    key = f"ratings:list:{stamp}:{ruleset}:{period}"
    cached: list[tuple[Any, ...]] | None = cache.get(key)
    if cached is None:
        entries = _live_list(ruleset, parse_period(period))
        # Plain tuples in the shared cache: they unpickle several times faster than objects.
        cache.set(key, [tuple(e) for e in entries], timeout=24 * 3600)
        return entries
    return [ListEntry._make(row) for row in cached]


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

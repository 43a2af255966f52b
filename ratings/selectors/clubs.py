"""Clubs (decision 0808): the members a club's page may name, a club's ratings, the club ranking."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings

from federation.models import Club
from federation.selectors import members_public_list, members_with_status
from ratings.models import ClubMemberRating, StoredRanking
from ratings.rules.method import ClubScore
from ratings.rules.method import club_ranking as method_club_ranking
from ratings.selectors.lists import RULESETS, ListEntry, latest_period_with_results, period_list
from tournaments.models import Player


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


def club_rankings_stored() -> dict[str, StoredRanking]:
    """The club rankings stored with today's settings, by ruleset (one query)."""
    return {s.ruleset: s for s in StoredRanking.objects.filter(
        kind=StoredRanking.Kind.CLUB, ruleset__in=RULESETS, config=club_config_key())}


def club_ratings(club_id: int, stored: dict[str, StoredRanking]) -> list[ClubRatings]:
    """The current ratings of a club's listed players, per ruleset (those with a list), in
    the order of each ruleset's list: the rows stored with each ruleset's club ranking
    (``stored``: ``ratings.rankings.club_rankings_current``; decision 0824), one query
    however large the federation."""
    rows: dict[int, list[ClubRatingRow]] = {}
    for row in (ClubMemberRating.objects.filter(club_id=club_id, ranking__in=list(stored.values()))
                .select_related("player").order_by("rank", "player_id")):
        entry = ListEntry(rank=row.rank, player_id=row.player_id, rating=row.rating, rd=row.rd,
                          vol=row.vol, games=row.games, provisional=row.provisional,
                          change=row.change, last_period=row.last_period)
        rows.setdefault(row.ranking_id, []).append(ClubRatingRow(entry, row.player))
    return [ClubRatings(ruleset, stored[ruleset].period, rows[stored[ruleset].pk])
            for ruleset in RULESETS if ruleset in stored and stored[ruleset].pk in rows]


def club_list_rows(ruleset: str) -> tuple[str | None, list[tuple[int, ListEntry]]]:
    """The latest list of a ruleset cut to the listed members of a club, each with their
    club, in the list's order (what is stored with the club ranking)."""
    period = latest_period_with_results(ruleset)
    if period is None:
        return None, []
    clubs_of = club_of_players()
    return period, [(clubs_of[e.player_id], e) for e in period_list(period, ruleset)
                    if e.player_id in clubs_of]


@dataclass(frozen=True, slots=True)
class ClubRankingRow:
    score: Any  # ratings.rules.method.ClubScore
    club: Club
    counted: list[tuple[Player, float]]


def club_config_key() -> str:
    """What the stored club ranking depends on besides the data: the players counted."""
    return f"best={int(getattr(settings, 'CLUB_RANKING_PLAYERS', 3))}"


def club_ranking_computed(ruleset: str) -> tuple[str | None, list[ClubScore]]:
    """The club ranking of a ruleset on its latest list, computed (what is stored): the mean
    of the best `CLUB_RANKING_PLAYERS` established ratings of each club's listed players
    (provisional ratings are not counted)."""
    return club_ranking_of(*club_list_rows(ruleset))


def club_ranking_of(period: str | None, rows: list[tuple[int, ListEntry]],
                    ) -> tuple[str | None, list[ClubScore]]:
    """The club ranking of the listed club members' rows of a list (``club_list_rows``)."""
    if period is None:
        return None, []
    by_club: dict[int, list[tuple[int, float]]] = {}
    for club, entry in rows:
        if not entry.provisional:
            by_club.setdefault(club, []).append((entry.player_id, entry.rating))
    return period, method_club_ranking(by_club, int(getattr(settings, "CLUB_RANKING_PLAYERS", 3)))


def club_ranking_stored(ruleset: str) -> tuple[str | None, list[ClubRankingRow]] | None:
    """The stored club ranking of a ruleset (decision 0821), or None when none is stored
    with today's settings: three queries, however many clubs, members and players."""
    stored = club_ranking_stored_one(ruleset)
    if stored is None:
        return None
    return stored.period or None, club_ranking_rows(stored.club_rows.all())


def club_ranking_stored_one(ruleset: str) -> StoredRanking | None:
    """The stored club ranking of a ruleset if it was stored with today's settings (one
    query)."""
    stored = StoredRanking.objects.filter(kind=StoredRanking.Kind.CLUB, ruleset=ruleset).first()
    if stored is None or stored.config != club_config_key():
        return None
    return stored


def club_ranking_rows(rows: Any) -> list[ClubRankingRow]:
    """Stored club ranking rows (a queryset, or a page of one), with their clubs and their
    counted players: two queries, however many rows."""
    rows = list(rows.select_related("club") if hasattr(rows, "select_related") else rows)
    players = Player.objects.in_bulk([p for row in rows for p, _r in row.counted])
    out = []
    for row in rows:
        counted = tuple((p, r) for p, r in row.counted)
        score = ClubScore(row.club_id, row.rank, row.mean, counted, row.players)
        out.append(ClubRankingRow(score, row.club, [(players[p], r) for p, r in counted
                                                      if p in players]))
    return out

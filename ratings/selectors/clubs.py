"""Clubs (decision 0808): the members a club's page may name, a club's ratings, the club ranking."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings

from federation.models import Club
from federation.selectors import members_public_list, members_with_status
from ratings.models import StoredRanking
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


def club_config_key() -> str:
    """What the stored club ranking depends on besides the data: the players counted."""
    return f"best={int(getattr(settings, 'CLUB_RANKING_PLAYERS', 3))}"


def club_ranking_computed(ruleset: str) -> tuple[str | None, list[ClubScore]]:
    """The club ranking of a ruleset on its latest list, computed (what is stored): the mean
    of the best `CLUB_RANKING_PLAYERS` established ratings of each club's listed players
    (provisional ratings are not counted)."""
    period = latest_period_with_results(ruleset)
    if period is None:
        return None, []
    clubs_of = club_of_players()
    by_club: dict[int, list[tuple[int, float]]] = {}
    for entry in period_list(period, ruleset):
        club = clubs_of.get(entry.player_id)
        if club is not None and not entry.provisional:
            by_club.setdefault(club, []).append((entry.player_id, entry.rating))
    return period, method_club_ranking(by_club, int(getattr(settings, "CLUB_RANKING_PLAYERS", 3)))


def club_ranking_stored(ruleset: str) -> tuple[str | None, list[ClubRankingRow]] | None:
    """The stored club ranking of a ruleset (decision 0821), or None when none is stored
    with today's settings: three queries, however many clubs, members and players."""
    stored = StoredRanking.objects.filter(kind=StoredRanking.Kind.CLUB, ruleset=ruleset).first()
    if stored is None or stored.config != club_config_key():
        return None
    rows = list(stored.club_rows.select_related("club"))
    players = Player.objects.in_bulk([p for row in rows for p, _r in row.counted])
    out = []
    for row in rows:
        counted = tuple((p, r) for p, r in row.counted)
        score = ClubScore(row.club_id, row.rank, row.mean, counted, row.players)
        out.append(ClubRankingRow(score, row.club, [(players[p], r) for p, r in counted
                                                      if p in players]))
    return stored.period or None, out

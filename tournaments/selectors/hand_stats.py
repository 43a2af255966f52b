"""Reads of the hand archive (issue 40; decision 0735): a player's game, head-to-head, a
tournament's hands and prizes, the fan almanac and the federation's records.

Each read is a fixed number of queries over the stored ``HandStats`` rows (one per player
per confirmed tournament), the hands of one tournament, or the tables two players shared;
none grows with history it does not show.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.db.models import Count, Exists, F, OuterRef, Q, Sum

from rulebook.scoring.standings import table_points
from tournaments.models import HandRecord, HandStats, Player, TableResult, Tournament
from tournaments.rules.hand_stats import share

CONFIRMED = Tournament.State.RESULTS_CONFIRMED
COUNTED = ("hands_played", "hands_won", "self_drawn", "dealt_in", "points_won")


@dataclass(frozen=True, slots=True)
class GameFigures:
    """Sums over some HandStats rows, and the rates readers compare."""

    hands_played: int = 0
    hands_won: int = 0
    self_drawn: int = 0
    dealt_in: int = 0
    points_won: int = 0
    players: int = 1  # the field's figures are per player: its sums divided by this

    @property
    def average_points(self) -> float | None:
        return share(self.points_won, self.hands_won)

    @property
    def win_rate(self) -> float | None:
        return share(self.hands_won, self.hands_played)

    @property
    def self_drawn_share(self) -> float | None:
        return share(self.self_drawn, self.hands_won)

    @property
    def deal_in_rate(self) -> float | None:
        return share(self.dealt_in, self.hands_played)

    def per_player(self, name: str) -> float | None:
        return share(getattr(self, name), self.players)


@dataclass(slots=True)
class PlayerGame:
    player: Player
    ruleset: str
    year: int | None
    years: list[int]
    figures: GameFigures
    field: GameFigures
    largest: HandStats | None
    fans: list[tuple[str, int]] = field(default_factory=list)


def _sums(rows: Any) -> GameFigures:
    sums = rows.aggregate(**{name: Sum(name) for name in COUNTED},
                          players=Count("player", distinct=True))
    return GameFigures(**{name: sums[name] or 0 for name in COUNTED},
                       players=sums["players"] or 0)


def _rows(ruleset: str, year: int | None) -> Any:
    rows = HandStats.objects.filter(ruleset=ruleset)
    return rows.filter(year=year) if year is not None else rows


def player_game(player: Player, *, ruleset: str, year: int | None = None) -> PlayerGame:
    """A player's hands in one ruleset, one year or the whole career, with the field's
    figures of the same rows (every player who played that ruleset that year): 5 queries."""
    mine = _rows(ruleset, year).filter(player=player)
    years = sorted(set(HandStats.objects.filter(player=player, ruleset=ruleset)
                       .values_list("year", flat=True)), reverse=True)
    fans: Counter[str] = Counter()
    for counts in mine.values_list("fans", flat=True):
        fans.update({str(k): int(v) for k, v in (counts or {}).items()})
    largest = (mine.filter(largest_points__isnull=False)
               .select_related("tournament", "largest_hand")
               .order_by("-largest_points", "tournament__end_date").first())
    return PlayerGame(
        player=player, ruleset=ruleset, year=year, years=years,
        figures=_sums(mine), field=_sums(_rows(ruleset, year)), largest=largest,
        fans=sorted(fans.items(), key=lambda item: (-item[1], item[0])),
    )


def player_stats_rulesets(player: Player) -> list[str]:
    return sorted(set(HandStats.objects.filter(player=player).values_list("ruleset", flat=True)))


# ---------------------------------------------------------------- head-to-head

@dataclass(frozen=True, slots=True)
class SharedSession:
    tournament: Tournament
    session: int
    table: int
    table_points: tuple[Fraction, Fraction]
    game_points: tuple[int, int]

    @property
    def ahead(self) -> int:
        """1 when the first player finished the session ahead, -1 behind, 0 level."""
        first, second = self.table_points
        return (first > second) - (first < second)


@dataclass(frozen=True, slots=True)
class HeadToHead:
    sessions: list[SharedSession]
    together: int
    ahead: int
    behind: int
    table_points: tuple[Fraction, Fraction]
    game_points: tuple[int, int]
    tournaments: list[Tournament]


def _shared_tables(player: Player, other: Player) -> Any:
    """The seats of every table of a confirmed tournament at which both sat."""
    def sat(who: Player) -> Exists:
        return Exists(TableResult.objects.filter(
            player=who, tournament=OuterRef("tournament"), session=OuterRef("session"),
            table=OuterRef("table")))
    return (TableResult.objects.filter(tournament__state=CONFIRMED)
            .filter(sat(player)).filter(sat(other)))


def head_to_head(player: Player, other: Player) -> HeadToHead:
    """Every session the two played at one table, newest first, with each one's table points
    and game points (after deducted penalties, as in the standings): 2 queries."""
    seats: dict[tuple[int, int, int], list[tuple[int, int, int]]] = defaultdict(list)
    for t, s, table, who, points, penalty in _shared_tables(player, other).values_list(
            "tournament_id", "session", "table", "player_id", "game_points", "penalty"):
        seats[(t, s, table)].append((who, points, penalty))
    tournaments = Tournament.objects.in_bulk({key[0] for key in seats})
    sessions: list[SharedSession] = []
    for (t, s, table), rows in seats.items():
        if len(rows) != 4:
            continue
        won = dict(zip([r[0] for r in rows], table_points([r[1] for r in rows]), strict=True))
        net = {who: points - penalty for who, points, penalty in rows}
        sessions.append(SharedSession(
            tournament=tournaments[t], session=s, table=table,
            table_points=(won[player.pk], won[other.pk]),
            game_points=(net[player.pk], net[other.pk])))
    sessions.sort(key=lambda x: (x.tournament.end_date, x.tournament.pk, x.session),
                  reverse=True)
    seen: dict[int, Tournament] = {}
    for item in sessions:
        seen.setdefault(item.tournament.pk, item.tournament)
    return HeadToHead(
        sessions=sessions, together=len(sessions),
        ahead=sum(1 for x in sessions if x.ahead > 0),
        behind=sum(1 for x in sessions if x.ahead < 0),
        table_points=(sum((x.table_points[0] for x in sessions), Fraction(0)),
                      sum((x.table_points[1] for x in sessions), Fraction(0))),
        game_points=(sum(x.game_points[0] for x in sessions),
                     sum(x.game_points[1] for x in sessions)),
        tournaments=list(seen.values()),
    )


def frequent_opponents(player: Player, limit: int = 10) -> list[tuple[Player, int]]:
    """The players met most often at one table (sessions together), most first: 2 queries."""
    met = (TableResult.objects.filter(tournament__state=CONFIRMED)
           .filter(Exists(TableResult.objects.filter(
               player=player, tournament=OuterRef("tournament"), session=OuterRef("session"),
               table=OuterRef("table"))))
           .exclude(player=player).values("player").annotate(n=Count("pk"))
           .order_by("-n", "player")[:limit])
    counts = [(row["player"], row["n"]) for row in met]
    players = Player.objects.in_bulk([pk for pk, _ in counts])
    return [(players[pk], n) for pk, n in counts if pk in players]


# ---------------------------------------------------------------- a tournament's hands

@dataclass(slots=True)
class TournamentHands:
    top: list[HandRecord]
    by_session: list[HandRecord]
    rarest: list[tuple[str, int]]
    players: list[HandStats]
    winning_hands: int


def tournament_hands(tournament: Tournament, top: int = 10) -> TournamentHands:
    """The biggest hands, the biggest hand of each session, the fans scored least often
    and each player's figures of one tournament: 3 queries."""
    wins = (HandRecord.objects.filter(tournament=tournament, kind=HandRecord.Kind.WIN,
                                      points__isnull=False)
            .select_related("winner", "discarder"))
    biggest = list(wins.order_by("-points", "session", "table", "number")[:top])
    by_session: dict[int, HandRecord] = {}
    for hand in wins.order_by("session", "-points", "table", "number"):
        by_session.setdefault(hand.session, hand)
    players = list(HandStats.objects.filter(tournament=tournament).select_related("player")
                   .order_by("-hands_won", "-points_won", "player__name_latin"))
    fans: Counter[str] = Counter()
    for row in players:
        fans.update({str(k): int(v) for k, v in row.fans.items()})
    return TournamentHands(
        top=biggest, by_session=[by_session[s] for s in sorted(by_session)],
        rarest=sorted(fans.items(), key=lambda item: (item[1], item[0]))[:10],
        players=players, winning_hands=sum(row.hands_won for row in players),
    )


@dataclass(frozen=True, slots=True)
class Prize:
    code: str
    players: list[Player]
    value: int


PRIZE_FIELDS = (
    ("best_hand", "largest_points"),
    ("most_wins", "hands_won"),
    ("most_self_drawn", "self_drawn"),
    ("most_wins_in_a_session", "best_session_wins"),
    ("longest_streak", "longest_streak"),
    ("fewest_deal_ins", "dealt_in"),
)


def tournament_prizes(hands: TournamentHands) -> list[Prize]:
    """The organizer's prize list: for each prize, the player or players (ties share it)
    with the best figure among the tournament's rows."""
    prizes: list[Prize] = []
    for code, name in PRIZE_FIELDS:
        values = [(getattr(row, name), row.player) for row in hands.players
                  if getattr(row, name) is not None and row.hands_played]
        if not values:
            continue
        pick = min if code == "fewest_deal_ins" else max
        best = pick(v for v, _ in values)
        if best == 0 and code != "fewest_deal_ins":
            continue
        prizes.append(Prize(code, [p for v, p in values if v == best], best))
    return prizes


# ---------------------------------------------------------------- the fan almanac, records

@dataclass(slots=True)
class AlmanacYear:
    year: int
    winning_hands: int
    fans: list[tuple[str, int]]

    def share(self, count: int) -> float | None:
        return share(count, self.winning_hands)


def fan_almanac(ruleset: str) -> list[AlmanacYear]:
    """Per year, newest first: the winning hands of the federation's confirmed tournaments
    and how often each fan was scored in them: 1 query over the stored rows (one per player
    per tournament, not one per hand)."""
    years: dict[int, AlmanacYear] = {}
    counts: dict[int, Counter[str]] = defaultdict(Counter)
    for year, won, fans in HandStats.objects.filter(ruleset=ruleset, hands_won__gt=0) \
            .values_list("year", "hands_won", "fans"):
        entry = years.setdefault(year, AlmanacYear(year, 0, []))
        entry.winning_hands += won
        counts[year].update({str(k): int(v) for k, v in (fans or {}).items()})
    for year, entry in years.items():
        entry.fans = sorted(counts[year].items(), key=lambda item: (-item[1], item[0]))
    return [years[y] for y in sorted(years, reverse=True)]


def fan_share(ruleset: str, fan: str) -> tuple[int, int, int] | None:
    """(year, times scored, winning hands) of the latest year with winning hands, for a
    fan's page; none while the federation has no hands of these rules."""
    latest = (HandStats.objects.filter(ruleset=ruleset, hands_won__gt=0)
              .order_by("-year").values_list("year", flat=True).first())
    if latest is None:
        return None
    rows = HandStats.objects.filter(ruleset=ruleset, year=latest, hands_won__gt=0)
    won = rows.aggregate(n=Sum("hands_won"))["n"] or 0
    times = sum(int((fans or {}).get(fan, 0)) for fans in rows.filter(
        fans__has_key=fan).values_list("fans", flat=True))
    return latest, times, won


@dataclass(frozen=True, slots=True)
class Record:
    code: str
    value: int
    row: HandStats


def records(ruleset: str) -> list[Record]:
    """The federation's records in one ruleset: the largest hand ever, the most wins in one
    session, the longest run of wins, the most wins in one tournament (first to reach it
    holds it): 4 queries."""
    found: list[Record] = []
    for code, name in (("largest_hand", "largest_points"),
                       ("most_wins_in_a_session", "best_session_wins"),
                       ("longest_streak", "longest_streak"),
                       ("most_wins_in_a_tournament", "hands_won")):
        row = (HandStats.objects.filter(ruleset=ruleset).filter(~Q(**{name: None}))
               .filter(**{f"{name}__gt": 0})
               .select_related("player", "tournament", "largest_hand")
               .order_by(F(name).desc(), "tournament__end_date", "pk").first())
        if row is not None:
            found.append(Record(code, getattr(row, name), row))
    return found

"""Reads of tournaments and their results that are more than a one-line query."""

from __future__ import annotations

import dataclasses
import datetime
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone, translation

from config.countries import country_name
from rulebook.scoring import DEFAULT_CONFIG, MCRConfig
from rulebook.scoring.standings import (
    Problem,
    SeatScore,
    Standing,
    TableScore,
    TeamStanding,
    session_table_points,
    standings,
    team_standings,
)
from rulebook.search_text import search_fold
from tournaments import ema_export
from tournaments.clock import seconds_left
from tournaments.models import (
    PUBLIC_STATES,
    SEAT_ORDER,
    Player,
    Registration,
    SeatingAssignment,
    Session,
    SessionClock,
    TableEntry,
    TableResult,
    Tournament,
    TournamentResult,
)
from tournaments.permissions import can_accredit
from tournaments.ranking import Placed, place
from tournaments.table_sheet import sheet_view


@dataclass(frozen=True)
class TableOutcome:
    """One table of one session of a confirmed tournament: ``seats`` holds
    (player_id, game points of that session before deducted penalties) in seat order E, S, W, N."""

    tournament_id: int
    end_date: datetime.date
    session: int
    table: int
    seats: tuple[tuple[int, int], ...]
    unrated: frozenset[int] = frozenset()  # the substitutes at this table: never rated


def confirmed_table_results(
    *, ruleset: str | None = None, since: datetime.date | None = None
) -> list[TableOutcome]:
    """Every table of every tournament in state "results confirmed" (the corrected values
    after corrections), ordered by end date, tournament, session, table. ``ruleset``: only
    tournaments played under these rules ("mcr", "hkos", "red"); ``since``: only
    tournaments that ended on or after that date. ``unrated`` marks the substitutes' seats:
    their games count for their opponents, they are never rated. Read as plain values: a recompute reads
    ~200,000 seat results, and model instances made that read the slowest part of it."""
    rows = TableResult.objects.filter(tournament__state=Tournament.State.RESULTS_CONFIRMED)
    subs = Registration.objects.filter(
        tournament__state=Tournament.State.RESULTS_CONFIRMED, substitute=True)
    if ruleset is not None:
        rows = rows.filter(tournament__ruleset=ruleset)
        subs = subs.filter(tournament__ruleset=ruleset)
    if since is not None:
        rows = rows.filter(tournament__end_date__gte=since)
        subs = subs.filter(tournament__end_date__gte=since)
    substitutes: dict[int, set[int]] = {}
    for tid, player_id in subs.values_list("tournament_id", "player_id"):
        substitutes.setdefault(tid, set()).add(player_id)
    grouped: dict[tuple[datetime.date, int, int, int], list[tuple[int, int, int]]] = {}
    for end, tid, session, table, seat, player_id, points in rows.values_list(
        "tournament__end_date", "tournament_id", "session", "table", "seat", "player_id",
        "game_points",
    ).iterator(chunk_size=20_000):
        grouped.setdefault((end, tid, session, table), []).append(
            (SEAT_ORDER[seat], player_id, points))
    return [
        TableOutcome(
            tournament_id=tid, end_date=end, session=session, table=table,
            seats=tuple((player_id, points) for _, player_id, points in sorted(seats)),
            unrated=frozenset(p for _, p, _ in seats if p in substitutes.get(tid, ())),
        )
        for (end, tid, session, table), seats in sorted(grouped.items())
    ]


def tournaments_visible_to(user) -> QuerySet[Tournament]:
    """Public tournaments for everyone; a user's own tournaments in any state; every
    tournament for accreditation officers."""
    qs = Tournament.objects.all()
    if can_accredit(user):
        return qs
    public = Q(state__in=PUBLIC_STATES)
    if user.is_authenticated:
        return qs.filter(public | Q(organizer=user))
    return qs.filter(public)


def public_calendar(*, state: str | None = None) -> QuerySet[Tournament]:
    qs = Tournament.objects.filter(state__in=PUBLIC_STATES).select_related("club")
    if state:
        qs = qs.filter(state=state)
    return qs.order_by("start_date", "name", "pk")


def upcoming_tournaments(*, limit: int) -> list[Tournament]:
    """The next public tournaments that have not ended, soonest first (the home page)."""
    return list(public_calendar().filter(end_date__gte=today())[:limit])


def _every_word_in(fields: tuple[str, ...], query: str) -> Q:
    """Each word of the query in one of the fields (any order, any case)."""
    condition = Q()
    for word in query.split():
        either = Q()
        for field in fields:
            either |= Q(**{f"{field}__icontains": word})
        condition &= either
    return condition


def _every_folded_word_in_name(query: str) -> Q:
    """Each word of the query, folded, in the player's folded names (``name_search``): any
    case in every script and with or without accents, on SQLite too (decision 0523)."""
    condition = Q()
    for word in search_fold(query).split():
        condition &= Q(name_search__contains=word)
    return condition


def players_shown() -> QuerySet[Player]:
    """The players the public pages show: rated, or entered in a public tournament; not
    anonymised."""
    # Two EXISTS probes on indexed foreign keys instead of two LEFT JOINs under DISTINCT
    # (which joined every rating month and every entry of every player before the limit).
    # The rating entries are reached through the relation: tournaments does not import
    # ratings.
    rating_entry = Player._meta.get_field("rating_entries").related_model
    rated = Exists(rating_entry.objects.filter(player_id=OuterRef("pk")))
    entered = Exists(Registration.objects.filter(
        player_id=OuterRef("pk"), tournament__state__in=PUBLIC_STATES))
    return Player.objects.filter(rated | entered, is_anonymised=False)


def players_matching(query: str, *, limit: int) -> list[Player]:
    """Players whose name holds every word of the query, in Latin letters or native
    script, in any case and with or without accents (``name_search``). Only players the public pages already show: rated, or entered in a public
    tournament; anonymised players are left out."""
    if not query.split():
        return []
    return list(
        players_shown()
        .filter(_every_folded_word_in_name(query))
        .only("pk", "name_latin", "name_native", "country")
        .order_by("name_latin", "pk")[:limit]
    )


def tournaments_matching(query: str, *, limit: int) -> list[Tournament]:
    """Public tournaments whose name or city holds every word of the query, newest first."""
    if not query.split():
        return []
    return list(
        public_calendar()
        .filter(_every_word_in(("name", "city"), query))
        .order_by("-start_date", "name", "pk")[:limit]
    )


def tournament_registrations(tournament: Tournament) -> list[Registration]:
    return list(
        Registration.objects.filter(tournament=tournament).select_related("player__member")
    )


# --- Standings ------------------------------------------------------------------------------


def table_points_number(value: Fraction) -> int | float:
    """Table points as a JSON number: whole numbers stay whole, 7/4 -> 1.75, 7/3 -> 2.33."""
    if value.denominator == 1:
        return int(value)
    return round(float(value), 2)


@dataclass(frozen=True)
class StandingRow:
    rank: int | None  # None: a substitute, or withdrawn when such players are not ranked
    player: int
    name: str
    country: str
    number: int
    team: str
    table_points: Fraction
    game_points: int
    penalties: int
    sessions: int
    substitute: bool = False
    withdrawn_from: int | None = None
    withdrawal_reason: str = ""

    @property
    def table_points_number(self) -> int | float:
        return table_points_number(self.table_points)


def tournament_tables(tournament: Tournament) -> list[TableScore]:
    grouped: dict[tuple[int, int], list[TableResult]] = {}
    for row in TableResult.objects.filter(tournament=tournament).order_by(
        "session", "table", "seat"
    ):
        grouped.setdefault((row.session, row.table), []).append(row)
    return [
        TableScore(session, table, tuple(
            SeatScore(r.player_id, r.game_points, r.penalty)
            for r in sorted(rows, key=lambda r: SEAT_ORDER[r.seat])
        ))
        for (session, table), rows in sorted(grouped.items())
    ]


def _placed(tournament: Tournament, registrations: list[Registration]) -> list[Placed]:
    """Everyone's standing (3.10.1) and final rank under the tournament's rules for
    substitutes and withdrawn players (``tournaments.ranking``)."""
    order = [r.player_id for r in sorted(registrations, key=lambda r: r.number)]
    return place(
        standings(order, tournament_tables(tournament)),
        substitutes={r.player_id for r in registrations if r.substitute},
        withdrawn={r.player_id: r.withdrawn_from for r in registrations
                   if r.withdrawn_from is not None},
        rule=tournament.withdrawn_ranking,
    )


def tournament_ranking(tournament: Tournament) -> list[Standing]:
    """The final ranking (3.10.1) of the ranked players: substitutes and, when the
    tournament says so, withdrawn players are left out; players without results: zeros."""
    return [
        dataclasses.replace(p.standing, rank=p.rank)
        for p in _placed(tournament, list(tournament.registrations.all()))
        if p.rank is not None
    ]


def tournament_standings(tournament: Tournament) -> list[StandingRow]:
    """Every registered player's row: the ranked players (3.10.1) first, then the unranked
    ones (``rank`` None); players without results: zeros."""
    registrations = {r.player_id: r for r in tournament_registrations(tournament)}
    rows = []
    for placed in _placed(tournament, list(registrations.values())):
        s = placed.standing
        reg = registrations[s.player]
        rows.append(StandingRow(
            placed.rank, s.player, str(reg.player), reg.player.country, reg.number, reg.team,
            s.table_points, s.game_points, s.penalties, s.sessions,
            substitute=reg.substitute, withdrawn_from=reg.withdrawn_from,
            withdrawal_reason=reg.withdrawal_reason,
        ))
    return rows


def tournament_team_standings(tournament: Tournament) -> list[TeamStanding]:
    teams = dict(
        Registration.objects.filter(tournament=tournament).exclude(team="")
        .values_list("player_id", "team")
    )
    if not teams:
        return []
    ranking = standings(list(teams), tournament_tables(tournament))
    return team_standings(ranking, teams)


@dataclass(frozen=True)
class SessionCell:
    table_points: Fraction
    table_points_sum: Fraction
    game_points: int  # after the deducted penalty
    game_points_sum: int
    penalty: int
    table: int
    seat: str


def session_grid(tournament: Tournament) -> dict[int, dict[int, SessionCell]]:
    """player -> session -> the Appendix 7 cells (points of the session and running sums)."""
    seats = {
        (r.session, r.player_id): (r.table, r.seat)
        for r in TableResult.objects.filter(tournament=tournament)
    }
    tables = tournament_tables(tournament)
    won = session_table_points(tables)
    grid: dict[int, dict[int, SessionCell]] = {}
    penalties = {(t.session, s.player): (s.game_points - s.penalty, s.penalty)
                 for t in tables for s in t.seats}
    for session in sorted({t.session for t in tables}):
        for (sess, player), points in won.items():
            if sess != session:
                continue
            cells = grid.setdefault(player, {})
            before = cells[max(cells)] if cells else None
            gp, pen = penalties[(session, player)]
            table, seat = seats[(session, player)]
            cells[session] = SessionCell(
                points, points + (before.table_points_sum if before else 0), gp,
                gp + (before.game_points_sum if before else 0), pen, table, seat,
            )
    return grid


def today() -> datetime.date:
    return timezone.localdate()


def tournament_ema_standings(tournament: Tournament) -> list[ema_export.Standing]:
    """The stored final standings with what the EMA's sheet needs (two queries)."""
    substitutes = set(
        tournament.registrations.filter(substitute=True).values_list("player_id", flat=True)
    )
    rows = TournamentResult.objects.filter(tournament=tournament).select_related("player")
    out = []
    for row in rows:
        player = row.player
        first, last = player.latin_first_last
        with translation.override("en"):
            country = country_name(player.country)
        out.append(ema_export.Standing(
            player=player.pk, rank=row.rank, table_points=row.table_points,
            game_points=row.game_points, first_name=first, last_name=last,
            ema_number=player.ema_number, country=country,
            member=player.member_id is not None, substitute=player.pk in substitutes,
        ))
    return out


# --- Entry at the table -------------------------------------------------------------------

TABLE_ENTRY_OPEN = (Tournament.State.ACCREDITED, Tournament.State.RESULTS_SUBMITTED)


def table_entry_for_token(token: str) -> TableEntry | None:
    """The table entry of a token while results may be posted (the token expires when the
    results are confirmed), else ``None``."""
    return (
        TableEntry.objects.select_related("tournament")
        .filter(token=token, tournament__state__in=TABLE_ENTRY_OPEN).first()
    )


def table_players(entry: TableEntry) -> list[int]:
    """The four players of the entry's table, in wind order E, S, W, N."""
    rows = sorted(
        SeatingAssignment.objects.filter(tournament_id=entry.tournament_id,
                                         session=entry.session, table=entry.table),
        key=lambda a: SEAT_ORDER[a.seat])
    return [a.player_id for a in rows]


@dataclass(frozen=True)
class SessionTable:
    """A table of a session as the organizer's session view shows it: ``state`` "missing",
    "entered" (lines entered at the table, not all agreed) or "agreed" (results stored);
    ``source`` how stored results came in; ``problems`` what the core found in the lines
    entered at the table."""

    table: int
    state: str
    entry: TableEntry | None
    source: str | None
    problems: tuple[Problem, ...]


def mcr_config(tournament: Tournament) -> MCRConfig | None:
    """The tournament's MCR variant (the default for other rules), ``None`` when its
    switches are not known to the core."""
    if tournament.ruleset != "mcr" or not tournament.variant:
        return DEFAULT_CONFIG
    names = {f.name for f in dataclasses.fields(MCRConfig)}
    if set(tournament.variant) - names:
        return None
    return dataclasses.replace(DEFAULT_CONFIG, **tournament.variant)


def session_tables(tournament: Tournament, session: int) -> list[SessionTable]:
    seated = set(SeatingAssignment.objects.filter(tournament=tournament, session=session)
                 .values_list("table", flat=True))
    stored = set(TableResult.objects.filter(tournament=tournament, session=session)
                 .values_list("table", flat=True))
    entries = {e.table: e for e in TableEntry.objects.filter(tournament=tournament,
                                                             session=session)}
    record = Session.objects.filter(tournament=tournament, number=session).first()
    rows: list[SessionTable] = []
    for table in sorted(seated | stored | set(entries)):
        entry = entries.get(table)
        problems: tuple[Problem, ...] = ()
        if table in stored:
            state = "agreed"
            source = (Session.Source.TABLE if entry and entry.state == TableEntry.State.AGREED
                      else record.source if record else None)
        else:
            source = None
            state = "entered" if entry and entry.hands else "missing"
            if entry and entry.hands:
                view = sheet_view(entry.hands, rules=tournament.ruleset,
                                  config=mcr_config(tournament) or DEFAULT_CONFIG)
                problems = tuple(p.located(session=session, table=table)
                                 for p in view.problems)
        rows.append(SessionTable(table, state, entry, source, problems))
    return rows


@dataclass(frozen=True)
class ClockView:
    """A session's clock as shown: ``left`` seconds for the room, ``tables`` (table, extra
    minutes, seconds left) for the tables given extra minutes."""

    session: int
    minutes: int
    running: bool
    started: bool
    left: int
    tables: tuple[tuple[int, int, int], ...]


def session_clock(tournament: Tournament, session: int,
                  now: datetime.datetime | None = None) -> ClockView:
    now = now or timezone.now()
    clock = SessionClock.objects.filter(tournament=tournament, session=session).first()
    if clock is None:
        minutes = tournament.session_minutes
        return ClockView(session, minutes, False, False, minutes * 60, ())
    return ClockView(
        session, clock.minutes, clock.started_at is not None,
        clock.started_at is not None or clock.elapsed > 0,
        seconds_left(clock.minutes, clock.elapsed, clock.started_at, now),
        tuple((int(t), m, seconds_left(clock.minutes, clock.elapsed, clock.started_at, now, m))
              for t, m in clock.extra.items()),
    )


@dataclass(frozen=True)
class EntryRow:
    """An entry with what is read of its invoice: paid, outstanding."""

    entry: Any
    paid: bool
    paid_amount: Decimal
    outstanding: Decimal


def entry_is_paid(entry: Any) -> bool:
    return entry_rows([entry])[0].paid


def entry_rows(entries: Any) -> list[EntryRow]:
    """Entries with their payment state, the invoices read in one query."""
    from federation.selectors import invoices_with_balances

    entries = list(entries)
    invoices = [e.invoice for e in entries if e.invoice_id is not None]
    balances = {invoice.pk: balance for invoice, balance in invoices_with_balances(invoices)}
    rows = []
    for entry in entries:
        balance = balances.get(entry.invoice_id)
        if balance is None:
            rows.append(EntryRow(entry, entry.fee == 0, Decimal(0), Decimal(0)))
        else:
            paid = entry.fee == 0 or balance.outstanding <= 0
            rows.append(EntryRow(entry, paid, balance.paid, balance.outstanding))
    return rows


def tournament_entries(tournament: Tournament, *, public: bool = False) -> list[EntryRow]:
    """The entrants in order of entry; the public list leaves out withdrawn and refused."""
    from tournaments.models import Entry

    qs = tournament.entries.select_related("invoice", "user", "member__club").order_by(
        "entered_at", "pk")
    if public:
        qs = qs.filter(status__in=Entry.ACTIVE)
    return entry_rows(qs)


@dataclass(frozen=True)
class Collected:
    currency: str
    collected: Decimal
    open: Decimal


def entries_collected(tournament: Tournament) -> list[Collected]:
    """What a tournament's entries have paid and what is still open, per currency."""
    totals: dict[str, list[Decimal]] = {}
    for row in tournament_entries(tournament):
        if row.entry.invoice_id is None:
            continue
        pair = totals.setdefault(row.entry.invoice.currency, [Decimal(0), Decimal(0)])
        pair[0] += row.paid_amount
        if not row.entry.invoice.cancelled:
            pair[1] += row.outstanding
    return [Collected(c, v[0], v[1]) for c, v in sorted(totals.items())]


def entries_open(tournament: Tournament) -> bool:
    """Whether the public page offers the entry form (the service decides the rest)."""
    return tournament.state == Tournament.State.ACCREDITED and \
        tournament.start_date > timezone.localdate()


def places_left(tournament: Tournament) -> int | None:
    if tournament.max_players is None:
        return None
    from tournaments.models import Entry

    taken = tournament.entries.filter(status__in=Entry.HOLDING).count()
    return max(tournament.max_players - taken, 0)


@dataclass(frozen=True)
class TournamentFees:
    tournament: Tournament
    totals: list[Collected]


def entry_fees_by_tournament() -> list[TournamentFees]:
    """The treasurer's view: every tournament with invoiced entries, what was collected
    and what is open, per currency (the newest first)."""
    rows = (Tournament.objects.filter(entries__invoice__isnull=False).distinct()
            .order_by("-start_date", "pk"))
    return [TournamentFees(t, entries_collected(t)) for t in rows]

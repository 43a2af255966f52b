"""Reads of tournaments and their results that are more than a one-line query."""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone, translation

from core.countries import country_name
from rulebook.scoring import DEFAULT_CONFIG, MCRConfig
from rulebook.scoring.standings import (
    WINDS,
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
from tournaments.models import (
    PUBLIC_STATES,
    SEAT_ORDER,
    Absence,
    Penalty,
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
from tournaments.permissions import can_accredit, can_manage
from tournaments.rules import states
from tournaments.rules.clock_time import seconds_left
from tournaments.rules.entry_admission import entries_accepted
from tournaments.rules.withdrawn_ranking import Placed, place
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
    given = Penalty.objects.filter(tournament__state=Tournament.State.RESULTS_CONFIRMED)
    if ruleset is not None:
        rows = rows.filter(tournament__ruleset=ruleset)
        subs = subs.filter(tournament__ruleset=ruleset)
        given = given.filter(tournament__ruleset=ruleset)
    if since is not None:
        rows = rows.filter(tournament__end_date__gte=since)
        subs = subs.filter(tournament__end_date__gte=since)
        given = given.filter(tournament__end_date__gte=since)
    substitutes: dict[int, set[int]] = {}
    for tid, player_id in subs.values_list("tournament_id", "player_id"):
        substitutes.setdefault(tid, set()).add(player_id)
    grouped: dict[tuple[datetime.date, int, int, int], list[tuple[int, int, int]]] = {}
    transfers = _transfers(given)
    for end, tid, session, table, seat, player_id, points in rows.values_list(
        "tournament__end_date", "tournament_id", "session", "table", "seat", "player_id",
        "game_points",
    ).iterator(chunk_size=20_000):
        grouped.setdefault((end, tid, session, table), []).append(
            (SEAT_ORDER[seat], player_id, points))
    if transfers:
        for (_end, tid, session, _table), seats in grouped.items():
            players = [p for _, p, _ in sorted(seats)]
            moved = _moved(transfers.get((tid, session), ()), players)
            if moved:
                seats[:] = [(o, p, g + moved.get(p, 0)) for o, p, g in seats]
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
    case in every script and with or without accents, on SQLite too (decision 0525)."""
    condition = Q()
    for word in search_fold(query).split():
        condition &= Q(name_search__contains=word)
    return condition


def _listed_probes() -> tuple[Exists, Exists]:
    """The two ways a player is shown publicly: rated, or entered in a public tournament.
    The rating entries are reached through the relation: tournaments does not import
    ratings."""
    rating_entry = Player._meta.get_field("rating_entries").related_model
    rated = Exists(rating_entry.objects.filter(player_id=OuterRef("pk")))
    entered = Exists(Registration.objects.filter(
        player_id=OuterRef("pk"), tournament__state__in=PUBLIC_STATES))
    return rated, entered


def players_shown() -> QuerySet[Player]:
    """The players the public pages show: rated, or entered in a public tournament; not
    anonymised (the search index reads them all)."""
    rated, entered = _listed_probes()
    return Player.objects.filter(rated | entered, is_anonymised=False)


def players_matching(query: str, *, limit: int, offset: int = 0) -> list[Player]:
    """Players whose name holds every word of the query, in Latin letters or native
    script, in any case and with or without accents (``name_search``), in name order:
    `limit` of them from `offset`. Only players the public pages already show: rated, or
    entered in a public tournament; anonymised players are left out.

    Three queries whatever the number of players (issue 26): the first rated ones and the
    first entered ones, each in the order of the ``player_name_order`` index with its own
    limit, then the page of their union. One query OR-ing the two EXISTS probes made
    PostgreSQL hash every rating row and every entry before it could stop (65 ms at 10,000
    players, 4 s without statistics); each probe alone is a semi-join that reads the first
    names in order and stops (under 5 ms)."""
    if not search_fold(query).split():
        return []
    rated, entered = _listed_probes()
    matching = Player.objects.filter(is_anonymised=False).filter(
        _every_folded_word_in_name(query)
    ).order_by("name_latin", "pk")
    found: set[int] = set()
    for listed in (rated, entered):
        found.update(matching.filter(listed).values_list("pk", flat=True)[:offset + limit])
    # The page of the union, in the database's own order of names (its collation).
    return list(Player.objects.filter(pk__in=found)
                .only("pk", "name_latin", "name_native", "country")
                .order_by("name_latin", "pk")[offset:offset + limit])


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


# --- Penalties given by the organizer, added to the stored sheets ---------------------------
# The stored rows (TableResult, HandRecord) are the sheets as entered, their penalties
# included; the penalties the organizer gives on the session view or the API are kept apart
# (they survive a table posted again) and added here, for the standings and the ratings
# alike (docs/decisions/0715-penalties-absences-hidden-standings.md).

Transfer = tuple[int, int, int | None]  # offender, points, receiver (None: the three others)


def _transfers(qs: QuerySet[Penalty]) -> dict[tuple[int, int], list[Transfer]]:
    """(tournament, session) -> the transferred penalties given by the organizer."""
    out: dict[tuple[int, int], list[Transfer]] = {}
    for tid, session, player, points, to in qs.filter(
        source=Penalty.Source.ORGANIZER, kind=Penalty.Kind.TRANSFERRED,
    ).values_list("tournament_id", "session", "player_id", "points", "to_player_id"):
        out.setdefault((tid, session), []).append((player, points, to))
    return out


def _moved(transfers: Sequence[Transfer], players: Sequence[int]) -> dict[int, int]:
    """What the transfers whose offender sits at this table (``players``) move: the
    offender pays ``points``, to the receiver or a third to each of the three others."""
    moved: dict[int, int] = {}
    for offender, points, to in transfers:
        if offender not in players:
            continue
        receivers = [to] if to is not None else [p for p in players if p != offender]
        if to is not None and to not in players:
            continue
        moved[offender] = moved.get(offender, 0) - points
        for r in receivers:
            moved[r] = moved.get(r, 0) + points // len(receivers)
    return moved


def tournament_tables(tournament: Tournament, up_to: int | None = None) -> list[TableScore]:
    """The seat scores of every stored table (sessions up to ``up_to``) as the scoring core
    takes them: the stored sheet plus the penalties given by the organizer."""
    rows_qs = TableResult.objects.filter(tournament=tournament)
    given = Penalty.objects.filter(tournament=tournament, source=Penalty.Source.ORGANIZER)
    if up_to is not None:
        rows_qs = rows_qs.filter(session__lte=up_to)
        given = given.filter(session__lte=up_to)
    grouped: dict[tuple[int, int], list[TableResult]] = {}
    for row in rows_qs.order_by("session", "table", "seat"):
        grouped.setdefault((row.session, row.table), []).append(row)
    deducted: dict[tuple[int, int], int] = {}
    transfers: dict[int, list[Transfer]] = {}
    for session, player, kind, points, to in given.values_list(
            "session", "player_id", "kind", "points", "to_player_id"):
        if kind == Penalty.Kind.DEDUCTED:
            deducted[(session, player)] = deducted.get((session, player), 0) + points
        else:
            transfers.setdefault(session, []).append((player, points, to))
    tables = []
    for (session, table), rows in sorted(grouped.items()):
        rows.sort(key=lambda r: SEAT_ORDER[r.seat])
        moved = _moved(transfers.get(session, ()), [r.player_id for r in rows])
        tables.append(TableScore(session, table, tuple(
            SeatScore(r.player_id, r.game_points + moved.get(r.player_id, 0),
                      r.penalty + deducted.get((session, r.player_id), 0))
            for r in rows
        )))
    return tables


def _awarded(tournament: Tournament, up_to: int | None) -> list[tuple[int, Fraction, int]]:
    """The fixed score of each session missed, when the tournament gives one."""
    if tournament.absent_score != Tournament.AbsentScore.FIXED:
        return []
    qs = Absence.objects.filter(tournament=tournament)
    if up_to is not None:
        qs = qs.filter(session__lte=up_to)
    return [(player, Fraction(tournament.absent_table_points), tournament.absent_game_points)
            for player in qs.values_list("player_id", flat=True)]


def _placed(tournament: Tournament, registrations: list[Registration],
            up_to: int | None = None) -> list[Placed]:
    """Everyone's standing (3.10.1) and final rank under the tournament's rules for
    substitutes and withdrawn players (``tournaments.rules.withdrawn_ranking``)."""
    order = [r.player_id for r in sorted(registrations, key=lambda r: r.number)]
    return place(
        standings(order, tournament_tables(tournament, up_to), _awarded(tournament, up_to)),
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


def tournament_standings(tournament: Tournament, up_to: int | None = None
                         ) -> list[StandingRow]:
    """Every registered player's row: the ranked players (3.10.1) first, then the unranked
    ones (``rank`` None); players without results: zeros. ``up_to``: the standings after
    that session (the last sessions hidden)."""
    registrations = {r.player_id: r for r in tournament_registrations(tournament)}
    rows = []
    for placed in _placed(tournament, list(registrations.values()), up_to):
        s = placed.standing
        reg = registrations[s.player]
        rows.append(StandingRow(
            placed.rank, s.player, str(reg.player), reg.player.country, reg.number, reg.team,
            s.table_points, s.game_points, s.penalties, s.sessions,
            substitute=reg.substitute, withdrawn_from=reg.withdrawn_from,
            withdrawal_reason=reg.withdrawal_reason,
        ))
    return rows


@dataclass(frozen=True)
class Leader:
    rank: int | None
    player: int
    name: str
    table_points: Fraction
    game_points: int


def tournament_leaders(tournament: Tournament, *, limit: int,
                       up_to: int | None = None) -> list[Leader]:
    """The top of the standings (the tournament page). A confirmed tournament's are the
    stored final standings (``TournamentResult``: one query); before that they are
    computed from the results as they stand, up to session ``up_to`` while the last
    sessions are hidden."""
    if tournament.state == Tournament.State.RESULTS_CONFIRMED and up_to is None:
        return [
            Leader(row.rank, row.player_id, str(row.player), row.table_points, row.game_points)
            for row in TournamentResult.objects.filter(tournament=tournament)
            .select_related("player").order_by("rank", "pk")[:limit]
        ]
    return [
        Leader(row.rank, row.player, row.name, row.table_points, row.game_points)
        for row in tournament_standings(tournament, up_to)[:limit]
    ]


def tournament_sessions_seated(tournament: Tournament) -> list[int]:
    """The sessions with a seating (one query, whatever the number of seats)."""
    return list(
        tournament.seating.order_by("session").values_list("session", flat=True).distinct()
    )


def tournament_team_standings(tournament: Tournament, up_to: int | None = None
                              ) -> list[TeamStanding]:
    teams = dict(
        Registration.objects.filter(tournament=tournament).exclude(team="")
        .values_list("player_id", "team")
    )
    if not teams:
        return []
    ranking = standings(list(teams), tournament_tables(tournament, up_to),
                        _awarded(tournament, up_to))
    return team_standings(ranking, teams)


def standings_cutoff(tournament: Tournament, user: Any) -> int | None:
    """The last session whose standings ``user`` may see, ``None`` for all: the public sees
    the standings after session (sessions - N) while the tournament hides its last N
    sessions and the organizer has not revealed them; the organizer and the officers see
    everything."""
    hidden = tournament.hide_last_sessions
    if not hidden or tournament.standings_revealed_at is not None:
        return None
    if can_manage(user, tournament):
        return None
    return max(tournament.sessions - hidden, 0)


@dataclass(frozen=True)
class PenaltyRow:
    penalty: Penalty
    name: str
    to_name: str

    @property
    def reason(self) -> str:
        """The reason as the reader reads it: a late arrival in their language, a
        penalty entered with the results without a reason says so."""
        p = self.penalty
        if p.late_minutes is not None:
            return translation.ngettext("late %(n)s minute", "late %(n)s minutes",
                                        p.late_minutes) % {"n": p.late_minutes}
        if p.reason:
            return p.reason
        if p.source == Penalty.Source.RESULTS:
            return translation.gettext("entered with the results")
        return ""


def tournament_penalties(tournament: Tournament, up_to: int | None = None
                         ) -> list[PenaltyRow]:
    """Every penalty of the tournament (sessions up to ``up_to``), in session order: one
    query, whatever their number."""
    qs = (Penalty.objects.filter(tournament=tournament)
          .select_related("player", "to_player", "given_by")
          .order_by("session", "table", "hand", "given_at", "pk"))
    if up_to is not None:
        qs = qs.filter(session__lte=up_to)
    return [PenaltyRow(p, str(p.player), str(p.to_player) if p.to_player else "")
            for p in qs]


def tournament_absences(tournament: Tournament, up_to: int | None = None) -> list[Absence]:
    qs = Absence.objects.filter(tournament=tournament).select_related("player", "recorded_by")
    if up_to is not None:
        qs = qs.filter(session__lte=up_to)
    return list(qs.order_by("session", "pk"))


def unbalanced_tables(tournament: Tournament, session: int | None = None) -> list[Any]:
    qs = tournament.unbalanced_tables.select_related("confirmed_by")
    if session is not None:
        qs = qs.filter(session=session)
    return list(qs)


@dataclass(frozen=True)
class SessionCell:
    table_points: Fraction
    table_points_sum: Fraction
    game_points: int  # after the deducted penalty
    game_points_sum: int
    penalty: int
    table: int
    seat: str


def session_grid(tournament: Tournament, up_to: int | None = None
                 ) -> dict[int, dict[int, SessionCell]]:
    """player -> session -> the Appendix 7 cells (points of the session and running sums)."""
    tables = tournament_tables(tournament, up_to)
    seats = {
        (t.session, s.player): (t.table, wind)
        for t in tables for wind, s in zip(WINDS, t.seats, strict=True)
    }
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

TABLE_ENTRY_OPEN = states.RESULTS_OPEN
"""The states in which the tables' tokens work: those in which results may be posted."""


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


def _collected(rows: list[EntryRow]) -> list[Collected]:
    totals: dict[str, list[Decimal]] = {}
    for row in rows:
        if row.entry.invoice_id is None:
            continue
        pair = totals.setdefault(row.entry.invoice.currency, [Decimal(0), Decimal(0)])
        pair[0] += row.paid_amount
        if not row.entry.invoice.cancelled:
            pair[1] += row.outstanding
    return [Collected(c, v[0], v[1]) for c, v in sorted(totals.items())]


def entries_collected(tournament: Tournament) -> list[Collected]:
    """What a tournament's entries have paid and what is still open, per currency."""
    return _collected(tournament_entries(tournament))


def entries_open(tournament: Tournament) -> bool:
    """Whether the public page offers the entry form (the service decides the rest)."""
    return entries_accepted(state=tournament.state, start_date=tournament.start_date,
                            today=timezone.localdate())


def places_taken(tournament: Tournament) -> int:
    """The places held (decisions 0706, 0716): entries entered or confirmed, and the players
    the organizer registered by hand (not substitutes; a registration made from an entry
    counts once, as its entry)."""
    from tournaments.models import Entry

    held = tournament.entries.filter(status__in=Entry.HOLDING).count()
    by_hand = tournament.registrations.filter(substitute=False, entry__isnull=True).count()
    return held + by_hand


def places_left(tournament: Tournament) -> int | None:
    if tournament.max_players is None:
        return None
    return max(tournament.max_players - places_taken(tournament), 0)


@dataclass(frozen=True)
class TournamentFees:
    tournament: Tournament
    totals: list[Collected]


def entry_fees_by_tournament() -> list[TournamentFees]:
    """The treasurer's view: every tournament with invoiced entries, what was collected
    and what is open, per currency (the newest first). Three queries, however many
    tournaments and entries."""
    from tournaments.models import Entry

    entries = Entry.objects.filter(invoice__isnull=False).select_related("invoice", "tournament")
    by_tournament: dict[int, list[EntryRow]] = {}
    tournaments: dict[int, Tournament] = {}
    for row in entry_rows(entries):
        tournaments[row.entry.tournament_id] = row.entry.tournament
        by_tournament.setdefault(row.entry.tournament_id, []).append(row)
    ordered = sorted(tournaments.values(), key=lambda t: (-t.start_date.toordinal(), t.pk))
    return [TournamentFees(t, _collected(by_tournament[t.pk])) for t in ordered]

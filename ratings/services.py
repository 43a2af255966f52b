"""Tournament writes: submission, accreditation, registration, seating, results, confirmation
and corrections. Each runs in one transaction and is the only place its state change happens.

Errors are :class:`TournamentError` (a stable ``code``, params for the message; the edge
translates them with ``ratings.messages``) and :class:`ResultsError` (every problem of a
result import, each with its place).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.models import Group
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django_countries import countries
from wagtail.log_actions import log

from federation.models import Member
from federation.services.roles import role_groups_ensure
from rulebook.scoring import DEFAULT_CONFIG, MCRConfig
from rulebook.scoring.standings import Problem

from . import seating as seating_draw_module
from .importers import SessionEntry
from .models import (
    PUBLIC_STATES,
    Accreditation,
    HandRecord,
    Player,
    Registration,
    SeatingAssignment,
    Session,
    TableResult,
    Tournament,
)
from .results import evaluate

State = Tournament.State
WINDS = ("E", "S", "W", "N")

ROLE_ORGANIZER = "Tournament organizer"
ROLE_OFFICER = "Accreditation officer"

ROLE_PERMISSIONS: dict[str, list[str]] = {
    ROLE_ORGANIZER: ["ratings.organize_tournament"],
    ROLE_OFFICER: [
        "wagtailadmin.access_admin",
        "ratings.accredit_tournament",
        "ratings.view_tournament",
        "ratings.view_accreditation",
        "ratings.view_registration",
        "ratings.view_player",
        # the monthly rating list is published by the official who accredits the
        # tournaments behind it (decision 0804)
        "ratings.publish_ratingperiod",
    ],
}

# Error codes (the messages are in ratings.messages)
E_ILLEGAL_TRANSITION = "illegal_transition"
E_TOO_FEW_SESSIONS = "too_few_sessions"
E_TOO_FEW_PLAYERS = "too_few_players"
E_REASON_REQUIRED = "reason_required"
E_BAD_DECISION = "bad_decision"
E_REGISTRATION_CLOSED = "registration_closed"
E_NOT_MULTIPLE_OF_4 = "players_not_multiple_of_4"
E_RESULTS_MISSING = "results_missing"
E_NO_TEAM_COMPETITION = "no_team_competition"
E_TEAM_FULL = "team_full"
E_MEMBER_UNKNOWN = "member_unknown"
E_CONFLICTING_IDS = "conflicting_ids"
E_NAME_REQUIRED = "name_required"
E_BAD_COUNTRY = "bad_country"
E_BAD_VARIANT = "bad_variant"

TEAM_SIZE = 4


class TournamentError(Exception):
    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


class ResultsError(Exception):
    """Every problem of posted results; nothing was stored."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        super().__init__(f"{len(problems)} problem(s)")
        self.problems = list(problems)


@dataclass(frozen=True)
class Check:
    """One check shown to the accreditation officer. ``level``: "ok", "warning" (shown,
    not blocking) or "error" (blocks the transition)."""

    code: str
    level: str
    params: Mapping[str, Any] = dataclasses.field(default_factory=dict)


def roles_setup() -> dict[str, Group]:
    """Create (or bring up to date) the tournament role groups. Idempotent."""
    return role_groups_ensure(role_permissions=ROLE_PERMISSIONS)


def _audit(tournament: Tournament, action: str, user: Any, **data: Any) -> None:
    log(instance=tournament, action=action, user=user,
        title=f"tournament #{tournament.pk}", data={"tournament": tournament.pk, **data})


def _locked(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _require(tournament: Tournament, *states: str, action: str) -> None:
    if tournament.state not in states:
        raise TournamentError(E_ILLEGAL_TRANSITION, state=tournament.state, action=action)


def _mcr_config(tournament: Tournament) -> MCRConfig:
    if tournament.ruleset != "mcr" or not tournament.variant:
        return DEFAULT_CONFIG
    names = {f.name for f in dataclasses.fields(MCRConfig)}
    unknown = sorted(set(tournament.variant) - names)
    if unknown:
        raise TournamentError(E_BAD_VARIANT, names=", ".join(unknown))
    return dataclasses.replace(DEFAULT_CONFIG, **tournament.variant)


# --- Tournaments ----------------------------------------------------------------------------

TOURNAMENT_FIELDS = (
    "name", "start_date", "end_date", "city", "country", "venue", "club", "ruleset", "variant",
    "individual", "team", "sessions", "session_minutes", "planned_players", "fee", "currency",
    "contact", "website",
)


@transaction.atomic
def tournament_create(*, organizer: Any, data: Mapping[str, Any]) -> Tournament:
    """A new draft of ``organizer`` (the data validated by the form or serializer)."""
    values = {k: v for k, v in data.items() if k in TOURNAMENT_FIELDS}
    tournament = Tournament(organizer=organizer, **values)
    tournament.country = tournament.country.upper()
    if tournament.variant:
        _mcr_config(tournament)
    tournament.full_clean()
    tournament.save()
    _audit(tournament, "ratings.tournament.create", organizer)
    return tournament


@transaction.atomic
def tournament_update(*, tournament: Tournament, user: Any, data: Mapping[str, Any]) -> Tournament:
    """Change a draft or a rejected tournament (after submission the officer decides on what
    was submitted)."""
    tournament = _locked(tournament)
    _require(tournament, State.DRAFT, State.REJECTED, action="update")
    changed = []
    for key, value in data.items():
        if key in TOURNAMENT_FIELDS and getattr(tournament, key) != value:
            setattr(tournament, key, value)
            changed.append(key)
    if tournament.variant:
        _mcr_config(tournament)
    tournament.full_clean()
    tournament.save()
    _audit(tournament, "ratings.tournament.update", user, fields=changed)
    return tournament


def tournament_checks(tournament: Tournament, *, at: str = "accreditation") -> list[Check]:
    """The checks shown to the officer: firm rules as errors, the rest as warnings.
    ``at="confirmation"`` checks the registered players instead of the planned number."""
    from federation.selectors import member_status, member_statuses

    checks: list[Check] = []
    minimum_sessions = settings.TOURNAMENT_MIN_SESSIONS
    checks.append(Check(
        E_TOO_FEW_SESSIONS, "ok" if tournament.sessions >= minimum_sessions else "error",
        {"sessions": tournament.sessions, "minimum": minimum_sessions}))
    minimum_players = settings.TOURNAMENT_MIN_PLAYERS
    if at == "confirmation":
        players = tournament.registrations.count()
        checks.append(Check(
            E_TOO_FEW_PLAYERS, "ok" if players >= minimum_players else "error",
            {"players": players, "minimum": minimum_players, "registered": True}))
    else:
        checks.append(Check(
            E_TOO_FEW_PLAYERS,
            "ok" if tournament.planned_players >= minimum_players else "error",
            {"players": tournament.planned_players, "minimum": minimum_players,
             "registered": False}))
    if tournament.planned_players % 4:
        checks.append(Check("planned_not_multiple_of_4", "warning",
                            {"players": tournament.planned_players}))
    # the organizer's and the club's standing
    member = Member.objects.filter(user=tournament.organizer).first()
    if member is None:
        checks.append(Check("organizer_not_member", "warning"))
    else:
        status = member_status(member).value
        checks.append(Check("organizer_status", "ok" if status == "active" else "warning",
                            {"status": status}))
    if tournament.club is None:
        checks.append(Check("no_club", "warning"))
    else:
        statuses = member_statuses(Member.objects.filter(club=tournament.club))
        active = [pk for pk, status in statuses.items() if status.value == "active"]
        checks.append(Check("club_members", "ok" if active else "warning",
                            {"club": tournament.club.name, "active": len(active)}))
    clashes = list(
        Tournament.objects.filter(
            state__in=PUBLIC_STATES, start_date__lte=tournament.end_date,
            end_date__gte=tournament.start_date,
        ).exclude(pk=tournament.pk).order_by("start_date", "pk")
    )
    if clashes:
        checks.append(Check("clash", "warning", {
            "tournaments": [
                {"id": t.pk, "name": t.name, "start_date": t.start_date.isoformat(),
                 "end_date": t.end_date.isoformat(), "country": t.country}
                for t in clashes
            ],
            "names": ", ".join(t.name for t in clashes),
        }))
    else:
        checks.append(Check("clash", "ok"))
    return checks


def _blocking(checks: Iterable[Check]) -> None:
    for check in checks:
        if check.level == "error":
            raise TournamentError(check.code, **check.params)


def _checks_json(checks: Iterable[Check]) -> list[dict[str, Any]]:
    return [{"code": c.code, "level": c.level, "params": dict(c.params)} for c in checks]


@transaction.atomic
def tournament_submit(*, tournament: Tournament, user: Any) -> tuple[Tournament, list[Check]]:
    """draft (or rejected, after changes) -> submitted; refused when a firm rule fails."""
    tournament = _locked(tournament)
    _require(tournament, State.DRAFT, State.REJECTED, action="submit")
    checks = tournament_checks(tournament)
    _blocking(checks)
    tournament.state = State.SUBMITTED
    tournament.submitted_at = timezone.now()
    tournament.save(update_fields=["state", "submitted_at"])
    Accreditation.objects.create(tournament=tournament, action=Accreditation.Action.SUBMIT,
                                 decided_by=user, checks=_checks_json(checks))
    _audit(tournament, "ratings.tournament.submit", user)
    return tournament, checks


@transaction.atomic
def tournament_decide(
    *, tournament: Tournament, user: Any, decision: str, reason: str = ""
) -> Tournament:
    """The officer's decision on a submitted tournament: accredit or reject (with reasons)."""
    tournament = _locked(tournament)
    if decision not in ("accredit", "reject"):
        raise TournamentError(E_BAD_DECISION, decision=decision)
    _require(tournament, State.SUBMITTED, action=decision)
    reason = (reason or "").strip()
    checks = tournament_checks(tournament)
    if decision == "reject":
        if not reason:
            raise TournamentError(E_REASON_REQUIRED)
        tournament.state = State.REJECTED
        action = Accreditation.Action.REJECT
    else:
        _blocking(checks)
        tournament.state = State.ACCREDITED
        action = Accreditation.Action.ACCREDIT
    tournament.save(update_fields=["state"])
    Accreditation.objects.create(tournament=tournament, action=action, reason=reason,
                                 decided_by=user, checks=_checks_json(checks))
    _audit(tournament, f"ratings.tournament.{decision}", user)
    return tournament


# --- Players --------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerEntry:
    name: str
    country: str
    member_number: int | None = None
    ema_number: str = ""
    team: str = ""
    substitute: bool = False


def _match_player(entry: PlayerEntry, row: int) -> tuple[Player | None, list[Problem]]:
    """The existing player this entry names (member number, EMA number, name + country)."""
    problems: list[Problem] = []
    found: list[Player] = []
    if entry.member_number is not None:
        member = Member.objects.filter(membership_number=entry.member_number).first()
        if member is None:
            problems.append(Problem(E_MEMBER_UNKNOWN, "no member has this number", row=row,
                                    field="member_number",
                                    params={"number": entry.member_number}))
            return None, problems
        player = Player.objects.filter(member=member).first()
        if player is None:
            player = Player.objects.create(
                member=member, name_latin=member.name_latin, name_native=member.name_native,
                country=(member.country or entry.country)[:100],
                ema_number=entry.ema_number,
            )
        found.append(player)
    if entry.ema_number:
        player = Player.objects.filter(ema_number=entry.ema_number).first()
        if player is not None:
            found.append(player)
    if found and any(p.pk != found[0].pk for p in found):
        problems.append(Problem(E_CONFLICTING_IDS,
                                "the member number and the EMA number name different players",
                                row=row, field="ema_number"))
        return None, problems
    if found:
        player = found[0]
        if entry.ema_number and not player.ema_number:
            player.ema_number = entry.ema_number
            player.save(update_fields=["ema_number"])
        return player, problems
    by_name = Player.objects.filter(
        Q(name_latin__iexact=entry.name) | Q(name_native__iexact=entry.name),
        country__iexact=entry.country, is_anonymised=False,
    ).order_by("pk").first()
    return by_name, problems


@transaction.atomic
def players_register(
    *, tournament: Tournament, user: Any, entries: Sequence[PlayerEntry]
) -> list[Registration]:
    """Register players (matched to existing ones, never duplicated; guests created).
    Returns the registrations in the order given; an entry already registered returns its
    registration. Atomic: any problem -> :class:`ResultsError` listing all of them."""
    tournament = _locked(tournament)
    if tournament.state == State.RESULTS_CONFIRMED:
        raise TournamentError(E_REGISTRATION_CLOSED, state=tournament.state)
    problems: list[Problem] = []
    registrations: list[Registration] = []
    next_number = (
        tournament.registrations.order_by("-number").values_list("number", flat=True).first()
        or 0
    )
    team_sizes: dict[str, int] = {}
    for reg in tournament.registrations.exclude(team=""):
        team_sizes[reg.team] = team_sizes.get(reg.team, 0) + 1
    for row, entry in enumerate(entries, start=1):
        name = entry.name.strip()
        country = countries.alpha2(entry.country.strip()) or ""
        if not name:
            problems.append(Problem(E_NAME_REQUIRED, "the name is required", row=row,
                                    field="name"))
            continue
        if not country:
            problems.append(Problem(E_BAD_COUNTRY, "the country is an ISO 3166 alpha-2 code",
                                    row=row, field="country",
                                    params={"country": entry.country}))
            continue
        entry = dataclasses.replace(entry, name=name, country=country)
        if entry.team and not tournament.team:
            problems.append(Problem(E_NO_TEAM_COMPETITION, "this tournament has no teams",
                                    row=row, field="team"))
            continue
        player, found_problems = _match_player(entry, row)
        problems.extend(found_problems)
        if found_problems:
            continue
        if player is None:
            player = Player.objects.create(name_latin=name, country=country,
                                           ema_number=entry.ema_number)
        existing = Registration.objects.filter(tournament=tournament, player=player).first()
        if existing is not None:
            registrations.append(existing)
            continue
        if entry.team:
            team_sizes[entry.team] = team_sizes.get(entry.team, 0) + 1
            if team_sizes[entry.team] > TEAM_SIZE:
                problems.append(Problem(E_TEAM_FULL, "a team has four players", row=row,
                                        field="team", params={"team": entry.team}))
                continue
        next_number += 1
        registrations.append(Registration.objects.create(
            tournament=tournament, player=player, number=next_number, team=entry.team,
            substitute=entry.substitute,
        ))
    if problems:
        transaction.set_rollback(True)
        raise ResultsError(problems)
    _audit(tournament, "ratings.tournament.players", user, count=len(entries))
    return registrations


@transaction.atomic
def registration_remove(*, registration: Registration, user: Any) -> None:
    tournament = _locked(registration.tournament)
    if tournament.state == State.RESULTS_CONFIRMED:
        raise TournamentError(E_REGISTRATION_CLOSED, state=tournament.state)
    player_id = registration.player_id
    if TableResult.objects.filter(tournament=tournament, player_id=player_id).exists():
        raise TournamentError("player_has_results")
    SeatingAssignment.objects.filter(tournament=tournament, player_id=player_id).delete()
    registration.delete()
    _audit(tournament, "ratings.tournament.players", user, removed=player_id)


# --- Seating --------------------------------------------------------------------------------


@transaction.atomic
def seating_draw(*, tournament: Tournament, user: Any, seed: int) -> seating_draw_module.Seating:
    """Draw the seating of every session for the registered players (replacing a former
    draw). The number of players must be a multiple of 4 (add substitutes otherwise)."""
    tournament = _locked(tournament)
    if tournament.state == State.RESULTS_CONFIRMED:
        raise TournamentError(E_ILLEGAL_TRANSITION, state=tournament.state, action="seating")
    registrations = list(tournament.registrations.order_by("number"))
    if not registrations or len(registrations) % 4:
        raise TournamentError(E_NOT_MULTIPLE_OF_4, players=len(registrations))
    teams = {r.player_id: r.team for r in registrations if r.team}
    result = seating_draw_module.draw(
        [r.player_id for r in registrations], tournament.sessions, seed=seed, teams=teams
    )
    SeatingAssignment.objects.filter(tournament=tournament).delete()
    SeatingAssignment.objects.bulk_create(
        SeatingAssignment(tournament=tournament, session=s, table=t, seat=WINDS[w], player_id=p)
        for s, session in enumerate(result.sessions, start=1)
        for t, table in enumerate(session, start=1)
        for w, p in enumerate(table)
    )
    tournament.seating_seed = seed
    tournament.seating_repeat_pairs = result.repeat_pairs
    tournament.save(update_fields=["seating_seed", "seating_repeat_pairs"])
    _audit(tournament, "ratings.tournament.seating", user, seed=seed,
           repeat_pairs=result.repeat_pairs)
    return result


# --- Results --------------------------------------------------------------------------------


def _store_sessions(
    tournament: Tournament, sessions: Sequence[SessionEntry], user: Any, source: str
) -> list[int]:
    registered = list(tournament.registrations.values_list("player_id", flat=True))
    scored, problems = evaluate(
        sessions, registered=registered, session_count=tournament.sessions,
        rules=tournament.ruleset, config=_mcr_config(tournament),
    )
    if problems:
        raise ResultsError(problems)
    numbers = [s.session for s in scored]
    TableResult.objects.filter(tournament=tournament, session__in=numbers).delete()
    HandRecord.objects.filter(tournament=tournament, session__in=numbers).delete()
    results: list[TableResult] = []
    hands: list[HandRecord] = []
    for session in scored:
        Session.objects.update_or_create(
            tournament=tournament, number=session.session,
            defaults={"source": source, "entered_by": user},
        )
        for table in session.tables:
            score = table.score
            for wind, seat in zip(WINDS, score.seats, strict=True):
                results.append(TableResult(
                    tournament=tournament, session=session.session, table=score.table,
                    seat=wind, player_id=seat.player, game_points=seat.game_points,
                    penalty=seat.penalty,
                ))
            for number, (hand, line) in enumerate(table.hands, start=1):
                hands.append(HandRecord(
                    tournament=tournament, session=session.session, table=score.table,
                    number=number, kind=hand.kind, winner_id=hand.player,
                    discarder_id=hand.discarder, points=line.points,
                    fans=list(line.fans if hand.tiles else (hand.fans or ())),
                    tiles=hand.tiles or "", context=dict(hand.context),
                    deltas=dict(zip(WINDS, line.deltas, strict=True)),
                ))
    TableResult.objects.bulk_create(results, batch_size=1000)
    HandRecord.objects.bulk_create(hands, batch_size=1000)
    return numbers


def results_open(tournament: Tournament) -> None:
    """Raise unless results may be posted now (accredited or results submitted)."""
    _require(tournament, State.ACCREDITED, State.RESULTS_SUBMITTED, action="results")


def correction_open(tournament: Tournament) -> None:
    """Raise unless results may be corrected now (results confirmed)."""
    _require(tournament, State.RESULTS_CONFIRMED, action="correct")


def results_problems(
    *, tournament: Tournament, sessions: Sequence[SessionEntry], parse_problems: Sequence[Problem]
) -> list[Problem]:
    """Every problem of an upload: the parser's, and what the tables that did parse mean
    (without the "who is missing" checks of a session whose rows were partly unreadable)."""
    registered = list(tournament.registrations.values_list("player_id", flat=True))
    _scored, problems = evaluate(
        sessions, registered=registered, session_count=tournament.sessions,
        rules=tournament.ruleset, config=_mcr_config(tournament),
    )
    broken = {p.session for p in parse_problems}
    problems = [
        p for p in problems
        if p.session not in broken or p.code not in ("player_missing", "player_twice",
                                                     "player_unknown")
    ]
    return [*parse_problems, *problems]


@transaction.atomic
def results_record(
    *, tournament: Tournament, user: Any, sessions: Sequence[SessionEntry],
    source: str = Session.Source.API,
) -> list[int]:
    """Store the results of the sessions given (a session posted again is replaced);
    accredited -> results submitted. Every problem -> :class:`ResultsError`, nothing stored."""
    tournament = _locked(tournament)
    results_open(tournament)
    numbers = _store_sessions(tournament, sessions, user, source)
    if tournament.state == State.ACCREDITED:
        tournament.state = State.RESULTS_SUBMITTED
        tournament.save(update_fields=["state"])
    _audit(tournament, "ratings.tournament.results", user, sessions=numbers, source=source)
    return numbers


def _complete(tournament: Tournament) -> None:
    """Every session has results with every registered player (registrations may have
    changed after a session was posted)."""
    registered = set(tournament.registrations.values_list("player_id", flat=True))
    problems: list[Problem] = []
    for number in range(1, tournament.sessions + 1):
        seated = set(
            TableResult.objects.filter(tournament=tournament, session=number)
            .values_list("player_id", flat=True)
        )
        if not seated:
            problems.append(Problem(E_RESULTS_MISSING, f"session {number} has no results",
                                    session=number, field="session"))
            continue
        for player in sorted(registered - seated):
            problems.append(Problem("player_missing",
                                    f"player {player} has no seat in session {number}",
                                    session=number, field="player", params={"player": player}))
    if problems:
        raise ResultsError(problems)


@transaction.atomic
def tournament_confirm(*, tournament: Tournament, user: Any) -> Tournament:
    """results submitted -> results confirmed (the organizer's final word): every session
    complete, at least TOURNAMENT_MIN_PLAYERS registered players."""
    tournament = _locked(tournament)
    _require(tournament, State.RESULTS_SUBMITTED, action="confirm")
    checks = tournament_checks(tournament, at="confirmation")
    _blocking(c for c in checks if c.code == E_TOO_FEW_PLAYERS)
    _complete(tournament)
    tournament.state = State.RESULTS_CONFIRMED
    tournament.confirmed_at = timezone.now()
    tournament.save(update_fields=["state", "confirmed_at"])
    Accreditation.objects.create(tournament=tournament, action=Accreditation.Action.CONFIRM,
                                 decided_by=user, checks=_checks_json(checks))
    _audit(tournament, "ratings.tournament.confirm", user)
    _rerate(tournament)
    return tournament


@transaction.atomic
def tournament_correct(
    *, tournament: Tournament, user: Any, sessions: Sequence[SessionEntry], reason: str,
    source: str = Session.Source.API,
) -> Tournament:
    """An accreditation officer's correction of confirmed results, with a reason; the
    tournament stays confirmed with the corrected values (and is re-rated)."""
    tournament = _locked(tournament)
    correction_open(tournament)
    reason = (reason or "").strip()
    if not reason:
        raise TournamentError(E_REASON_REQUIRED)
    numbers = _store_sessions(tournament, sessions, user, source)
    _complete(tournament)
    tournament.corrected_at = timezone.now()
    tournament.save(update_fields=["corrected_at"])
    Accreditation.objects.create(tournament=tournament, action=Accreditation.Action.CORRECT,
                                 reason=reason, decided_by=user,
                                 checks=[{"code": "sessions", "level": "ok",
                                          "params": {"sessions": numbers}}])
    _audit(tournament, "ratings.tournament.correct", user, sessions=numbers)
    _rerate(tournament)
    return tournament


def _rerate(tournament: Tournament) -> None:
    """Issue 12: confirmed or corrected results recompute the ratings from the tournament's
    period on, in the same transaction (waiting for a recompute that is running)."""
    from ratings.rating_services import ratings_recompute_after_tournament

    ratings_recompute_after_tournament(end_date=tournament.end_date)

"""A tournament's life: created as a draft, submitted, accredited or rejected by an officer,
results confirmed by its organizer, corrected by an officer. Each step runs in one
transaction and is the only place its state change happens."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.contrib.auth.models import Group
from django.db import transaction
from django.utils import timezone

from federation.models import Member
from federation.services.roles import role_groups_ensure
from tournaments import emails, selectors
from tournaments.errors import (
    E_BAD_DECISION,
    E_CHANGE_AFTER_ACCREDITATION,
    E_MERS_REASON,
    E_MERS_WEIGHT,
    E_REASON_REQUIRED,
    E_TOO_FEW_PLAYERS,
    E_TOO_FEW_SESSIONS,
    TournamentError,
)
from tournaments.models import PUBLIC_STATES, Accreditation, Session, Tournament
from tournaments.permissions import ROLE_PERMISSIONS
from tournaments.rules import states
from tournaments.rules.entry_admission import entry_dates_problem
from tournaments.rules.results_files import SessionEntry
from tournaments.selectors.mers import mers_weight_computed
from tournaments.services._common import _audit, _locked, _mcr_config, state_require
from tournaments.services.places import waiting_list_move_up
from tournaments.services.results import (
    _complete,
    _store_sessions,
    correction_open,
    tournament_results_store,
)
from tournaments.signals import mers_changed, results_confirmed, tournament_accredited


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


TOURNAMENT_FIELDS = (
    "name", "start_date", "end_date", "city", "country", "venue", "club", "ruleset", "variant",
    "individual", "team", "sessions", "session_minutes", "planned_players", "fee", "currency",
    "contact", "website", "withdrawn_ranking", "max_players", "fee_member", "fee_other",
    "fee_reduced", "reduced_for", "entries_open", "entries_from", "entries_until",
    "members_first_until", "refund_until",
    "payment_days", "absent_score", "absent_table_points", "absent_game_points",
    "hide_last_sessions",
)


@transaction.atomic
def tournament_create(*, organizer: Any, data: Mapping[str, Any]) -> Tournament:
    """A new draft of ``organizer`` (the data validated by the form or serializer)."""
    values = {k: v for k, v in data.items() if k in TOURNAMENT_FIELDS}
    tournament = Tournament(organizer=organizer, **values)
    tournament.country = tournament.country.upper()
    if tournament.variant:
        _mcr_config(tournament)
    _entry_dates_check(tournament)
    tournament.full_clean()
    tournament.save()
    _audit(tournament, "tournaments.tournament.create", organizer)
    return tournament


def _entry_dates_check(tournament: Tournament) -> None:
    problem = entry_dates_problem(opens_on=tournament.entries_from,
                                  closes_on=tournament.entries_until,
                                  start_date=tournament.start_date)
    if problem is not None:
        field, code = problem
        raise TournamentError(code, field=field)


@transaction.atomic
def tournament_update(
    *, tournament: Tournament, user: Any, data: Mapping[str, Any], resubmit: bool = False,
) -> Tournament:
    """Change a tournament: a draft or a rejected one freely; an accredited one (or one
    whose results are coming in) only in what the accreditation did not decide
    (``tournaments.rules.states.AMENDABLE``: the cap, the fees, the entry dates, the venue,
    the hidden sessions...). A change to what the officer accredited is refused unless
    ``resubmit``: then the tournament goes back to the officer (submitted again, its
    entries paused until the new decision; decision 0721)."""
    tournament = _locked(tournament)
    changed = []
    for key, value in data.items():
        if key in TOURNAMENT_FIELDS and getattr(tournament, key) != value:
            changed.append(key)
    frozen = states.needs_new_decision(changed)
    if states.allows("update", tournament.state):
        step = "update"
    elif frozen and resubmit:
        state_require(tournament, "resubmit")
        step = "resubmit"
    else:
        state_require(tournament, "amend")
        if frozen:
            raise TournamentError(E_CHANGE_AFTER_ACCREDITATION, field=frozen[0],
                                  fields=frozen)
        step = "amend"
    cap_before = tournament.max_players
    for key in changed:
        setattr(tournament, key, data[key])
    if tournament.variant:
        _mcr_config(tournament)
    _entry_dates_check(tournament)
    tournament.full_clean()
    if step != "update":
        # an accredited tournament keeps meeting the firm rules it was accredited under
        checks = tournament_checks(tournament)
        _blocking(checks)
    if step == "resubmit":
        tournament.state = states.state_after("resubmit", tournament.state)
        tournament.submitted_at = timezone.now()
    tournament.save()
    if step == "resubmit":
        Accreditation.objects.create(tournament=tournament, action=Accreditation.Action.SUBMIT,
                                     decided_by=user, checks=_checks_json(checks),
                                     reason=", ".join(frozen))
        _audit(tournament, "tournaments.tournament.resubmit", user, fields=changed)
    else:
        _audit(tournament, "tournaments.tournament.update", user, fields=changed)
    if step == "amend" and "max_players" in changed and (
            tournament.max_players is None
            or (cap_before is not None and tournament.max_players > cap_before)):
        # a larger cap: the waiting list moves up at once (a smaller one takes no place
        # back; entries beyond it wait)
        waiting_list_move_up(tournament, by=user, today=selectors.today())
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
    # the organizer and the club's members: active (the current year paid, or honorary);
    # in the grace period only warns here, although it is good standing for entering
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
    state_require(tournament, "submit")
    checks = tournament_checks(tournament)
    _blocking(checks)
    tournament.state = states.state_after("submit", tournament.state)
    tournament.submitted_at = timezone.now()
    tournament.save(update_fields=["state", "submitted_at"])
    Accreditation.objects.create(tournament=tournament, action=Accreditation.Action.SUBMIT,
                                 decided_by=user, checks=_checks_json(checks))
    _audit(tournament, "tournaments.tournament.submit", user)
    return tournament, checks


@transaction.atomic
def tournament_decide(
    *, tournament: Tournament, user: Any, decision: str, reason: str = "",
    mers: bool | None = None, mers_weight: Decimal | None = None,
) -> Tournament:
    """The officer's decision on a submitted tournament: accredit or reject (with reasons).
    When accrediting, ``mers``/``mers_weight`` (if given) record the EMA's certification."""
    tournament = _locked(tournament)
    if decision == "accredit" and mers is not None:
        _mers_check(mers, mers_weight)
    if decision not in ("accredit", "reject"):
        raise TournamentError(E_BAD_DECISION, decision=decision)
    state_require(tournament, decision)
    reason = (reason or "").strip()
    checks = tournament_checks(tournament)
    if decision == "reject":
        if not reason:
            raise TournamentError(E_REASON_REQUIRED)
        tournament.state = states.state_after("reject", tournament.state)
        action = Accreditation.Action.REJECT
    else:
        _blocking(checks)
        tournament.state = states.state_after("accredit", tournament.state)
        action = Accreditation.Action.ACCREDIT
        if mers is not None:
            tournament.mers, tournament.mers_weight = mers, mers_weight if mers else None
    tournament.save(update_fields=["state", "mers", "mers_weight"])
    Accreditation.objects.create(tournament=tournament, action=action, reason=reason,
                                 decided_by=user, checks=_checks_json(checks))
    _audit(tournament, f"tournaments.tournament.{decision}", user)
    emails.on_commit_send_decision(tournament.pk)
    if decision == "accredit":
        tournament_accredited.send(sender=Tournament, tournament=tournament)
    return tournament


def _mers_check(mers: bool, mers_weight: Decimal | None) -> None:
    if mers and (mers_weight is None or mers_weight <= 0):
        raise TournamentError(E_MERS_WEIGHT)


@transaction.atomic
def tournament_mers_set(
    *, tournament: Tournament, user: Any, mers: bool, mers_weight: Decimal | None,
    reason: str = "", qualification: bool | None = None,
) -> Tournament:
    """The officer records (or withdraws) the EMA's MERS certification and its weight, at
    accreditation or later (the EMA sometimes certifies late); the EMA ranking is computed
    live, so it follows at once. The weight computed from the tournament as played
    (decision 0830) is confirmed by giving it; another weight needs a ``reason``, kept and
    shown beside it. ``qualification``: whether players had to qualify (part of the
    computed weight)."""
    tournament = _locked(tournament)
    _mers_check(mers, mers_weight)
    state_require(tournament, "mers")
    if qualification is not None:
        tournament.mers_qualification = qualification
    reason = (reason or "").strip()
    if mers and mers_weight is not None:
        if mers_weight == mers_weight_computed(tournament).total:
            reason = ""  # the computed weight, confirmed
        elif not reason:
            raise TournamentError(E_MERS_REASON, field="reason")
    tournament.mers, tournament.mers_weight = mers, mers_weight if mers else None
    tournament.mers_weight_reason = reason if mers else ""
    tournament.save(update_fields=["mers", "mers_weight", "mers_qualification",
                                   "mers_weight_reason"])
    _audit(tournament, "tournaments.tournament.mers", user, mers=mers,
           mers_weight=str(tournament.mers_weight) if mers else None,
           reason=tournament.mers_weight_reason)
    mers_changed.send(sender=Tournament, tournament=tournament)
    return tournament


@transaction.atomic
def tournament_confirm(*, tournament: Tournament, user: Any) -> Tournament:
    """results submitted -> results confirmed (the organizer's final word): every session
    complete, at least TOURNAMENT_MIN_PLAYERS registered players."""
    tournament = _locked(tournament)
    state_require(tournament, "confirm")
    checks = tournament_checks(tournament, at="confirmation")
    _blocking(c for c in checks if c.code == E_TOO_FEW_PLAYERS)
    _complete(tournament)
    tournament.state = states.state_after("confirm", tournament.state)
    tournament.confirmed_at = timezone.now()
    fields = ["state", "confirmed_at"]
    if tournament.hide_last_sessions and tournament.standings_revealed_at is None:
        # confirmed results go to the players' histories and the ratings: no longer hidden
        tournament.standings_revealed_at = tournament.confirmed_at
        fields.append("standings_revealed_at")
    tournament.save(update_fields=fields)
    tournament_results_store(tournament)
    Accreditation.objects.create(tournament=tournament, action=Accreditation.Action.CONFIRM,
                                 decided_by=user, checks=_checks_json(checks))
    _audit(tournament, "tournaments.tournament.confirm", user)
    results_confirmed.send(sender=Tournament, tournament=tournament)
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
    tournament_results_store(tournament)
    Accreditation.objects.create(tournament=tournament, action=Accreditation.Action.CORRECT,
                                 reason=reason, decided_by=user,
                                 checks=[{"code": "sessions", "level": "ok",
                                          "params": {"sessions": numbers}}])
    _audit(tournament, "tournaments.tournament.correct", user, sessions=numbers)
    results_confirmed.send(sender=Tournament, tournament=tournament)
    return tournament

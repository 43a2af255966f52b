"""Tournament fixtures: the roles, a tournament in each state, registered players, and a
token client per role (the API is used with tokens, as tournament software does)."""

from __future__ import annotations

import datetime
import itertools

import pytest
from django.contrib.auth.models import Group
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import UserFactory
from tournaments import services
from tournaments.models import Tournament

_seq = itertools.count(1)


@pytest.fixture
def make_user(db):
    def make(*roles: str, **extra):
        user = UserFactory(**extra)
        for role in roles:
            user.groups.add(Group.objects.get(name=role))
        return user

    return make


@pytest.fixture
def organizer(make_user):
    return make_user(services.ROLE_ORGANIZER, email="organizer@example.org")


@pytest.fixture
def other_organizer(make_user):
    return make_user(services.ROLE_ORGANIZER, email="other-organizer@example.org")


@pytest.fixture
def officer(make_user):
    return make_user(services.ROLE_OFFICER, email="officer@example.org")


@pytest.fixture
def member_user(make_user):
    return make_user(email="member@example.org")


def token_client(user) -> APIClient:
    client = APIClient()
    if user is not None:
        token, _ = Token.objects.get_or_create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def api(organizer, other_organizer, officer, member_user):
    """role -> APIClient: anonymous, member, other (organizer of another tournament),
    organizer, officer."""
    return {
        "anonymous": token_client(None),
        "member": token_client(member_user),
        "other": token_client(other_organizer),
        "organizer": token_client(organizer),
        "officer": token_client(officer),
    }


TOURNAMENT_DATA = {
    "name": "Riichi Open",
    "start_date": datetime.date(2026, 5, 2),
    "end_date": datetime.date(2026, 5, 3),
    "city": "Utrecht",
    "country": "NL",
    "ruleset": "mcr",
    "sessions": 6,
    "planned_players": 16,
}


@pytest.fixture
def make_tournament(organizer, officer):
    """A tournament of ``organizer`` brought to ``state`` through the services."""

    def make(state: str = "draft", *, players: int = 0, owner=None, **data):
        values = {**TOURNAMENT_DATA, "name": f"Tournament {next(_seq)}", **data}
        t = services.tournament_create(organizer=owner or organizer, data=values)
        if players:
            services.players_register(
                tournament=t, user=owner or organizer,
                entries=[services.PlayerEntry(name=f"Player {i:02d}", country="NL")
                         for i in range(1, players + 1)],
            )
        if state == "draft":
            return t
        t, _ = services.tournament_submit(tournament=t, user=owner or organizer)
        if state == "submitted":
            return t
        decision = "reject" if state == "rejected" else "accredit"
        t = services.tournament_decide(tournament=t, user=officer, decision=decision,
                                       reason="checked")
        if state in ("accredited", "rejected"):
            return t
        record_all_sessions(t, owner or organizer, sessions=1)
        t.refresh_from_db()
        if state == "results submitted":
            return t
        record_all_sessions(t, owner or organizer)
        t = services.tournament_confirm(tournament=t, user=owner or organizer)
        assert t.state == state == Tournament.State.RESULTS_CONFIRMED
        return t

    return make


def player_ids(tournament) -> list[int]:
    return list(tournament.registrations.order_by("number").values_list("player_id", flat=True))


def session_payload(tournament, session: int, *, points=(30, 10, -10, -30)) -> dict:
    ids = player_ids(tournament)
    # rotate so that sessions differ
    shift = (session - 1) % len(ids)
    ids = ids[shift:] + ids[:shift]
    tables = []
    for t in range(len(ids) // 4):
        four = ids[4 * t : 4 * t + 4]
        tables.append({"table": t + 1, "seats": [
            {"player": p, "game_points": g, "penalty": 0} for p, g in zip(four, points, strict=True)
        ]})
    return {"session": session, "tables": tables}


def record_all_sessions(tournament, user, sessions: int | None = None) -> None:
    from tournaments.rules.results_files import parse_results_json

    count = sessions or tournament.sessions
    payload = {"sessions": [session_payload(tournament, s) for s in range(1, count + 1)]}
    parsed, problems = parse_results_json(payload)
    assert not problems
    services.results_record(tournament=tournament, user=user, sessions=parsed)

"""tournaments.selectors: what the ratings read, and the audit log of every state change."""

from __future__ import annotations

import datetime

import pytest
from wagtail.models import ModelLogEntry

from tests.tournaments.fixtures import session_payload
from tournaments import services
from tournaments.rules.results_files import parse_results_json
from tournaments.selectors import TableOutcome, confirmed_table_results, tournament_standings

pytestmark = pytest.mark.django_db


def test_confirmed_table_results_lists_confirmed_tournaments_only(make_tournament):
    make_tournament("results submitted", players=16)
    older = make_tournament("results confirmed", players=16,
                            start_date=datetime.date(2025, 3, 1),
                            end_date=datetime.date(2025, 3, 2))
    newer = make_tournament("results confirmed", players=16)
    outcomes = confirmed_table_results()
    assert {o.tournament_id for o in outcomes} == {older.pk, newer.pk}
    assert len(outcomes) == 2 * 6 * 4  # tournaments x sessions x tables
    assert outcomes[0].tournament_id == older.pk
    assert outcomes == sorted(outcomes, key=lambda o: (o.end_date, o.tournament_id, o.session,
                                                       o.table))
    first = outcomes[0]
    assert isinstance(first, TableOutcome) and len(first.seats) == 4
    assert [points for _player, points in first.seats] == [30, 10, -10, -30]
    assert [o.tournament_id for o in confirmed_table_results(
        since=datetime.date(2026, 1, 1))] == [newer.pk] * 24


def test_confirmed_table_results_show_the_corrected_values(make_tournament, officer):
    t = make_tournament("results confirmed", players=16)
    sessions, _ = parse_results_json(
        {"sessions": [session_payload(t, 3, points=(60, 0, -20, -40))]})
    services.tournament_correct(tournament=t, user=officer, sessions=sessions,
                                reason="scores swapped")
    third = [o for o in confirmed_table_results() if o.session == 3]
    assert [p for _player, p in third[0].seats] == [60, 0, -20, -40]


def test_every_state_change_is_in_the_audit_log(make_tournament, organizer, officer):
    t = make_tournament("results confirmed", players=16)
    actions = list(ModelLogEntry.objects.filter(object_id=str(t.pk)).order_by("timestamp")
                   .values_list("action", "user_id"))
    names = [a for a, _ in actions]
    for expected in ("tournaments.tournament.create", "tournaments.tournament.players",
                     "tournaments.tournament.submit", "tournaments.tournament.accredit",
                     "tournaments.tournament.results", "tournaments.tournament.confirm"):
        assert expected in names
    assert ("tournaments.tournament.accredit", officer.pk) in actions
    assert list(t.decisions.values_list("action", flat=True)) == ["submit", "accredit",
                                                                  "confirm"]


def test_standings_of_a_tournament_without_results_are_zeros(make_tournament):
    t = make_tournament("accredited", players=16)
    rows = tournament_standings(t)
    assert len(rows) == 16 and {r.rank for r in rows} == {1}
    assert {(r.table_points, r.game_points, r.penalties) for r in rows} == {(0, 0, 0)}

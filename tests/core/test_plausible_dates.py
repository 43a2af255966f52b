"""Implausible dates (issue 22, item 2; docs/reliability.md): every date a person enters has
a plausible window (core/dates.py), a rating period is never created in the future, and
the list shown by default is the latest period that has ended."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.core.exceptions import ValidationError

from core.rules.date_windows import window
from federation.models import Member, Payment
from federation.rules import bank_statement
from ratings.models import RatingPeriod
from ratings.rules.method import period_label, period_of
from ratings.selectors import latest_period_with_results
from ratings.services import ratings_recompute
from tests.tournaments.confirmed_results import confirmed_tournament, players
from tournaments.forms import TournamentForm
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

NEW = {
    "name": "Dutch Open", "start_date": "2026-06-06", "end_date": "2026-06-07",
    "city": "Utrecht", "country": "nl", "ruleset": "mcr", "sessions": 7,
    "planned_players": 20,
}
IMPLAUSIBLE = ["9999-12-31", "0001-01-01"]


@pytest.mark.parametrize("day", IMPLAUSIBLE)
def test_the_api_refuses_an_implausible_tournament_date(api, day):
    response = api["organizer"].post("/api/v1/tournaments",
                                     {**NEW, "start_date": day, "end_date": day}, format="json")
    assert response.status_code == 400
    errors = {(e["field"], e["code"]) for e in response.json()["errors"]}
    assert ("start_date", "implausible_date") in errors
    assert ("end_date", "implausible_date") in errors
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("day", IMPLAUSIBLE)
def test_the_tournament_form_refuses_an_implausible_date(day):
    form = TournamentForm(data={**NEW, "country": "NL", "start_date": day, "end_date": day,
                                "session_minutes": 150, "currency": "EUR"})
    assert not form.is_valid()
    codes = {e.code for e in form.errors.as_data()["start_date"]}
    assert codes == {"implausible_date"}


@pytest.mark.parametrize("day", [date(9999, 12, 31), date(1, 1, 1),
                                 date.today() + timedelta(days=1)])
def test_a_date_of_birth_is_in_the_past(day):
    with pytest.raises(ValidationError) as err:
        Member._meta.get_field("date_of_birth").clean(day, None)
    assert [e.code for e in err.value.error_list] == ["implausible_date"]


@pytest.mark.parametrize("day", [date(9999, 12, 31), date(1, 1, 1)])
def test_a_payment_date_is_plausible(day):
    with pytest.raises(ValidationError) as err:
        Payment._meta.get_field("paid_on").clean(day, None)
    assert [e.code for e in err.value.error_list] == ["implausible_date"]
    assert Payment._meta.get_field("paid_on").clean(date.today(), None) == date.today()


@pytest.mark.parametrize("day", IMPLAUSIBLE)
def test_a_bank_line_with_an_implausible_date(day):
    text = f"date,amount,reference,transaction_id\n{day},60.00,Dues 2026-00001,TX-1\n"
    statement = bank_statement.parse_statement(text.encode())
    assert not statement.rows
    assert [(e.line, e.code) for e in statement.errors] == [(2, bank_statement.E_IMPLAUSIBLE_DATE)]


def test_the_window_of_each_kind():
    today = date(2026, 11, 26)
    assert window("tournament", today)[0] == date(1990, 1, 1)
    assert window("tournament", today)[1] > today
    assert window("birth", today)[1] == today
    assert window("payment", today)[1] == today + timedelta(days=1)


def test_no_rating_period_in_the_future_and_the_default_list_has_ended():
    """Results dated 9999-12-31 and 0001-01-01 (written before the window existed) create
    no period after the current month nor thousands before 1990."""
    people = players(8)
    confirmed_tournament(people, date(9999, 12, 31), sessions=1, seed=1)
    confirmed_tournament(people, date(1, 1, 2), sessions=1, seed=2)
    last_month = date.today().replace(day=1) - timedelta(days=1)
    confirmed_tournament(people, last_month, sessions=1, seed=3)
    confirmed_tournament(people, date.today(), sessions=1, seed=4)
    ratings_recompute()
    periods = list(RatingPeriod.objects.values_list("period", flat=True))
    current = period_label(period_of(date.today()))
    assert max(periods) == current
    assert min(periods) >= "1990-01"
    assert latest_period_with_results() == period_label(period_of(last_month))

"""The session clock (issue 23): started and paused by the organizer, extra minutes per
table, shown on a screen at the venue."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from tournaments import selectors, services
from tournaments.models import SessionClock
from tournaments.rules.clock_time import seconds_left, seconds_run

T0 = datetime.datetime(2026, 5, 2, 10, 0, tzinfo=datetime.UTC)


def test_seconds_left_runs_pauses_and_adds_extra_minutes():
    assert seconds_left(150, 0, None, T0) == 9000
    assert seconds_left(150, 0, T0, T0 + datetime.timedelta(minutes=10)) == 8400
    assert seconds_run(600, T0, T0 + datetime.timedelta(seconds=30)) == 630
    assert seconds_left(150, 600, None, T0, extra_minutes=5) == 9000 + 300 - 600
    assert seconds_left(1, 0, T0, T0 + datetime.timedelta(hours=1)) == 0


@pytest.fixture
def seated(make_tournament, organizer):
    tournament = make_tournament("accredited", players=8)
    services.seating_draw(tournament=tournament, user=organizer, seed=1)
    return tournament


@pytest.mark.django_db
def test_start_pause_and_extra_minutes(seated, organizer):
    view = selectors.session_clock(seated, 1)
    assert (view.running, view.started, view.left) == (False, False, 150 * 60)
    clock = services.session_clock_start(tournament=seated, session=1, user=organizer)
    clock.started_at = timezone.now() - datetime.timedelta(minutes=20)
    clock.save()
    services.session_clock_pause(tournament=seated, session=1, user=organizer)
    clock = SessionClock.objects.get(tournament=seated, session=1)
    assert clock.started_at is None and 1199 <= clock.elapsed <= 1201
    services.session_clock_extra(tournament=seated, session=1, table=2, minutes=7,
                                 user=organizer)
    view = selectors.session_clock(seated, 1)
    assert view.started and not view.running
    assert view.tables == ((2, 7, view.left + 7 * 60),)
    services.session_clock_extra(tournament=seated, session=1, table=2, minutes=0,
                                 user=organizer)
    assert selectors.session_clock(seated, 1).tables == ()
    with pytest.raises(services.TournamentError):
        services.session_clock_extra(tournament=seated, session=1, table=9, minutes=5,
                                     user=organizer)
    with pytest.raises(services.TournamentError):
        services.session_clock_extra(tournament=seated, session=1, table=1, minutes=61,
                                     user=organizer)


@pytest.mark.django_db
def test_clock_refused_before_accreditation(make_tournament, organizer):
    tournament = make_tournament("draft", players=8)
    with pytest.raises(services.TournamentError):
        services.session_clock_start(tournament=tournament, session=1, user=organizer)


def _url(name, *args):
    with translation.override("en"):
        return reverse(name, args=args)


@pytest.mark.django_db
@pytest.mark.parametrize("who, status", [
    ("anonymous", 302), ("member", 403), ("other", 403), ("organizer", 302), ("officer", 302),
])
def test_only_the_organizer_or_an_officer_runs_the_clock(client, seated, who, status,
                                                          organizer, other_organizer,
                                                          officer, member_user):
    users = {"member": member_user, "other": other_organizer, "organizer": organizer,
             "officer": officer}
    if who in users:
        client.force_login(users[who])
    answer = client.post(_url("tournaments:session", seated.pk, 1), {"action": "clock_start"})
    assert answer.status_code == status
    started = SessionClock.objects.filter(tournament=seated, started_at__isnull=False)
    assert started.exists() == (who in ("organizer", "officer"))


@pytest.mark.django_db
def test_the_screen_is_public_once_accredited_and_shows_the_clock(client, seated, organizer,
                                                                  make_tournament):
    services.session_clock_start(tournament=seated, session=1, user=organizer)
    services.session_clock_extra(tournament=seated, session=1, table=1, minutes=5,
                                 user=organizer)
    page = client.get(_url("tournaments:clock", seated.pk, 1)).content.decode()
    assert "Session 1" in page and "Playing" in page and "Table 1 (+5 min)" in page
    assert 'data-running="1"' in page and "clock.js" in page
    ru = client.get(f"/ru/tournaments/{seated.pk}/sessions/1/clock/").content.decode()
    assert 'lang="ru"' in ru
    assert client.get(_url("tournaments:clock", seated.pk, 9)).status_code == 404
    draft = make_tournament("draft", players=8)
    assert client.get(_url("tournaments:clock", draft.pk, 1)).status_code == 404

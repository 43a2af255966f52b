"""How far a tournament has come, as its pages say it: a tournament with some sessions
entered shows publicly as in progress (its state is still "results submitted"); a confirmed
tournament's manage page does not ask for accreditation."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.tournaments.fixtures import record_all_sessions
from tournaments import services

pytestmark = pytest.mark.django_db


def test_two_of_six_sessions_show_in_progress_until_every_session_is_in(make_tournament):
    t = make_tournament("accredited", players=16)
    services.seating_draw(tournament=t, user=t.organizer, seed=1)
    record_all_sessions(t, t.organizer, sessions=2)
    t.refresh_from_db()
    assert t.state == "results submitted"  # the state machine is unchanged
    anonymous = Client()
    for path in (f"/en/tournaments/{t.pk}/", f"/en/tournaments/{t.pk}/standings/",
                 "/en/tournaments/"):
        page = anonymous.get(path).content.decode()
        assert "In progress" in page, path
        assert "Results submitted" not in page, path
    record_all_sessions(t, t.organizer)
    page = anonymous.get(f"/en/tournaments/{t.pk}/").content.decode()
    assert "Results submitted" in page and "In progress" not in page


def test_confirmed_tournament_manage_page_does_not_ask_for_accreditation(make_tournament):
    t = make_tournament("results confirmed", players=16)
    client = Client()
    client.force_login(t.organizer)
    page = client.get(f"/en/tournaments/{t.pk}/manage/").content.decode()
    assert "once the tournament is accredited" not in page
    assert "The results are confirmed." in page

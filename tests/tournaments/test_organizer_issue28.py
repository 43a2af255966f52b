"""Issue 28, organizers: a name that disagrees with the member number is an error naming the
row and field; registering someone again says "already registered"; a tournament with some
sessions entered shows publicly as in progress; a confirmed tournament's manage page does
not ask for accreditation."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from tests.tournaments.fixtures import record_all_sessions
from tournaments import services
from tournaments.errors import E_MEMBER_UNKNOWN
from tournaments.problem_texts import problem_message

pytestmark = pytest.mark.django_db


@pytest.fixture
def member_13(db):
    from federation.models import Member, MembershipType

    regular, _ = MembershipType.objects.get_or_create(kind="regular")
    return Member.objects.create(name_native="Анна Ли", name_latin="Anna Lee",
                                 membership_number=13, country="RU", membership_type=regular)


def test_name_and_member_number_that_disagree_are_an_error(make_tournament, member_13):
    t = make_tournament("draft")
    with pytest.raises(services.ResultsError) as error:
        services.players_register(tournament=t, user=t.organizer, entries=[
            services.PlayerEntry(name="Totally Different", country="RU", member_number=13),
        ])
    (problem,) = error.value.problems
    # the same answer as for a number nobody has (decision 0901)
    assert (problem.code, problem.row, problem.field) == (E_MEMBER_UNKNOWN, 1, "member_number")
    with translation.override("en"):
        message = problem_message(problem)
    assert "13" in message and "name or date of birth" in message and "Anna" not in message
    assert not t.registrations.exists()
    # the member's own names, in any order or with an initial, agree
    regs = services.players_register(tournament=t, user=t.organizer, entries=[
        services.PlayerEntry(name="Lee, Anna", country="RU", member_number=13),
    ])
    assert regs[0].player.member == member_13
    for name in ("A. Lee", "Анна Ли", "anna lee"):
        services.players_register(tournament=t, user=t.organizer, entries=[
            services.PlayerEntry(name=name, country="RU", member_number=13)])
    assert t.registrations.count() == 1


def test_players_page_says_when_name_and_number_disagree_and_already_registered(
    make_tournament, member_13
):
    t = make_tournament("draft")
    client = Client()
    client.force_login(t.organizer)
    url = f"/en/tournaments/{t.pk}/players/"
    page = client.post(url, {"name": "Totally Different", "country": "RU",
                             "member_number": "13"}, follow=True).content.decode()
    assert "No member with the number 13 has this name or date of birth" in page
    assert "The player is registered" not in page
    page = client.post(url, {"name": "Anna Lee", "country": "RU", "member_number": "13"},
                       follow=True).content.decode()
    assert "The player is registered." in page
    page = client.post(url, {"name": "Anna Lee", "country": "RU", "member_number": "13"},
                       follow=True).content.decode()
    assert "already registered" in page
    assert "The player is registered." not in page
    assert t.registrations.count() == 1


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

"""Issue 22, item 11: a member number is no key to a member's name. Matching a player by
member number needs the member's name or date of birth to agree; when it does not, the
answer is the same as for a number nobody has, names nobody, and creates nothing. A name
that disagrees is an error naming the row and field; registering someone again says
"already registered".

Since issue 37, item 2, a row naming a member number waits for the organizer's
confirmation (the same answer for any pairing); the matching below happens then."""

from __future__ import annotations

from datetime import date

import pytest
from django.test import Client
from django.utils import translation

from federation.models import Member, MembershipType
from tournaments import services
from tournaments.errors import E_MEMBER_UNKNOWN
from tournaments.models import Player, Registration
from tournaments.problem_texts import problem_message

pytestmark = pytest.mark.django_db

SECRET_NAMES = ("Anna", "Lee", "Анна", "Ли")


@pytest.fixture
def unlisted_member(db):
    regular, _ = MembershipType.objects.get_or_create(kind="regular")
    return Member.objects.create(
        name_native="Анна Ли", name_latin="Anna Lee", membership_number=13, country="RU",
        membership_type=regular, date_of_birth=date(1990, 5, 17), public_consent=False)


def _post(api, t, row):
    """The row posted, then confirmed: the confirmation's answer."""
    url = f"/api/v1/tournaments/{t.pk}/players"
    posted = api["organizer"].post(url, [row], format="json")
    assert posted.status_code == 200 and posted.json()[0]["status"] == "pending"
    return api["organizer"].post(f"{url}/pending/confirm",
                                 {"pending": [posted.json()[0]["pending"]]}, format="json")


def _confirm_on_page(client, t, row):
    """The row entered on the manage page, then confirmed there: the page after both."""
    client.post(f"/en/tournaments/{t.pk}/players/", row)
    pending = t.pending_registrations.order_by("pk").last()
    return client.post(f"/en/tournaments/{t.pk}/players/pending/confirm/",
                       {"pending": pending.pk}, follow=True).content.decode()


def _nothing_revealed(text: str) -> None:
    for name in SECRET_NAMES:
        assert name not in text


def test_api_wrong_name_answers_as_for_a_number_nobody_has(api, make_tournament,
                                                           unlisted_member):
    t = make_tournament("draft")
    players_before = Player.objects.count()
    wrong = _post(api, t, {"name": "Guess Who", "country": "RU", "member_number": 13})
    nobody = _post(api, t, {"name": "Guess Who", "country": "RU", "member_number": 14})
    wrong_dob = _post(api, t, {"name": "Guess Who", "country": "RU", "member_number": 13,
                               "date_of_birth": "1990-05-18"})
    assert wrong.status_code == nobody.status_code == wrong_dob.status_code == 400
    [error] = wrong.json()["errors"]
    assert (error["field"], error["code"]) == ("member_number", "member_unknown")

    def same(response):  # type: ignore[no-untyped-def]
        [item] = response.json()["errors"]
        return {**item, "pending": "#", "message": item["message"].replace(
            "13", "#").replace("14", "#")}

    # the same answer, the number and the waiting row apart
    assert same(wrong) == same(nobody) == same(wrong_dob)
    _nothing_revealed(wrong.content.decode())
    assert Player.objects.count() == players_before
    assert not Registration.objects.filter(tournament=t).exists()


def test_api_name_or_date_of_birth_agreeing_matches_the_member(api, make_tournament,
                                                               unlisted_member):
    t = make_tournament("draft")
    by_name = _post(api, t, {"name": "Lee, A.", "country": "RU", "member_number": 13})
    assert by_name.status_code in (200, 201), by_name.content
    player = Player.objects.get(member=unlisted_member)
    t2 = make_tournament("draft")
    by_birth = _post(api, t2, {"name": "Ann Li", "country": "RU", "member_number": 13,
                               "date_of_birth": "1990-05-17"})
    assert by_birth.status_code in (200, 201), by_birth.content
    assert Registration.objects.get(tournament=t2).player == player


def test_an_erased_member_is_not_matched(api, make_tournament, unlisted_member):
    Member.objects.filter(pk=unlisted_member.pk).update(anonymised_at="2025-01-01T00:00Z")
    t = make_tournament("draft")
    response = _post(api, t, {"name": "Anna Lee", "country": "RU", "member_number": 13})
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "member_unknown"
    assert not Player.objects.filter(member=unlisted_member).exists()


def test_other_organizers_and_members_cannot_register_at_all(api, make_tournament,
                                                             unlisted_member):
    t = make_tournament("draft")
    for role in ("anonymous", "member", "other"):
        response = api[role].post(f"/api/v1/tournaments/{t.pk}/players",
                                  [{"name": "X", "country": "RU", "member_number": 13}],
                                  format="json")
        assert response.status_code in (401, 403, 404), role
        _nothing_revealed(response.content.decode())
    assert not Player.objects.filter(member=unlisted_member).exists()


def test_page_wrong_name_reveals_nothing_and_date_of_birth_matches(make_tournament,
                                                                   unlisted_member):
    t = make_tournament("draft")
    client = Client()
    client.force_login(t.organizer)
    wrong = _confirm_on_page(client, t, {"name": "Guess Who", "country": "RU",
                                         "member_number": "13"})
    nobody = _confirm_on_page(client, t, {"name": "Guess Who", "country": "RU",
                                          "member_number": "14"})
    assert "No member with the number 13 has this name or date of birth" in wrong
    assert "No member with the number 14 has this name or date of birth" in nobody
    _nothing_revealed(wrong)
    assert not Player.objects.filter(member=unlisted_member).exists()
    assert not t.registrations.exists()
    page = _confirm_on_page(client, t, {"name": "Ann Li", "country": "RU",
                                        "member_number": "13", "date_of_birth": "1990-05-17"})
    assert "1 player is registered." in page
    assert t.registrations.get().player.member == unlisted_member


@pytest.fixture
def member_13(db):
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
    page = _confirm_on_page(client, t, {"name": "Totally Different", "country": "RU",
                                        "member_number": "13"})
    assert "No member with the number 13 has this name or date of birth" in page
    assert "player is registered" not in page
    assert not t.registrations.exists()
    client.post(f"/en/tournaments/{t.pk}/players/pending/{t.pending_registrations.get().pk}"
                "/remove/")
    page = _confirm_on_page(client, t, {"name": "Anna Lee", "country": "RU",
                                        "member_number": "13"})
    assert "1 player is registered." in page
    page = _confirm_on_page(client, t, {"name": "Anna Lee", "country": "RU",
                                        "member_number": "13"})
    assert "1 player is registered." in page  # the registration there is already
    assert t.registrations.count() == 1 and not t.pending_registrations.exists()

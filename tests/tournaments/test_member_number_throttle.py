"""Issue 37, item 2: registering players by member number is rate-limited per organizer.

One call with 120 rows (numbers 1-10 x 12 surnames) told which numbers were members. Each
row naming a member number now uses one lookup of the organizer's budget
(``API_MEMBER_LOOKUP_RATE``, default 1,000 a day), when it is posted and when it is
confirmed (tests/tournaments/test_member_number_pending.py); past it, such a call is
answered 429 and nothing is registered. Rows without a member number (guests) use none.
"""

from __future__ import annotations

from datetime import date

import pytest

from federation.models import Member, MembershipType
from tournaments.models import Registration

pytestmark = pytest.mark.django_db


@pytest.fixture
def member(db):
    regular, _ = MembershipType.objects.get_or_create(kind="regular")
    return Member.objects.create(
        name_native="Анна Ли", name_latin="Anna Lee", membership_number=13, country="RU",
        membership_type=regular, date_of_birth=date(1990, 5, 17), public_consent=False)


def _rows(numbers, surname="Guess"):  # type: ignore[no-untyped-def]
    return [{"name": surname, "country": "RU", "member_number": n} for n in numbers]


def test_member_number_lookups_are_limited_per_organizer(api, make_tournament, member,
                                                         settings, other_organizer):
    settings.API_MEMBER_LOOKUP_RATE = "12/hour"
    t = make_tournament("draft")
    url = f"/api/v1/tournaments/{t.pk}/players"
    organizer = api["organizer"]
    # rows naming member numbers wait for the organizer's confirmation (any pairing)
    assert organizer.post(url, _rows(range(1, 11)), format="json").status_code == 200
    assert organizer.post(url, _rows([1, 2]), format="json").status_code == 200  # 12 used
    refused = organizer.post(url, _rows([13], "Lee"), format="json")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert refused.json()["errors"][0]["code"] == "throttled"
    assert not Registration.objects.filter(tournament=t).exists()
    assert t.pending_registrations.count() == 10  # rows 1 and 2 were posted twice
    # guests need no lookup; the list is read as before
    guest = organizer.post(url, [{"name": "Guest One", "country": "RU"}], format="json")
    assert guest.status_code == 200
    assert organizer.get(url).status_code == 200
    # another organizer has a budget of their own
    theirs = make_tournament("draft", owner=other_organizer)
    theirs_url = f"/api/v1/tournaments/{theirs.pk}/players"
    assert api["other"].post(theirs_url, _rows([13], "Lee"), format="json").status_code == 200
    assert api["other"].post(theirs_url + "/pending/confirm", {},
                             format="json").status_code == 200
    assert theirs.registrations.get().player.member == member


def test_a_call_larger_than_the_budget_is_refused_whole(api, make_tournament, member,
                                                        settings):
    settings.API_MEMBER_LOOKUP_RATE = "100/day"
    t = make_tournament("draft")
    many = _rows(range(1, 121))  # the probe's 120 rows
    response = api["organizer"].post(f"/api/v1/tournaments/{t.pk}/players", many,
                                     format="json")
    assert response.status_code == 429
    assert "Anna" not in response.content.decode()


def test_the_players_form_shares_the_organizers_budget(api, make_tournament, member,
                                                       settings):
    from django.test import Client

    settings.API_MEMBER_LOOKUP_RATE = "3/hour"
    t = make_tournament("draft")
    client = Client()
    client.force_login(t.organizer)
    url = f"/en/tournaments/{t.pk}/players/"
    for number in (1, 2):
        page = client.post(url, {"name": "Guess", "country": "RU", "member_number": number},
                           follow=True).content.decode()
        assert f"The row with member number {number} waits for your confirmation" in page
    # the API used the third lookup: the form is refused too, even for the right pairing
    api["organizer"].post(f"/api/v1/tournaments/{t.pk}/players", _rows([3]), format="json")
    page = client.post(url, {"name": "Lee", "country": "RU", "member_number": 13},
                       follow=True).content.decode()
    assert "Too many member numbers were looked up; try again later." in page
    assert "Anna" not in page and not Registration.objects.filter(tournament=t).exists()
    page = client.post(f"/en/tournaments/{t.pk}/players/pending/confirm/",
                       follow=True).content.decode()
    assert "Too many member numbers were looked up; try again later." in page
    assert not Registration.objects.filter(tournament=t).exists()
    # a guest needs no lookup
    page = client.post(url, {"name": "Guest One", "country": "RU"}, follow=True)
    assert Registration.objects.filter(tournament=t).count() == 1

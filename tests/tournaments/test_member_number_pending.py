"""Issue 37, item 2: member numbers cannot be enumerated through the players endpoint.

The probe posted 120 rows (member numbers 1-10 x 12 surnames) to
``POST /api/v1/tournaments/{id}/players``: 110 rows were answered with an error and the 10
without one were exactly the members, non-public ones included; a surname alone gave back
the member's full name. A row naming a member number now waits, as it was given, for the
organizer's confirmation (``players/pending``, ``players/pending/confirm``): its answer is
the same whether the number and the name belong together or not, and only the organizer's
confirmation matches it, registers the member and names them (decision 0909).
"""

from __future__ import annotations

from datetime import date

import pytest
from django.test import Client

from federation.models import Member, MembershipType
from tournaments.models import PendingRegistration, Player, Registration

pytestmark = pytest.mark.django_db

SURNAMES = ("Lee", "Ivanova", "Smith", "Jansen", "Dubois", "Wang", "Petrov", "Sokolov",
            "Müller", "Rossi", "Kim", "Novak")
FIRST_NAMES = ("Anna", "Maria", "John", "Jan", "Claire", "Wei", "Pyotr", "Ivan", "Hans",
               "Luca")


@pytest.fixture
def members(db):
    """Members 1-10, each with one of the first ten surnames; the odd ones not public."""
    regular, _ = MembershipType.objects.get_or_create(kind="regular")
    return [Member.objects.create(
        name_latin=f"{FIRST_NAMES[n - 1]} {SURNAMES[n - 1]}", name_native="",
        membership_number=n, country="RU", membership_type=regular,
        date_of_birth=date(1980 + n, 1, n), public_consent=n % 2 == 0)
        for n in range(1, 11)]


def _probe_rows() -> list[dict]:
    return [{"name": surname, "country": "RU", "member_number": number}
            for number in range(1, 11) for surname in SURNAMES]


def _url(t, tail: str = "") -> str:
    return f"/api/v1/tournaments/{t.pk}/players{tail}"


def _without_ids(answer: list[dict]) -> list[dict]:
    return [{key: value for key, value in row.items() if key != "pending"} for row in answer]


def test_the_probes_120_rows_are_answered_alike_right_pairing_or_wrong(
        api, make_tournament, members):
    t = make_tournament("draft")
    rows = _probe_rows()
    response = api["organizer"].post(_url(t), rows, format="json")
    assert response.status_code == 200, response.content
    answer = response.json()
    assert len(answer) == 120
    # each row's answer is the row as given, whatever the members: the 10 right pairings
    # (number n with the n-th surname) look like the 110 wrong ones
    for row, given in zip(answer, rows, strict=True):
        assert row == {
            "status": "pending", "pending": row["pending"], "id": None, "number": None,
            "name": given["name"], "country": "RU", "member_number": given["member_number"],
            "date_of_birth": None, "ema_number": "", "team": "", "substitute": False,
            "withdrawn_from": None, "withdrawal_reason": "",
        }
    text = response.content.decode()
    for member in members:
        assert member.name_latin not in text and member.name_latin.split()[0] + '"' not in text
    # nothing matched, created or registered; the rows wait
    assert not Player.objects.exists() and not Registration.objects.exists()
    assert PendingRegistration.objects.filter(tournament=t).count() == 120

    # the same probe where nobody has these numbers gets the same answer, byte for byte
    # once the waiting rows' ids are left out: the answer says nothing of the members
    Member.objects.update(membership_number=None)
    t2 = make_tournament("draft")
    nobody = api["organizer"].post(_url(t2), rows, format="json")
    assert nobody.status_code == response.status_code
    assert _without_ids(nobody.json()) == _without_ids(answer)


def test_a_surname_alone_shows_no_full_name_nor_a_non_public_member(api, make_tournament,
                                                                    members):
    t = make_tournament("draft")
    # member 1, Anna Lee, is not public
    response = api["organizer"].post(_url(t), [
        {"name": "Lee", "country": "RU", "member_number": 1}], format="json")
    assert response.status_code == 200
    assert response.json()[0]["name"] == "Lee"
    assert "Anna" not in response.content.decode()
    waiting = api["organizer"].get(_url(t, "/pending"))
    assert [row["name"] for row in waiting.json()] == ["Lee"]
    assert "Anna" not in waiting.content.decode()
    # the public list of players shows no waiting row
    listed = api["anonymous"].get(_url(t))
    assert listed.status_code in (200, 404) and "Lee" not in listed.content.decode()


def test_the_same_row_posted_again_waits_once(api, make_tournament, members):
    t = make_tournament("draft")
    row = {"name": "Lee", "country": "RU", "member_number": 1}
    first = api["organizer"].post(_url(t), [row, row], format="json").json()
    again = api["organizer"].post(_url(t), [row], format="json").json()
    assert first[0]["pending"] == first[1]["pending"] == again[0]["pending"]
    assert PendingRegistration.objects.count() == 1


def test_rows_with_member_numbers_still_get_the_errors_of_their_own_fields(
        api, make_tournament, members):
    """What a row says by itself is checked at once (the same for everyone): the country,
    the EMA number's form; nothing is kept when a row is wrong."""
    t = make_tournament("draft")
    response = api["organizer"].post(_url(t), [
        {"name": "Lee", "country": "XX", "member_number": 1},
        {"name": "Lee", "country": "RU", "member_number": 1, "ema_number": "12"},
        {"name": "Guest", "country": "RU"},
    ], format="json")
    assert response.status_code == 400
    assert [(e["row"], e["field"]) for e in response.json()["errors"]] == [
        (1, "country"), (2, "ema_number")]
    assert not PendingRegistration.objects.exists() and not Registration.objects.exists()


def test_the_organizer_confirms_a_right_pairing_and_the_member_is_registered(
        api, make_tournament, members):
    t = make_tournament("draft")
    api["organizer"].post(_url(t), [
        {"name": "Guest One", "country": "NL"},
        {"name": "Lee", "country": "RU", "member_number": 1},
        {"name": "Anything", "country": "RU", "member_number": 2,
         "date_of_birth": "1982-01-02"},
    ], format="json")
    assert t.registrations.count() == 1  # the guest
    response = api["organizer"].post(_url(t, "/pending/confirm"), {}, format="json")
    assert response.status_code == 200, response.content
    confirmed = response.json()
    # now, and to the organizer, the members are named
    assert [(r["status"], r["name"], r["member_number"]) for r in confirmed] == [
        ("registered", "Anna Lee", 1), ("registered", "Maria Ivanova", 2)]
    assert {r.player.member for r in t.registrations.exclude(player__member=None)} == {
        members[0], members[1]}
    assert not PendingRegistration.objects.exists()
    assert api["organizer"].get(_url(t, "/pending")).json() == []


def test_a_wrong_pairing_is_said_at_confirmation_and_nothing_changes(api, make_tournament,
                                                                     members):
    t = make_tournament("draft")
    answer = api["organizer"].post(_url(t), [
        {"name": "Lee", "country": "RU", "member_number": 1},
        {"name": "Smith", "country": "RU", "member_number": 1},
        {"name": "Lee", "country": "RU", "member_number": 77},
    ], format="json").json()
    right, wrong, nobody = (row["pending"] for row in answer)
    response = api["organizer"].post(_url(t, "/pending/confirm"), {}, format="json")
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert [(e["pending"], e["field"], e["code"]) for e in errors] == [
        (wrong, "member_number", "member_unknown"), (nobody, "member_number", "member_unknown")]
    assert " 1 " in errors[0]["message"]  # the number, in the caller's language
    assert "Anna" not in response.content.decode()
    assert not t.registrations.exists() and PendingRegistration.objects.count() == 3
    # the organizer drops the wrong rows and confirms the right one
    for pending in (wrong, nobody):
        assert api["organizer"].delete(_url(t, f"/pending/{pending}")).status_code == 204
    response = api["organizer"].post(_url(t, "/pending/confirm"), {"pending": [right]},
                                     format="json")
    assert response.status_code == 200
    assert t.registrations.get().player.member == members[0]


def test_confirming_a_member_already_registered_returns_the_registration(
        api, make_tournament, members):
    t = make_tournament("draft")
    for name in ("Lee", "A. Lee"):
        api["organizer"].post(_url(t), [{"name": name, "country": "RU", "member_number": 1}],
                              format="json")
    response = api["organizer"].post(_url(t, "/pending/confirm"), {}, format="json")
    assert response.status_code == 200
    first, second = response.json()
    assert first["id"] == second["id"] and t.registrations.count() == 1


def test_unknown_waiting_rows_are_an_error_naming_them(api, make_tournament, members):
    t = make_tournament("draft")
    response = api["organizer"].post(_url(t, "/pending/confirm"), {"pending": [12345]},
                                     format="json")
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert (error["field"], error["code"], error["pending"]) == ("pending", "not_found", 12345)
    bad = api["organizer"].post(_url(t, "/pending/confirm"), {"pending": ["x"]},
                                format="json")
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "pending"
    assert api["organizer"].delete(_url(t, "/pending/12345")).status_code == 404


def test_only_the_organizer_sees_confirms_or_removes_waiting_rows(api, make_tournament,
                                                                  members):
    t = make_tournament("draft")
    [row] = api["organizer"].post(_url(t), [
        {"name": "Lee", "country": "RU", "member_number": 1}], format="json").json()
    for role in ("anonymous", "member", "other", "officer"):
        for response in (
            api[role].get(_url(t, "/pending")),
            api[role].post(_url(t, "/pending/confirm"), {}, format="json"),
            api[role].delete(_url(t, f"/pending/{row['pending']}")),
        ):
            assert response.status_code in (401, 403, 404), (role, response.status_code)
            assert "Lee" not in response.content.decode()
    assert PendingRegistration.objects.count() == 1 and not Registration.objects.exists()


def test_confirming_uses_the_organizers_member_number_budget(api, make_tournament, members,
                                                             settings):
    settings.API_MEMBER_LOOKUP_RATE = "3/hour"
    t = make_tournament("draft")
    api["organizer"].post(_url(t), [
        {"name": "Lee", "country": "RU", "member_number": 1},
        {"name": "Ivanova", "country": "RU", "member_number": 2}], format="json")
    refused = api["organizer"].post(_url(t, "/pending/confirm"), {}, format="json")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert not Registration.objects.exists() and PendingRegistration.objects.count() == 2


def test_the_page_keeps_member_rows_waiting_and_the_organizer_confirms_them(
        make_tournament, members, other_organizer):
    t = make_tournament("draft")
    client = Client()
    client.force_login(t.organizer)
    url = f"/en/tournaments/{t.pk}/players/"
    right = client.post(url, {"name": "Lee", "country": "RU", "member_number": "1"},
                        follow=True).content.decode()
    wrong = client.post(url, {"name": "Jansen", "country": "RU", "member_number": "3"},
                        follow=True).content.decode()
    for page, number in ((right, 1), (wrong, 3)):
        assert (f"The row with member number {number} waits for your confirmation below."
                in page)
        assert "Anna" not in page and "John" not in page
    assert "Waiting for your confirmation" in wrong
    assert not t.registrations.exists()
    wrong_row = PendingRegistration.objects.get(member_number=3)
    right_row = PendingRegistration.objects.get(member_number=1)
    confirm = f"/en/tournaments/{t.pk}/players/pending/confirm/"
    page = client.post(confirm, {"pending": wrong_row.pk}, follow=True).content.decode()
    assert "No member with the number 3 has this name or date of birth" in page
    assert not t.registrations.exists()
    page = client.post(confirm, {"pending": right_row.pk}, follow=True).content.decode()
    assert "1 player is registered." in page and "Anna Lee" in page
    assert t.registrations.get().player.member == members[0]
    page = client.post(f"/en/tournaments/{t.pk}/players/pending/{wrong_row.pk}/remove/",
                       follow=True).content.decode()
    assert "The row with member number 3 is removed." in page
    assert not PendingRegistration.objects.exists()
    # another organizer cannot see, confirm or remove waiting rows
    client.post(url, {"name": "Lee", "country": "RU", "member_number": "1"})
    waiting = PendingRegistration.objects.get()
    other = Client()
    other.force_login(other_organizer)
    assert other.get(f"/en/tournaments/{t.pk}/manage/").status_code in (403, 404)
    assert other.post(confirm, {"pending": waiting.pk}).status_code in (403, 404)
    assert other.post(f"/en/tournaments/{t.pk}/players/pending/{waiting.pk}/remove/"
                      ).status_code in (403, 404)
    assert PendingRegistration.objects.get() == waiting

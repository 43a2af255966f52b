"""Issue 38 (12): a member whose dues are unpaid is charged the others' fee and is told why
(on the entry form, after entering and in the mail); a withdrawal owed a refund gets a mail;
the treasurer's entry-fees page has a refund-due column."""

from __future__ import annotations

import itertools
from datetime import timedelta
from decimal import Decimal

import pytest
from django.contrib.auth.models import Group
from django.core import mail

from federation import selectors as federation_selectors
from federation.models import Member, MembershipType
from tournaments import services

pytestmark = pytest.mark.django_db

_numbers = itertools.count(9500)


def today():
    return federation_selectors.today()


@pytest.fixture
def tournament(make_tournament):
    return make_tournament("accredited", start_date=today() + timedelta(days=60),
                           end_date=today() + timedelta(days=61), max_players=8,
                           fee_member=Decimal("20.00"), fee_other=Decimal("30.00"),
                           currency="EUR", refund_until=today() + timedelta(days=20))


def _member(user, kind: str) -> Member:
    membership_type, _ = MembershipType.objects.get_or_create(
        kind=kind, defaults={"is_free": kind == "honorary"})
    return Member.objects.create(
        user=user, name_native="Natalia Kovaleva", name_latin="Natalia Kovaleva",
        membership_type=membership_type, application=Member.Application.APPROVED,
        membership_number=next(_numbers), joined_on=today() - timedelta(days=400),
        language="en", email=user.email)


def _enter(client, tournament):
    return client.post(f"/en/tournaments/{tournament.pk}/enter/", {
        "first_name": "Natalia", "last_name": "Kovaleva", "country": "RU"}, follow=True)


WHY = "because your membership dues are not paid"


def test_a_member_owing_dues_is_told_why_the_fee_is_the_others(
        tournament, make_user, client, django_capture_on_commit_callbacks) -> None:
    owing = make_user(email="natalia@example.org", language="en")
    _member(owing, "regular")  # joined last year, nothing paid
    client.force_login(owing)
    form = client.get(f"/en/tournaments/{tournament.pk}/entrants/").content.decode()
    assert 'id="dues-unpaid"' in form
    assert "30.00 EUR instead of 20.00 EUR" in form and "/en/members/me/" in form
    with django_capture_on_commit_callbacks(execute=True):
        page = _enter(client, tournament).content.decode()
    entry = tournament.entries.get()
    assert entry.fee == Decimal("30.00") and entry.member is None
    assert WHY in page  # the confirmation and the own entry's notice
    [received] = mail.outbox
    assert WHY in received.body and "30.00 EUR instead of 20.00 EUR" in received.body


def test_a_member_in_good_standing_and_a_guest_read_no_such_line(
        tournament, make_user, client, django_capture_on_commit_callbacks) -> None:
    member = make_user(email="paid@example.org", language="en")
    _member(member, "honorary")
    guest = make_user(email="guest@example.org", language="en")
    for user in (member, guest):
        client.force_login(user)
        assert 'id="dues-unpaid"' not in client.get(
            f"/en/tournaments/{tournament.pk}/entrants/").content.decode()
        with django_capture_on_commit_callbacks(execute=True):
            assert WHY not in _enter(client, tournament).content.decode()
    assert [e.fee for e in tournament.entries.order_by("pk")] == [Decimal("20.00"),
                                                                  Decimal("30.00")]
    assert len(mail.outbox) == 2 and all(WHY not in m.body for m in mail.outbox)


def test_a_withdrawal_owed_a_refund_is_mailed_and_the_treasurer_sees_it_due(
        tournament, make_user, organizer, client,
        django_capture_on_commit_callbacks) -> None:
    early, late = make_user(language="en"), make_user(language="en")
    entries = [services.entry_create(tournament=tournament, user=user, first_name="Anna",
                                     last_name="Kowalska", country="PL")
               for user in (early, late)]
    for entry in entries:
        services.entry_cash_record(entry=entry, user=organizer)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.entry_withdraw(entry=entries[0], user=early)
    [refund] = mail.outbox
    assert refund.to == [early.email] and tournament.name in refund.subject
    assert "refund of 30.00 EUR" in refund.body
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        services.entry_withdraw(entry=entries[1], user=organizer,
                                today=today() + timedelta(days=21))
    [none] = mail.outbox
    assert "not refunded" in none.body and "refund of" not in none.body

    treasurer = make_user()
    treasurer.groups.add(Group.objects.get(name="Treasurer"))
    client.force_login(treasurer)
    page = client.get("/en/tournaments/entry-fees/").content.decode()
    assert "Refund due" in page
    assert '<td class="num" data-testid="refund-due">30.00 EUR</td>' in page

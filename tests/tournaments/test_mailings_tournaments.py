"""Tournaments in the members' mail (issue 29, decision 0315): the entrants of a tournament
as a mailing's audience, and one announcement to the followers of a country's tournaments
when one is accredited (opens for entries)."""

from __future__ import annotations

import itertools
from datetime import timedelta
from decimal import Decimal

import pytest
from django.core import mail

from federation import mailing_audiences
from federation import selectors as federation_selectors
from federation import services as federation_services
from federation.models import ConsentEvent, Mailing, MailKind, Member, MembershipType
from tournaments import services
from tournaments.announcements import announce_after_accreditation

pytestmark = pytest.mark.django_db

_numbers = itertools.count(7000)


@pytest.fixture
def make_member(make_user):
    """An honorary member (always in good standing) with an account."""

    def make(language="en", follows: str | None = None):
        user = make_user()
        honorary, _ = MembershipType.objects.get_or_create(
            kind="honorary", defaults={"is_free": True})
        member = Member.objects.create(
            user=user, name_native="Anna Kowalska", name_latin="Anna Kowalska",
            membership_type=honorary, application=Member.Application.APPROVED,
            membership_number=next(_numbers), joined_on=federation_selectors.today(),
            language=language, email=user.email,
        )
        if follows:
            federation_services.mail_consent_set(
                member=member, kind=MailKind.TOURNAMENTS, granted=True, country=follows,
                source=ConsentEvent.Source.MEMBER_PAGE)
        return member

    return make


def future(**extra):
    today = federation_selectors.today()
    return {"start_date": today + timedelta(days=60), "end_date": today + timedelta(days=61),
            "fee_member": Decimal("20.00"), "fee_other": Decimal("30.00"), "currency": "EUR",
            **extra}


def test_followers_of_the_country_get_one_announcement_in_their_language(
    make_tournament, make_member, django_capture_on_commit_callbacks
):
    dutch_follower = make_member("nl", follows="NL")
    english_follower = make_member("en", follows="NL")
    make_member("en", follows="DE")
    make_member("en")  # follows nothing
    tournament = make_tournament("accredited", name="Utrecht Open", country="NL", **future())
    mailing = Mailing.objects.get(key=f"tournament-{tournament.pk}-open")
    assert mailing.audience == Mailing.Audience.FOLLOWERS and mailing.country == "NL"
    assert mailing.state == Mailing.State.SENDING
    assert set(mailing.deliveries.values_list("member_id", flat=True)) == {
        dutch_follower.pk, english_follower.pk}
    # the signal again (a second accreditation cannot happen, but a receiver may run twice)
    announce_after_accreditation(sender=None, tournament=tournament)
    assert Mailing.objects.filter(audience=Mailing.Audience.FOLLOWERS).count() == 1
    mail.outbox.clear()
    federation_services.mailings_deliver()
    federation_services.mailings_deliver()
    by_address = {m.to[0]: m for m in mail.outbox}
    assert len(mail.outbox) == 2
    english = by_address[english_follower.email]
    assert english.subject == "Open for entries: Utrecht Open"
    assert "Utrecht" in english.body and f"/en/tournaments/{tournament.pk}/" in english.body
    assert "follow the tournaments in Netherlands" in english.body
    assert english.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    dutch = by_address[dutch_follower.email]
    assert f"/nl/tournaments/{tournament.pk}/" in dutch.body


def test_editors_follow_announcements_on_the_mailings_pages(client, make_tournament,
                                                            make_member, make_user):
    from django.contrib.auth.models import Group

    make_member(follows="NL")
    tournament = make_tournament("accredited", name="Utrecht Open", country="NL", **future())
    federation_services.mailings_deliver()
    editor = make_user(is_staff=True)
    editor.groups.add(Group.objects.get(name=federation_services.ROLE_EDITORS))
    client.force_login(editor)
    assert "Utrecht Open" in client.get("/admin/mailings/").content.decode()
    mailing = Mailing.objects.get(key=f"tournament-{tournament.pk}-open")
    page = client.get(f"/admin/mailings/{mailing.pk}/?lang=en").content.decode()
    assert 'id="mailing-progress"' in page and 'id="mailing-send"' not in page


def test_a_tournament_elsewhere_announces_nothing_to_anyone(make_tournament, make_member):
    make_member(follows="NL")
    tournament = make_tournament("accredited", country="BE", **future())
    mailing = Mailing.objects.get(key=f"tournament-{tournament.pk}-open")
    assert mailing.deliveries.count() == 0 and mailing.state == Mailing.State.SENT


def test_the_entrants_of_a_tournament_as_an_audience(make_tournament, make_member, organizer):
    tournament = make_tournament("accredited", **future())
    entrants = [make_member() for _ in range(3)]
    outsider = make_member()
    entries = [
        services.entry_create(tournament=tournament, user=m.user, first_name="Anna",
                              last_name="Kowalska", country="PL")
        for m in entrants
    ]
    services.entry_withdraw(entry=entries[2], user=entrants[2].user)
    mailing = federation_services.mailing_create(
        user=organizer, kind=MailKind.NEWS, audience=Mailing.Audience.TOURNAMENT,
        tournament_id=tournament.pk, texts={"ru": ("Тема", "Текст")})
    reached = {m.pk for m in mailing_audiences.mailing_recipients(mailing)}
    assert reached == {entrants[0].pk, entrants[1].pk}
    assert outsider.pk not in reached
    assert tournament.name in mailing_audiences.audience_description(mailing)
    source = mailing_audiences.external_audience(Mailing.Audience.TOURNAMENT)
    assert (tournament.pk, tournament.name) in [(pk, label.split(" (")[0])
                                                for pk, label in source.choices()]


def _member_owing_dues(make_user):
    """A member whose dues are unpaid: a regular member who joined last year, no paid
    invoice (not in good standing, so entered at the other fee)."""
    user = make_user(language="nl")
    regular, _ = MembershipType.objects.get_or_create(kind="regular")
    return Member.objects.create(
        user=user, name_native="Natalia Kovaleva", name_latin="Natalia Kovaleva",
        membership_type=regular, application=Member.Application.APPROVED,
        membership_number=next(_numbers),
        joined_on=federation_selectors.today() - timedelta(days=400), language="nl",
        email=user.email)


def test_issue_38_the_entrants_are_every_place_holder_guests_and_owing_members_included(
        make_tournament, make_member, make_user, organizer):
    """Issue 38 (11): the mailing to "entrants" reached 14 of 18: both paying guests and a
    member with unpaid dues were left out, and a player on the waiting list was included."""
    from tournaments.models import Entry

    tournament = make_tournament("accredited", max_players=4, **future())
    member = make_member()
    owing = _member_owing_dues(make_user)
    guests = [make_user(email=f"guest{i}@example.org", language="fr") for i in range(2)]
    waiting = make_member()
    entries = {}
    for who, user in [("member", member.user), ("owing", owing.user),
                      ("guest0", guests[0]), ("guest1", guests[1]), ("waiting", waiting.user)]:
        entries[who] = services.entry_create(tournament=tournament, user=user,
                                             first_name="Anna", last_name="Kowalska",
                                             country="PL")
    assert entries["owing"].member is None and entries["owing"].fee == Decimal("30.00")
    assert entries["waiting"].status == Entry.Status.WAITING
    services.entry_decide(entry=entries["guest1"], user=organizer, decision="confirm")

    mailing = federation_services.mailing_create(
        user=organizer, kind=MailKind.NEWS, audience=Mailing.Audience.TOURNAMENT,
        tournament_id=tournament.pk, texts={"ru": ("Тема", "Текст"),
                                            "en": ("Venue", "The hall opens at nine.")})
    assert {m.pk for m in mailing_audiences.mailing_recipients(mailing)} == {member.pk,
                                                                             owing.pk}
    assert [u.pk for u in mailing_audiences.mailing_guests(mailing)] == [g.pk for g in guests]
    assert mailing_audiences.mailing_recipient_count(mailing) == 4

    assert federation_services.mailing_send(mailing=mailing, user=organizer) == 4
    mail.outbox.clear()
    federation_services.mailings_deliver(backend="django.core.mail.backends.locmem.EmailBackend")
    reached = {m.to[0]: m for m in mail.outbox}
    assert set(reached) == {member.email, owing.email, guests[0].email, guests[1].email}
    guest_mail = reached[guests[0].email]
    assert guest_mail.subject == "Venue" or guest_mail.subject == "Тема"
    assert tournament.name in guest_mail.body  # why they receive it
    assert "List-Unsubscribe" not in guest_mail.extra_headers  # no member's choices to undo
    assert "List-Unsubscribe" in reached[member.email].extra_headers
    assert mailing.deliveries.filter(state="sent").count() == 4
    assert not mailing.deliveries.filter(email=waiting.email).exists()

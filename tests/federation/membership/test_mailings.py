"""Mailings to members (issue 29, decision 0315): who may write and send them, audiences,
consent, each member's language, the reason and the one-click unsubscribe (RFC 8058), and
sending in batches that survives an interruption (exactly one mail each)."""

from __future__ import annotations

from datetime import date
from io import StringIO

import pytest
from django.contrib.auth.models import Group
from django.core import mail
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from wagtail.users.models import UserProfile

from federation import mailing_audiences, services, unsubscribe_tokens
from federation.errors import MembershipError
from federation.models import (
    ConsentEvent,
    Mailing,
    MailingDelivery,
    MailKind,
    Member,
    MembershipFee,
    MembershipType,
    MembershipYear,
)
from tests.federation.membership.mail_backends import (
    Interrupted,
    InterruptingBackend,
    RefusingBackend,
)

pytestmark = pytest.mark.django_db

TEXTS = {
    "ru": ("Новости федерации", "Чемпионат пройдёт в мае."),
    "en": ("Federation news", "The championship is in May."),
}


@pytest.fixture
def years(db):
    """Last year and this year, so that members are in good standing or lapsed today."""
    this = date.today().year
    made = {}
    for year in (this - 1, this):
        y = MembershipYear.objects.create(year=year, starts_on=date(year, 1, 1),
                                          ends_on=date(year, 12, 31), currency="EUR")
        for kind in ("regular", "honorary"):
            MembershipFee.objects.create(membership_year=y, amount="120.00" if kind ==
                                         "regular" else "0.00",
                                         membership_type=MembershipType.objects.get(kind=kind))
        made[year] = y
    return made


@pytest.fixture
def paid_member(years, make_member, pay_cash):
    """A member whose dues are paid for this year (good standing) or only for last year
    (lapsed)."""

    def make(language="en", lapsed=False, **extra):
        year = date.today().year - (1 if lapsed else 0)
        member = make_member(language=language, joined_on=date(year, 1, 1), **extra)
        pay_cash(member.invoices.get(), "120", date(year, 1, 5))
        return member

    return make


@pytest.fixture
def editor(make_user):
    user = make_user(is_staff=True, email="editor@example.org")
    user.groups.add(Group.objects.get(name=services.ROLE_EDITORS))
    profile = UserProfile.get_for_user(user)
    profile.preferred_language = "en"  # the admin in English
    profile.save()
    return user


def make_mailing(editor, **extra):
    values = {"kind": MailKind.NEWS, "audience": Mailing.Audience.GOOD_STANDING,
              "texts": TEXTS, **extra}
    return services.mailing_create(user=editor, **values)


# --- who may ------------------------------------------------------------------------------


def test_the_editors_group_may_send_mailings_and_others_may_not(
    client, editor, treasurer, membership_officer, paid_member
):
    assert Group.objects.get(name="Editors").permissions.filter(codename="send_mailing").exists()
    mailing = make_mailing(editor)
    urls = [reverse("mailing_index"), reverse("mailing_new"),
            reverse("mailing_detail", args=[mailing.pk]),
            reverse("mailing_edit", args=[mailing.pk])]
    for url in urls:  # anonymous: to the login page
        assert client.get(url).status_code == 302
    for user in (treasurer, membership_officer, paid_member().user):
        client.force_login(user)
        for url in urls:
            assert client.get(url).status_code in (302, 403), (user, url)
        response = client.post(reverse("mailing_detail", args=[mailing.pk]), {"action": "send"})
        assert response.status_code in (302, 403)  # Wagtail: refused, back to its home
    assert Mailing.objects.get().state == Mailing.State.DRAFT
    client.force_login(editor)
    for url in urls:
        assert client.get(url).status_code == 200, url


def test_the_editor_writes_previews_tests_and_sends(client, editor, paid_member):
    paid_member("en")
    paid_member("ru")
    client.force_login(editor)
    data = {"kind": "news", "audience": "good_standing",
            "subject_ru": "Новости", "body_ru": "Текст", "subject_en": "News", "body_en": "Text"}
    response = client.post(reverse("mailing_new"), data)
    mailing = Mailing.objects.get()
    assert response["Location"] == reverse("mailing_detail", args=[mailing.pk])
    page = client.get(reverse("mailing_detail", args=[mailing.pk]) + "?lang=en").content.decode()
    assert "News" in page and "2 members" in page
    page = client.get(reverse("mailing_detail", args=[mailing.pk]) + "?lang=fr").content.decode()
    assert 'id="mailing-fallback"' in page and "Новости" in page  # the default language's
    client.post(reverse("mailing_detail", args=[mailing.pk]), {"action": "test", "lang": "en"})
    [test] = mail.outbox
    assert test.to == ["editor@example.org"] and test.subject == "[Test] News"
    assert "List-Unsubscribe" not in test.extra_headers
    client.post(reverse("mailing_detail", args=[mailing.pk]), {"action": "send"})
    mailing.refresh_from_db()
    assert mailing.state == Mailing.State.SENDING and mailing.deliveries.count() == 2
    call_command("send_mailings")
    assert len(mail.outbox) == 3
    mailing.refresh_from_db()
    assert mailing.state == Mailing.State.SENT and mailing.finished_at
    page = client.get(reverse("mailing_detail", args=[mailing.pk])).content.decode()
    assert "2 of 2 sent, 0 waiting, 0 failed" in page
    assert 'id="mailing-send"' not in page  # sent once: no second button
    with pytest.raises(MembershipError) as error:
        services.mailing_send(mailing=mailing, user=editor)
    assert error.value.code == "mailing_not_draft"


def test_bad_form_input_names_the_field_and_changes_nothing(client, editor):
    client.force_login(editor)
    response = client.post(reverse("mailing_new"), {
        "kind": "news", "audience": "club", "subject_ru": "", "body_ru": "",
        "subject_en": "Only a subject", "body_en": ""})
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert set(errors) == {"club", "subject_ru", "body_ru", "body_en"}
    assert not Mailing.objects.exists()


def test_sending_needs_the_default_text_and_recipients(editor, paid_member):
    mailing = make_mailing(editor, texts={"en": TEXTS["en"]})
    with pytest.raises(MembershipError) as error:
        services.mailing_send(mailing=mailing, user=editor)
    assert error.value.code == "mailing_no_default_text"
    mailing = make_mailing(editor, audience=Mailing.Audience.LAPSED)
    with pytest.raises(MembershipError) as error:
        services.mailing_send(mailing=mailing, user=editor)
    assert error.value.code == "mailing_no_recipients"
    assert not MailingDelivery.objects.exists()
    assert Mailing.objects.filter(state=Mailing.State.DRAFT).count() == 2


# --- audiences ------------------------------------------------------------------------------


def test_audiences(editor, paid_member, make_member, club, other_club, years):
    good = paid_member(club=club)
    other_club_member = paid_member(club=other_club)
    lapsed = paid_member(lapsed=True, club=club)
    unpaid = make_member(joined_on=date(date.today().year, 1, 1))  # awaiting payment
    pending = make_member(approved=False)
    no_address = paid_member()
    Member.objects.filter(pk=no_address.pk).update(email="")
    no_address.user.email = ""
    no_address.user.save()
    said_no = paid_member()
    services.mail_consent_set(member=said_no, kind=MailKind.NEWS, granted=False,
                              source=ConsentEvent.Source.MEMBER_PAGE)

    def reached(**extra):
        return {m.pk for m in mailing_audiences.mailing_recipients(make_mailing(editor, **extra))}

    assert reached() == {good.pk, other_club_member.pk}
    assert reached(audience=Mailing.Audience.LAPSED) == {lapsed.pk}
    assert reached(audience=Mailing.Audience.CLUB, club=club) == {good.pk}
    assert not {unpaid.pk, pending.pk, no_address.pk, said_no.pk} & reached()
    # tournament announcements are opt-in: nobody has chosen them
    assert reached(kind=MailKind.TOURNAMENTS) == set()


# --- the member's copy ---------------------------------------------------------------------


def test_each_member_reads_their_language_or_the_default_with_reason_and_headers(
    editor, paid_member
):
    english, dutch = paid_member("en"), paid_member("nl")
    mailing = make_mailing(editor)
    services.mailing_send(mailing=mailing, user=editor)
    services.mailings_deliver()
    by_address = {m.to[0]: m for m in mail.outbox}
    en, nl = by_address[english.email], by_address[dutch.email]
    assert en.subject == "Federation news" and "The championship is in May." in en.body
    assert "as a member of the federation in good standing" in en.body
    # no Dutch text: the default language's, the footer in Dutch
    assert nl.subject == "Новости федерации" and "Чемпионат" in nl.body
    assert "in good standing" not in nl.body
    for message, member in ((en, english), (nl, dutch)):
        url = message.extra_headers["List-Unsubscribe"].strip("<>")
        assert url.startswith("http") and f"/{member.language}/members/unsubscribe/" in url
        assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert url in message.body


def test_one_click_unsubscribe_posts_without_login_and_get_only_asks(editor, paid_member):
    member = paid_member("en")
    mailing = make_mailing(editor)
    services.mailing_send(mailing=mailing, user=editor)
    services.mailings_deliver()
    url = mail.outbox[0].extra_headers["List-Unsubscribe"].strip("<>")
    path = url.split("://", 1)[1].split("/", 1)[1]
    anonymous = Client(enforce_csrf_checks=True)
    page = anonymous.get("/" + path)
    assert page.status_code == 200 and b'id="unsubscribe-confirm"' in page.content
    domain = member.email.split("@")[1]
    assert f"{member.email[0]}…@{domain}" in page.content.decode()
    assert member.email not in page.content.decode()  # a forwarded mail shows no address
    assert not ConsentEvent.objects.exists()  # a mail scanner following the link: nothing
    response = anonymous.post("/" + path, "List-Unsubscribe=One-Click",
                              content_type="application/x-www-form-urlencoded")
    assert response.status_code == 200 and b'id="unsubscribe-done"' in response.content
    [event] = ConsentEvent.objects.all()
    assert (event.member, event.kind, event.granted, event.source, event.mailing) == (
        member, "news", False, "unsubscribe", mailing)
    assert event.at is not None
    assert anonymous.post("/" + path).status_code == 200  # twice: still fine, one event
    assert ConsentEvent.objects.count() == 1
    assert mailing_audiences.mailing_recipients(make_mailing(editor)) == []


def test_a_forged_unsubscribe_token_is_refused(client, paid_member):
    member = paid_member()
    token = unsubscribe_tokens.unsubscribe_token(member, "news")
    for bad in (token[:-2] + "xx", "nonsense"):
        url = reverse("membership:unsubscribe", args=[bad])
        assert client.post(url).status_code == 400
        assert client.get(url).status_code == 400
    assert not ConsentEvent.objects.exists()


def test_the_member_chooses_their_mails_and_each_choice_is_dated(client, paid_member):
    member = paid_member("en", country="NL")
    client.force_login(member.user)
    url = reverse("membership:mail_preferences")
    page = client.get(url)
    assert page.context["form"].initial == {"news": True, "tournaments": False, "country": "NL"}
    response = client.post(url, {"news": "", "tournaments": "on", "country": ""})
    assert response.status_code == 200 and "country" in response.context["form"].errors
    assert not ConsentEvent.objects.exists()
    client.post(url, {"tournaments": "on", "country": "NL"})
    events = list(ConsentEvent.objects.order_by("pk").values_list("kind", "granted", "country"))
    assert events == [("news", False, ""), ("tournaments", True, "NL")]
    client.post(url, {"tournaments": "on", "country": "NL"})  # unchanged: no new events
    assert ConsentEvent.objects.count() == 2
    assert client.get(url).context["form"].initial["news"] is False
    client.logout()
    assert client.get(url).status_code == 302


# --- sending ------------------------------------------------------------------------------


def test_an_interrupted_sending_resumes_and_nobody_gets_it_twice(settings, editor, paid_member):
    members = [paid_member() for _ in range(7)]
    mailing = make_mailing(editor)
    assert services.mailing_send(mailing=mailing, user=editor) == 7
    settings.EMAIL_BACKEND = "tests.federation.membership.mail_backends.InterruptingBackend"
    InterruptingBackend.handed_over, InterruptingBackend.stop_at = 0, 4
    with pytest.raises(Interrupted):  # the process dies in the second batch
        call_command("send_mailings", batch_size=3)
    assert len(mail.outbox) == 3
    states = list(mailing.deliveries.order_by("pk").values_list("state", flat=True))
    # the fourth was claimed (committed) before it was handed over: nobody knows whether
    # the mail server took it
    assert states == ["sent"] * 3 + ["sending"] + ["pending"] * 3
    page_progress = mailing_audiences.mailing_progress(mailing)
    assert (page_progress.sent, page_progress.pending, page_progress.failed) == (3, 4, 0)
    call_command("send_mailings", batch_size=3)  # the restart, within the claim's time
    assert len(mail.outbox) == 6
    settings.MAILING_CLAIM_SECONDS = 0  # the claim has expired: its sender is dead
    call_command("send_mailings", batch_size=3)
    assert sorted(m.to[0] for m in mail.outbox) == sorted(m.email for m in members)
    call_command("send_mailings", batch_size=3)  # nothing left
    assert len(mail.outbox) == 7
    mailing.refresh_from_db()
    assert mailing.state == Mailing.State.SENT
    # each delivery's Message-ID is its own and the same at every attempt (decision 0907)
    fourth = mailing.deliveries.order_by("pk")[3]
    assert mail.outbox[-1].extra_headers["Message-ID"] == (
        f"<mailing-{mailing.pk}.delivery-{fourth.pk}@localhost>")
    assert len({m.extra_headers["Message-ID"] for m in mail.outbox}) == 7


def test_failures_are_shown_and_sent_again_on_request(settings, client, editor, paid_member):
    good, bad = paid_member(), paid_member()
    mailing = make_mailing(editor)
    services.mailing_send(mailing=mailing, user=editor)
    settings.EMAIL_BACKEND = "tests.federation.membership.mail_backends.RefusingBackend"
    RefusingBackend.refused = {bad.email}
    report = services.mailings_deliver(batch_size=10)
    assert (report.sent, report.failed) == (1, 1)
    client.force_login(editor)
    page = client.get(reverse("mailing_detail", args=[mailing.pk])).content.decode()
    assert "1 of 2 sent, 0 waiting, 1 failed" in page and bad.email in page
    assert "No such user" in page
    RefusingBackend.refused = set()
    client.post(reverse("mailing_detail", args=[mailing.pk]), {"action": "retry"})
    services.mailings_deliver()
    assert sorted(m.to[0] for m in mail.outbox) == sorted([good.email, bad.email])
    assert mailing_audiences.mailing_progress(mailing).sent == 2


def test_the_mailings_page_does_not_grow_with_history(client, editor, paid_member):
    paid_member()
    client.force_login(editor)

    def queries(n):
        for _ in range(n):
            mailing = make_mailing(editor)
            services.mailing_send(mailing=mailing, user=editor)
        with CaptureQueriesContext(connection) as captured:
            assert client.get(reverse("mailing_index")).status_code == 200
        return len(captured)

    assert queries(2) == queries(20)


def test_a_delivery_claimed_by_another_sender_is_left_to_it(settings, editor, paid_member):
    from django.utils import timezone

    first, second = paid_member(), paid_member()
    mailing = make_mailing(editor)
    services.mailing_send(mailing=mailing, user=editor)
    # another run claimed the first delivery and is handing it over right now
    mailing.deliveries.filter(member=first).update(state=MailingDelivery.State.SENDING,
                                                   claimed_at=timezone.now())
    out = StringIO()
    call_command("send_mailings", stdout=out)
    assert "1 sent, 0 failed in 1 batch(es)" in out.getvalue()
    assert [m.to[0] for m in mail.outbox] == [second.email]
    mailing.refresh_from_db()
    assert mailing.state == Mailing.State.SENDING  # one is still out there
    settings.MAILING_CLAIM_SECONDS = 0  # that run died: its claim is taken again
    call_command("send_mailings", stdout=out)
    assert [m.to[0] for m in mail.outbox] == [second.email, first.email]
    mailing.refresh_from_db()
    assert mailing.state == Mailing.State.SENT


def test_erasing_a_member_removes_the_addresses_mailings_went_to(editor, paid_member):
    sent_to, waiting = paid_member(), paid_member()
    mailing = make_mailing(editor)
    services.mailing_send(mailing=mailing, user=editor)
    services.mailings_deliver(max_batches=1, batch_size=1)
    for member in (sent_to, waiting):
        services.member_erase(member=member, requested_by=editor)
    assert set(mailing.deliveries.values_list("email", "state")) == {("", "sent"),
                                                                   ("", "failed")}
    services.mailings_deliver()
    assert len(mail.outbox) == 1


def test_the_mailing_page_does_not_grow_with_its_recipients(settings, client, editor,
                                                            paid_member):
    client.force_login(editor)
    settings.EMAIL_BACKEND = "tests.federation.membership.mail_backends.RefusingBackend"

    def queries(n):
        members = [paid_member() for _ in range(n)]
        RefusingBackend.refused = {m.email for m in members[: n // 2]}
        draft, sent = make_mailing(editor), make_mailing(editor)
        services.mailing_send(mailing=sent, user=editor)
        services.mailings_deliver()
        counts = []
        for mailing in (draft, sent):
            with CaptureQueriesContext(connection) as captured:
                assert client.get(reverse("mailing_detail", args=[mailing.pk])).status_code == 200
            counts.append(len(captured))
        return counts

    assert queries(2) == queries(20)


def test_a_draft_is_changed_until_it_is_sent(client, editor, club, paid_member):
    paid_member(club=club)
    mailing = make_mailing(editor)
    client.force_login(editor)
    response = client.post(reverse("mailing_edit", args=[mailing.pk]), {
        "kind": "news", "audience": "club", "club": club.pk,
        "subject_ru": "Клубные новости", "body_ru": "Текст"})
    assert response.status_code == 302
    mailing.refresh_from_db()
    assert (mailing.audience, mailing.club) == ("club", club)
    assert [t.language for t in mailing.translations.all()] == ["ru"]  # English removed
    services.mailing_send(mailing=mailing, user=editor)
    response = client.post(reverse("mailing_edit", args=[mailing.pk]), {
        "kind": "news", "audience": "lapsed", "subject_ru": "Другое", "body_ru": "Текст"})
    assert response["Location"] == reverse("mailing_detail", args=[mailing.pk])
    mailing.refresh_from_db()
    assert mailing.audience == "club" and str(mailing) == "Клубные новости"
    with pytest.raises(MembershipError) as error:
        services.mailing_update(mailing=mailing, user=editor, kind="news", audience="lapsed",
                                texts={"ru": ("Другое", "Текст")})
    assert error.value.code == "mailing_not_draft"

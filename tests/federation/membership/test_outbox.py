"""Issue 22, item 6: an unreachable mail server never turns a saved action into a 500.
Mail goes out after the commit; a refused mail is logged and kept in the outbox, sent again
by ``manage.py send_queued_mail`` with a growing wait, and given up after its attempts.
The mail server here is Django's real SMTP backend pointed at a port nobody listens on."""

from __future__ import annotations

import socket
from datetime import date, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.management import call_command
from django.utils import timezone

from federation import emails, outbox, services
from federation.models import Member, MembershipType, OutgoingMail

pytestmark = pytest.mark.django_db

User = get_user_model()
LOCMEM = "django.core.mail.backends.locmem.EmailBackend"


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def smtp_refusing(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = closed_port()
    settings.EMAIL_TIMEOUT = 2
    return settings


def make_due() -> None:
    OutgoingMail.objects.update(next_attempt_at=timezone.now() - timedelta(seconds=1))


def test_sign_up_succeeds_and_its_mail_is_queued_then_sent(
    client, smtp_refusing, django_capture_on_commit_callbacks, caplog
):
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/en/accounts/signup/", {
            "email": "new@example.org", "password1": "a-Long-pass-2025",
            "password2": "a-Long-pass-2025"})
    assert response.status_code == 302  # to "verify your address", not a 500
    assert User.objects.filter(email="new@example.org").exists()
    [queued] = OutgoingMail.objects.all()
    assert queued.to == "new@example.org"
    assert queued.state == OutgoingMail.State.PENDING and queued.attempts == 1
    assert "ConnectionRefusedError" in queued.last_error
    assert queued.next_attempt_at > timezone.now() + timedelta(minutes=4)
    assert "queued" in caplog.text and "new@example.org" in caplog.text

    call_command("send_queued_mail")  # not due yet: nothing tried
    assert OutgoingMail.objects.get().attempts == 1

    smtp_refusing.EMAIL_BACKEND = LOCMEM  # the mail server is back
    make_due()
    call_command("send_queued_mail")
    [message] = mail.outbox
    assert message.to == ["new@example.org"]
    raw = message.message().as_bytes().decode()
    assert "/accounts/confirm-email/" in raw  # the link the person needs, kept whole
    queued.refresh_from_db()
    assert queued.state == OutgoingMail.State.SENT and queued.attempts == 2


def test_membership_application_succeeds_and_its_mail_is_queued(
    client, smtp_refusing, make_user, year_2025, django_capture_on_commit_callbacks
):
    user = make_user()
    client.force_login(user)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post("/en/members/apply/", {
            "name_native": "Пётр", "name_latin": "Pyotr", "country": "RU", "city": "Kazan",
            "membership_type": MembershipType.objects.get(kind="regular").pk,
            "email": user.email, "language": "ru"})
    assert response.status_code == 302
    assert Member.objects.get(user=user).application == Member.Application.PENDING
    [queued] = OutgoingMail.objects.all()
    assert queued.to == user.email
    assert "Федерация" in queued.subject  # written in the member's language before queuing
    # a retry of the request is not needed: the page after it shows the application
    assert client.get("/en/members/me/").status_code == 200


def test_a_receipt_is_queued_with_its_pdf(
    smtp_refusing, make_member, year_2025, pay_cash, django_capture_on_commit_callbacks
):
    member = make_member()
    with django_capture_on_commit_callbacks(execute=True):
        payment = pay_cash(member.invoices.get(), "120", date(2025, 2, 1))
    queued = OutgoingMail.objects.get(subject__contains=payment.receipt_number)
    assert b"application/pdf" in bytes(queued.message)
    smtp_refusing.EMAIL_BACKEND = LOCMEM
    make_due()
    assert outbox.send_queued().sent == 1
    [message] = mail.outbox
    assert b"application/pdf" in message.message().as_bytes()


def test_retries_wait_longer_each_time_and_give_up(smtp_refusing):
    message = emails.EmailMessage("Hello", "Body", None, ["a@example.org"])
    assert outbox.deliver(message) is False
    row = OutgoingMail.objects.get()
    waits = []
    for attempt in range(2, outbox.MAX_ATTEMPTS + 1):
        now = timezone.now()
        make_due()
        report = outbox.send_queued(now=now)
        row.refresh_from_db()
        assert row.attempts == attempt
        if attempt < outbox.MAX_ATTEMPTS:
            assert report.failed == 1 and row.state == OutgoingMail.State.PENDING
            waits.append(row.next_attempt_at - now)
        else:
            assert report.given_up == 1 and row.state == OutgoingMail.State.FAILED
            assert row.next_attempt_at is None
    assert waits == sorted(waits) and waits[0] == timedelta(minutes=10)
    assert max(waits) <= outbox.LONGEST_WAIT
    make_due()
    assert outbox.send_queued().failed == 0  # given up: not tried again


def test_a_mail_sent_at_once_is_not_queued(settings, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        outbox.after_commit(lambda: outbox.deliver(
            emails.EmailMessage("Hello", "Body", None, ["a@example.org"])))
    assert len(mail.outbox) == 1 and not OutgoingMail.objects.exists()


def test_a_mistake_while_writing_a_mail_does_not_fail_the_request(
    django_capture_on_commit_callbacks, caplog
):
    def broken():
        raise RuntimeError("template missing")

    with django_capture_on_commit_callbacks(execute=True):
        outbox.after_commit(broken)
    assert "template missing" in caplog.text


# --- the admin's list --------------------------------------------------------------------

URL = "/admin/membership/outbox/"


@pytest.fixture
def queued_row(smtp_refusing):
    outbox.deliver(emails.EmailMessage("Your receipt", "Body", None, ["payer@example.org"]))
    return OutgoingMail.objects.get()


@pytest.mark.parametrize("role", ["treasurer", "membership_officer", "admin_user"])
def test_officers_and_superusers_see_the_queue(client, request, role, queued_row):
    client.force_login(request.getfixturevalue(role))
    response = client.get(URL)
    html = response.content.decode()
    assert response.status_code == 200
    assert "payer@example.org" in html and "Your receipt" in html
    assert "ConnectionRefusedError" in html


def test_others_cannot_see_the_queue(client, make_user, queued_row):
    from django.contrib.auth.models import Group, Permission

    assert client.get(URL).status_code == 302  # anonymous: to the login
    editor = make_user(is_staff=True)
    editors, _ = Group.objects.get_or_create(name=services.ROLE_EDITORS)
    editors.permissions.add(Permission.objects.get(codename="access_admin"))
    editor.groups.add(editors)
    client.force_login(editor)
    response = client.get(URL)
    assert response.status_code in (302, 403)
    assert "payer@example.org" not in response.content.decode()
    client.force_login(make_user())  # an ordinary account
    response = client.get(URL)
    assert response.status_code in (302, 403)
    assert "payer@example.org" not in response.content.decode()


def test_the_dashboard_counts_the_queue_for_those_who_see_it(client, treasurer, make_user,
                                                             queued_row):
    OutgoingMail.objects.create(to="x@example.org", subject="Old", recipients=["x@example.org"],
                                message=b"", state=OutgoingMail.State.FAILED, attempts=8)
    from wagtail.users.models import UserProfile

    profile = UserProfile.get_for_user(treasurer)  # the admin speaks the profile's language
    profile.preferred_language = "en"
    profile.save()
    client.force_login(treasurer)
    html = client.get("/admin/").content.decode()
    assert "Mails waiting to be sent again" in html and URL in html
    assert "1 mail given up" in html
    client.force_login(make_user(is_staff=True, is_superuser=False))
    assert URL not in client.get("/admin/").content.decode()


def test_a_mail_claimed_by_another_run_is_left_to_it_then_sent_as_the_same_message(settings):
    """Each queued mail is claimed before it is handed over (decision 0907): a run that
    finds it claimed leaves it; a claim whose run died expires, and the mail goes out as it
    was stored, its Message-ID included."""
    import email

    settings.EMAIL_BACKEND = LOCMEM
    raw = emails.EmailMessage("Hello", "Body", None, ["a@example.org"]).message().as_bytes(
        linesep="\r\n")
    OutgoingMail.objects.create(
        to="a@example.org", subject="Hello", from_email="federation@example.org",
        recipients=["a@example.org"], message=raw,
        next_attempt_at=timezone.now() - timedelta(minutes=1))
    row = OutgoingMail.objects.get()
    now = timezone.now()
    assert outbox._claim(row, now)  # another run took it, and died before sending
    assert outbox.send_queued(now=now).sent == 0 and mail.outbox == []
    later = now + outbox.CLAIM + timedelta(seconds=1)
    assert outbox.send_queued(now=later).sent == 1
    row.refresh_from_db()
    assert row.state == OutgoingMail.State.SENT
    [sent] = mail.outbox
    assert sent.message().as_bytes() == raw
    assert email.message_from_bytes(raw)["Message-ID"]


def test_the_queued_copy_is_the_same_message_as_the_failed_attempt(smtp_refusing):
    """The server may have taken the first attempt before the connection broke: the copy
    sent again carries the same Message-ID (decision 0907)."""
    import email

    message = emails.EmailMessage("Hello", "Body", None, ["a@example.org"])
    assert outbox.deliver(message) is False
    stored = email.message_from_bytes(bytes(OutgoingMail.objects.get().message))
    assert stored["Message-ID"] == message.extra_headers["Message-ID"]

"""Reminders: once per stage, in the member's language, never twice."""

from datetime import date
from decimal import Decimal

import pytest
from django.core import mail
from django.core.management import call_command

from federation import services
from federation.models import ReminderSent

pytestmark = pytest.mark.django_db


@pytest.fixture
def paid_member(year_2025, make_member, pay_cash):
    def make(language):
        member = make_member(language=language)
        pay_cash(member.invoices.get(), "120", date(2025, 1, 5))
        return member

    return make


def test_each_stage_sent_once(paid_member):
    member = paid_member("en")
    assert services.reminders_send(today=date(2025, 11, 30)) == 0  # 31 days left
    assert services.reminders_send(today=date(2025, 12, 1)) == 1  # 30 days: before-30
    assert services.reminders_send(today=date(2025, 12, 2)) == 0  # same stage: not again
    assert services.reminders_send(today=date(2025, 12, 24)) == 1  # 7 days: before-7
    assert services.reminders_send(today=date(2025, 12, 25)) == 0
    assert services.reminders_send(today=date(2026, 1, 1)) == 1  # grace
    assert services.reminders_send(today=date(2026, 2, 1)) == 0
    assert services.reminders_send(today=date(2026, 6, 1)) == 0  # lapsed: nothing
    assert len(mail.outbox) == 3
    assert all(m.to == [member.email] for m in mail.outbox)
    stages = set(ReminderSent.objects.values_list("stage", flat=True))
    assert stages == {"before-30", "before-7", "grace"}


def test_each_member_gets_the_reminder_in_their_own_language(paid_member):
    paid_member("fr")
    paid_member("ru")
    services.reminders_send(today=date(2025, 12, 1))
    subjects = sorted(m.subject for m in mail.outbox)
    assert subjects == [
        "Fédération de mahjong\u00a0: votre adhésion se termine bientôt",
        "Федерация маджонга: ваше членство скоро закончится",
    ]


def test_paid_next_year_gets_no_reminder(paid_member, year_2025, treasurer, pay_cash):
    from federation.models import MembershipFee, MembershipType, MembershipYear

    member = paid_member("en")
    y2026 = MembershipYear.objects.create(
        year=2026, starts_on=date(2026, 1, 1), ends_on=date(2026, 12, 31)
    )
    MembershipFee.objects.create(
        membership_year=y2026,
        membership_type=MembershipType.objects.get(kind="regular"),
        amount=Decimal("120"),
    )
    invoice = services.dues_invoice_issue(
        member=member, membership_year=y2026, issued_by=treasurer, today=date(2025, 11, 1)
    )
    assert invoice.amount == Decimal("120.00")
    pay_cash(invoice, "120", date(2025, 11, 2))
    assert services.reminders_send(today=date(2025, 12, 24)) == 0


def test_command_runs_and_is_rerunnable(paid_member, capsys):
    paid_member("en")
    call_command("send_dues_reminders", "--date", "2025-12-01")
    call_command("send_dues_reminders", "--date", "2025-12-01")
    assert len(mail.outbox) == 1
    assert "0 reminder(s) sent" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("language", "subject", "date_text"),
    [
        ("ru", "Федерация маджонга: ваше членство скоро закончится", "31 декабря 2025"),
        ("fr", None, "31 décembre 2025"),
        ("en", "Mahjong Federation: your membership ends soon", "Dec. 31, 2025"),
    ],
)
def test_reminder_text_and_date_are_in_the_members_language(
    paid_member, language, subject, date_text
):
    from django.utils import translation

    paid_member(language)
    services.reminders_send(today=date(2025, 12, 1))
    [message] = mail.outbox
    with translation.override(language):
        expected_subject = translation.gettext(
            "%(site_name)s: your membership ends soon"
        ) % {"site_name": translation.gettext("Mahjong Federation")}
    assert message.subject == expected_subject
    if subject:
        assert message.subject == subject
    assert date_text in message.body
    assert "2025-12-31" not in message.body

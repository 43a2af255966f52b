"""Services: application, approval, invoices, payments, bank import, erasure, roles."""

from datetime import date
from decimal import Decimal

import pytest
from django.contrib.auth.models import Group
from django.test import override_settings
from wagtail.models import ModelLogEntry

from federation import selectors, services
from federation.models import ClubMembership, DuesInvoice, Member, Payment
from federation.rules.dues import InvoiceState, Status
from tournaments.models import Player

pytestmark = pytest.mark.django_db


def test_apply_is_pending_without_number(year_2025, make_member):
    member = make_member(approved=False)
    assert member.application == Member.Application.PENDING
    assert member.membership_number is None
    assert not member.invoices.exists()
    assert selectors.member_status(member, date(2025, 3, 1)) == Status.APPLIED


def test_apply_twice_is_refused(year_2025, make_member):
    member = make_member(approved=False)
    with pytest.raises(services.MembershipError) as error:
        services.member_apply(
            user=member.user,
            name_native="x",
            name_latin="x",
            membership_type=member.membership_type,
        )
    assert error.value.code == services.E_ALREADY_APPLIED


def test_approve_assigns_sequential_numbers_never_reused(year_2025, make_member, admin_user):
    first = make_member()
    second = make_member()
    assert (first.membership_number, second.membership_number) == (1, 2)
    services.member_erase(member=second, requested_by=admin_user)
    third = make_member()
    assert third.membership_number == 3


def test_approve_issues_invoice_and_logs(year_2025, make_member):
    member = make_member(joined_on=date(2025, 1, 10))
    invoice = member.invoices.get()
    assert invoice.number == "2025-00001"
    assert invoice.amount == Decimal("120.00")
    assert invoice.currency == "EUR"
    assert list(invoice.covered_members.all()) == [member]
    assert ModelLogEntry.objects.filter(action="federation.member.approve").exists()
    assert ModelLogEntry.objects.filter(action="federation.invoice.issue").exists()


@override_settings(MEMBERSHIP_AUTO_APPROVE=True)
def test_auto_approve_setting(year_2025, make_user):
    from federation.models import MembershipType

    member = services.member_apply(
        user=make_user(),
        name_native="A",
        name_latin="A",
        membership_type=MembershipType.objects.get(kind="regular"),
        today=date(2025, 2, 1),
    )
    assert member.application == Member.Application.APPROVED
    assert member.membership_number == 1


def test_invoice_numbers_sequential_per_year(year_2025, make_member):
    numbers = [make_member().invoices.get().number for _ in range(3)]
    assert numbers == ["2025-00001", "2025-00002", "2025-00003"]


def test_prorated_invoice_mid_year(year_2025, make_member):
    member = make_member(joined_on=date(2025, 7, 15))
    invoice = member.invoices.get()
    assert invoice.amount == Decimal("60.00")
    assert invoice.prorated


@override_settings(MEMBERSHIP_PRORATE=False)
def test_no_prorating_when_setting_off(year_2025, make_member):
    member = make_member(joined_on=date(2025, 7, 15))
    assert member.invoices.get().amount == Decimal("120.00")


def test_family_invoice_covers_all_family_members(year_2025, make_member, treasurer, pay_cash):
    head = make_member(kind="family", approved=False)
    child = make_member(kind="family", approved=False)
    Member.objects.filter(pk=child.pk).update(family_head=head)
    child = services.member_approve(member=child, approved_by=None, today=date(2025, 1, 1))
    assert not child.invoices.exists()  # covered by the head's invoice
    head = services.member_approve(member=head, approved_by=None, today=date(2025, 1, 1))
    invoice = head.invoices.get()
    assert invoice.amount == Decimal("200.00")
    assert set(invoice.covered_members.all()) == {head, child}
    assert selectors.member_status(child, date(2025, 3, 1)) == Status.AWAITING_PAYMENT
    pay_cash(invoice, "200", date(2025, 2, 1))
    assert selectors.member_status(child, date(2025, 3, 1)) == Status.ACTIVE
    assert selectors.member_status(head, date(2025, 3, 1)) == Status.ACTIVE
    with pytest.raises(services.MembershipError) as error:
        services.dues_invoice_issue(member=child, membership_year=year_2025, issued_by=treasurer)
    assert error.value.code == services.E_COVERED_BY_FAMILY


def test_honorary_has_no_invoice_and_is_always_active(year_2025, make_member):
    member = make_member(kind="honorary")
    assert not member.invoices.exists()
    assert selectors.member_status(member, date(2040, 1, 1)) == Status.ACTIVE


def test_partial_and_overpayment(year_2025, make_member, pay_cash):
    member = make_member()
    invoice = member.invoices.get()
    pay_cash(invoice, "50", date(2025, 2, 1))
    assert selectors.invoice_balance(invoice).state == InvoiceState.PARTIAL
    assert selectors.invoice_balance(invoice).outstanding == Decimal("70.00")
    assert selectors.member_status(member, date(2025, 3, 1)) == Status.AWAITING_PAYMENT
    pay_cash(invoice, "100", date(2025, 2, 5), confirm_overpayment=True)
    balance = selectors.invoice_balance(invoice)
    assert balance.state == InvoiceState.OVERPAID
    assert balance.credit == Decimal("30.00")
    assert selectors.member_status(member, date(2025, 3, 1)) == Status.ACTIVE


def test_status_transitions_through_the_year(year_2025, make_member, pay_cash):
    member = make_member()
    pay_cash(member.invoices.get(), "120", date(2025, 1, 5))
    assert selectors.member_status(member, date(2025, 12, 31)) == Status.ACTIVE
    assert selectors.member_status(member, date(2026, 1, 1)) == Status.GRACE
    assert selectors.member_status(member, date(2026, 3, 1)) == Status.GRACE  # 60 days
    assert selectors.member_status(member, date(2026, 3, 2)) == Status.LAPSED
    statuses = selectors.member_statuses(Member.objects.all(), date(2026, 1, 1))
    assert statuses[member.pk] == Status.GRACE


def test_duplicate_bank_transaction_refused(year_2025, make_member, treasurer):
    invoice = make_member().invoices.get()
    kwargs = dict(
        invoice=invoice,
        amount=Decimal("120"),
        paid_on=date(2025, 2, 1),
        method="bank_transfer",
        transaction_id="TX-1",
        recorded_by=treasurer,
    )
    services.payment_record(**kwargs)
    with pytest.raises(services.MembershipError) as error:
        services.payment_record(**kwargs)
    assert error.value.code == services.E_DUPLICATE_TRANSACTION
    assert Payment.objects.count() == 1


def test_payment_must_be_positive_and_is_logged(year_2025, make_member, treasurer, pay_cash):
    invoice = make_member().invoices.get()
    with pytest.raises(services.MembershipError):
        pay_cash(invoice, "0", date(2025, 2, 1))
    payment = pay_cash(invoice, "10.5", date(2025, 2, 1))
    assert payment.amount == Decimal("10.50")
    assert payment.receipt_number == "R2025-00001"
    entry = ModelLogEntry.objects.get(action="federation.payment.record")
    assert entry.user == treasurer
    assert entry.data["amount"] == "10.50"


def test_change_club_keeps_history(year_2025, make_member, club, other_club, treasurer):
    member = make_member(club=club)
    services.member_change_club(
        member=member, club=other_club, changed_by=treasurer, today=date(2025, 6, 1)
    )
    history = list(ClubMembership.objects.filter(member=member).order_by("started_on"))
    assert [(h.club, h.ended_on) for h in history] == [
        (club, date(2025, 6, 1)),
        (other_club, None),
    ]
    member.refresh_from_db()
    assert member.club == other_club


def test_erasure_anonymises_keeps_results_and_finances(year_2025, make_member, treasurer, pay_cash):
    member = make_member(
        date_of_birth=date(1990, 1, 1), phone="+7 900", address="Street 1", public_consent=True
    )
    user = member.user
    player = Player.objects.create(name_latin="Ivan Petrov", name_native="Иван", member=member)
    invoice = member.invoices.get()
    pay_cash(invoice, "120", date(2025, 2, 1))
    from wagtail.log_actions import log

    log(instance=member, action="wagtail.edit", user=treasurer)  # label = str(member)
    assert member in selectors.members_public_list()
    services.member_erase(member=member, requested_by=user)
    member.refresh_from_db()
    player.refresh_from_db()
    user.refresh_from_db()
    assert member.name_native == member.name_latin == member.email == member.phone == ""
    assert member.address == "" and member.date_of_birth is None
    assert member.user is None and member.anonymised_at
    assert member not in selectors.members_public_list()
    assert member.membership_number == 1  # kept: never reused
    assert player.member == member and player.is_anonymised
    assert "Ivan" not in player.name_latin and player.name_native == ""
    assert not user.is_active and "example.org" not in user.email
    invoice.refresh_from_db()
    assert invoice.billed_name == "Иван Петров"  # legal retention of financial records
    assert invoice.payments.count() == 1
    assert not any("Ivan" in e.label or "Ivan" in str(e.data) for e in ModelLogEntry.objects.all())
    with pytest.raises(services.MembershipError):
        services.member_erase(member=member, requested_by=user)


def test_roles_exist_with_permissions(db):
    treasurer = Group.objects.get(name=services.ROLE_TREASURER)
    codenames = set(treasurer.permissions.values_list("codename", flat=True))
    assert {"add_payment", "change_membershipfee", "import_bank_statement"} <= codenames
    assert "delete_payment" not in codenames
    officer = Group.objects.get(name=services.ROLE_MEMBERSHIP_OFFICER)
    assert "approve_member" in set(officer.permissions.values_list("codename", flat=True))
    assert Group.objects.filter(name=services.ROLE_CLUB_OFFICER).exists()


def test_issue_for_year_skips_existing(year_2025, make_member, treasurer):
    make_member()
    make_member(approved=False)
    assert (
        services.dues_invoices_issue_for_year(membership_year=year_2025, issued_by=treasurer) == []
    )
    assert DuesInvoice.objects.count() == 1


def test_issue_dues_invoices_command(year_2025, make_member, capsys):
    from django.core.management import call_command

    member = make_member()
    DuesInvoice.objects.filter(member=member).update(cancelled=True)
    call_command("issue_dues_invoices", "2025")
    call_command("issue_dues_invoices", "2025")
    assert DuesInvoice.objects.filter(member=member, cancelled=False).count() == 1
    assert "0 invoice(s) issued" in capsys.readouterr().out


def test_public_list_only_with_consent(year_2025, make_member, make_user):
    consenting = make_member(public_consent=True)
    make_member()
    make_member(approved=False, public_consent=True)
    assert list(selectors.members_public_list()) == [consenting]

"""Bank statement import: matching by reference, unmatched rows, malformed files."""

from datetime import date
from decimal import Decimal

import pytest

from federation import services
from federation.models import Payment
from federation.rules import bank_statement

GOOD = """date,amount,reference,transaction_id,payer
2025-02-03,120.00,Dues 2025-00001,TX-1,Ivan
2025-02-04,"50,00",membership 2025-00002 part 1,TX-2,Anna
2025-02-05,10.00,donation,TX-3,Someone
"""


def test_parse_good_file():
    statement = bank_statement.parse_statement(GOOD.encode())
    assert statement.errors == []
    assert [r.invoice_number for r in statement.rows] == ["2025-00001", "2025-00002", None]
    assert statement.rows[1].amount == Decimal("50.00")
    assert statement.rows[0].line == 2


def test_parse_semicolon_and_dotted_dates():
    data = "Date;Amount;Reference;Transaction_ID\n03.02.2025;12,5;2025-00001;A\n"
    statement = bank_statement.parse_statement(data)
    assert statement.errors == []
    assert statement.rows[0].paid_on == date(2025, 2, 3)
    assert statement.rows[0].amount == Decimal("12.5")


def test_parse_errors_have_line_numbers():
    data = (
        "date,amount,reference,transaction_id\n"
        "2025-02-30,10,2025-00001,A\n"  # line 2: bad date
        "2025-02-01,ten,2025-00001,B\n"  # line 3: bad amount
        "2025-02-01,-5,2025-00001,C\n"  # line 4: negative
        "2025-02-01,5,2025-00001,\n"  # line 5: no transaction id
        "2025-02-01,5,2025-00001,A\n"  # line 6: duplicate of line 2's id
        "2025-02-01,5\n"  # line 7: wrong column count
    )
    statement = bank_statement.parse_statement(data)
    assert [(e.line, e.code) for e in statement.errors] == [
        (2, bank_statement.E_BAD_DATE),
        (3, bank_statement.E_BAD_AMOUNT),
        (4, bank_statement.E_NOT_POSITIVE),
        (5, bank_statement.E_MISSING_TRANSACTION_ID),
        (6, bank_statement.E_DUPLICATE_IN_FILE),
        (7, bank_statement.E_WRONG_COLUMN_COUNT),
    ]


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b"", bank_statement.E_EMPTY),
        (b"\xff\xfe\x00garbage", bank_statement.E_NOT_TEXT),
        (b"date,amount\n2025-01-01,5\n", bank_statement.E_MISSING_COLUMNS),
    ],
)
def test_parse_unusable_files(data, code):
    statement = bank_statement.parse_statement(data)
    assert [(e.line, e.code) for e in statement.errors] == [(1, code)]


@pytest.mark.django_db
def test_import_matches_reports_unmatched_and_is_rerunnable(year_2025, make_member, treasurer):
    first = make_member().invoices.get()
    second = make_member().invoices.get()
    report = services.bank_statement_import(data=GOOD.encode(), recorded_by=treasurer)
    assert [p.invoice for p in report.recorded] == [first, second]
    assert [r.line for r in report.unmatched] == [4]
    assert Payment.objects.get(transaction_id="TX-2").amount == Decimal("50.00")
    again = services.bank_statement_import(data=GOOD.encode(), recorded_by=treasurer)
    assert again.recorded == []
    assert [r.transaction_id for r in again.already_recorded] == ["TX-1", "TX-2"]
    assert Payment.objects.count() == 2


@pytest.mark.django_db
def test_malformed_file_writes_nothing(year_2025, make_member, treasurer):
    make_member()
    data = GOOD + "2025-13-01,5,2025-00001,TX-9,X\n"
    with pytest.raises(services.MembershipError) as error:
        services.bank_statement_import(data=data, recorded_by=treasurer)
    assert error.value.code == services.E_BAD_FILE
    assert [(e.line, e.code) for e in error.value.detail] == [(5, bank_statement.E_BAD_DATE)]
    assert Payment.objects.count() == 0


def test_reference_naming_two_invoices_is_ambiguous_issue28():
    data = "date,amount,reference,transaction_id\n2025-02-01,60,2027-00001 and 2026-00001,T1\n"
    (row,) = bank_statement.parse_statement(data).rows
    assert row.invoice_numbers == ("2027-00001", "2026-00001")
    assert row.is_ambiguous and row.invoice_number is None


@pytest.mark.django_db
def test_import_flags_a_line_naming_two_invoices_for_the_treasurer_issue28(
    client, year_2025, make_member, treasurer
):
    from django.core.files.uploadedfile import SimpleUploadedFile
    from wagtail.users.models import UserProfile

    first = make_member().invoices.get()
    second = make_member().invoices.get()
    data = (
        "date,amount,reference,transaction_id\n"
        f"2025-02-01,120,{first.number} and {second.number},T1\n"
        f"2025-02-01,120,Dues {first.number} / {first.number},T2\n"
    )
    report = services.bank_statement_import(data=data, recorded_by=treasurer)
    assert [r.line for r in report.ambiguous] == [2]
    assert [p.invoice for p in report.recorded] == [first]  # the same number twice is one
    assert not Payment.objects.filter(transaction_id="T1").exists()

    profile = UserProfile.get_for_user(treasurer)
    profile.preferred_language = "en"
    profile.save()
    client.force_login(treasurer)
    data = data.replace("T1", "T3").replace("T2", "T4")
    html = client.post(
        "/admin/membership/bank-import/",
        {"statement": SimpleUploadedFile("s.csv", data.encode(), content_type="text/csv")},
    ).content.decode()
    assert 'id="import-ambiguous"' in html
    assert "Naming more than one invoice" in html
    assert f"{first.number}, {second.number}" in html
    assert not Payment.objects.filter(transaction_id="T3").exists()


# --- Issue 22, item 7: a long statement is recorded at once, its receipts mailed after ------


def _statement(invoices, prefix="TX") -> str:
    lines = ["date,amount,reference,transaction_id,payer"]
    lines += [f"2025-02-03,120.00,Dues {inv.number},{prefix}-{i},Payer {i}"
              for i, inv in enumerate(invoices)]
    return "\n".join(lines) + "\n"


@pytest.mark.django_db(transaction=True)
def test_a_long_statement_leaves_its_receipts_to_send_queued_mail(year_2025, make_member,
                                                                  treasurer):
    from django.core import mail
    from django.core.management import call_command

    invoices = [make_member().invoices.get() for _ in range(6)]
    mail.outbox = []
    report = services.bank_statement_import(data=_statement(invoices), recorded_by=treasurer)
    assert len(report.recorded) == 6
    assert mail.outbox == []  # nothing written while the treasurer waits
    assert Payment.objects.filter(receipt_waiting=True).count() == 6
    # a payment reversed meanwhile gets no receipt
    services.payment_reverse(payment=report.recorded[5], reversed_by=treasurer,
                             reason="wrong payer")
    call_command("send_queued_mail", stdout=__import__("io").StringIO())
    receipts = [m for m in mail.outbox if m.attachments]
    assert sorted(m.to[0] for m in receipts) == sorted(
        inv.member.user.email for inv in invoices[:5])
    assert all(m.attachments[0][0].startswith("receipt-R2025-") for m in receipts)
    assert not Payment.objects.filter(receipt_waiting=True).exists()
    # the next run mails nothing again
    before = len(mail.outbox)
    call_command("send_queued_mail", stdout=__import__("io").StringIO())
    assert len(mail.outbox) == before


@pytest.mark.django_db
def test_a_receipt_recorded_by_hand_is_still_mailed_at_once(year_2025, make_member, treasurer,
                                                            django_capture_on_commit_callbacks):
    from django.core import mail

    invoice = make_member().invoices.get()
    mail.outbox = []
    with django_capture_on_commit_callbacks(execute=True):
        payment = services.payment_record(invoice=invoice, amount=Decimal("120"),
                                          paid_on=date(2025, 2, 1), method="cash",
                                          recorded_by=treasurer)
    assert not payment.receipt_waiting
    assert [m.attachments[0][0] for m in mail.outbox] == [f"receipt-{payment.receipt_number}.pdf"]


@pytest.mark.django_db
def test_ten_times_the_lines_cost_the_queries_of_their_payments_only(year_2025, make_member,
                                                                     treasurer):
    """The invoices are read at once; each payment costs the writes of ``payment_record``
    (the one rule for recording money: the invoice locked, the duplicate checks, the receipt
    number, the payment, the audit line, the member's stored coverage (decision 0820), their
    savepoints: under twenty-six statements), and no mail is written."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    invoices = [make_member().invoices.get() for _ in range(33)]

    def cost(chosen, prefix) -> int:
        with CaptureQueriesContext(connection) as context:
            services.bank_statement_import(data=_statement(chosen, prefix), recorded_by=treasurer)
        return len(context.captured_queries)

    cost(invoices[:1], "WARM")
    small, large = cost(invoices[1:4], "S"), cost(invoices[3:33], "L")
    per_payment = (large - small) / 27
    assert per_payment <= 26, per_payment
    assert small - 3 * per_payment <= 6  # the fixed part: the invoices read once

"""Issue 42: Russian banks' statements in the 1C exchange format (1CClientBankExchange,
Windows-1251) read by the bank import beside CSV, payments matched by the invoice number in
their purpose; a statement of 1,000 payments imported with every one matched."""

from datetime import timedelta
from decimal import Decimal

import pytest
from django.contrib.auth.models import Group
from django.db.models import Sum

from federation import selectors, services
from federation.models import DuesInvoice, Member, MembershipType, Payment
from federation.rules import bank_statement
from tests.federation.membership.rouble_fixtures import DETAILS

OWN = DETAILS["account"]


def document(number, day, amount, purpose, *, payer="Петров Иван Иванович",
             payer_account="40817810099910004312", to=OWN, received=True):
    dates = f"ДатаПоступило={day}" if received else f"ДатаСписано={day}"
    return f"""СекцияДокумент=Платежное поручение
Номер={number}
Дата={day}
Сумма={amount}
ПлательщикСчет={payer_account}
{dates}
Плательщик=ИНН 500100732259 {payer}
ПлательщикИНН=500100732259
Плательщик1={payer}
ПлательщикРасчСчет={payer_account}
ПлательщикБанк1=АО "ТИНЬКОФФ БАНК"
ПлательщикБанк2=г. Москва
ПлательщикБИК=044525974
ПлательщикКорсчет=30101810145250000974
ПолучательСчет={to}
Получатель=ИНН {DETAILS["inn"]} {DETAILS["name"]}
ПолучательИНН={DETAILS["inn"]}
Получатель1={DETAILS["name"]}
ПолучательРасчСчет={to}
ПолучательБанк1={DETAILS["bank_name"]}
ПолучательБИК={DETAILS["bik"]}
ПолучательКорсчет={DETAILS["corr_account"]}
ВидПлатежа=электронно
ВидОплаты=01
Очередность=5
НазначениеПлатежа={purpose}
КонецДокумента
"""


def statement(*documents, encoding="Windows"):
    day = selectors.today().strftime("%d.%m.%Y")
    text = f"""1CClientBankExchange
ВерсияФормата=1.03
Кодировка={encoding}
Отправитель=Сбербанк Бизнес Онлайн
Получатель=Бухгалтерия предприятия
ДатаСоздания={day}
ВремяСоздания=10:00:00
ДатаНачала={day}
ДатаКонца={day}
РасчСчет={OWN}
СекцияРасчСчет
ДатаНачала={day}
ДатаКонца={day}
РасчСчет={OWN}
НачальныйОстаток=0.00
КонецРасчСчет
{"".join(documents)}КонецФайла
"""
    return text.replace("\n", "\r\n").encode("cp866" if encoding == "DOS" else "cp1251")


def test_parse_a_1c_statement_in_windows_1251():
    data = statement(
        document(17, "05.01.2026", "3500.00", "2026-00012 Членский взнос за 2026 год. НДС не "
                 "облагается"),
        document(3, "06.01.2026", "990.00", "Комиссия банка", to="40702810000000000001",
                 payer_account=OWN, received=False),  # paid out: skipped
        document(18, "06.01.2026", "1500", "Взнос за турнир", payer="ООО Ромашка"),
    )
    assert data.startswith(b"1CClientBankExchange") and "Платежное".encode("cp1251") in data
    parsed = bank_statement.parse_statement(data)
    assert parsed.errors == []
    first, second = parsed.rows
    assert (first.amount, first.currency, first.payer, first.invoice_number) == (
        Decimal("3500.00"), "RUB", "Петров Иван Иванович", "2026-00012")
    assert first.reference == "2026-00012 Членский взнос за 2026 год. НДС не облагается"
    assert first.transaction_id == "1C/05.01.2026/17/40817810099910004312"
    assert first.paid_on.isoformat() == "2026-01-05" and first.line == 17
    assert second.invoice_number is None and second.payer == "ООО Ромашка"


def test_dos_encoding_and_the_older_purpose_lines():
    doc = document(5, "05.01.2026", "100.00", "").replace(
        "НазначениеПлатежа=\n", "НазначениеПлатежа1=Оплата по счёту\nНазначениеПлатежа2=2026-00001\n")
    [row] = bank_statement.parse_statement(statement(doc, encoding="DOS")).rows
    assert row.reference == "Оплата по счёту 2026-00001" and row.invoice_number == "2026-00001"


def test_1c_errors_name_the_document_line():
    broken = statement(
        document(1, "05.01.2026", "abc", "2026-00001"),
        document(2, "31.02.2026", "10.00", "2026-00002"),
        document(3, "05.01.2026", "10.00", "2026-00003"),
        document(3, "05.01.2026", "10.00", "2026-00003 again"),
    ).replace("КонецДокумента\r\nКонецФайла".encode("cp1251"), "КонецФайла".encode("cp1251"))
    errors = [(e.line, e.code) for e in bank_statement.parse_statement(broken).errors]
    starts = [n for n, line in enumerate(broken.decode("cp1251").splitlines(), start=1)
              if line.startswith("СекцияДокумент")]
    assert errors == [
        (starts[3], bank_statement.E_1C_NOT_CLOSED),
        (starts[0], bank_statement.E_BAD_AMOUNT),
        (starts[1], bank_statement.E_BAD_DATE),
    ]
    assert bank_statement.parse_statement(statement()).errors[0].code == bank_statement.E_EMPTY


@pytest.mark.django_db
def test_a_statement_of_1000_payments_all_matched(rouble_year, treasurer, client, settings):
    """1,000 members' dues in roubles paid by transfer; the bank's 1C statement (with the
    federation's own outgoing payments among them) uploaded by the treasurer: every payment
    found its invoice by the number in its purpose; uploading it again records nothing."""
    settings.MEMBERSHIP_SITE_URL = "http://testserver"
    regular = MembershipType.objects.get(kind="regular")
    members = Member.objects.bulk_create(
        Member(name_native=f"Участник {i}", name_latin=f"Member {i}", membership_type=regular,
               application=Member.Application.APPROVED, joined_on=rouble_year.starts_on,
               email=f"m{i}@example.org", language="ru")
        for i in range(1000))
    today = selectors.today()
    invoices = DuesInvoice.objects.bulk_create(
        DuesInvoice(number=f"{today.year}-{i + 1:05d}", membership_year=rouble_year, member=m,
                    membership_type=regular, billed_name=m.name_native,
                    amount=Decimal("3500.00"), currency="RUB", issued_on=rouble_year.starts_on)
        for i, m in enumerate(members))
    day = (today - timedelta(days=1)).strftime("%d.%m.%Y")
    documents = []
    for i, invoice in enumerate(invoices):
        # as payers write it: the number somewhere in the purpose
        purpose = (f"{invoice.number} Членский взнос за {today.year} год. НДС не облагается"
                   if i % 2 else f"Оплата членского взноса по счёту № {invoice.number}")
        documents.append(document(i + 1, day, "3500.00", purpose,
                                  payer_account=f"40817810{i:012d}"))
        if i % 100 == 0:  # the federation's own payments in between
            documents.append(document(9000 + i, day, "120.00", "Аренда зала", to="40702810"
                                      "000000000001", payer_account=OWN, received=False))
    data = statement(*documents)
    assert len(data.splitlines()) > 27_000  # 1,010 documents
    client.force_login(treasurer)
    response = client.post("/admin/membership/bank-import/",
                           {"statement": _upload("выписка.txt", data)})
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="import-receipts"' in page and 'id="import-unmatched"' not in page
    assert Payment.objects.count() == 1000
    assert set(Payment.objects.values_list("invoice__number", flat=True)) == {
        invoice.number for invoice in invoices}
    assert Payment.objects.aggregate(total=Sum("amount"))["total"] == Decimal("3500000.00")
    balance = selectors.invoice_balance(invoices[999])
    assert balance.outstanding == 0
    again = client.post("/admin/membership/bank-import/",
                        {"statement": _upload("выписка.txt", data)}).content.decode()
    assert 'id="import-receipts"' not in again and Payment.objects.count() == 1000


@pytest.mark.django_db
def test_a_rouble_transfer_never_pays_a_euro_invoice(year_2025, make_member, treasurer):
    euro = make_member().invoices.get()
    day = selectors.today().strftime("%d.%m.%Y")
    report = services.bank_statement_import(
        data=statement(document(1, day, "120.00", euro.number)), recorded_by=treasurer)
    assert report.recorded == [] and [r.invoice_number for r in report.unmatched] == [
        euro.number]


@pytest.mark.django_db
def test_only_the_treasurer_imports(client, make_user):
    client.force_login(make_user(is_staff=True))
    data = statement(document(1, "05.01.2026", "10.00", "2026-00001"))
    response = client.post("/admin/membership/bank-import/",
                           {"statement": _upload("s.txt", data)})
    assert response.status_code in (302, 403) and not Payment.objects.exists()
    assert Group.objects.filter(name=services.ROLE_TREASURER).exists()


def _upload(name, data):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, data, content_type="text/plain")

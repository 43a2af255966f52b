"""Issue 42: the Russian unified payment QR (GOST R 56042-2014) on rouble invoices, their
PDF and receipts, read back by a QR reader; the bank details checked at start; the EPC code
kept for euros."""

import io
from datetime import date
from decimal import Decimal

import pytest
import zxingcpp
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from PIL import Image
from pypdf import PdfReader

from federation import selectors
from federation.checks import rouble_bank_details
from federation.payment_providers import payment_qr_png, rouble_qr_payload
from federation.rules import ru_payment
from tests.federation.membership.rouble_fixtures import DETAILS

pytestmark = pytest.mark.django_db


def read_qr(png: bytes) -> str:
    [code] = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))
    assert code.format == zxingcpp.BarcodeFormat.QRCode
    return code.text


def pdf_images(pdf: bytes) -> list[bytes]:
    out = []
    for image in PdfReader(io.BytesIO(pdf)).pages[0].images:
        buffer = io.BytesIO()
        image.image.convert("RGB").save(buffer, format="PNG")
        out.append(buffer.getvalue())
    return out


# --- the pure rules ---------------------------------------------------------------------


@pytest.mark.parametrize("inn", ["7707083893", "7709123453", "500100732259"])
def test_valid_inns(inn):
    assert ru_payment.inn_is_valid(inn)


@pytest.mark.parametrize("inn", ["7707083894", "770708389", "500100732258", "77070838AB", ""])
def test_invalid_inns(inn):
    assert not ru_payment.inn_is_valid(inn)


def test_account_keys_follow_the_bik():
    assert ru_payment.account_is_valid(DETAILS["account"], DETAILS["bik"])
    assert ru_payment.corr_account_is_valid(DETAILS["corr_account"], DETAILS["bik"])
    # one digit changed, or another bank's BIK: the key no longer matches
    assert not ru_payment.account_is_valid("40703810800000001235", DETAILS["bik"])
    assert not ru_payment.account_is_valid(DETAILS["account"], "044525974")
    assert not ru_payment.corr_account_is_valid("30101810400000000226", DETAILS["bik"])
    assert not ru_payment.corr_account_is_valid(DETAILS["account"], DETAILS["bik"])
    assert ru_payment.with_key("40703810000000001234", DETAILS["bik"]) == DETAILS["account"]


def test_check_details_names_each_bad_field():
    assert ru_payment.check_details({}) == []  # roubles not collected: nothing to check
    assert ru_payment.check_details(DETAILS) == []
    bad = {**DETAILS, "inn": "7709123454", "kpp": "77090100", "account": "40703810800000001235",
           "bank_name": ""}
    found = {(e.field, e.code) for e in ru_payment.check_details(bad)}
    assert found == {("inn", "bad_inn"), ("kpp", "bad_kpp"), ("account", "bad_account"),
                     ("bank_name", "missing")}


def test_payload_field_by_field():
    payload = ru_payment.payment_payload(DETAILS, amount=Decimal("3500.50"),
                                         purpose="2026-00012 Членский взнос | 2026")
    assert payload.startswith("ST00012|")
    keys = [part.split("=", 1)[0] for part in payload.split("|")[1:]]
    # the five required fields first, in the standard's order
    assert keys[:5] == ["Name", "PersonalAcc", "BankName", "BIC", "CorrespAcc"]
    fields = ru_payment.parse_payload(payload)
    assert fields == {
        "Name": "Федерация маджонга",
        "PersonalAcc": "40703810800000001234",
        "BankName": "ПАО Сбербанк",
        "BIC": "044525225",
        "CorrespAcc": "30101810400000000225",
        "PayeeINN": "7709123453",
        "KPP": "770901001",
        "Sum": "350050",  # kopecks
        "Purpose": "2026-00012 Членский взнос / 2026",  # no separator inside a value
    }


def test_payload_limits():
    long_purpose = "2026-00012 " + "x" * 400
    fields = ru_payment.parse_payload(
        ru_payment.payment_payload(DETAILS, amount=Decimal("1"), purpose=long_purpose))
    assert len(fields["Purpose"]) == 210 and fields["Purpose"].startswith("2026-00012 ")
    assert "KPP" not in ru_payment.parse_payload(ru_payment.payment_payload(
        {**DETAILS, "kpp": ""}, amount=Decimal("1"), purpose="p"))
    for amount in (Decimal("0"), Decimal("-1"), Decimal("1.005")):
        with pytest.raises(ValueError):
            ru_payment.payment_payload(DETAILS, amount=amount, purpose="p")
    with pytest.raises(ValueError, match="inn"):
        ru_payment.payment_payload({**DETAILS, "inn": "1"}, amount=Decimal("1"), purpose="p")


# --- the settings, checked at start ---------------------------------------------------------


def test_system_check_refuses_wrong_control_digits(settings):
    settings.MEMBERSHIP_BANK_ACCOUNT_RUB = {**DETAILS, "corr_account": "30101810400000000226"}
    [error] = rouble_bank_details()
    assert "MEMBERSHIP_RU_CORR_ACCOUNT" in error.msg and error.id.startswith("federation.E")
    with pytest.raises(SystemCheckError):
        call_command("check")
    settings.MEMBERSHIP_BANK_ACCOUNT_RUB = dict(DETAILS)
    assert rouble_bank_details() == []
    settings.MEMBERSHIP_BANK_ACCOUNT_RUB = dict.fromkeys(DETAILS, "")
    assert rouble_bank_details() == []  # not configured: the admin warns instead


# --- the invoice page, its PDF, the receipt -------------------------------------------------


@pytest.fixture
def rouble_member(make_member, rouble_year, rouble_details, settings):
    settings.MEMBERSHIP_SITE_URL = "http://testserver"
    return make_member(joined_on=rouble_year.starts_on)


def test_rouble_invoice_page_shows_the_russian_qr(client, rouble_member):
    invoice = rouble_member.invoices.get()
    assert invoice.currency == "RUB" and invoice.amount == Decimal("3500.00")
    client.force_login(rouble_member.user)
    page = client.get(f"/en/members/invoices/{invoice.number}/").content.decode()
    assert 'id="ru-payment-qr"' in page and 'id="epc-qr"' not in page
    for value in ("7709123453", "770901001", "044525225", "40703810800000001234",
                  "30101810400000000225", "ПАО Сбербанк"):
        assert value in page
    assert f"{invoice.number} Членский взнос за {invoice.membership_year.year} год" in page  # the purpose, in Russian, number first
    payload = rouble_qr_payload(invoice, Decimal("3500.00"))
    fields = ru_payment.parse_payload(payload)
    assert fields["Sum"] == "350000" and fields["Purpose"].startswith(invoice.number)
    assert read_qr(payment_qr_png(invoice, Decimal("3500.00"))) == payload


def test_invoice_pdf_carries_the_qr_a_reader_decodes(client, rouble_member, make_user):
    invoice = rouble_member.invoices.get()
    client.force_login(rouble_member.user)
    response = client.get(f"/en/members/invoices/{invoice.number}.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    text = PdfReader(io.BytesIO(response.content)).pages[0].extract_text()
    assert invoice.number in text and "40703810800000001234" in text
    [image] = pdf_images(response.content)
    decoded = read_qr(image)
    assert decoded == rouble_qr_payload(invoice, Decimal("3500.00"))
    assert ru_payment.parse_payload(decoded)["PayeeINN"] == "7709123453"
    # someone else's invoice: refused
    client.force_login(make_user())
    assert client.get(f"/en/members/invoices/{invoice.number}.pdf").status_code == 403


def test_receipt_of_a_part_payment_has_the_qr_of_what_is_left(client, rouble_member, pay_cash):
    invoice = rouble_member.invoices.get()
    payment = pay_cash(invoice, "1000", selectors.today())
    client.force_login(rouble_member.user)
    pdf = client.get(f"/en/members/receipts/{payment.receipt_number}.pdf").content
    assert "2500.00 RUB" in PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
    [image] = pdf_images(pdf)
    assert ru_payment.parse_payload(read_qr(image))["Sum"] == "250000"
    # paid in full: the receipt asks for nothing more
    last = pay_cash(invoice, "2500", selectors.today())
    pdf = client.get(f"/en/members/receipts/{last.receipt_number}.pdf").content
    assert pdf_images(pdf) == []


def test_entry_fee_invoice_in_roubles_gets_the_qr(client, make_user, rouble_details):
    from federation.models import DuesInvoice

    user = make_user()
    invoice = DuesInvoice.objects.create(
        number="2026-90001", user=user, purpose="Entry fee: Moscow Open", billed_name="A B",
        amount=Decimal("1500.00"), currency="RUB", issued_on=date(2026, 1, 5))
    client.force_login(user)
    page = client.get(f"/ru/members/invoices/{invoice.number}/").content.decode()
    assert 'id="ru-payment-qr"' in page
    fields = ru_payment.parse_payload(rouble_qr_payload(invoice, Decimal("1500.00")))
    assert fields["Purpose"].startswith("2026-90001 Entry fee: Moscow Open")


def test_euro_invoice_keeps_the_epc_code(client, make_member, live_year, settings,
                                         rouble_details):
    settings.MEMBERSHIP_BANK_ACCOUNT = {"holder": "Mahjong Federation",
                                        "iban": "NL91ABNA0417164300", "bic": "ABNANL2A"}
    member = make_member(joined_on=live_year.starts_on)
    invoice = member.invoices.get()
    client.force_login(member.user)
    page = client.get(f"/en/members/invoices/{invoice.number}/").content.decode()
    assert 'id="epc-qr"' in page and 'id="ru-payment-qr"' not in page
    assert read_qr(payment_qr_png(invoice, invoice.amount)).startswith("BCD\n")


def test_missing_rouble_details_no_qr_and_admin_warns(client, rouble_member, settings,
                                                      treasurer):
    settings.MEMBERSHIP_BANK_ACCOUNT_RUB = dict.fromkeys(DETAILS, "")
    invoice = rouble_member.invoices.get()
    client.force_login(rouble_member.user)
    page = client.get(f"/en/members/invoices/{invoice.number}/").content.decode()
    assert 'id="ru-payment-qr"' not in page
    client.force_login(treasurer)
    admin = client.get("/admin/invoices/").content.decode()
    assert 'id="rouble-bank-details-warning"' in admin and "INN" in admin
    assert "Russian bank details missing" in client.get("/admin/").content.decode()
    settings.MEMBERSHIP_BANK_ACCOUNT_RUB = dict(DETAILS)
    assert 'id="rouble-bank-details-warning"' not in client.get(
        "/admin/invoices/").content.decode()


def test_the_approval_mail_of_a_rouble_invoice_gives_the_russian_details(
    make_member, rouble_year, rouble_details, settings, django_capture_on_commit_callbacks
):
    from django.core import mail

    settings.MEMBERSHIP_SITE_URL = "http://testserver"
    with django_capture_on_commit_callbacks(execute=True):
        member = make_member(joined_on=rouble_year.starts_on)
    invoice = member.invoices.get()
    [approved] = [m for m in mail.outbox if invoice.number in m.body]
    for text in ("INN (tax number): 7709123453", "Account number: 40703810800000001234",
                 "BIK (bank code): 044525225", f"Purpose of payment (required): "
                 f"{invoice.number} Членский взнос"):
        assert text in approved.body
    assert "IBAN" not in approved.body

"""Member self-service: edit, export, erase, card/QR, receipts; bank import page."""

import io
import json
import re
from datetime import date
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from wagtail.models import ModelLogEntry

from federation import selectors, services
from federation.models import Member, Payment
from tournaments.models import Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def member(year_2025, make_member, club):
    return make_member(club=club, name_latin="Alice Owner", name_native="Алиса")


def test_edit_contact_and_consent_is_logged(client, member):
    client.force_login(member.user)
    response = client.post(
        "/en/members/me/edit/",
        {
            "email": "new@example.org",
            "phone": "+31 6",
            "address": "",
            "city": "Leiden",
            "country": "NL",
            "language": "nl",
            "public_consent": "on",
        },
    )
    assert response.status_code == 302
    member.refresh_from_db()
    assert (member.email, member.city, member.language, member.public_consent) == (
        "new@example.org",
        "Leiden",
        "nl",
        True,
    )
    entry = ModelLogEntry.objects.get(action="federation.member.contact")
    assert entry.user == member.user and "public_consent" in entry.data["fields"]
    assert "new@example.org" not in json.dumps(entry.data)


def test_export_json_contains_everything(client, member, treasurer):
    services.payment_record(
        invoice=member.invoices.get(),
        amount=Decimal("50"),
        paid_on=date(2025, 2, 1),
        method="cash",
        recorded_by=treasurer,
    )
    client.force_login(member.user)
    response = client.get("/en/members/me/export.json")
    assert response["Content-Disposition"].startswith("attachment")
    data = json.loads(response.content)
    assert data["member"]["name_native"] == "Алиса"
    assert data["invoices"][0]["state"] == "partial"
    assert data["payments"][0]["amount"] == "50.00"
    assert data["club_history"][0]["club"] == "East Wind"


def test_erase_via_page(client, member):
    Player.objects.create(name_latin="Alice Owner", member=member)
    user = member.user
    client.force_login(user)
    assert client.post("/en/members/me/erase/", {}).status_code == 200  # not confirmed
    response = client.post("/en/members/me/erase/", {"confirm": "on"})
    assert response.status_code == 302
    member.refresh_from_db()
    assert member.anonymised_at and member.name_latin == ""
    assert Player.objects.get(member=member).is_anonymised
    assert not client.login(email=user.email, password="pw-Secret-123")


def test_card_has_qr_to_public_check(client, member):
    client.force_login(member.user)
    html = client.get("/en/members/me/card/").content.decode()
    assert "<svg" in html
    assert f"/en/members/check/{member.public_id}/" in html


def test_card_shows_club_and_valid_until_and_downloads_as_pdf(client, live_year, make_member,
                                                              treasurer):
    from federation.models import Club

    member = make_member(joined_on=live_year.starts_on,
                         club=Club.objects.create(name="Utrecht Mahjong Club", city="Utrecht"))
    services.payment_record(
        invoice=member.invoices.get(), amount=Decimal("120"), paid_on=live_year.starts_on,
        method="bank_transfer", transaction_id="TX-CARD", recorded_by=treasurer,
    )
    valid_until = selectors.member_covered_until(member)
    assert valid_until is not None
    client.force_login(member.user)
    html = client.get("/en/members/me/card/").content.decode()
    assert "Utrecht Mahjong Club" in html
    assert re.search(r'id="card-valid-until">[^<]*' + str(valid_until.year), html)
    assert 'href="/en/members/me/card.pdf"' in html
    response = client.get("/ru/members/me/card.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    assert member.display_number in response["Content-Disposition"]
    # the card's words are in the page's language (reportlab keeps text searchable)
    from pypdf import PdfReader

    text = PdfReader(io.BytesIO(response.content)).pages[0].extract_text()
    assert "Членский билет" in text and "Utrecht Mahjong Club" in text
    assert valid_until.strftime("%d.%m.%Y") in text


def test_card_pdf_is_for_members_only(client, make_user):
    assert client.get("/en/members/me/card.pdf").status_code == 302  # to the login page
    client.force_login(make_user())
    assert client.get("/en/members/me/card.pdf").status_code in (302, 403)


def test_receipt_pdf(client, member, treasurer):
    payment = services.payment_record(
        invoice=member.invoices.get(),
        amount=Decimal("120"),
        paid_on=date(2025, 2, 1),
        method="bank_transfer",
        transaction_id="TX-9",
        recorded_by=treasurer,
    )
    client.force_login(member.user)
    response = client.get(f"/en/members/receipts/{payment.receipt_number}.pdf")
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")


def test_apply_page_creates_pending_application(client, year_2025, make_user, club):
    user = make_user()
    client.force_login(user)
    assert client.get("/en/members/me/").status_code == 302
    response = client.post(
        "/en/members/apply/",
        {
            "name_native": "Пётр",
            "name_latin": "Pyotr",
            "country": "RU",
            "city": "Kazan",
            "club": club.pk,
            "membership_type": Member._meta.get_field("membership_type")
            .related_model.objects.get(kind="regular")
            .pk,
            "email": user.email,
            "language": "ru",
        },
    )
    assert response.status_code == 302
    member = Member.objects.get(user=user)
    assert member.application == Member.Application.PENDING
    assert member.public_consent is False


def test_junior_needs_young_birth_date(client, year_2025, make_user):
    from federation.models import MembershipType

    client.force_login(make_user())
    response = client.post(
        "/en/members/apply/",
        {
            "name_native": "A",
            "name_latin": "A",
            "language": "en",
            "membership_type": MembershipType.objects.get(kind="junior").pk,
            "date_of_birth": "1980-01-01",
        },
    )
    assert response.status_code == 200
    assert not Member.objects.exists()


def test_bank_import_page_reports_line_errors_and_writes_nothing(client, member, treasurer):
    from wagtail.users.models import UserProfile

    profile = UserProfile.get_for_user(treasurer)  # the admin speaks the profile's language
    profile.preferred_language = "en"
    profile.save()
    client.force_login(treasurer)
    bad = b"date,amount,reference,transaction_id\n2025-02-01,abc,2025-00001,T1\n"
    response = client.post(
        "/admin/membership/bank-import/",
        {"statement": SimpleUploadedFile("s.csv", bad, content_type="text/csv")},
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "Line 2" in html and "abc" in html
    assert Payment.objects.count() == 0
    good = (
        b"date,amount,reference,transaction_id\n2025-02-01,120,2025-00001,T1\n2025-02-01,5,x,T2\n"
    )
    response = client.post(
        "/admin/membership/bank-import/",
        {"statement": SimpleUploadedFile("s.csv", good, content_type="text/csv")},
    )
    assert Payment.objects.count() == 1
    assert "Line 3" in response.content.decode()  # unmatched row reported


def test_admin_approval_page(client, year_2025, make_member, membership_officer):
    pending = make_member(approved=False)
    client.force_login(membership_officer)
    page = client.get(f"/admin/membership/applications/{pending.pk}/").content.decode()
    assert "Иван Петров" in page and pending.email in page  # the applicant's details
    client.post(f"/admin/membership/applications/{pending.pk}/approve/")
    pending.refresh_from_db()
    assert pending.membership_number == 1


def test_admin_payment_add_uses_service_and_refuses_duplicates(client, member, treasurer):
    client.force_login(treasurer)
    data = {
        "invoice": member.invoices.get().pk,
        "amount": "120.00",
        "paid_on": "2025-02-01",
        "method": "bank_transfer",
        "reference": "x",
        "transaction_id": "TX-77",
    }
    assert client.post("/admin/payments/new/", data).status_code == 302
    response = client.post("/admin/payments/new/", data)
    assert response.status_code == 200
    assert Payment.objects.count() == 1
    assert ModelLogEntry.objects.filter(action="federation.payment.record").count() == 1


@pytest.mark.parametrize(
    ("language", "font"),
    [("zh-hans", b"/BaseFont /STSong-Light"), ("ru", b"DejaVuSans"), ("fr", b"DejaVuSans")],
)
def test_receipt_pdf_uses_a_font_that_has_the_language_s_script(
    client, member, treasurer, language, font
):
    payment = services.payment_record(
        invoice=member.invoices.get(),
        amount=Decimal("120"),
        paid_on=date(2025, 2, 1),
        method="cash",
        recorded_by=treasurer,
    )
    client.force_login(member.user)
    pdf = client.get(f"/{language}/members/receipts/{payment.receipt_number}.pdf").content
    assert pdf.startswith(b"%PDF")
    assert font in pdf
    if language != "zh-hans":
        assert b"STSong-Light" not in pdf  # no CJK text on a Russian or French receipt


def test_edit_and_erase_pages_offer_cancel_and_the_country_as_a_list(client, member):
    client.force_login(member.user)
    html = client.get("/ru/members/me/edit/").content.decode()
    assert re.search(r'<a class="button button-secondary" href="/ru/members/me/">Отмена</a>', html)
    country = re.search(r'<select name="country"[^>]*>(.*?)</select>', html, re.S)
    assert country, "the country is chosen from a list"
    options = re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', country.group(1))
    assert options[1] == ("AU", "Австралия")  # the Russian alphabet, not the English one
    assert '<textarea name="address" cols="40" rows="3"' in html
    # the consent box sits beside its label
    assert re.search(r'<div class="field field-checkbox">\s*<input type="checkbox" '
                     r'name="public_consent"', html)
    erase = client.get("/ru/members/me/erase/").content.decode()
    assert 'class="button button-secondary" href="/ru/members/me/">Отмена</a>' in erase


def test_a_country_stored_as_free_text_stays_selectable(client, member):
    member.country = "Holland"
    member.save()
    client.force_login(member.user)
    html = client.get("/en/members/me/edit/").content.decode()
    assert '<option value="Holland" selected>Holland</option>' in html


def test_the_erase_page_says_what_stays_and_the_admin_marks_the_kept_name(client, member,
                                                                         admin_user):
    client.force_login(member.user)
    page = client.get("/en/members/me/erase/").content.decode()
    assert "What stays, and why" in page and "bookkeeping law" in page
    invoice = member.invoices.get()
    client.post("/en/members/me/erase/", {"confirm": "on"})
    invoice.refresh_from_db()
    assert invoice.billed_name  # kept for the accounts, as the page said
    from wagtail.users.models import UserProfile

    profile = UserProfile.get_for_user(admin_user)
    profile.preferred_language = "en"
    profile.save()
    admin = Client()
    admin.force_login(admin_user)
    html = admin.get("/admin/invoices/").content.decode()
    from django.utils.html import escape

    assert escape(f"{invoice.billed_name} (member's data erased; kept for the accounts)") in html

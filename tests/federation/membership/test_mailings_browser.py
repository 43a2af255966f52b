"""Issue 29 in a real browser (Playwright + Debian's Chromium): an editor writes a mailing,
previews it in two languages with the number of recipients, sends a test to themselves,
sends it, and follows the progress; a member unsubscribes from the link in the mail.
Screenshots at 1280 and 390 px, in English and Russian, go to /tmp/mailings-*.png."""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal

import pytest
from django.contrib.auth.models import Group
from django.core import mail
from django.utils import timezone
from wagtail.users.models import UserProfile

from federation import services
from federation.models import (
    ConsentEvent,
    Mailing,
    MembershipFee,
    MembershipType,
    MembershipYear,
)
from tests.browser import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "pw-Secret-123"


@pytest.fixture
def current_year(db):
    today = timezone.localdate()
    year = MembershipYear.objects.create(
        year=today.year, starts_on=date(today.year, 1, 1), ends_on=date(today.year, 12, 31))
    MembershipFee.objects.create(membership_year=year, amount=Decimal("120.00"),
                                 membership_type=MembershipType.objects.get(kind="regular"))
    return year


def admin_language(user, language):
    profile = UserProfile.get_for_user(user)
    profile.preferred_language = language
    profile.save()


def shots(page, name):
    for width in (1280, 390):
        page.set_viewport_size({"width": width, "height": 900})
        page.screenshot(path=f"/tmp/mailings-{name}-{width}.png", full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})


def test_an_editor_writes_previews_tests_and_sends_a_mailing(
    browser_page, settings, live_server, current_year, make_user, make_member, pay_cash
):
    settings.MEMBERSHIP_SITE_URL = live_server.url
    page = browser_page
    editor = make_user(is_staff=True, email="editor@example.org")
    editor.groups.add(Group.objects.get(name=services.ROLE_EDITORS))
    admin_language(editor, "en")
    readers = []
    for language in ("en", "ru", "nl"):
        member = make_member(language=language, joined_on=current_year.starts_on)
        pay_cash(member.invoices.get(), "120", current_year.starts_on)
        readers.append(member)
    log_in(page, editor.email, PASSWORD)
    mail.outbox.clear()  # the members' applications and receipts

    page.goto("/admin/mailings/")
    page.click("#mailing-new")
    page.select_option("select[name=audience]", "good_standing")
    page.fill("input[name=subject_ru]", "Чемпионат в мае")
    page.fill("textarea[name=body_ru]", "Запись на чемпионат открыта до 1 мая.")
    page.fill("input[name=subject_en]", "Championship in May")
    page.fill("textarea[name=body_en]", "Entries for the championship are open until 1 May.")
    shots(page, "write-en")
    page.click("#mailing-save")
    page.wait_for_url(re.compile(r"/admin/mailings/\d+/$"))
    mailing = Mailing.objects.get()
    assert page.inner_text("#mailing-recipients") == "3 members"
    assert page.inner_text("#mailing-preview-subject") == "Чемпионат в мае"
    page.click("a[data-lang=en]")
    page.wait_for_url(re.compile(r"\?lang=en$"))
    assert page.inner_text("#mailing-preview-subject") == "Championship in May"
    assert "in good standing" in page.inner_text("#mailing-preview-body")
    assert "/en/members/unsubscribe/" in page.inner_text("#mailing-preview-body")
    shots(page, "preview-en")
    page.click("a[data-lang=nl]")
    page.wait_for_url(re.compile(r"\?lang=nl$"))
    assert page.locator("#mailing-fallback").is_visible()  # no Dutch: the default text

    page.click("a[data-lang=en]")
    page.click("#mailing-test")
    page.wait_for_load_state()
    assert "A test in English was sent to editor@example.org" in page.content()
    assert [m.subject for m in mail.outbox] == ["[Test] Championship in May"]

    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#mailing-send")
    page.wait_for_load_state()
    assert "on its way to 3 members" in page.content()
    assert page.inner_text("#mailing-progress") == "0 of 3 sent, 3 waiting, 0 failed"
    services.mailings_deliver(batch_size=2)
    page.reload()
    assert page.inner_text("#mailing-progress") == "3 of 3 sent, 0 waiting, 0 failed"
    assert page.inner_text("#mailing-state") == "Sent"
    assert page.locator("#mailing-send").count() == 0
    shots(page, "sent-en")

    admin_language(editor, "ru")
    page.goto(f"/admin/mailings/{mailing.pk}/?lang=ru")
    assert "отправлено 3 из 3" in page.inner_text("#mailing-progress")
    shots(page, "sent-ru")
    page.goto("/admin/mailings/")
    shots(page, "index-ru")

    # a reader unsubscribes from the link of their mail, without logging in
    copy = next(m for m in mail.outbox if m.to == [readers[1].email])
    assert copy.subject == "Чемпионат в мае"
    url = copy.extra_headers["List-Unsubscribe"].strip("<>")
    page.context.clear_cookies()
    page.goto(url)
    shots(page, "unsubscribe-ru")
    page.click("#unsubscribe-confirm")
    page.wait_for_selector("#unsubscribe-done")
    event = ConsentEvent.objects.get()
    assert (event.member_id, event.granted, event.mailing_id) == (readers[1].pk, False,
                                                                   mailing.pk)


def test_a_member_chooses_their_mails(browser_page, current_year, make_member):
    page = browser_page
    member = make_member(language="en", joined_on=current_year.starts_on, country="NL")
    log_in(page, member.user.email, PASSWORD)
    page.goto("/en/members/me/")
    page.click("#mail-preferences-link")
    page.uncheck("input[name=news]")
    page.check("input[name=tournaments]")
    page.click("#mail-preferences button[type=submit]")
    page.wait_for_selector("#consent-events")
    assert "Your choice of mails has been saved." in page.content()
    shots(page, "preferences-en")
    page.goto("/ru/members/me/mail/")
    shots(page, "preferences-ru")
    assert set(ConsentEvent.objects.values_list("kind", "granted", "country")) == {
        ("news", False, ""), ("tournaments", True, "NL")}

"""Issue 28, phone navigation: at 390 px every link of the main navigation and of the
account row (log out included) is reached through the Menu button, which works without
JavaScript; on a desktop the links show without it. Screenshots in
test-artifacts/navigation/ (390 and 1280 px, Russian and English)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "navigation"
PASSWORD = "pw-Secret-123"


@pytest.fixture
def member_login(transactional_db, site_content, django_user_model):
    from allauth.account.models import EmailAddress

    user = django_user_model.objects.create_user(
        username="phone", email="phone@example.org", password=PASSWORD, is_staff=True,
        is_superuser=True,
    )
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


def _log_in(page, lang: str) -> None:
    log_in(page, "phone@example.org", PASSWORD, path=f"/{lang}/accounts/login/")
    page.wait_for_url(f"**/{lang}/**")


def _within_screen(page, locator, width: int) -> None:
    box = locator.bounding_box()
    assert box is not None, locator
    assert box["x"] >= 0 and box["x"] + box["width"] <= width, (locator, box)


def test_phone_reaches_every_navigation_link_and_logs_out(browser, live_server, member_login):
    context = browser.new_context(
        base_url=live_server.url, viewport={"width": 390, "height": 844}, locale="en-US",
        java_script_enabled=False,  # the menu is a <details>: no script needed
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        _log_in(page, "en")
        page.goto("/en/")
        hrefs = page.locator(".site-nav a").evaluate_all("links => links.map(a => a.href)")
        assert len(hrefs) == 7
        for index, href in enumerate(hrefs):
            page.goto("/en/tournaments/")
            link = page.locator(".site-nav a").nth(index)
            assert not link.is_visible()  # inside the closed menu
            page.locator(".site-menu-button").click()
            _within_screen(page, link, 390)
            link.click()
            page.wait_for_url(href)
        account = page.locator(".account-nav li > a, .account-nav button")
        page.goto("/en/")
        page.locator(".site-menu-button").click()
        assert account.count() >= 5
        for index in range(account.count()):
            assert account.nth(index).is_visible()
            _within_screen(page, account.nth(index), 390)
        assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
        page.get_by_role("navigation", name="Account").get_by_role(
            "button", name="Log out"
        ).click()
        page.wait_for_load_state()
        page.goto("/en/")
        page.locator(".site-menu-button").click()
        assert page.get_by_role("navigation", name="Account").get_by_role(
            "link", name="Log in"
        ).is_visible()
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("width", [390, 1280])
def test_header_screenshots_phone_and_desktop(browser, live_server, member_login, lang, width):
    context = browser.new_context(
        base_url=live_server.url, viewport={"width": width, "height": 800}, locale="en-US"
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        _log_in(page, lang)
        page.goto(f"/{lang}/ratings/")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        links = page.locator(".site-nav a, .account-nav li > a, .account-nav button")
        if width > 640:  # desktop: every link shows, no menu button
            assert not page.locator(".site-menu-button").is_visible()
            for index in range(links.count()):
                assert links.nth(index).is_visible()
            page.screenshot(path=str(ARTIFACTS / f"header-{lang}-{width}.png"))
        else:
            page.screenshot(path=str(ARTIFACTS / f"header-{lang}-{width}-closed.png"))
            page.locator(".site-menu-button").click()
            for index in range(links.count()):
                _within_screen(page, links.nth(index), width)
            page.screenshot(path=str(ARTIFACTS / f"header-{lang}-{width}-open.png"))
        assert page.evaluate("document.scrollingElement.scrollWidth") <= width
    finally:
        context.close()

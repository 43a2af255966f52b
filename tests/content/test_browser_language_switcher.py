"""In a real browser: the language switcher keeps the visitor on the same page."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_switching_language_on_the_login_page(browser_page, transactional_db, site_content):
    page = browser_page
    page.goto("/ru/")
    assert page.locator("h1").inner_text() == "Федерация маджонга"

    page.get_by_role("navigation", name="Язык").get_by_role("link", name="English").click()
    page.wait_for_url("**/en/")
    assert page.locator("h1").inner_text() == "Mahjong Federation"
    assert page.locator("html").get_attribute("lang") == "en"

    page.get_by_role("navigation", name="Account").get_by_role("link", name="Log in").click()
    page.wait_for_url("**/en/accounts/login/")
    page.get_by_role("navigation", name="Language").get_by_role("link", name="Français").click()
    page.wait_for_url("**/fr/accounts/login/")
    assert page.get_by_role("link", name="S’inscrire").is_visible()


def test_skip_link_moves_focus_to_main(browser_page, transactional_db, site_content):
    page = browser_page
    page.goto("/en/")
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.textContent")
    assert focused.strip() == "Skip to main content"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "main"


def test_phone_header_is_compact_and_opens_a_menu(browser_page, transactional_db, site_content):
    """At phone width the header is the site's name, a Menu button and the languages; the
    open menu shows every link in wrapped rows, none beyond the screen's edge."""
    page = browser_page
    page.set_viewport_size({"width": 390, "height": 800})
    page.goto("/nl/")
    header = page.locator(".site-header").bounding_box()
    assert header is not None and header["height"] < 130
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    # the five languages fit without scrolling, the current one (bold, longest) included
    assert page.evaluate(
        "(() => { const u = document.querySelector('.language-switcher ul');"
        " return u.scrollWidth <= u.clientWidth })()"
    )
    main_nav = page.get_by_role("navigation", name="Hoofdnavigatie")
    search = main_nav.get_by_role("link", name="Zoeken")
    assert not search.is_visible()  # inside the closed menu
    page.locator(".site-menu-button").click()
    box = search.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    search.click()
    page.wait_for_url("**/nl/search/**")

"""In a real browser: the language switcher keeps the visitor on the same page."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_switching_language_on_the_login_page(browser_page, transactional_db):
    from content.services import site_skeleton_load

    site_skeleton_load()
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


def test_skip_link_moves_focus_to_main(browser_page, transactional_db):
    from content.services import site_skeleton_load

    site_skeleton_load()
    page = browser_page
    page.goto("/en/")
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.textContent")
    assert focused.strip() == "Skip to main content"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "main"


def test_phone_header_is_compact_and_every_link_is_reachable(browser_page, transactional_db):
    """At phone width each navigation is one row that scrolls sideways: the header stays
    short, and a link beyond the screen's edge is still reached by touch or keyboard."""
    from content.services import site_skeleton_load

    site_skeleton_load()
    page = browser_page
    page.set_viewport_size({"width": 390, "height": 800})
    page.goto("/nl/")
    header = page.locator(".site-header").bounding_box()
    assert header is not None and header["height"] < 170
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390  # rows scroll, not the page
    main_nav = page.get_by_role("navigation", name="Hoofdnavigatie")
    for nav in (main_nav, page.get_by_role("navigation", name="Taal")):
        rows = nav.locator("li").evaluate_all(
            "items => new Set(items.map(i => Math.round(i.getBoundingClientRect().top))).size"
        )
        assert rows == 1  # one row, not wrapped
    # the five languages fit without scrolling, the current one (bold, longest) included
    assert page.evaluate(
        "(() => { const u = document.querySelector('.language-switcher ul');"
        " return u.scrollWidth <= u.clientWidth })()"
    )
    search = main_nav.get_by_role("link", name="Zoeken")
    box = search.bounding_box()
    assert box is not None and box["x"] + box["width"] > 390  # beyond the edge at first
    search.click()  # scrolled into view and followed
    page.wait_for_url("**/nl/search/**")

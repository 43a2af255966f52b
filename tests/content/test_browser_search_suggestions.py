"""In a real browser: suggestions as you type in the header's search box (an ARIA combobox),
chosen with the keyboard; at phone width (390 px) and in two languages; and the box still a
plain form without the script's help (Enter goes to the search page)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(tempfile.gettempdir()) / "search-shots"


def test_suggestions_as_you_type_at_phone_width(browser_page, rulebook_content_committed):
    SHOTS.mkdir(exist_ok=True)
    page = browser_page
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("/en/")
    box = page.get_by_role("combobox", name="Search the site")
    assert box.get_attribute("aria-expanded") == "false"
    box.fill("pure str")
    listbox = page.get_by_role("listbox", name="Suggestions")
    listbox.wait_for()
    options = listbox.get_by_role("option")
    assert "Pure Straight" in options.first.inner_text()
    assert "Fan · Mahjong Competition Rules (MCR)" in options.first.inner_text()
    assert box.get_attribute("aria-expanded") == "true"
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390  # nothing sticks out at phone width
    page.screenshot(path=str(SHOTS / "suggest-en-390.png"))

    box.press("ArrowDown")
    assert options.first.get_attribute("aria-selected") == "true"
    assert box.get_attribute("aria-activedescendant") == options.first.get_attribute("id")
    box.press("Enter")
    page.wait_for_url("**/en/rules/mcr/fans/28/")

    page.goto("/ru/")
    box = page.get_by_role("combobox", name="Поиск по сайту")
    box.fill("57a")
    option = page.get_by_role("listbox").get_by_role("option").first
    option.wait_for()
    assert "Два открытых конга" in option.inner_text()
    page.screenshot(path=str(SHOTS / "suggest-ru-390.png"))
    box.press("Escape")
    assert page.get_by_role("listbox", include_hidden=True).is_hidden()
    box.press("Enter")  # nothing chosen: the form goes to the search page
    page.wait_for_url("**/ru/search/?q=57a")
    assert "Два открытых конга" in page.locator("main").inner_text()
    page.screenshot(path=str(SHOTS / "search-ru-390.png"), full_page=True)


def test_search_page_and_suggestions_at_desktop_width(browser_page,
                                                     rulebook_content_committed):
    SHOTS.mkdir(exist_ok=True)
    page = browser_page
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto("/fr/search/?q=kong")
    results = page.locator("li.search-result")
    assert results.count() > 3
    assert results.first.locator("mark").count() >= 1
    page.screenshot(path=str(SHOTS / "search-fr-1280.png"), full_page=True)
    box = page.get_by_role("combobox", name="Rechercher sur le site")
    box.fill("chicken")
    page.get_by_role("listbox").get_by_role("option").first.wait_for()
    page.screenshot(path=str(SHOTS / "suggest-fr-1280.png"))


def test_the_box_is_a_plain_form_without_javascript(browser, live_server,
                                                    rulebook_content_committed):
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False)
    page = context.new_page()
    page.goto("/en/")
    page.get_by_role("searchbox", name="Search the site").fill("pure straight")
    page.get_by_role("searchbox", name="Search the site").press("Enter")
    page.wait_for_url("**/en/search/?q=pure+straight")
    assert "Pure Straight" in page.locator("main").inner_text()
    context.close()

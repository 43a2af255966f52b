"""In a real browser: the French fan table, filtered to 88 points, one fan with its tiles and
computed result, then the same fan in Chinese."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_fan_table_in_french_filter_open_a_fan_and_switch_to_chinese(
        browser_page, rulebook_content_committed):
    page = browser_page
    page.goto("/fr/rules/mcr/fans/")
    assert page.locator("h1").inner_text().startswith("Table des fans")
    rows = page.locator("tr[data-fan-row]:visible")
    assert rows.count() == 82

    page.get_by_label("Points").select_option("88")
    assert rows.count() == 7  # filtered live, without reloading
    assert "points=88" in page.url
    assert rows.first.locator("th a").inner_text() == "Quatre Grands Vents"

    page.get_by_role("link", name="Quatre Grands Vents").click()
    page.wait_for_url("**/fr/rules/mcr/fans/1/")
    assert page.locator("h1").inner_text() == "Quatre Grands Vents"

    example = page.locator("#fan1-ex1")
    tiles = example.locator(".hand-tiles")
    assert tiles.get_attribute("role") == "img"
    label = tiles.get_attribute("aria-label")
    assert label and "Est" in label  # the tiles' text alternative is French
    assert example.locator("img.tile").count() == 14
    result = example.locator("table.rb-result")
    assert "Quatre Grands Vents" in result.inner_text()
    assert result.locator(".rb-total").inner_text().startswith("217")

    page.get_by_role("navigation", name="Langue").get_by_role("link", name="简体中文").click()
    page.wait_for_url("**/zh-hans/rules/mcr/fans/1/")
    assert page.locator("h1").inner_text() == "大四喜"
    assert page.locator("#fan1-ex1 img.tile").count() == 14


def test_fan_table_search_finds_a_chinese_name_on_the_english_page(
        browser_page, rulebook_content_committed):
    page = browser_page
    page.goto("/en/rules/mcr/fans/")
    page.get_by_label("Find by name (any language)").fill("大四喜")
    rows = page.locator("tr[data-fan-row]:visible")
    assert rows.count() == 1
    assert rows.first.locator("th a").inner_text() == "Big Four Winds"
    assert page.locator("[data-fan-count]").inner_text() == "1 fan shown"


def test_fan_table_live_search_folds_accents_and_says_when_nothing_matches(
        browser_page, rulebook_content_committed):
    page = browser_page
    page.goto("/fr/rules/mcr/fans/")
    search = page.get_by_label("Rechercher par nom (toute langue)")
    search.fill("symetrie")
    rows = page.locator("tr[data-fan-row]:visible")
    assert rows.count() == 1
    assert rows.first.locator("th a").inner_text() == "Symétrie"
    assert page.locator("[data-fan-empty]").is_hidden()
    search.fill("zzzz")
    assert rows.count() == 0
    assert page.locator("[data-fan-empty]").is_visible()

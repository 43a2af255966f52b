"""The calculator in a real browser (Playwright, Debian's Chromium): build a hand by
clicking, see fans and payments, follow a fan link, share the URL, switch language."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import pytest

from rulebook.scoring import score

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def click_tiles(page, *tokens: str) -> None:  # type: ignore[no-untyped-def]
    for token in tokens:
        page.locator(f'#calc-palette [data-add="{token}"]').click()


def wait_total(page, total: int) -> None:  # type: ignore[no-untyped-def]
    page.locator(f'#calc-answer .total[data-total="{total}"]').wait_for()


def test_build_a_hand_by_clicking_and_share_it(browser_page, browser) -> None:  # type: ignore[no-untyped-def]
    page = browser_page
    page.goto("/en/calculator/")
    assert page.locator("#calc-builder").is_visible()  # the script shows the builder
    click_tiles(page, "1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1s", "2s", "3s",
                "5s", "5s")
    notation = page.locator("#calc-hand-input").input_value()
    assert notation == "123m456p789s12355s"
    page.get_by_role("radio", name="Discard from the left").check()
    expected = score(notation, **{"from": "left"})
    wait_total(page, expected.total)
    answer = page.locator("#calc-answer")
    assert answer.get_by_role("link", name="Mixed Straight").is_visible()
    assert "Left (N)" in answer.locator(".payments").inner_text()
    assert answer.locator(".pay-left .amount").inner_text() == f"-{8 + expected.total}"
    # the winning tile is marked in the built hand
    assert page.locator(".built-tile.winning").count() == 1

    # the URL holds the question: it opens in a new page, even without JavaScript
    url = page.url
    query = parse_qs(urlsplit(url).query)
    assert query["hand"] == [notation] and query["from"] == ["left"]
    plain = browser.new_context(base_url=url.split("/en/")[0], java_script_enabled=False)
    shared = plain.new_page()
    shared.goto(url)
    assert shared.locator(f'.total[data-total="{expected.total}"]').is_visible()
    assert shared.locator("#calc-builder").is_hidden()
    plain.close()

    # follow a fan link to its page in the rulebook
    page.locator("#calc-answer").get_by_role("link", name="Mixed Straight").click()
    page.wait_for_url(re.compile(r"/en/rules/mcr/fans/39/$"))


def test_melds_from_the_palette_and_the_waits(browser_page) -> None:  # type: ignore[no-untyped-def]
    page = browser_page
    page.goto("/en/calculator/")
    page.locator("#calc-mode").get_by_role("radio", name="Pung", exact=True).check()
    page.locator("#calc-claim").get_by_role("radio", name="Opposite", exact=True).check()
    click_tiles(page, "5p")
    page.locator("#calc-mode").get_by_role("radio", name="Concealed kong", exact=True).check()
    click_tiles(page, "E")
    page.locator("#calc-mode").get_by_role("radio", name="Chow", exact=True).check()
    click_tiles(page, "1s", "9s")  # 9s starts no chow: refused
    page.locator("#calc-mode").get_by_role("radio", name="Tile", exact=True).check()
    click_tiles(page, "7m", "8m", "C", "C")
    assert page.locator("#calc-hand-input").input_value() == "[555p,2][EEEE][123s]78mCC"
    # thirteen tiles: the waits, drawn, each with its score
    page.locator("#calc-answer .wait-list").wait_for()
    waits = page.locator("#calc-answer .wait-link")
    assert waits.count() == 2
    nine = score("[555p,2][EEEE][123s]78mCC9m")
    assert f"{nine.total} points" in waits.nth(1).inner_text()
    page.locator("[data-action=undo]").click()
    assert page.locator("#calc-hand-input").input_value() == "[555p,2][EEEE][123s]78mC"
    # tap a concealed tile to make it the winning tile
    page.locator("#calc-hand-input").fill("[555p,2][EEEE][123s]789mCC")
    page.locator(".built-tile").first.click()
    assert page.locator("#calc-hand-input").input_value() == "[555p,2][EEEE][123s]89mCC7m"
    # the chow of 9s was refused, the meld buttons remove their meld
    page.locator(".built-meld").nth(2).click()
    assert page.locator("#calc-hand-input").input_value() == "[555p,2][EEEE]89mCC7m"


def test_switch_language_and_keep_the_hand(browser_page) -> None:  # type: ignore[no-untyped-def]
    page = browser_page
    page.goto("/en/calculator/")
    page.locator("#calc-hand-input").fill("[1111s][EEEE]SSS7889m8m")
    page.get_by_role("radio", name="Self-drawn").check()
    page.locator("#calc-seat").select_option("N")
    page.locator("#calc-prevalent").select_option("W")
    wait_total(page, 33)
    page.get_by_role("navigation", name="Language").get_by_role("link", name="简体中文").click()
    page.wait_for_url("**/zh-hans/calculator/**")
    assert page.locator("#calc-hand-input").input_value() == "[1111s][EEEE]SSS7889m8m"
    wait_total(page, 33)
    assert page.locator("#calc-answer").get_by_role("link", name="双暗杠").is_visible()
    assert page.locator("html").get_attribute("lang") == "zh-hans"


def test_keyboard_only(browser_page) -> None:  # type: ignore[no-untyped-def]
    page = browser_page
    page.goto("/en/calculator/?rules=mcr&hand=123m456p789s123s5s")
    page.locator('#calc-palette [data-add="5s"]').focus()
    page.keyboard.press("Enter")
    assert page.locator("#calc-hand-input").input_value() == "123m456p789s12355s"
    page.keyboard.press("Shift+Tab")
    focused = page.evaluate("document.activeElement.dataset.add")
    assert focused == "4s"
    # no discarder given: the fans and the total, and a word on the payments
    expected = score("123m456p789s12355s")
    wait_total(page, expected.total)
    assert "Choose who discarded" in page.locator("#calc-answer").inner_text()


def test_a_bad_hand_shows_the_error_live(browser_page) -> None:  # type: ignore[no-untyped-def]
    page = browser_page
    page.goto("/fr/calculator/")
    page.locator("#calc-hand-input").fill("123m456p789s5s5s5s5s5s")
    error = page.locator('#calc-answer .calc-error[data-code="too_many_copies"]')
    error.wait_for()
    assert "cinquième" in error.inner_text()

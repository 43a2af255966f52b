"""Issue 38 (5) in a real browser: an editor (the "Editors" group only) finds the news draft
a tournament wrote on the admin's home page, opens the English one and publishes it (not
only "Submit to moderators"); /en/news/ then shows it, at 1280 and 390 px. Screenshots go to
/tmp/shots/news-drafts-*.png."""

from __future__ import annotations

from pathlib import Path

import pytest
from wagtail.users.models import UserProfile

from tests.browser import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/shots")


@pytest.mark.parametrize("width", [1280, 390])
def test_an_editor_publishes_the_english_draft_of_a_tournament(browser_page, site_content,
                                                               make_tournament, make_user,
                                                               width) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    make_tournament("accredited", players=12, name="Amsterdam Open")
    editor = make_user("Editors", email="editor@example.org")
    profile = UserProfile.get_for_user(editor)
    profile.preferred_language = "en"
    profile.save()
    page = browser_page
    page.set_viewport_size({"width": width, "height": 900})
    page.goto("/en/news/")
    assert page.locator(".news-title").count() == 0

    log_in(page, editor.email)
    page.goto("/admin/")
    panel = page.locator("#news_drafts, section:has-text('News drafts from tournaments')").first
    assert "News drafts from tournaments" in page.content()
    page.screenshot(path=str(SHOTS / f"news-drafts-dashboard-{width}.png"), full_page=True)
    line = page.get_by_role("link", name="Amsterdam Open is accredited")
    assert "English" in panel.inner_text() and "Nederlands" in panel.inner_text()
    line.click()
    page.wait_for_load_state()
    assert page.locator("input[name=title]").input_value() == "Amsterdam Open is accredited"
    publish = page.locator("button[name=action-publish]")
    assert publish.count() == 1  # not only "Submit to moderators"
    if not publish.is_visible():  # "Publish" sits behind the footer's menu
        page.locator("footer .dropdown-toggle, footer [data-w-dropdown-target=toggle]").first.click()
    publish.click()
    page.wait_for_load_state()
    page.screenshot(path=str(SHOTS / f"news-drafts-published-{width}.png"), full_page=True)

    page.goto("/en/news/")
    assert page.locator(".news-title a").all_inner_texts() == ["Amsterdam Open is accredited"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(path=str(SHOTS / f"news-en-{width}.png"), full_page=True)
    page.goto("/fr/news/")
    assert page.locator(".news-title").count() == 0  # the French draft waits for its editor

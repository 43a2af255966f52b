"""News in a browser (decision 0530): from the home page's news card to the index and a
post, at 1280 and 390 px, in English and Russian. Screenshots in test-artifacts/news/."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "news"
POSTS = {
    "en": [("Results of the Moscow Open", "Anna Li won on table points ahead of two Dutch "
            "players."), ("Dues for next year", "Invoices go out in December.")],
    "ru": [("Итоги Moscow Open", "Анна Ли победила по очкам за столом."),
           ("Взносы на следующий год", "Счета придут в декабре.")],
}


@pytest.fixture
def news(transactional_db, site_content):
    from wagtail.rich_text import RichText

    from content.models import NewsIndexPage, NewsPage

    for language, posts in POSTS.items():
        index = NewsIndexPage.objects.get(locale__language_code=language)
        for day, (title, summary) in enumerate(posts, start=1):
            post = NewsPage(title=title, summary=summary, date=datetime.date(2026, 11, day),
                            tag="tournaments" if day == 1 else "federation",
                            body=[("paragraph", RichText(f"<p>{summary}</p>"))])
            index.add_child(instance=post)
            post.save_revision().publish()


@pytest.mark.parametrize("width", [1280, 390])
@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_reader_goes_from_the_home_page_to_a_post(browser_page, news, language, width):
    page = browser_page
    page.set_viewport_size({"width": width, "height": 900})
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    first, second = POSTS[language]
    page.goto(f"/{language}/")
    card = page.locator("section.front-news")
    assert card.locator("li a").all_inner_texts() == [second[0], first[0]]
    card.locator("h2 a").click()
    page.wait_for_url(f"**/{language}/news/")
    titles = page.locator(".news-title a").all_inner_texts()
    assert titles == [second[0], first[0]]
    page.screenshot(path=str(ARTIFACTS / f"index-{language}-{width}.png"), full_page=True)
    page.locator(".news-tags a", has_text="Tournaments" if language == "en" else "Турниры").click()
    page.wait_for_url("**?tag=tournaments")
    assert page.locator(".news-title a").all_inner_texts() == [first[0]]
    page.locator(".news-title a").first.click()
    page.wait_for_load_state()
    assert page.locator("h1").inner_text() == first[0]
    assert page.locator("article .lead").inner_text() == first[1]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.screenshot(path=str(ARTIFACTS / f"post-{language}-{width}.png"), full_page=True)

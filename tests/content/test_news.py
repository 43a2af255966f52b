"""News (docs/decisions/0530): an index per language with pagination and tags, an Atom
feed per language, posts with worked examples scored live and links into the site, and the
latest three on the home page."""

from __future__ import annotations

import datetime
import re
import xml.etree.ElementTree as ET

import pytest
from django.test import Client
from django.urls import reverse
from wagtail.blocks import StructBlockValidationError
from wagtail.models import Locale
from wagtail.rich_text import RichText

from content.blocks import SiteLinkBlock
from content.models import NewsIndexPage, NewsPage
from content.services import site_skeleton_load
from rulebook.models import WorkedExample
from tournaments.models import Player

pytestmark = pytest.mark.django_db

ATOM = "{http://www.w3.org/2005/Atom}"
LANGUAGES = ["ru", "en", "zh-hans", "fr", "nl"]


def news_index(language: str) -> NewsIndexPage:
    return NewsIndexPage.objects.get(locale=Locale.objects.get(language_code=language))


def post(language: str, title: str, *, day: int = 1, tag: str = "federation", body=(),
         live: bool = True) -> NewsPage:
    page = NewsPage(title=title, summary=f"Summary of {title}", tag=tag,
                    date=datetime.date(2026, 1, day), body=list(body))
    news_index(language).add_child(instance=page)
    revision = page.save_revision()
    if live:
        revision.publish()
    else:
        page.live = False
        page.save(update_fields=["live"])
    return page


def test_every_language_has_a_news_index_and_loading_again_adds_none(client: Client,
                                                                   site_content) -> None:
    site_skeleton_load()
    assert NewsIndexPage.objects.count() == len(LANGUAGES)
    for language in LANGUAGES:
        response = client.get(f"/{language}/news/")
        assert response.status_code == 200
        assert f'href="/{language}/news/feed/"' in response.content.decode()
    assert "<h1>News</h1>" in client.get("/en/news/").content.decode()


def test_the_index_pages_by_ten_newest_first_and_filters_by_tag(client: Client,
                                                                site_content) -> None:
    for day in range(1, 13):
        post("en", f"Post {day:02}", day=day, tag="rules" if day % 4 == 0 else "federation")
    post("en", "A draft", day=28, live=False)
    post("fr", "Un article", day=28)
    first = client.get("/en/news/").content.decode()
    titles = re.findall(r'class="news-title"><a href="[^"]+">([^<]+)</a>', first)
    assert titles == [f"Post {day:02}" for day in range(12, 2, -1)]
    assert "Page 1 of 2" in first and 'rel="next"' in first
    second = client.get("/en/news/?page=2").content.decode()
    assert re.findall(r'class="news-title"><a href="[^"]+">([^<]+)</a>', second) == [
        "Post 02", "Post 01"]
    rules = client.get("/en/news/?tag=rules").content.decode()
    assert re.findall(r'class="news-title"><a href="[^"]+">([^<]+)</a>', rules) == [
        "Post 12", "Post 08", "Post 04"]
    assert "A draft" not in first and "Un article" not in first
    assert client.get("/en/news/?page=abc").status_code == 200


def test_the_atom_feed_is_valid_and_one_per_language(client: Client, site_content) -> None:
    post("en", "Championship results", day=3, tag="tournaments")
    post("en", "Dues & the year <2027>", day=5)
    post("en", "Unpublished", day=9, live=False)
    post("nl", "Kampioenschap", day=4)
    response = client.get("/en/news/feed/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/atom+xml")
    feed = ET.fromstring(response.content)
    assert feed.tag == f"{ATOM}feed"
    for required in ("id", "title", "updated"):
        assert feed.find(f"{ATOM}{required}") is not None
    assert feed.find(f"{ATOM}link[@rel='self']").get("href").endswith("/en/news/feed/")
    entries = feed.findall(f"{ATOM}entry")
    assert [e.findtext(f"{ATOM}title") for e in entries] == [
        "Dues & the year <2027>", "Championship results"]
    for entry in entries:  # RFC 4287: every entry has an id, a title, updated and a link
        assert entry.findtext(f"{ATOM}id") and entry.findtext(f"{ATOM}updated")
        assert "/en/news/" in entry.find(f"{ATOM}link").get("href")
    assert entries[1].find(f"{ATOM}category").get("term") == "Tournaments"
    dutch = ET.fromstring(client.get("/nl/news/feed/").content)
    assert [e.findtext(f"{ATOM}title") for e in dutch.findall(f"{ATOM}entry")] == ["Kampioenschap"]
    assert ET.fromstring(client.get("/ru/news/feed/").content).findall(f"{ATOM}entry") == []


def test_a_post_shows_text_a_worked_example_scored_live_and_links(client: Client,
                                                                  rulebook_content) -> None:
    example = WorkedExample.objects.filter(live=True, ruleset="mcr").first()
    player = Player.objects.create(name_latin="Anna Li")
    page = post("en", "A hand from the final", tag="rules", body=[
        ("paragraph", RichText("<p>The <b>final</b> hand.</p>")),
        ("example", {"example": example}),
        ("link", {"kind": "fan", "target": "mcr:1", "text": "Big Four Winds"}),
        ("link", {"kind": "player", "target": str(player.pk), "text": "Anna Li"}),
    ])
    html = client.get(page.url).content.decode()
    assert "The <b>final</b> hand." in html
    assert f'id="{example.code}"' in html and 'class="rb-hand"' in html
    assert 'href="/en/rules/mcr/fans/1/">Big Four Winds</a>' in html
    assert f'<a href="{reverse("ratings:player", args=[player.pk])}">Anna Li</a>' in html


def test_a_link_to_nothing_is_refused_when_the_editor_saves(rulebook_content) -> None:
    block = SiteLinkBlock()
    with pytest.raises(StructBlockValidationError):
        block.clean(block.to_python({"kind": "tournament", "target": "999", "text": "x"}))
    with pytest.raises(StructBlockValidationError):
        block.clean(block.to_python({"kind": "fan", "target": "mcr:999", "text": "x"}))
    assert block.clean(block.to_python({"kind": "fan", "target": "mcr:1", "text": "x"}))


def test_the_home_page_shows_the_latest_three_of_its_language(client: Client,
                                                              site_content) -> None:
    for day in range(1, 6):
        post("en", f"English {day}", day=day)
    post("fr", "Français", day=7)
    draft = post("en", "Not yet", day=9, live=False)
    assert client.get(f"/en/news/{draft.slug}/").status_code == 404  # drafts are for editors
    html = client.get("/en/").content.decode()
    card = re.search(r'<section class="front-card front-news".*?</section>', html, re.S).group(0)
    assert re.findall(r'<a href="/en/news/[^"]+">([^<]+)</a>', card) == [
        "English 5", "English 4", "English 3"]
    assert "Français" not in card
    fr = client.get("/fr/").content.decode()
    assert "Français" in fr and "No news yet." not in fr


def test_a_post_is_found_by_its_summary_and_text(site_content) -> None:
    from content.search_backends import page_search_text

    page = post("en", "Ruling on chombo", tag="rules", body=[
        ("paragraph", RichText("<p>The committee ruled on a <i>false</i> win.</p>")),
        ("link", {"kind": "tournament", "target": "7", "text": "Spring Open"}),
    ])
    text = page_search_text(page)
    assert "Summary of Ruling on chombo" in text
    assert "false" in text and "Spring Open" in text

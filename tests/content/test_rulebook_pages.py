"""The rulebook's pages: rules index, rule chapters, fan tables and fan pages in every language."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.test import Client

from content.models import FanTablePage, RuleChapterPage
from rulebook.models import Fan, WorkedExample
from tests.factories import StaffUserFactory, UserFactory

LANGUAGES = ["ru", "en", "zh-hans", "fr", "nl"]
FANS = json.loads(
    (Path(__file__).resolve().parents[2] / "rulebook/data/mcr_fans.json").read_text("utf-8")
)["fans"]
NOTICE = {
    "en": "Not yet translated.",
    "fr": "Pas encore traduit.",
}

pytestmark = pytest.mark.django_db


def rows(html: str) -> list[str]:
    """The fan names of the visible rows of a fan table."""
    found = re.findall(r'<tr id="fan-[^"]+" data-fan-row[^>]*?(hidden)?>\s*<td[^>]*>[^<]*</td>\s*'
                       r'<th[^>]*><a href="[^"]+"[^>]*>([^<]+)</a>', html)
    return [name for hidden, name in found if not hidden]


def test_the_rulebook_pages_exist_in_every_language(client, rulebook_content):
    for language in LANGUAGES:
        for path in ["rules/", "rules/mcr/", "rules/mcr/3/", "rules/mcr/appendix-1/",
                     "rules/mcr/fans/", "rules/mcr/fans/57a/", "rules/mcr/fans/57b/"]:
            response = client.get(f"/{language}/{path}")
            assert response.status_code == 200, (language, path)


def test_rules_index_lists_the_rulesets_and_links_their_fan_tables(client, rulebook_content):
    html = client.get("/en/rules/").content.decode()
    assert "Mahjong Competition Rules (MCR)" in html
    assert 'href="/en/rules/mcr/fans/"' in html


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_locales_fan_table_has_82_rows_named_as_in_the_seed(client, rulebook_content, language):
    html = client.get(f"/{language}/rules/mcr/fans/").content.decode()
    names = rows(html)
    assert len(names) == 82
    from django.utils.html import escape

    assert names == [escape(fan[language]["name"]) for fan in FANS]
    # 57A and 57B are two rows
    assert 'id="fan-57a"' in html and 'id="fan-57b"' in html


def test_fan_table_filters_by_points_and_category(client, rulebook_content):
    html = client.get("/en/rules/mcr/fans/?points=88").content.decode()
    assert rows(html) == [
        "Big Four Winds", "Big Three Dragons", "All Green", "Nine Gates", "Four Kongs",
        "Seven Shifted Pairs", "Thirteen Orphans",
    ]
    assert "7 fans shown" in html
    html = client.get("/en/rules/mcr/fans/?points=6&category=pungs").content.decode()
    assert rows(html) == ["All Pungs", "One Melded and one Concealed Kongs"]


def test_fan_table_finds_a_fan_by_its_name_in_another_language(client, rulebook_content):
    html = client.get("/en/rules/mcr/fans/", {"q": "大四喜"}).content.decode()
    assert rows(html) == ["Big Four Winds"]
    html = client.get("/zh-hans/rules/mcr/fans/", {"q": "quatre grands"}).content.decode()
    assert rows(html) == ["大四喜"]
    # every row carries the five names for the live (JavaScript) search
    # (folded as the search folds: no accents, no case)
    assert 'data-names="1 | большие четыре ветра | big four winds | 大四喜 | quatre grands vents | grote vier winden"' in html


def test_fan_table_search_ignores_accents_case_and_yo(client, rulebook_content):
    html = client.get("/fr/rules/mcr/fans/", {"q": "symetrie"}).content.decode()
    assert rows(html) == ["Symétrie"]
    html = client.get("/en/rules/mcr/fans/", {"q": "DERNIERE TUILE"}).content.decode()
    assert rows(html) == ["Last Tile Draw", "Last Tile Claim", "Last Tile"]
    html = client.get("/ru/rules/mcr/fans/", {"q": "семь смещенных"}).content.decode()
    assert rows(html) == ["Семь смещённых пар"]


def test_fan_table_says_when_no_fan_matches(client, rulebook_content):
    html = client.get("/en/rules/mcr/fans/", {"q": "zzzz"}).content.decode()
    assert rows(html) == []
    assert "0 fans shown" in html
    notice = re.search(r'<p class="rb-empty" data-fan-empty( hidden)?>', html)
    assert notice and notice.group(1) is None
    assert "No fan matches." in html
    # with fans shown the notice is there for the live search, but hidden
    html = client.get("/en/rules/mcr/fans/").content.decode()
    assert '<p class="rb-empty" data-fan-empty hidden>' in html


def test_fan_table_has_a_print_stylesheet_for_a4(client, rulebook_content):
    html = client.get("/en/rules/mcr/fans/").content.decode()
    assert "/static/css/rulebook.css" in html
    css = (Path(__file__).resolve().parents[2] / "static/css/rulebook.css").read_text()
    assert "@media print" in css and "size: A4" in css


def test_fan_page_shows_its_examples_with_the_computed_fans(client, rulebook_content):
    html = client.get("/en/rules/mcr/fans/1/").content.decode()
    assert "<h1>Big Four Winds</h1>" in html
    # fan1-ex1: the core counts Big Four Winds, All Honors, Four Concealed Pungs, Single Wait
    example = html[html.index('id="fan1-ex1"'):html.index('id="fan1-ex2"')]
    for fan_id, name in [("1", "Big Four Winds"), ("11", "All Honors"),
                         ("12", "Four Concealed Pungs"), ("79", "Single Wait")]:
        assert f'<a href="/en/rules/mcr/fans/{fan_id}/">{name}</a>' in example
    assert ">217<" in example
    # the book's words (the project's translation, decision 0523) and its fan list
    assert '<p lang="en" class="rb-book-text">Combined with “All Honors”.</p>' in example
    assert "The book's fans:" in example
    # a translated quote needs no notice; English notes on an English page neither
    assert "Quoted from the Russian edition of the book, as printed:" not in example
    assert "The project's notes, in English:" not in example
    # opens in the calculator with one click
    link = re.search(r'<a class="rb-calc-link" href="(/en/calculator/\?[^"]+)"', example)
    from urllib.parse import parse_qs, urlsplit

    query = parse_qs(urlsplit(link.group(1).replace("&amp;", "&")).query)
    assert query == {"rules": ["mcr"], "hand": ["EEESSSWWWNNNCC"], "self_drawn": ["0"],
                     "seat": ["E"], "prevalent": ["E"]}


def test_fan_page_says_what_it_excludes_and_why(client, rulebook_content):
    html = client.get("/en/rules/mcr/fans/1/").content.decode()
    section = html[html.index('id="excl-title"'):html.index('id="comb-title"')]
    assert '<a href="/en/rules/mcr/fans/38/">Big Three Winds</a>' in section
    assert "the rules (Appendix 1) say it is not combined with this fan" in section
    html = client.get("/en/rules/mcr/fans/8/").content.decode()
    section = html[html.index('id="excl-title"'):]
    # 18 is not in Appendix 1's list for fan 8: the core's table implies it
    assert re.search(r'fans/18/">All Terminals and Honors</a>.*?every hand with this fan has it too', section, re.S)


def test_fan_page_often_combined_with_is_computed_from_the_examples(client, rulebook_content):
    html = client.get("/en/rules/mcr/fans/1/").content.decode()
    section = html[html.index('id="comb-title"'):html.index('id="ex-title"')]
    assert "worked examples of the rules in which this fan is counted" in section
    assert "All Honors" in section


def test_fan_page_urls_are_lower_case(client, rulebook_content):
    response = client.get("/en/rules/mcr/fans/57A/")
    assert response.status_code == 301
    assert response["Location"] == "/en/rules/mcr/fans/57a/"
    assert client.get("/en/rules/mcr/fans/99/").status_code == 404


def test_language_switcher_on_a_fan_page_stays_on_the_fan(client, rulebook_content):
    html = client.get("/fr/rules/mcr/fans/57a/").content.decode()
    assert 'href="/zh-hans/rules/mcr/fans/57a/" hreflang="zh-hans"' in html
    assert 'href="/ru/rules/mcr/fans/57a/" hreflang="ru"' in html


def test_rule_chapter_keeps_anchors_tables_lists_and_examples(client, rulebook_content):
    html = client.get("/ru/rules/mcr/3/").content.decode()
    assert 'id="3-9-1"' in html and 'id="3-9-1-5"' in html
    assert "<caption>Очки за сессию</caption>" in html
    assert '<th scope="col">Место</th>' in html
    assert "<ol>" in html
    appendix = client.get("/ru/rules/mcr/appendix-1/").content.decode()
    assert 'id="fan1-ex1"' in appendix
    assert ">217<" in appendix


def test_not_yet_translated_notice_until_an_editor_translates(client, rulebook_content):
    assert NOTICE["en"] not in client.get("/ru/rules/mcr/3/").content.decode()
    html = client.get("/en/rules/mcr/3/").content.decode()
    assert NOTICE["en"] in html
    assert '<article class="rb-text" lang="ru">' in html
    assert NOTICE["fr"] in client.get("/fr/rules/mcr/3/").content.decode()

    # an editor translates the English page and ticks "translated"
    page = RuleChapterPage.objects.get(slug="3", locale__language_code="en")
    page.title = "Basic competition rules"
    page.is_translated = True
    page.save_revision().publish()
    html = client.get("/en/rules/mcr/3/").content.decode()
    assert NOTICE["en"] not in html
    assert "Basic competition rules" in html
    # a later load keeps the editor's translation
    from content.services import rulebook_pages_load

    report = rulebook_pages_load(force=False)
    page.refresh_from_db()
    assert page.title == "Basic competition rules"
    assert report.created == 0


def test_an_editor_can_translate_a_rule_page_in_the_admin(rulebook_content):
    editor = StaffUserFactory()
    client = Client()
    client.force_login(editor)
    page = RuleChapterPage.objects.get(slug="3", locale__language_code="ru")
    response = client.get(f"/admin/pages/{page.pk}/edit/")
    assert response.status_code == 200
    # simple_translation: the page is linked to its translations in the other locales
    translation = page.get_translation_or_none(
        RuleChapterPage.objects.get(slug="3", locale__language_code="nl").locale
    )
    assert translation is not None and not translation.specific.is_translated


def test_untranslated_fans_show_the_russian_name_with_the_notice(client, rulebook_content):
    Fan.objects.filter(ruleset="mcr", code="5", locale__language_code="nl").update(
        name="Четыре конга", is_translated=False
    )
    html = client.get("/nl/rules/mcr/fans/5/").content.decode()
    assert '<h1 lang="ru">Четыре конга</h1>' in html
    assert "Nog niet vertaald." in html


def test_editors_see_a_disagreement_between_core_and_book(rulebook_content):
    example = WorkedExample.objects.get(code="fan1-ex1")
    example.book_fans = ["1", "11", "2"]  # the core does not count Big Three Dragons
    example.save()
    editor = StaffUserFactory()
    editor_client = Client()
    editor_client.force_login(editor)
    html = editor_client.get("/en/rules/mcr/fans/1/").content.decode()
    assert "For editors: the scoring core disagrees with the book." in html
    assert "Not counted by the core: 2." in html
    # visitors do not see the editors' warning
    assert "For editors" not in Client().get("/en/rules/mcr/fans/1/").content.decode()
    member = UserFactory()
    member_client = Client()
    member_client.force_login(member)
    assert "For editors" not in member_client.get("/en/rules/mcr/fans/1/").content.decode()
    # and the admin's list says so
    admin_list = editor_client.get("/admin/snippets/rulebook/workedexample/?disagreeing=true")
    assert admin_list.status_code == 200
    text = admin_list.content.decode()
    # the admin speaks the language the editor was reading the site in (English here)
    assert "fan1-ex1" in text and "DISAGREES" in text
    assert "fan2-ex1" not in text


def test_fan_table_is_cached_and_refreshed_when_a_fan_is_published(client, rulebook_content):
    assert "Big Four Winds" in client.get("/en/rules/mcr/fans/").content.decode()
    fan = Fan.objects.get(ruleset="mcr", code="1", locale__language_code="en")
    fan.name = "Big Four Winds (renamed)"
    fan.save_revision().publish()
    assert "Big Four Winds (renamed)" in client.get("/en/rules/mcr/fans/").content.decode()


def test_every_ruleset_has_its_fan_table_in_every_language(rulebook_content):
    for ruleset in ("mcr", "hkos", "red"):
        tables = FanTablePage.objects.filter(slug="fans", url_path__contains=f"/rules/{ruleset}/")
        assert {t.locale.language_code for t in tables} == set(LANGUAGES)
        assert all(t.url.endswith(f"/rules/{ruleset}/fans/") for t in tables)


def test_hkos_and_red_fan_tables_show_the_translated_names(client, rulebook_content):
    """Decision 0527 (they showed the Russian names under the notice before)."""
    html = client.get("/en/rules/hkos/fans/").content.decode()
    assert "No Flowers and Seasons" in html and "Not yet translated." not in html
    assert "Без цветов и сезонов" not in html
    assert ">Doublings<" in html
    html = client.get("/ru/rules/hkos/fans/").content.decode()
    assert "Без цветов и сезонов" in html and "Ещё не переведено." not in html
    html = client.get("/fr/rules/red/fans/10/").content.decode()
    assert 'id="red-ex1"' in html and ">112<" in html  # scored by the Red ruleset
    assert "<h1>Grande Suite Pure</h1>" in html and "Pas encore traduit." not in html


def test_changed_rule_text_updates_pages_nobody_edited(rulebook_content, tmp_path):
    from content import data_files, services

    data = json.loads((data_files.RULES_DIR / "mcr.json").read_text("utf-8"))
    data["chapters"][0]["blocks"][0]["text"] = "Новая редакция введения."
    (tmp_path / "mcr.json").write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    # an editor translated the French introduction meanwhile
    french = RuleChapterPage.objects.get(slug="introduction", locale__language_code="fr")
    french.title = "Introduction"
    french.save_revision().publish()

    report = services.rulebook_pages_load(rules_dir=tmp_path)
    assert report.updated == 4 and report.kept_edits == ["fr:introduction"]
    assert "Новая редакция введения." in Client().get("/en/rules/mcr/introduction/").content.decode()
    french.refresh_from_db()
    assert french.title == "Introduction"
    # --force overwrites the editor's version
    report = services.rulebook_pages_load(rules_dir=tmp_path, force=True)
    french.refresh_from_db()
    assert french.title == "Введение"


def test_rule_pages_link_fan_names_and_section_references(client, rulebook_content):
    html = client.get("/en/rules/mcr/3/").content.decode()
    # «Большие четыре ветра» links to the fan's page in the visitor's language
    assert '<a href="/en/rules/mcr/fans/1/" class="rb-link-fan">Большие четыре ветра</a>' in html
    assert '<a href="/en/rules/mcr/fans/19/" class="rb-link-fan">Семь пар</a>' in html
    # «см. 3.9.1.5» on the same page links to the anchor
    assert '<a href="#3-9-1-5" class="rb-link-section">3.9.1.5</a>' in html
    # from another chapter, to the page and the anchor
    appendix = client.get("/fr/rules/mcr/appendix-1/").content.decode()
    assert '<a href="/fr/rules/mcr/3/#3-9-1" class="rb-link-section">3.9.1</a>' in appendix


def test_the_sitemap_lists_every_fan_page_in_every_language(client, rulebook_content):
    """An index of one section a language (issue 43), each with its language's pages only."""
    index = client.get("/sitemap.xml").content.decode()
    sections = re.findall(r"<loc>([^<]+)</loc>", index)
    assert [s.rsplit("/", 1)[1] for s in sections] == [
        f"sitemap-{code}.xml" for code in ("ru", "en", "zh-hans", "fr", "nl")]
    locations = []
    for language in ("ru", "en", "zh-hans", "fr", "nl"):
        xml = client.get(f"/sitemap-{language}.xml").content.decode()
        assert f"/{language}/</loc>" in xml
        assert f"/{language}/rules/mcr/fans/</loc>" in xml
        assert f"/{language}/rules/mcr/fans/57a/</loc>" in xml
        assert f"/{language}/rules/mcr/3/</loc>" in xml
        section = re.findall(r"<loc>([^<]+)</loc>", xml)
        assert all(f"/{language}/" in loc for loc in section)
        locations += section
        if language == "ru":
            assert "/ru/rules/hkos/fans/17/</loc>" in xml
    assert len(locations) == len(set(locations))  # each page once
    assert client.get("/sitemap-xx.xml").status_code == 404


def test_the_sitemap_is_cached(client, rulebook_content):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    first, index = client.get("/sitemap-en.xml").content, client.get("/sitemap.xml").content
    with CaptureQueriesContext(connection) as captured:
        again = client.get("/sitemap-en.xml").content
        assert client.get("/sitemap.xml").content == index
    assert again == first
    assert captured.captured_queries == []


def test_the_books_quote_and_the_english_notes_say_what_they_are(client, rulebook_content):
    russian = client.get("/ru/rules/mcr/fans/1/").content.decode()
    example = russian[russian.index('id="fan1-ex1"'):russian.index('id="fan1-ex2"')]
    assert "Совмещено с «Все благородные»." in example
    # the project's notes on how the hand is read are in Russian too (issue 41): no notice
    assert "rb-quote-note" not in example and "<li>цветов нет</li>" in example
    assert "Цитата из русского издания" not in example  # a Russian page quotes Russian as is
    # a language without a translation of the book's words quotes the Russian and says so
    # (every language has one now: the Dutch is taken away for this)
    from rulebook.models import WorkedExample

    worked = WorkedExample.objects.get(ruleset="mcr", code="fan1-ex1")
    worked.book_text_translations.pop("nl")
    worked.save()
    dutch = client.get("/nl/rules/mcr/fans/1/").content.decode()
    example = dutch[dutch.index('id="fan1-ex1"'):dutch.index('id="fan1-ex2"')]
    assert '<p lang="ru" class="rb-book-text">Совмещено с «Все благородные».</p>' in example
    assert "Geciteerd uit de Russische uitgave van het boek, zoals gedrukt:" in example
    # the notes are translated: no "in English" notice (issue 41)
    assert "Opmerkingen van het project, in het Engels:" not in example
    assert "<li>geen bloemen</li>" in example

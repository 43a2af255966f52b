"""HKOS and Red fans in the five languages (docs/decisions/0527): the fan data and the
translated rule pages' fan tables name and describe every fan alike, and once loaded the
fan pages, the fan tables, the rule links and the site search use the translations."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from content import rule_translations
from content.data_files import RULES_DIR
from rulebook import book_data

TRANSLATED = ("en", "zh-hans", "fr", "nl")
NOTICE = {"en": "Not yet translated.", "fr": "Pas encore traduit.", "nl": "Nog niet vertaald."}
FOOTNOTE = re.compile(r"^\[\d+\] ")


#: the first header cell of a fan table, per language ("NN" or the language's "No.")
NUMBER_HEADERS = {"NN", "No.", "N°", "Nr."}


def _fan_table_rows(path) -> list[list[str]]:
    """The rows of a rule file's fan tables (number, name, description, value)."""
    data = json.loads(path.read_text("utf-8"))
    rows = []
    for chapter in data["chapters"]:
        blocks = [*chapter["blocks"], *(b for s in chapter["sections"] for b in s["blocks"])]
        for block in blocks:
            if block["type"] == "table" and block["header"][0] in NUMBER_HEADERS:
                rows += block["rows"]
    return rows


def _texts(path) -> list[str]:
    data = json.loads(path.read_text("utf-8"))
    return [text for chapter in data["chapters"]
            for _where, text in rule_translations.chapter_texts(chapter)]


@pytest.mark.parametrize("language", ["ru", *TRANSLATED])
@pytest.mark.parametrize("ruleset", ["hkos", "red"])
def test_the_fan_data_and_the_rule_pages_fan_tables_agree(ruleset: str, language: str) -> None:
    suffix = "" if language == "ru" else f".{language}"
    path = RULES_DIR / f"{ruleset}{suffix}.json"
    table = _fan_table_rows(path)
    fans = book_data.fan_rows(ruleset, [language])
    assert [row[0] for row in table] == [fan.code for fan in fans]
    for row, fan in zip(table, fans, strict=True):
        assert (row[1], row[2]) == (fan.fields["name"], fan.fields["description"]), (
            ruleset, language, fan.code)
        assert int(row[3]) == fan.fields["points"]
    # a fan's note is the footnote of the rule page, in the same language
    footnotes = {FOOTNOTE.sub("", text) for text in _texts(path) if FOOTNOTE.match(text)}
    notes = [fan.fields["note"] for fan in fans if fan.fields["note"]]
    assert notes and set(notes) <= footnotes


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "name"), [
    ("en", "No Flowers and Seasons"), ("zh-hans", "无花"), ("fr", "Sans Fleur ni Saison"),
    ("nl", "Geen bloemen of seizoenen"),
])
def test_an_hkos_fan_page_shows_the_translation_without_the_notice(
    client: Client, rulebook_content, language: str, name: str
) -> None:
    html = client.get(f"/{language}/rules/hkos/fans/1/").content.decode()
    assert f"<h1>{name}</h1>" in html
    assert 'lang="ru"' not in html.split("<main", 1)[-1]
    assert "rb-notice" not in html and NOTICE.get(language, "only in Russian") not in html
    table = client.get(f"/{language}/rules/hkos/fans/").content.decode()
    assert name in table and "rb-notice" not in table
    assert "Без цветов" not in table


@pytest.mark.django_db
def test_a_fan_note_is_shown_in_the_pages_language(client: Client, rulebook_content) -> None:
    html = client.get("/en/rules/red/fans/11/").content.decode()
    assert "<h1>Chaotic Hand</h1>" in html
    assert "many-sided waits are common here" in html and "Возможно" not in html
    html = client.get("/nl/rules/red/fans/12/").content.decode()
    assert "<h1>Schoon spel</h1>" in html  # the name of HKOS and MCR (Half Flush)
    assert "rb-notice" not in html


@pytest.mark.django_db
def test_the_fans_api_names_hkos_fans_in_the_language_asked(client: Client, rulebook_content):
    fans = client.get("/api/v1/fans", {"rules": "hkos", "lang": "zh-hans"}).json()
    rows = fans["results"] if isinstance(fans, dict) else fans
    assert {row["id"]: row["name"] for row in rows}["13"] == "碰碰和"


def _fan_results(html: str) -> list[tuple[str, str]]:
    items = re.findall(r'<li class="search-result search-result-fan">(.*?)</li>', html, re.S)
    return [re.search(r'<a href="([^"]+)">([^<]+)</a>', item).groups() for item in items]


@pytest.mark.django_db
def test_the_site_search_finds_an_hkos_fan_by_its_english_and_chinese_name(
    client: Client, rulebook_content
) -> None:
    english = _fan_results(client.get("/en/search/", {"q": "no flowers"}).content.decode())
    assert ("/en/rules/hkos/fans/1/", "1. No Flowers and Seasons") in english
    chinese = _fan_results(client.get("/zh-hans/search/", {"q": "无花"}).content.decode())
    assert ("/zh-hans/rules/hkos/fans/1/", "1. 无花") in chinese
    # a name typed in another language finds the fan under the page's language's name
    french = _fan_results(client.get("/fr/search/", {"q": "Jade Dragon"}).content.decode())
    assert french == [("/fr/rules/hkos/fans/26/", "26. Dragon de Jade")]
    russian = _fan_results(client.get("/ru/search/", {"q": "翡翠龙"}).content.decode())
    assert russian == [("/ru/rules/hkos/fans/26/", "26. Нефритовый дракон")]


@pytest.mark.django_db
def test_the_elasticsearch_document_of_an_hkos_fan_has_every_languages_name(rulebook_content):
    from content.site_search import rulebook_documents

    doc = next(d for d in rulebook_documents() if d.meta.id == "fan-hkos-26")
    source = doc.to_dict()
    assert source["title_en"] == "Jade Dragon" and source["title_zh-hans"] == "翡翠龙"
    assert source["title_fr"] == "Dragon de Jade" and source["title_nl"] == "Jade draak"
    assert source["title_ru"] == "Нефритовый дракон"


@pytest.mark.django_db
def test_a_translated_hkos_text_links_the_translated_fan_names(rulebook_content) -> None:
    """The loaded fans name the HKOS fans in each language, as the rule tables do."""
    from content.rule_text import TextLinker, fan_name_variants
    from rulebook.links import fan_page_url

    assert "All Pungs" in fan_name_variants("hkos", "en")["13"]
    assert "清一色" in fan_name_variants("hkos", "zh-hans")["16"]
    linker = TextLinker("hkos", "en", {}, "/en/rules/hkos/", text_language="en")
    pieces = linker.pieces("Combined with “Dragon Pung” twice.")
    assert [(p.text, p.url) for p in pieces if p.kind == "fan"] == [
        ("Dragon Pung", fan_page_url("hkos", "5", "en"))]

"""The project's translations of the worked examples' book words (docs/decisions/0523): in
the data files beside the Russian, in every language of the rule pages, keeping the
Russian's numbers and line breaks and no Russian, naming fans as the fan tables do, and
shown in the page's language with the Russian as the fallback."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client

from content import rule_translations
from content.data_files import RULES_DIR
from content.rule_links import ruleset_fan_names
from rulebook import book_data, rulesets, selectors
from rulebook.models import WorkedExample

ROWS = [row for ruleset in rulesets.codes() for row in book_data.example_rows(ruleset)]
WITH_WORDS = [row for row in ROWS if row.fields["book_text"]]
LANGUAGES = book_data.BOOK_TEXT_LANGUAGES
#: a fan name as each language quotes it (the rule pages' quotation marks)
QUOTED = {
    "en": re.compile(r"“([^“”]+)”"),
    "fr": re.compile(r"«\s([^«»]+)\s»"),  # a no-break space inside (issue 41)
    "nl": re.compile(r"“([^“”]+)”"),
    "zh-hans": re.compile(r"“([^“”]+)”"),
}
MCR_EXAMPLES = json.loads(
    (book_data.DATA_DIR / "mcr_worked_examples.json").read_text(encoding="utf-8")
)["examples"]
MCR_NAMES = {
    (row.code, row.language): row.fields["name"]
    for row in book_data.fan_rows("mcr", LANGUAGES) if row.fields["is_translated"]
}


def _row_id(row: book_data.ExampleRow) -> str:
    return f"{row.ruleset}:{row.code}"


def test_the_words_are_translated_into_every_language_of_the_rule_pages() -> None:
    assert sorted(LANGUAGES) == sorted(rule_translations.TRANSLATION_LANGUAGES)
    assert sorted(LANGUAGES) == ["en", "fr", "nl", "zh-hans"]


def test_every_example_with_words_is_translated() -> None:
    assert len(WITH_WORDS) >= 100
    assert {row.ruleset for row in WITH_WORDS} == set(rulesets.codes())
    missing = [(row.ruleset, row.code, language) for row in WITH_WORDS for language in LANGUAGES
               if not row.fields["book_text_translations"].get(language)]
    assert missing == []


@pytest.mark.parametrize("row", ROWS, ids=_row_id)
def test_a_translation_keeps_the_numbers_and_leaves_no_russian(row: book_data.ExampleRow) -> None:
    russian = row.fields["book_text"]
    for language, text in row.fields["book_text_translations"].items():
        assert language in LANGUAGES
        assert rule_translations.numbers(text) == rule_translations.numbers(russian), language
        assert rule_translations.cyrillic_words(text) == [], language
        assert text.count("\n") == russian.count("\n"), language


def _combined_fans(example: dict[str, Any]) -> set[str]:
    """The fans an MCR example's «Совмещено с …» line names: the listed ones, the ones of
    which it counts one, and the ones it adds on a condition."""
    return {
        *example["combined_with"],
        *(fan for group in example.get("combined_with_one_of") or [] for fan in group),
        *(example.get("combined_with_if") or {}),
    }


@pytest.mark.parametrize(
    "example", [ex for ex in MCR_EXAMPLES if ex.get("combined_with_ru")], ids=lambda ex: ex["id"]
)
def test_a_combined_with_line_names_its_fans_as_the_fan_table_does(example: dict[str, Any]) -> None:
    fans = _combined_fans(example)
    assert fans
    for language in LANGUAGES:
        line = example.get(f"combined_with_{language}") or ""
        assert line.count("\n") == example["combined_with_ru"].count("\n"), language
        quoted = set(QUOTED[language].findall(line))
        names = {MCR_NAMES[(fan, language)] for fan in fans}
        # every listed fan by its table name, and nothing quoted that is not one of them
        assert quoted == names, language


def _fans_json(ruleset: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((book_data.DATA_DIR / f"{ruleset}_fans.json").read_text("utf-8"))
    return data


def _hkos_red_names(ruleset: str, language: str) -> dict[str, list[str]]:
    """Fan id -> its names in the translated rule page's fan tables."""
    source = json.loads((RULES_DIR / f"{ruleset}.json").read_text("utf-8"))
    translation = rule_translations.translation_read(RULES_DIR, ruleset, language)
    assert translation is not None, (ruleset, language)
    return rule_translations.translated_fan_names(
        source, translation, ruleset_fan_names(_fans_json(ruleset))
    )


@pytest.mark.parametrize(
    "row", [row for row in WITH_WORDS if row.ruleset != "mcr"], ids=_row_id
)
def test_hkos_and_red_words_name_fans_as_the_translated_fan_table(
    row: book_data.ExampleRow,
) -> None:
    fans_json = _fans_json(row.ruleset)
    russian = row.fields["book_text"].lower().replace("ё", "е")
    named = [
        fan["id"] for fan in fans_json["fans"]
        if f"“{fan['name'].lower().replace('ё', 'е')}”" in russian
        and str(fan["id"]) in row.fields["book_fans"]
    ]
    for language in LANGUAGES:
        table = _hkos_red_names(row.ruleset, language)
        quoted = QUOTED[language].findall(row.fields["book_text_translations"][language])
        for fan in named:
            assert set(table[fan]) & set(quoted), (fan, language, table[fan])


def test_the_combined_fans_are_named_as_in_the_fan_table() -> None:
    row = next(r for r in ROWS if r.ruleset == "mcr" and r.code == "fan1-ex2")
    assert row.fields["book_text_translations"] == {
        "en": "Combined with “All Terminals and Honors” and “Half Flush”.",
        "zh-hans": "与“混幺九”和“混一色”复合。",
        "fr": "Combiné avec «\u00a0Tout Honneur et Extrémité\u00a0» et «\u00a0Semi-Pure\u00a0».",
        "nl": "Gecombineerd met “Alleen hoek en troefstenen” en “Schoon spel”.",
    }


@pytest.mark.django_db
def test_an_example_shows_the_books_words_in_the_pages_language(rulebook_content: object) -> None:
    example = WorkedExample.objects.get(ruleset="mcr", code="fan48-ex1")
    english = selectors.example_scored(example, language="en")
    assert english.book_text.startswith("Two concealed kongs, a pung of South wind")
    assert english.book_text.endswith("“Single Wait”.")
    assert english.book_text_language == "en"
    dutch = selectors.example_scored(example, language="nl")
    assert dutch.book_text.startswith("Twee verborgen kongen, een pung van de Zuidenwind")
    assert dutch.book_text.endswith("“Wachtend op sluitpaar”.")
    assert dutch.book_text_language == "nl"
    chinese = selectors.example_scored(example, language="zh-hans")
    assert chinese.book_text.startswith("两个暗杠、南风刻子")
    assert chinese.book_text.endswith("“单调将”复合。")
    assert chinese.book_text_language == "zh-hans"

    for scored, start in ((english, "Two concealed kongs"), (dutch, "Twee verborgen kongen"),
                          (chinese, "两个暗杠")):
        html = Client().get(scored.fans[0].url).content.decode()
        assert f'<p lang="{scored.book_text_language}" class="rb-book-text">{start}' in html
        assert "Совмещено" not in html


@pytest.mark.django_db
def test_a_language_without_a_translation_falls_back_to_the_russian(
    rulebook_content: object,
) -> None:
    example = WorkedExample.objects.get(ruleset="mcr", code="fan48-ex1")
    example.book_text_translations = {
        language: text for language, text in example.book_text_translations.items()
        if language != "nl"
    }
    example.save(update_fields=["book_text_translations"])
    dutch = selectors.example_scored(example, language="nl")
    assert dutch.book_text == example.book_text and dutch.book_text_language == "ru"

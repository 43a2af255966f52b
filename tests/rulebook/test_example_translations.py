"""The project's translations of the worked examples' book words (docs/decisions/0522): in
the data files beside the Russian, keeping its numbers and no Russian, shown in the page's
language with the Russian as the fallback."""

from __future__ import annotations

import pytest
from django.test import Client

from content import rule_translations
from rulebook import book_data, selectors
from rulebook.models import WorkedExample

ROWS = [row for ruleset in book_data.RULESETS for row in book_data.example_rows(ruleset)]
#: the languages whose translation of every example's words is complete
COMPLETE = ("en", "fr")


def test_every_example_with_words_is_translated() -> None:
    with_words = [row for row in ROWS if row.fields["book_text"]]
    assert len(with_words) >= 100
    missing = [(row.code, language) for row in with_words for language in COMPLETE
               if not row.fields["book_text_translations"].get(language)]
    assert missing == []


@pytest.mark.parametrize("row", ROWS, ids=lambda row: f"{row.ruleset}:{row.code}")
def test_a_translation_keeps_the_numbers_and_leaves_no_russian(row) -> None:
    russian = row.fields["book_text"]
    for language, text in row.fields["book_text_translations"].items():
        assert language in book_data.BOOK_TEXT_LANGUAGES
        assert rule_translations.numbers(text) == rule_translations.numbers(russian), language
        assert rule_translations.cyrillic_words(text) == [], language
        assert text.count("\n") == russian.count("\n")


def test_the_combined_fans_are_named_as_in_the_fan_table() -> None:
    row = next(r for r in ROWS if r.ruleset == "mcr" and r.code == "fan1-ex2")
    assert row.fields["book_text_translations"] == {
        "en": "Combined with “All Terminals and Honors” and “Half Flush”.",
        "fr": "Combiné avec « Tout Honneur et Extrémité » et « Semi-Pure ».",
    }


@pytest.mark.django_db
def test_an_example_shows_the_books_words_in_the_pages_language(rulebook_content) -> None:
    example = WorkedExample.objects.get(ruleset="mcr", code="fan48-ex1")
    english = selectors.example_scored(example, language="en")
    assert english.book_text.startswith("Two concealed kongs, a pung of South wind")
    assert english.book_text.endswith("“Single Wait”.")
    assert english.book_text_language == "en"
    dutch = selectors.example_scored(example, language="nl")  # not translated yet
    assert dutch.book_text == example.book_text and dutch.book_text_language == "ru"

    html = Client().get(english.fans[0].url).content.decode()
    assert '<p lang="en" class="rb-book-text">Two concealed kongs' in html
    assert "Совмещено" not in html

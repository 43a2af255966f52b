"""Fan names in translated rule texts link to the fan pages in the page's language
(decision 0526): the pure matcher, and a loaded English translation of the tests' MCR text."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path

import pytest
from django.test import Client

from content.rule_links import link_segments
from content.rule_translations import source_hash
from content.services import rulebook_pages_load

FANS = {
    "28": ["Pure Straight"], "81": ["Chicken Hand"], "59": ["Dragon Pung"],
    "80": ["Self-Drawn"], "69": ["Pung of Terminals or Honors"], "35": ["清龙"],
    "48": ["平和"], "1": ["大四喜"],
}


def links(text: str) -> list[tuple[str, str]]:
    return [(s.text, s.fan) for s in link_segments(text, FANS, {"3-9-1"}, translated=True)
            if s.fan]


def test_a_name_of_two_words_or_more_links_anywhere_in_any_case() -> None:
    assert links("A pure straight scores 16; a Dragon Pung too.") == [
        ("pure straight", "28"), ("Dragon Pung", "59")]
    assert links("See the Pung of Terminals or Honors.") == [
        ("Pung of Terminals or Honors", "69")]


def test_whole_words_only_and_the_longest_name_wins() -> None:
    assert links("Dragon Pungs are many") == []
    assert links("no Self-Drawnness here") == []


def test_a_one_word_name_only_in_quotes() -> None:
    assert links("He won self-drawn.") == []
    fans = {"80": ["Self-Drawn"], "77": ["Flowers"]}
    found = [(s.text, s.fan) for s in link_segments(
        "Count “Flowers”, and flowers.", fans, (), translated=True) if s.fan]
    assert found == [("Flowers", "77")]


def test_chinese_names_without_word_boundaries() -> None:
    assert links("和牌时有大四喜，计88番。") == [("大四喜", "1")]
    assert links("平和是常见的。“平和”") == [("平和", "48")]  # two characters: in quotes
    assert links("「清龙」") == [("清龙", "35")]


def test_section_references_still_link_and_win_over_names() -> None:
    segments = link_segments("See 3.9.1 and Chicken Hand.", FANS, {"3-9-1"}, translated=True)
    assert [(s.text, s.anchor or s.fan) for s in segments if s.anchor or s.fan] == [
        ("3.9.1", "3-9-1"), ("Chicken Hand", "81")]


@pytest.fixture
def english_mcr(rulebook_content, tmp_path):
    """The tests' MCR text with an English translation whose first paragraph names fans."""
    from rulebook.models import Fan

    source_path = Path(__file__).parent / "data/rules/mcr.json"
    shutil.copy(source_path, tmp_path / "mcr.json")
    source = json.loads(source_path.read_text("utf-8"))
    translation = copy.deepcopy(source)
    translation["language"] = "en"
    for chapter, russian in zip(translation["chapters"], source["chapters"], strict=True):
        chapter["source_hash"] = source_hash(russian)
    name = Fan.objects.get(ruleset="mcr", code="28", locale__language_code="en").name
    short = Fan.objects.get(ruleset="mcr", code="81", locale__language_code="en").name
    translation["chapters"][0]["title"] = "Introduction"
    translation["chapters"][0]["blocks"][0]["text"] = (
        f"These rules describe competition mahjong: a {name.lower()} is worth 16 points, "
        f"and “{short}” 8."
    )
    (tmp_path / "mcr.en.json").write_text(json.dumps(translation, ensure_ascii=False), "utf-8")
    rulebook_pages_load(rules_dir=tmp_path)
    return name, short


@pytest.mark.django_db
def test_fans_named_in_a_loaded_translation_link_in_the_pages_language(english_mcr) -> None:
    name, short = english_mcr
    html = Client().get("/en/rules/mcr/introduction/").content.decode()
    assert '<a href="/en/rules/mcr/fans/28/"' in html and name.lower() in html
    assert '<a href="/en/rules/mcr/fans/81/"' in html and short in html
    # the Russian page keeps its text and the Russian linker
    russian = Client().get("/ru/rules/mcr/introduction/").content.decode()
    assert name.lower() not in russian and 'href="/en/' not in russian.split("<article")[1]

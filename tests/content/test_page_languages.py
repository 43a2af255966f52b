"""Issue 41: appendix numbers, the bibliographic line and the worked examples' notes in
the page's language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("language", "label"), [
    ("en", "Appendix 1"), ("fr", "Annexe 1"), ("nl", "Bijlage 1"), ("zh-hans", "附录1"),
    ("ru", "П1"),
])
def test_an_appendix_is_numbered_in_the_pages_language(client, rulebook_content, language, label):
    html = client.get(f"/{language}/rules/mcr/").content.decode()
    numbers = re.findall(r'<span class="rb-num">([^<]+)</span>', html)
    assert label in numbers
    if language != "ru":
        assert not [n for n in numbers if "П" in n]


def test_the_source_line_is_bibliographic(client, rulebook_content, tmp_path):
    import json

    from django.core.cache import cache

    from content import services
    from content.models import RulesetPage
    from rulebook.selectors import content_version_forget

    rules_dir = Path(__file__).resolve().parents[2] / "content/data/rules"  # the real files
    russian = json.loads((rules_dir / "mcr.json").read_text("utf-8"))
    english = services._citation(rules_dir, "mcr", "en", russian)
    assert english.startswith("Mahjong Competition Rules, World Mahjong Organization, 2006")
    assert "seed" not in english
    # a language without a translation file: the Russian line
    assert services._citation(tmp_path, "mcr", "fr", russian) == russian["citation"]

    page = RulesetPage.objects.get(slug="mcr", locale__language_code="en")
    for source, marked in ((english, False), (russian["citation"], True)):
        page.source = source
        page.save()
        cache.clear()  # the anonymous page cache of the rulebook
        content_version_forget()
        html = client.get("/en/rules/mcr/").content.decode()
        line = re.search(r'<p class="rb-source">(.*?)</p>', html, re.S).group(1)
        assert ('lang="ru"' in line) is marked


@pytest.mark.parametrize(("language", "note"), [
    ("fr", "pas de fleurs"), ("nl", "geen bloemen"), ("zh-hans", "无花牌"), ("ru", "цветов нет"),
    ("en", "no flowers"),
])
def test_the_examples_notes_are_in_the_pages_language(client, rulebook_content, language, note):
    html = client.get(f"/{language}/rules/mcr/fans/1/").content.decode()
    example = html[html.index('id="fan1-ex1"'):html.index('id="fan1-ex2"')]
    notes = example[example.index('class="rb-assumptions"'):]
    assert f"<li>{note}</li>" in notes
    assert "The project's notes, in English" not in notes
    assert "«" not in notes  # no Russian fan name quoted in the notes


def test_a_note_without_a_translation_stays_english_and_is_marked(client, rulebook_content):
    from django.utils import translation

    from rulebook.example_notes import example_notes

    with translation.override("fr"):
        assert example_notes(["no flowers", "a note nobody translated"]) == [
            ("pas de fleurs", "fr"), ("a note nobody translated", "en")]


def test_whole_words_come_before_substrings_inside_a_rank() -> None:
    """Issue 41: "Léa" (a player) before five "Tableau" pages that merely contain "lea"."""
    from content.search_results import PAGE, PLAYER, TITLE_PHRASE, Result
    from content.site_search import ranked, whole_words
    from rulebook.search_text import search_fold

    assert whole_words(search_fold("Léa Martin"), ["lea"])
    assert not whole_words(search_fold("Tableau des places"), ["lea"])
    assert whole_words(search_fold("一条清龙"), ["清龙"])
    pages = [Result(kind=PAGE, id=str(n), title="Tableau", snippet=None, url="/", rank=TITLE_PHRASE,
                    order=n, whole=False) for n in range(5)]
    player = Result(kind=PLAYER, id="9", title="Léa", snippet=None, url="/", rank=TITLE_PHRASE)
    assert ranked([*pages, player])[0] is player

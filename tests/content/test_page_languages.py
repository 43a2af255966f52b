"""Issue 41: appendix numbers, the bibliographic line and the worked examples' notes in
the page's language."""

from __future__ import annotations

import re

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


def test_the_source_line_is_bibliographic(client, rulebook_content):
    html = client.get("/en/rules/mcr/").content.decode()
    line = re.search(r'<p class="rb-source">(.*?)</p>', html, re.S).group(1)
    assert "seed" not in line and "002_" not in line
    # the small test rules file has no translation: its Russian line, marked as such
    assert 'lang="ru"' in line


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
    from rulebook.example_notes import example_notes
    from django.utils import translation

    with translation.override("fr"):
        assert example_notes(["no flowers", "a note nobody translated"]) == [
            ("pas de fleurs", "fr"), ("a note nobody translated", "en")]

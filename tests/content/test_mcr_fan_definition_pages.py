"""An MCR fan page shows the rules' definition of its fan in the page's language, as the
Appendix 1 chapter of that language says it; the Russian one, labelled, only where a
language has none (docs/decisions/0528)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.test import Client
from django.utils.html import escape

from rulebook import book_data
from rulebook.models import Fan
from rulebook.services import fan_table_load

FANS = {
    fan["id"]: fan
    for fan in json.loads((book_data.DATA_DIR / "mcr_fans.json").read_text("utf-8"))["fans"]
}
HEADING = {
    "ru": "Определение в правилах", "en": "Definition in the rules", "zh-hans": "规则中的定义",
    "fr": "Définition dans les règles", "nl": "Definitie in de regels",
}
LABEL = {
    "en": "Definition in the rules (in Russian, not yet translated)",
    "zh-hans": "规则中的定义（俄文，尚未翻译）",
    "fr": "Définition dans les règles (en russe, pas encore traduite)",
    "nl": "Definitie in de regels (in het Russisch, nog niet vertaald)",
}

STATUS = {
    "en": "The project's translation of the Russian edition.",
    "zh-hans": "本项目根据俄文版翻译。",
    "fr": "Traduction de l’édition russe réalisée par le projet.",
    "nl": "Vertaling van de Russische editie door het project.",
}

pytestmark = pytest.mark.django_db


def _definition(html: str) -> str:
    """The fan page's definition element."""
    found = re.search(r'<(section|details) class="rb-definition">.*?</\1>', html, re.S)
    assert found, "no definition on the page"
    return found.group(0)


@pytest.mark.parametrize("language", ["ru", "en", "zh-hans", "fr", "nl"])
def test_fan_1_shows_its_definition_in_the_pages_language(
    client: Client, rulebook_content, language: str
) -> None:
    html = client.get(f"/{language}/rules/mcr/fans/1/").content.decode()
    definition = _definition(html)
    text = FANS["1"][f"definition_{language}"]
    # outside Russian, the definition says whose translation it is, as the chapter does
    status = "" if language == "ru" else f'<p class="rb-translation-status">{STATUS[language]}</p>'
    assert definition == (
        f'<section class="rb-definition"><h2>{HEADING[language]}</h2>'
        f"<p>{escape(text)}</p>{status}</section>"
    )
    assert "not yet translated" not in html
    if language != "ru":
        assert LABEL[language] not in html
        assert "Рука содержит" not in html


def test_57a_and_57b_show_the_definition_of_fan_57(client: Client, rulebook_content) -> None:
    for code in ("57a", "57b"):
        html = client.get(f"/nl/rules/mcr/fans/{code}/").content.decode()
        assert escape(FANS["57A"]["definition_nl"]) in _definition(html)


def test_a_fan_without_a_definition_shows_none(client: Client, rulebook_content) -> None:
    html = client.get("/en/rules/mcr/fans/44/").content.decode()
    assert 'class="rb-definition"' not in html


def test_a_language_without_the_definition_shows_the_russian_with_the_label(
    client: Client, rulebook_content, tmp_path: Path
) -> None:
    data = json.loads((book_data.DATA_DIR / "mcr_fans.json").read_text("utf-8"))
    for fan in data["fans"]:
        if fan["id"] == "1":
            del fan["definition_fr"]
    (tmp_path / "mcr_fans.json").write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    (tmp_path / "mcr_fan_extras.json").write_text(
        (book_data.DATA_DIR / "mcr_fan_extras.json").read_text("utf-8"), "utf-8")
    report = fan_table_load(ruleset="mcr", data_dir=tmp_path)
    assert report.updated == 1

    html = client.get("/fr/rules/mcr/fans/1/").content.decode()
    assert _definition(html) == (
        f'<details class="rb-definition"><summary>{LABEL["fr"]}</summary>'
        f'<p lang="ru">{escape(FANS["1"]["definition_ru"])}</p></details>'
    )
    # the other languages keep theirs
    english = client.get("/en/rules/mcr/fans/1/").content.decode()
    assert LABEL["en"] not in english
    assert FANS["1"]["definition_en"] in english


def test_a_definition_an_editor_writes_in_the_pages_language_loses_the_label(
    client: Client, rulebook_content
) -> None:
    fan = Fan.objects.get(ruleset="mcr", code="2", locale__language_code="en")
    fan.definition = FANS["2"]["definition_ru"]
    fan.save_revision().publish()
    assert LABEL["en"] in client.get("/en/rules/mcr/fans/2/").content.decode()

    fan.definition = "Pungs of the three dragons (the editor's words)."
    fan.save_revision().publish()
    html = client.get("/en/rules/mcr/fans/2/").content.decode()
    assert LABEL["en"] not in html
    assert "the editor&#x27;s words" in _definition(html)

"""The MCR fans' Appendix 1 definitions in the five languages (docs/decisions/0528): in the
fan data beside the Russian, the same texts as each language's Appendix 1 chapter, loaded
in the fan's language with the Russian as the fallback, and written over the Russian copies
a site loaded before."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from content import rule_translations
from content.data_files import RULES_DIR
from rulebook import book_data
from rulebook.book_data import BookDataError
from rulebook.models import Fan
from rulebook.services import fan_table_load

LANGUAGES = ["ru", "en", "zh-hans", "fr", "nl"]
TRANSLATED = ("en", "zh-hans", "fr", "nl")
FANS = json.loads((book_data.DATA_DIR / "mcr_fans.json").read_text(encoding="utf-8"))["fans"]
#: the fans whose Appendix 1 section is only a heading (docs/scoring/mcr-content.md)
WITHOUT_DEFINITION = {
    "44", "45", "46", "47", "58", "59", "60", "61", "67", "69", "70", "71", "72", "73", "74",
    "75", "76", "77", "78", "79", "81",
}


def _appendix_sections(language: str) -> dict[str, list[str]]:
    """Section anchor -> its paragraphs, in the Appendix 1 chapter of `language`."""
    path = RULES_DIR / ("mcr.json" if language == "ru" else f"mcr.{language}.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    chapter = next(c for c in data["chapters"] if c["slug"] == "appendix-1")
    return {
        section["anchor"]: [b["text"] for b in section["blocks"] if b["type"] == "paragraph"]
        for section in chapter["sections"]
    }


def test_every_mcr_fan_has_its_definition_in_all_five_languages() -> None:
    assert len(FANS) == 82 and {"57A", "57B"} <= {fan["id"] for fan in FANS}
    for fan in FANS:
        russian = fan["definition_ru"]
        assert (russian is None) == (fan["id"] in WITHOUT_DEFINITION), fan["id"]
        for language in TRANSLATED:
            where = (fan["id"], language)
            text = fan[f"definition_{language}"]
            if russian is None:
                assert text is None, where
                continue
            assert isinstance(text, str) and text.strip(), where
            assert text != russian, where
            assert rule_translations.cyrillic_words(text) == [], (where, text)
            assert rule_translations.numbers(text) == rule_translations.numbers(russian), where


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_definition_is_its_fans_section_of_that_languages_appendix_1(language: str) -> None:
    """The fan page and the rule chapter say the same (57A and 57B share fan 57's section)."""
    sections = _appendix_sections(language)
    for fan in FANS:
        paragraphs = sections[f"fan-{fan['id'].rstrip('AB')}"]
        text = fan[f"definition_{language}"]
        assert paragraphs == ([text] if text else []), (fan["id"], language)


def test_the_data_is_what_the_script_copies_from_the_chapters() -> None:
    path = Path(__file__).resolve().parents[2] / "scripts" / "mcr_fan_definitions.py"
    spec = importlib.util.spec_from_file_location("mcr_fan_definitions", path)
    assert spec and spec.loader
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    data = json.loads((book_data.DATA_DIR / "mcr_fans.json").read_text(encoding="utf-8"))
    new, changes = script.updated(data)
    assert changes == []
    assert new == data


def test_a_fans_row_carries_the_definition_of_its_language() -> None:
    rows = {(r.code, r.language): r.fields for r in book_data.fan_rows("mcr", LANGUAGES)}
    assert rows[("1", "en")]["definition"].startswith(
        "The hand contains pungs (or kongs) of all four winds. Not combined with")
    assert rows[("1", "zh-hans")]["definition"].startswith("和牌含有全部四种风牌的刻子")
    assert rows[("1", "ru")]["definition"].startswith("Рука содержит панги")
    assert rows[("57A", "fr")]["definition"] == rows[("57B", "fr")]["definition"] != ""
    assert rows[("44", "nl")]["definition"] == ""


# --- checked when read ---------------------------------------------------------------------


def _data_dir(tmp_path: Path, change=None) -> Path:
    data = json.loads((book_data.DATA_DIR / "mcr_fans.json").read_text(encoding="utf-8"))
    if change:
        change({fan["id"]: fan for fan in data["fans"]})
    (tmp_path / "mcr_fans.json").write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    extras = (book_data.DATA_DIR / "mcr_fan_extras.json").read_text(encoding="utf-8")
    (tmp_path / "mcr_fan_extras.json").write_text(extras, "utf-8")
    return tmp_path


def test_a_language_without_a_definition_falls_back_to_the_russian(tmp_path: Path) -> None:
    def drop_dutch(fans):
        del fans["1"]["definition_nl"]

    rows = book_data.fan_rows("mcr", LANGUAGES, _data_dir(tmp_path, drop_dutch))
    fields = {(r.code, r.language): r.fields for r in rows}
    assert fields[("1", "nl")]["definition"] == fields[("1", "ru")]["definition"]
    assert fields[("1", "nl")]["is_translated"]  # the name and description still are
    assert fields[("2", "nl")]["definition"].startswith("De hand bevat pungen")


@pytest.mark.parametrize(("change", "message"), [
    (lambda fans: fans["44"].update({"definition_en": "A definition."}),
     r"mcr_fans\.json, fan 44 \(en\): a definition, but the Russian has none"),
    (lambda fans: fans["3"].update({"definition_fr": "  "}),
     r"mcr_fans\.json, fan 3 \(fr\): a definition that is not a text"),
    (lambda fans: fans["3"].update({"definition_zh-hans": ["和牌"]}),
     r"mcr_fans\.json, fan 3 \(zh-hans\): a definition that is not a text"),
])
def test_a_bad_definition_names_the_fan_and_the_language(tmp_path: Path, change, message) -> None:
    with pytest.raises(BookDataError, match=message):
        book_data.fan_rows("mcr", LANGUAGES, _data_dir(tmp_path, change))


# --- a site loaded before gets the definitions ----------------------------------------------


def _russian_definitions_only(tmp_path: Path) -> Path:
    """The MCR fan data as it was before the translated definitions."""
    def strip(fans):
        for fan in fans.values():
            for language in TRANSLATED:
                fan.pop(f"definition_{language}")

    return _data_dir(tmp_path, strip)


@pytest.mark.django_db
def test_loading_again_writes_the_definitions_over_the_russian_copies(tmp_path: Path) -> None:
    fan_table_load(ruleset="mcr", data_dir=_russian_definitions_only(tmp_path))
    english = Fan.objects.get(ruleset="mcr", code="1", locale__language_code="en")
    assert english.definition.startswith("Рука содержит") and english.definition_is_russian

    report = fan_table_load(ruleset="mcr")
    with_definition = 82 - len(WITHOUT_DEFINITION)
    assert (report.created, report.updated, report.unchanged, report.kept_edits) == (
        0, with_definition * 4, 82 + len(WITHOUT_DEFINITION) * 4, [])
    english.refresh_from_db()
    assert english.definition.startswith("The hand contains pungs")
    assert not english.definition_is_russian
    chinese = Fan.objects.get(ruleset="mcr", code="57B", locale__language_code="zh-hans")
    assert chinese.definition == FANS[[f["id"] for f in FANS].index("57B")]["definition_zh-hans"]
    # and once more: nothing left to do
    assert fan_table_load(ruleset="mcr").unchanged == 82 * 5


@pytest.mark.django_db
def test_a_definition_an_editor_translated_is_kept(tmp_path: Path) -> None:
    fan_table_load(ruleset="mcr", data_dir=_russian_definitions_only(tmp_path))
    fan = Fan.objects.get(ruleset="mcr", code="5", locale__language_code="fr")
    fan.definition = "Une main avec quatre Kongs (traduction de l'éditeur)."
    fan.save_revision().publish()

    report = fan_table_load(ruleset="mcr")
    assert report.kept_edits == ["5/fr"]
    assert Fan.objects.get(pk=fan.pk).definition.endswith("(traduction de l'éditeur).")

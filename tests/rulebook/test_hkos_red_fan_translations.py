"""The project's translations of the HKOS and Red fans (docs/decisions/0527): in the fan
data files beside the Russian, complete in the five languages, checked when loaded, and
written over the Russian copies a site loaded before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from content import rule_translations
from rulebook import book_data, fan_labels
from rulebook.book_data import BookDataError
from rulebook.models import Fan
from rulebook.services import fan_table_load

LANGUAGES = ["ru", "en", "zh-hans", "fr", "nl"]
TRANSLATED = ("en", "zh-hans", "fr", "nl")
COUNTS = {"hkos": 38, "red": 18}


def _rows(ruleset: str) -> list[book_data.FanRow]:
    return book_data.fan_rows(ruleset, LANGUAGES)


@pytest.mark.parametrize("ruleset", ["hkos", "red"])
def test_every_fan_has_a_name_and_description_in_all_five_languages(ruleset: str) -> None:
    rows = _rows(ruleset)
    assert len(rows) == COUNTS[ruleset] * len(LANGUAGES)
    russian = {row.code: row.fields for row in rows if row.language == "ru"}
    for row in rows:
        where = f"{ruleset} {row.code} {row.language}"
        fields = row.fields
        assert fields["is_translated"], where
        assert fields["name"].strip() and fields["description"].strip(), where
        # the note is translated exactly when the Russian has one
        assert bool(fields["note"]) == bool(russian[row.code]["note"]), where
        if row.language == "ru":
            continue
        for name in ("name", "description", "note"):
            text, source = fields[name], russian[row.code][name]
            assert rule_translations.cyrillic_words(text) == [], (where, name, text)
            assert rule_translations.numbers(text) == rule_translations.numbers(source), (
                where, name)
        # not the Russian text under another flag
        assert fields["name"] != russian[row.code]["name"], where
        # what the core scores stays the same in every language
        for name in ("position", "points", "unit", "category"):
            assert fields[name] == russian[row.code][name], (where, name)


def test_chinese_takes_the_standard_names() -> None:
    hkos = {row.code: row.fields["name"] for row in _rows("hkos") if row.language == "zh-hans"}
    assert (hkos["1"], hkos["7"], hkos["13"], hkos["29"], hkos["31"]) == (
        "无花", "自摸", "碰碰和", "天和", "门前清")
    red = {row.code: row.fields["name"] for row in _rows("red") if row.language == "zh-hans"}
    assert (red["2"], red["12"], red["18"]) == ("平和", "混一色", "清一色")


def test_the_same_russian_name_has_the_same_name_in_hkos_and_red() -> None:
    """Half Flush, Full Flush ... are one fan name across the rulesets (and MCR's)."""
    def names(ruleset: str) -> dict[str, dict[str, str]]:
        by_russian: dict[str, dict[str, str]] = {}
        codes = {row.code: row.fields["name"] for row in _rows(ruleset) if row.language == "ru"}
        for row in _rows(ruleset):
            by_russian.setdefault(codes[row.code], {})[row.language] = row.fields["name"]
        return by_russian

    hkos, red = names("hkos"), names("red")
    shared = set(hkos) & set(red)
    assert {"Полумасть", "Чистая масть", "Все панги", "Большие три дракона"} <= shared
    assert [(name, hkos[name], red[name]) for name in shared if hkos[name] != red[name]] == []


# --- checked when read ---------------------------------------------------------------------


def _data_dir(tmp_path: Path, change=None) -> Path:
    data = json.loads((book_data.DATA_DIR / "hkos_fans.json").read_text(encoding="utf-8"))
    if change:
        change({fan["id"]: fan for fan in data["fans"]})
    (tmp_path / "hkos_fans.json").write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    return tmp_path


def test_a_language_without_a_text_falls_back_to_the_russian(tmp_path: Path) -> None:
    def drop_dutch(fans):
        del fans["14"]["nl"]

    rows = book_data.fan_rows("hkos", LANGUAGES, _data_dir(tmp_path, drop_dutch))
    dutch = next(r for r in rows if r.code == "14" and r.language == "nl")
    assert dutch.fields["name"] == "Полумасть" and not dutch.fields["is_translated"]
    english = next(r for r in rows if r.code == "14" and r.language == "en")
    assert english.fields["name"] == "Half Flush" and english.fields["is_translated"]


@pytest.mark.parametrize(("change", "message"), [
    (lambda fans: fans["5"]["fr"].pop("description"),
     r"hkos_fans\.json, fan 5 \(fr\): no description"),
    (lambda fans: fans["5"]["en"].update(name="  "), r"hkos_fans\.json, fan 5 \(en\): no name"),
    (lambda fans: fans["3"]["zh-hans"].pop("note"), r"hkos_fans\.json, fan 3 \(zh-hans\): no note"),
    (lambda fans: fans["4"]["nl"].update(note="Een noot"),
     r"hkos_fans\.json, fan 4 \(nl\): a note, but the Russian has none"),
    (lambda fans: fans["4"].update(en="All Chows"),
     r"hkos_fans\.json, fan 4 \(en\): the translation is not an object"),
    (lambda fans: fans["4"]["en"].update(points=1),
     r"hkos_fans\.json, fan 4 \(en\): unknown field points"),
])
def test_a_bad_translation_names_the_file_the_fan_and_the_language(
    tmp_path: Path, change, message: str
) -> None:
    with pytest.raises(BookDataError, match=message):
        book_data.fan_rows("hkos", LANGUAGES, _data_dir(tmp_path, change))


# --- a site loaded before gets the translations ---------------------------------------------


def _russian_only(tmp_path: Path) -> Path:
    """The HKOS data as it was before the translations (Russian only)."""
    def strip(fans):
        for fan in fans.values():
            for language in TRANSLATED:
                fan.pop(language)

    return _data_dir(tmp_path, strip)


@pytest.mark.django_db
def test_loading_again_writes_the_translations_over_the_russian_copies(tmp_path: Path) -> None:
    fan_table_load(ruleset="hkos", data_dir=_russian_only(tmp_path))
    english = Fan.objects.get(ruleset="hkos", code="1", locale__language_code="en")
    assert english.name == "Без цветов и сезонов" and not english.is_translated

    report = fan_table_load(ruleset="hkos")
    assert (report.created, report.updated, report.unchanged) == (0, 38 * 4, 38)
    english.refresh_from_db()
    assert english.name == "No Flowers and Seasons" and english.is_translated
    assert english.description == "The hand has neither flowers nor seasons"
    chinese = Fan.objects.get(ruleset="hkos", code="3", locale__language_code="zh-hans")
    assert chinese.name == "一台花" and chinese.note.startswith("第1-3号番种")
    # and once more: nothing left to do
    assert fan_table_load(ruleset="hkos").unchanged == 38 * 5


@pytest.mark.django_db
def test_a_fan_an_editor_translated_is_kept(tmp_path: Path) -> None:
    fan_table_load(ruleset="hkos", data_dir=_russian_only(tmp_path))
    fan = Fan.objects.get(ruleset="hkos", code="7", locale__language_code="en")
    fan.name, fan.is_translated = "Self Drawn (editor)", True
    fan.save_revision().publish()

    report = fan_table_load(ruleset="hkos")
    assert report.kept_edits == ["7/en"]
    assert Fan.objects.get(pk=fan.pk).name == "Self Drawn (editor)"


@pytest.mark.django_db
def test_the_calculator_names_hkos_and_red_fans_in_the_readers_language() -> None:
    fan_labels.clear()
    # before any load, from the data file
    assert fan_labels.fan_name_map("hkos", "en")["7"] == "Self-Drawn"
    assert fan_labels.fan_name_map("red", "zh-hans")["16"] == "红色手牌"
    fan_table_load(ruleset="hkos")  # a save forgets the kept names
    assert fan_labels.fan_name_map("hkos", "fr")["7"] == "Tirer Soi-Même"
    assert fan_labels.fan_name_map("hkos", "ru")["7"] == "Победа со стены"
    fan_labels.clear()


@pytest.mark.django_db
def test_the_calculator_page_shows_hkos_fans_in_the_pages_language(client) -> None:
    fan_table_load(ruleset="hkos")
    hand = "/calculator/?rules=hkos&hand=123m456p789s123s5s5s&from=left"
    assert ">All Chows<" in client.get(f"/en{hand}").content.decode()
    assert ">平和<" in client.get(f"/zh-hans{hand}").content.decode()
    assert "Все чоу" not in client.get(f"/nl{hand}").content.decode()

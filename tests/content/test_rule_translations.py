"""The project's translations of the rule texts (docs/decisions/0521): the data files mirror
the Russian ones, keep every number, leave no Russian behind and follow the glossary; the
loader publishes them with an honest status, flagged outdated when the Russian changes."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from django.test import Client, RequestFactory

from content import glossary, rule_translations
from content.models import RuleChapterPage
from content.services import RULES_DIR, RulesDataError, rulebook_pages_load
from tests.factories import StaffUserFactory

TRANSLATION_FILES = sorted(
    path for path in RULES_DIR.glob("*.*.json")
    if path.name.split(".")[1] in rule_translations.TRANSLATION_LANGUAGES
)
#: Cyrillic a translation may keep: proper names and quoted Russian, per file
ALLOWED_CYRILLIC = {
    "red.en.json": frozenset({"красный", "маджонг"}),  # the subject line the compiler asks for
    "red.fr.json": frozenset({"красный", "маджонг"}),
    "red.nl.json": frozenset({"красный", "маджонг"}),
    "red.zh-hans.json": frozenset({"красный", "маджонг"}),
    "hkos.en.json": frozenset({"гонконгский", "маджонг"}),
    "hkos.fr.json": frozenset({"гонконгский", "маджонг"}),
    "hkos.nl.json": frozenset({"гонконгский", "маджонг"}),
    "hkos.zh-hans.json": frozenset({"гонконгский", "маджонг"}),
}
#: words a translation must not use where the glossary has chosen another
NOT_THE_GLOSSARY_TERM = {
    "en": {"triplet": "pung", "exposed chow": "melded chow", "exposed pung": "melded pung",
           "self-draw ": "self-drawn", "discarded tiles pile": "discards",
           "Circles": "Dots", "Bamboos": "Bamboo"},
}
#: glossary terms every translation of a whole ruleset uses (Red has no kongs but names them)
USED_TERMS = ("chow", "pung", "kong", "pair", "wall", "discard", "self_drawn", "dealer",
              "concealed", "melded", "flower", "wind", "dragon", "dead_hand", "ready_hand",
              "false_win", "discarder", "penalty")
#: glossary terms of USED_TERMS that a ruleset's Russian text does not use, so neither can
#: its translation (the MCR text names no dead hand and no ready hand)
NOT_IN_THE_RUSSIAN = {"mcr": frozenset({"dead_hand", "ready_hand"})}


def _pair(path: Path) -> tuple[dict, dict, str]:
    ruleset, language = path.name.split(".")[:2]
    source = json.loads((RULES_DIR / f"{ruleset}.json").read_text("utf-8"))
    return source, json.loads(path.read_text("utf-8")), language


def _texts(data: dict) -> list[tuple[str, str]]:
    return [item for chapter in data["chapters"]
            for item in rule_translations.chapter_texts(chapter)]


def test_there_is_a_translation_to_test() -> None:
    assert [p.name for p in TRANSLATION_FILES if p.name == "red.en.json"]


@pytest.mark.parametrize("path", TRANSLATION_FILES, ids=lambda p: p.name)
def test_a_translation_mirrors_its_russian_file(path) -> None:
    source, translation, language = _pair(path)
    assert translation["language"] == language and translation["ruleset"] == source["ruleset"]
    assert rule_translations.mismatches(source, translation) == []
    assert [where for where, _ in _texts(source)] == [where for where, _ in _texts(translation)]


@pytest.mark.parametrize("path", TRANSLATION_FILES, ids=lambda p: p.name)
def test_every_block_keeps_the_numbers_of_the_russian_block(path) -> None:
    source, translation, _language = _pair(path)
    differ = [
        (where, rule_translations.numbers(ru), rule_translations.numbers(tr))
        for (where, ru), (_, tr) in zip(_texts(source), _texts(translation), strict=True)
        if rule_translations.numbers(ru) != rule_translations.numbers(tr)
    ]
    assert differ == []


@pytest.mark.parametrize("path", TRANSLATION_FILES, ids=lambda p: p.name)
def test_no_russian_is_left_outside_names_and_quotes(path) -> None:
    _source, translation, _language = _pair(path)
    allowed = ALLOWED_CYRILLIC.get(path.name, frozenset())
    left = [(where, words) for where, text in _texts(translation)
            if (words := rule_translations.cyrillic_words(text, allowed))]
    assert left == []


@pytest.mark.parametrize("path", TRANSLATION_FILES, ids=lambda p: p.name)
def test_every_chapter_says_which_russian_text_it_translates(path) -> None:
    _source, translation, _language = _pair(path)
    assert all(re.fullmatch(r"[0-9a-f]{64}", c.get("source_hash", ""))
               for c in translation["chapters"])


@pytest.mark.parametrize("path", TRANSLATION_FILES, ids=lambda p: p.name)
def test_a_translation_follows_the_glossary(path) -> None:
    _source, translation, language = _pair(path)
    text = "\n".join(t for _, t in _texts(translation))
    lowered = text.lower()
    for wrong, right in NOT_THE_GLOSSARY_TERM.get(language, {}).items():
        assert wrong.lower() not in lowered, f"{wrong!r}: the glossary says {right!r}"
    unused = NOT_IN_THE_RUSSIAN.get(path.name.split(".")[0], frozenset())
    # the part of a term before its parenthesised alternative ("pung (...)", "刻子（碰）")
    missing = [key for key in USED_TERMS if key not in unused
               and re.split(r" \(|（", glossary.term(key, language).lower())[0] not in lowered]
    assert missing == []


@pytest.mark.parametrize("path", TRANSLATION_FILES, ids=lambda p: p.name)
def test_fan_names_shared_with_mcr_are_the_mcr_names(path) -> None:
    """A Red or HKOS fan that has the Russian name of an MCR fan has its name in every
    language too (the fan table of seed 004)."""
    source, translation, language = _pair(path)
    mcr_ru = {e.key: e.term for e in glossary.mcr_fan_names("ru")}
    by_ru = {mcr_ru[e.key]: e.term for e in glossary.mcr_fan_names(language)}
    for ru_chapter, chapter in zip(source["chapters"], translation["chapters"], strict=True):
        for ru_block, block in zip(ru_chapter["blocks"], chapter["blocks"], strict=True):
            if block["type"] != "table":
                continue
            for ru_row, row in zip(ru_block["rows"], block["rows"], strict=True):
                if len(row) > 1 and ru_row[1] in by_ru:
                    assert row[1] == by_ru[ru_row[1]]


def test_the_glossary_has_every_term_in_every_language() -> None:
    data = glossary.glossary_data()
    languages = {"ru", *rule_translations.TRANSLATION_LANGUAGES}
    keys = [t["key"] for t in data["terms"]]
    assert len(keys) == len(set(keys))
    assert all(languages <= set(t) and all(t[code] for code in languages) for t in data["terms"])
    assert glossary.term("pung", "zh-hans").startswith("刻子") and "碰" in glossary.term(
        "pung", "zh-hans")
    assert glossary.term("self_drawn", "zh-hans") == "自摸"
    assert glossary.term("win_on_discard", "zh-hans") == "点和"
    assert len(glossary.mcr_fan_names("nl")) == 82


def test_a_translation_that_does_not_mirror_is_refused() -> None:
    source = json.loads((RULES_DIR / "red.json").read_text("utf-8"))
    translation = json.loads((RULES_DIR / "red.en.json").read_text("utf-8"))
    translation["chapters"][1]["blocks"].pop()
    translation["chapters"][2]["slug"] = "goal"
    assert rule_translations.mismatches(source, translation)
    assert rule_translations.mismatches(source, source) == []


# --- loaded into the site ------------------------------------------------------------------

CHAPTERS = 3  # the first chapters of Red Mahjong: enough to load quickly


@pytest.fixture
def red_rules(rulebook_content, tmp_path):
    """A rules folder with the tests' MCR text and the first chapters of Red Mahjong in
    Russian and English, loaded."""
    shutil.copy(Path(__file__).parent / "data/rules/mcr.json", tmp_path / "mcr.json")
    for name in ("red.json", "red.en.json"):
        data = json.loads((RULES_DIR / name).read_text("utf-8"))
        data["chapters"] = data["chapters"][:CHAPTERS]
        (tmp_path / name).write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    rulebook_pages_load(rules_dir=tmp_path)
    return tmp_path


def _chapter(slug: str, language: str) -> RuleChapterPage:
    return RuleChapterPage.objects.get(
        slug=slug, locale__language_code=language, url_path__contains="/red/")


def _review(page: RuleChapterPage, editor) -> None:
    """What the admin does when an editor publishes the page with "reviewed" ticked."""
    from content.wagtail_hooks import record_translation_review

    page.translation_reviewed = True
    page.save_revision(user=editor).publish(user=editor)
    request = RequestFactory().post("/")
    request.user = editor
    record_translation_review(request, page)


@pytest.mark.django_db
def test_a_translated_chapter_is_published_with_an_honest_status(red_rules) -> None:
    client = Client()
    html = client.get("/en/rules/red/tsel-igry/").content.decode()
    assert "<h1>Object of the game</h1>" in html
    assert "the key to victory" in html
    assert "s translation of the Russian edition." in html
    assert "Not yet reviewed by an editor." in html
    assert "Not yet translated." not in html
    assert 'lang="ru"' not in html.split('<article class="rb-text"')[1].split(">")[0]
    assert re.search(r"[А-Яа-яЁё]", html.split("<article")[1].split("</article>")[0]) is None
    # a language without a translation file keeps the Russian text under its notice
    french = client.get("/fr/rules/red/tsel-igry/").content.decode()
    assert "Pas encore traduit." in french and "Игра в маджонге" in french
    page = _chapter("tsel-igry", "en")
    assert page.is_translated and page.is_project_translation
    assert not page.translation_reviewed and not page.translation_outdated


@pytest.mark.django_db
def test_every_translated_chapter_has_the_russian_sections_and_blocks(red_rules) -> None:
    def shape(page):
        return [(b.block_type, b.value.get("anchor") if b.block_type == "heading" else None)
                for b in page.body]

    translated = RuleChapterPage.objects.filter(
        translation_source=RuleChapterPage.TRANSLATION_PROJECT)
    assert translated.count() == CHAPTERS
    for page in translated:
        russian = _chapter(page.slug, "ru")
        assert page.translation_key == russian.translation_key
        assert shape(page) == shape(russian)


@pytest.mark.django_db
def test_an_editor_reviews_a_translation(red_rules) -> None:
    editor = StaffUserFactory()
    page = _chapter("tsel-igry", "en")
    _review(page, editor)
    page.refresh_from_db()
    assert page.translation_reviewed and page.translation_reviewed_by == editor
    assert page.translation_reviewed_at is not None
    html = Client().get("/en/rules/red/tsel-igry/").content.decode()
    assert "Reviewed by an editor on" in html
    # a later load that changes nothing keeps the review
    rulebook_pages_load(rules_dir=red_rules)
    page.refresh_from_db()
    assert page.translation_reviewed and page.translation_reviewed_by == editor


@pytest.mark.django_db
def test_a_change_of_the_russian_text_flags_the_translation_outdated(red_rules) -> None:
    from content.reports import rulebook_translation_pages

    editor = StaffUserFactory(is_superuser=True)
    _review(_chapter("tsel-igry", "en"), editor)
    data = json.loads((red_rules / "red.json").read_text("utf-8"))
    data["chapters"][2]["blocks"][0]["text"] += " Новое предложение."
    (red_rules / "red.json").write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    rulebook_pages_load(rules_dir=red_rules)

    page = _chapter("tsel-igry", "en")
    assert page.translation_outdated and not page.translation_reviewed
    assert not _chapter("introduction", "en").translation_outdated
    html = Client().get("/en/rules/red/tsel-igry/").content.decode()
    assert "This translation may be out of date." in html
    assert "the key to victory" in html  # the translation stays, under the notice
    assert list(rulebook_translation_pages(editor, "outdated")) == [page.page_ptr]
    # the editor's form starts from a revision that is not reviewed any more
    assert not page.get_latest_revision_as_object().translation_reviewed

    _review(page, editor)
    page.refresh_from_db()
    assert not page.translation_outdated and page.translation_reviewed
    assert "This translation may be out of date." not in Client().get(
        "/en/rules/red/tsel-igry/").content.decode()
    assert not rulebook_translation_pages(editor, "outdated").exists()


@pytest.mark.django_db
def test_the_report_lists_unreviewed_translations(red_rules, client) -> None:
    editor = StaffUserFactory(is_superuser=True)
    client.force_login(editor)
    html = client.get("/admin/reports/untranslated-rulebook/", {"status": "unreviewed"}
                      ).content.decode()
    listed = re.findall(r'id="page_(\d+)_title"', html)
    assert sorted(map(int, listed)) == sorted(RuleChapterPage.objects.filter(
        translation_source="project").values_list("pk", flat=True))


@pytest.mark.django_db
def test_a_translation_file_that_does_not_mirror_stops_the_load(red_rules) -> None:
    data = json.loads((red_rules / "red.en.json").read_text("utf-8"))
    data["chapters"][0]["slug"] = "intro"
    (red_rules / "red.en.json").write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    with pytest.raises(RulesDataError, match=r"red\.en\.json does not mirror red\.json"):
        rulebook_pages_load(rules_dir=red_rules)


@pytest.mark.django_db
def test_the_glossary_is_a_page_in_every_language(rulebook_content) -> None:
    client = Client()
    english = client.get("/en/rules/glossary/").content.decode()
    assert "<h1>Glossary</h1>" in english and "<td>pung</td>" in english
    assert "Big Four Winds" in english and "Большие четыре ветра" in english
    chinese = client.get("/zh-hans/rules/glossary/").content.decode()
    assert "<td>自摸</td>" in chinese and "大四喜" in chinese
    assert "Woordenlijst" in client.get("/nl/rules/glossary/").content.decode()
    assert 'href="/en/rules/glossary/"' in client.get("/en/rules/").content.decode()


# --- fan names linked in the page's language -------------------------------------------------


def test_a_translation_names_the_fans_of_its_tables() -> None:
    from content.rule_text import _russian_fan_names

    for language, pungs, seven_pairs in (("en", "All Pungs", "Seven Pairs"),
                                         ("fr", "Tout Pung", "Sept Paires")):
        source = json.loads((RULES_DIR / "hkos.json").read_text("utf-8"))
        translation = rule_translations.translation_read(RULES_DIR, "hkos", language)
        names = rule_translations.translated_fan_names(
            source, translation, _russian_fan_names("hkos"))
        assert len(names) == 38
        assert names["13"] == [pungs] and names["15"] == [seven_pairs]


def test_fan_names_in_french_quotes_are_linked() -> None:
    from content.rule_links import link_segments

    fans = {"40": ["Symétrie"], "76": ["Pas d'Honneur"]}
    found = [(s.text, s.fan) for s in link_segments(
        "Ne se combine pas avec « Symétrie » ni « Pas d'Honneur ».", fans, []) if s.fan]
    assert found == [("Symétrie", "40"), ("Pas d'Honneur", "76")]


@pytest.mark.django_db
def test_a_translated_text_links_its_fans_to_the_pages_in_its_language(rulebook_content) -> None:
    from content.rule_text import TextLinker
    from rulebook.links import fan_page_url

    linker = TextLinker("mcr", "en", {}, "/en/rules/mcr/3/", text_language="en")
    pieces = linker.pieces("Not combined with “All Pungs” or “Seat Wind”.")
    assert [(p.text, p.url) for p in pieces if p.kind == "fan"] == [
        ("All Pungs", fan_page_url("mcr", "49", "en")),
        ("Seat Wind", fan_page_url("mcr", "61", "en")),
    ]
    # a page not yet translated shows the Russian text: the Russian names are looked for
    russian = TextLinker("mcr", "en", {}, "/en/rules/mcr/3/")
    assert [p.text for p in russian.pieces("Не совмещается с «Все панги».") if p.kind] == [
        "Все панги"]

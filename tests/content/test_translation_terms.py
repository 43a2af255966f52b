"""Issue 41: docs/translation-terms.md lists the terms used per concept and language; the
glossary agrees with it row by row, and the translations avoid the words it rules out."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from content import glossary

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "translation-terms.md").read_text("utf-8")
LANGUAGES = ("ru", "en", "zh-hans", "fr", "nl")


def _table(title: str) -> list[list[str]]:
    section = DOC.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows[2:]]


def test_the_docs_list_every_glossary_term_as_the_glossary_has_it() -> None:
    listed = {row[0].strip("`"): row[1:] for row in _table("The glossary")}
    keys = [term["key"] for term in glossary.glossary_data()["terms"]]
    assert sorted(listed) == sorted(keys)
    for key in keys:
        assert listed[key] == [glossary.term(key, language) for language in LANGUAGES], key


def _translated_texts(language: str) -> str:
    texts = []
    for ruleset in ("mcr", "hkos", "red"):
        texts.append((ROOT / "content/data/rules" / f"{ruleset}.{language}.json").read_text("utf-8"))
    for name in ("mcr_fans.json", "hkos_fans.json", "red_fans.json"):
        data = json.loads((ROOT / "rulebook/data" / name).read_text("utf-8"))
        texts += [json.dumps(fan.get(language), ensure_ascii=False) for fan in data["fans"]]
        texts += [fan.get(f"definition_{language}") or "" for fan in data["fans"]]
    return "\n".join(texts)


@pytest.mark.parametrize("language", ["en", "fr", "nl"])
def test_the_translations_do_not_use_the_words_ruled_out(language) -> None:  # type: ignore[no-untyped-def]
    text = _translated_texts(language)
    for row in _table("Words not to use"):
        if row[0] != language or (language == "fr" and row[1].startswith("combinaison")):
            continue  # a French "combinaison" is a set in the rules, a fan nowhere
        for word in re.split(r",\s*", row[1]):
            # "N" stands for any tile number ("N Bam": 2 Bam, 5 Bam)
            pattern = rf"\b{re.escape(word)}\b".replace("N\\ ", r"\d\ ", 1)
            assert not re.search(pattern, text), (language, word)


def test_french_interface_calls_a_fan_a_fan() -> None:
    import polib

    catalogue = polib.pofile(str(ROOT / "locale/fr/LC_MESSAGES/django.po"))
    fan_entries = [e for e in catalogue if re.search(r"\bfans?\b", e.msgid, re.IGNORECASE)
                   and not re.search(r"\b(sets?|melds?)\b", e.msgid)]
    wrong = [e.msgid for e in fan_entries
             if "ombinaison" in e.msgstr + "".join(e.msgstr_plural.values())]
    assert not wrong, wrong

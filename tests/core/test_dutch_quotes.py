"""Issue 41, item 6: Dutch quotes one way, “…” (a quote inside a quote ‘…’), in the
interface catalogue, the fan data and the rule texts (decision 0550)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import polib

from content.rule_translations import translation_read
from core.rules.typography import dutch_other_quotes, dutch_quoted

ROOT = Path(__file__).resolve().parents[2]
SKIP = frozenset({"slug", "anchor", "number", "source_hash", "source", "id", "example"})


def _dutch_strings(value, dutch: bool = False):  # type: ignore[no-untyped-def]
    if isinstance(value, str):
        if dutch:
            yield value
    elif isinstance(value, list):
        for item in value:
            yield from _dutch_strings(item, dutch)
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in SKIP:
                yield from _dutch_strings(item, dutch or key == "nl" or key.endswith("_nl"))


def test_the_rule() -> None:
    assert dutch_quoted("Bij „een vaste score”; de optie ‘%(name)s’.") == (
        "Bij “een vaste score”; de optie “%(name)s”.")
    assert dutch_quoted("een “valse ‘Hu’” of foto’s, ’s avonds") == (
        "een “valse ‘Hu’” of foto’s, ’s avonds")
    assert dutch_other_quotes("Die steen ‘roof’ je") and dutch_other_quotes("„Gewoon”")
    assert not dutch_other_quotes("een “valse ‘Hu’” of foto’s")


def test_the_dutch_catalogue_quotes_with_double_curly_quotes() -> None:
    catalogue = polib.pofile(str(ROOT / "locale/nl/LC_MESSAGES/django.po"))
    bad = []
    for entry in catalogue:
        for text in [entry.msgstr, *entry.msgstr_plural.values()]:
            bad += [(entry.msgid[:50], found) for found in dutch_other_quotes(text)]
            # straight quotes only around the technical values the English quotes so too
            bad += [(entry.msgid[:50], quoted) for quoted in re.findall(r'"[^"\s]*[^"]*"', text)
                    if " " in quoted and quoted not in entry.msgid]
    assert not bad, bad[:10]


def test_the_dutch_rule_texts_and_fan_data_quote_with_double_curly_quotes() -> None:
    texts = []
    for ruleset in ("mcr", "hkos", "red"):
        data = json.loads((ROOT / f"content/data/rules/{ruleset}.nl.json").read_text("utf-8"))
        texts += list(_dutch_strings(data["chapters"], dutch=True))
    for path in sorted((ROOT / "rulebook/data").glob("*.json")):
        texts += list(_dutch_strings(json.loads(path.read_text("utf-8"))))
    assert len(texts) > 1500
    bad = [found for text in texts if (found := dutch_other_quotes(text))]
    bad += [text[:80] for text in texts if '"' in text]
    assert not bad, bad[:10]


def test_the_loader_sets_dutch_rule_texts_with_double_curly_quotes(tmp_path) -> None:  # type: ignore[no-untyped-def]
    translation = {"ruleset": "mcr", "chapters": [{"slug": "a", "title": "Een „hand”", "blocks": [
        {"type": "paragraph", "text": "Een ‘valse mahjong’ is een “valse ‘Hu’”."}]}]}
    (tmp_path / "mcr.nl.json").write_text(json.dumps(translation, ensure_ascii=False), "utf-8")
    loaded = translation_read(tmp_path, "mcr", "nl")
    assert loaded is not None
    assert loaded["chapters"][0]["title"] == "Een “hand”"
    assert loaded["chapters"][0]["blocks"][0]["text"] == "Een “valse mahjong” is een “valse ‘Hu’”."

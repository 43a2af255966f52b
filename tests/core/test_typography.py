"""Issue 41: Chinese interface strings use full-width punctuation; French ones, and the
French rule texts, put a no-break space before ; : ! ? and inside « » (decision 0543)."""

from __future__ import annotations

import json
from pathlib import Path

import polib
import pytest

from core.rules.typography import (
    NBSP,
    NNBSP,
    chinese_full_width,
    chinese_half_width,
    french_ordinary_spaces,
    french_spaced,
)

ROOT = Path(__file__).resolve().parents[2]


def _msgstrs(language: str) -> list[tuple[str, str]]:
    catalogue = polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.po"))
    return [
        (entry.msgid, text)
        for entry in catalogue if not entry.obsolete
        for text in [entry.msgstr, *entry.msgstr_plural.values()] if text
    ]


def _strings(value, skip=frozenset()):  # type: ignore[no-untyped-def]
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item, skip)
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in skip:
                yield from _strings(item, skip)


def test_no_half_width_colon_or_comma_in_chinese_interface_strings() -> None:
    bad = [(msgid, chinese_half_width(text)) for msgid, text in _msgstrs("zh_Hans")
           if chinese_half_width(text)]
    assert not bad, bad[:10]


def test_no_ordinary_space_before_french_high_punctuation_in_interface_strings() -> None:
    bad = [(msgid, french_ordinary_spaces(text)) for msgid, text in _msgstrs("fr")
           if french_ordinary_spaces(text)]
    assert not bad, bad[:10]


@pytest.mark.parametrize("ruleset", ["mcr", "hkos", "red"])
def test_no_ordinary_space_before_french_high_punctuation_in_the_rule_texts(ruleset) -> None:  # type: ignore[no-untyped-def]
    data = json.loads((ROOT / "content/data/rules" / f"{ruleset}.fr.json").read_text("utf-8"))
    skip = frozenset({"slug", "anchor", "number", "source_hash", "example", "source"})
    bad = [found for text in _strings(data["chapters"], skip)
           if (found := french_ordinary_spaces(text))]
    assert not bad, bad[:10]


def test_no_ordinary_space_in_the_french_fan_data() -> None:
    texts = []
    for name in ("mcr_fans.json", "hkos_fans.json", "red_fans.json"):
        data = json.loads((ROOT / "rulebook/data" / name).read_text("utf-8"))
        for fan in data["fans"]:
            texts += list(_strings(fan.get("fr") or {}))
            texts += [fan["definition_fr"]] if fan.get("definition_fr") else []
    bad = [found for text in texts if (found := french_ordinary_spaces(text))]
    assert not bad, bad[:10]


def test_french_spacing() -> None:
    assert french_spaced("Stade : %(name)s ; « texte » ok! 10:30 https://x.fr/?a=1") == (
        f"Stade{NBSP}: %(name)s{NNBSP}; «{NBSP}texte{NBSP}» ok{NNBSP}! 10:30 https://x.fr/?a=1"
    )
    assert french_spaced(f"Déjà{NBSP}: bien") == f"Déjà{NBSP}: bien"
    assert french_ordinary_spaces("Note : x") and not french_ordinary_spaces(f"Note{NBSP}: x")
    assert french_ordinary_spaces("«Pung»") and not french_ordinary_spaces("10:30, <a href='x'>")


def test_chinese_punctuation() -> None:
    assert chinese_full_width("国标麻将(MCR) 规则, 例如 %(name)s: 1,000 (%(n)s 分)") == (
        "国标麻将（MCR）规则，例如 %(name)s：1,000（%(n)s 分）"
    )
    assert chinese_half_width("第 %(n)s 局, 共 1,000") == [","]
    assert chinese_half_width("时间 10:30，链接 https://a.b/c,d") == []

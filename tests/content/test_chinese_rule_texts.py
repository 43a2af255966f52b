"""Issue 41, items 5 and 8 (Chinese): the rule texts use full-width punctuation (the loader
sets them with the typography rule, and the data files are held to it), tile names are
written one way (digits: 3万, 5条, 9饼; decision 0551), and no parenthesis repeats in Chinese
the Chinese word before it (« 补花（“补花”） »)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import polib
import pytest

from content.rule_translations import translation_read, typeset
from core.rules.typography import chinese_half_width

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "content" / "data" / "rules"
DATA = ROOT / "rulebook" / "data"
#: a suit tile named with a Chinese numeral (三万, 五条, 九饼); 一条龙 and 一条完整的龙 say
#: "a dragon" (a straight), not a tile
NUMERAL_TILE = re.compile(r"[一二三四五六七八九](?:万|饼|条(?!龙|完|清龙))")
#: a parenthesis that repeats the word before it: 补花（“补花”）, 汉字“东”（东）
REPEATED = re.compile(r"“?([\u4e00-\u9fff]{1,6})”?（“?\1”?）")
SKIP = frozenset({"slug", "anchor", "number", "source_hash", "source", "id", "example"})


def _strings(value, chinese: bool = False):  # type: ignore[no-untyped-def]
    """The Chinese strings of a data file: everything under a key naming zh-hans."""
    if isinstance(value, str):
        if chinese and re.search(r"[\u4e00-\u9fff]", value):
            yield value
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item, chinese)
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in SKIP:
                yield from _strings(item, chinese or "zh" in str(key))


def _chinese_texts() -> list[tuple[str, str]]:
    texts = []
    for ruleset in ("mcr", "hkos", "red"):
        data = json.loads((RULES / f"{ruleset}.zh-hans.json").read_text("utf-8"))
        texts += [(f"{ruleset}.zh-hans.json", text)
                  for text in _strings(data["chapters"], chinese=True)]
    for path in sorted(DATA.glob("*.json")):
        texts += [(path.name, text) for text in _strings(json.loads(path.read_text("utf-8")))]
    return texts


def test_the_chinese_data_have_no_half_width_punctuation() -> None:
    texts = _chinese_texts()
    assert len(texts) > 1500
    bad = [(name, text[:80], found) for name, text in texts
           if (found := chinese_half_width(text))]
    assert not bad, bad[:10]


def test_the_loader_sets_chinese_rule_texts_in_full_width(tmp_path) -> None:  # type: ignore[no-untyped-def]
    translation = {"ruleset": "mcr", "title": "规则", "citation": "世界麻将组织, 2006",
                   "chapters": [{"slug": "a", "title": "第3.11.6条: 罚则", "blocks": [
                       {"type": "paragraph", "text": "(1) 11, 123, 123; 比赛 10:30 开始, 1,000 分"},
                       {"type": "list", "items": ["见第3.11.6.7条:", "比例 2:1"]},
                       {"type": "table", "header": ["番", "分"], "rows": [["4, 5, 6", None]]},
                   ], "sections": [{"anchor": "x", "title": "说明: 一", "blocks": []}]}]}
    (tmp_path / "mcr.zh-hans.json").write_text(json.dumps(translation, ensure_ascii=False),
                                              "utf-8")
    loaded = translation_read(tmp_path, "mcr", "zh-hans")
    assert loaded is not None
    chapter = loaded["chapters"][0]
    assert loaded["citation"] == "世界麻将组织，2006"
    assert chapter["title"] == "第3.11.6条：罚则"
    assert chapter["blocks"][0]["text"] == "(1) 11，123，123；比赛 10:30 开始，1,000 分"
    assert chapter["blocks"][1]["items"] == ["见第3.11.6.7条：", "比例 2:1"]
    assert chapter["blocks"][2]["rows"] == [["4，5，6", None]]
    assert chapter["sections"][0]["title"] == "说明：一"
    assert typeset(translation, "en") is translation  # other languages as they are


def test_chinese_tile_names_are_written_with_digits() -> None:
    catalogue = polib.pofile(str(ROOT / "locale/zh_Hans/LC_MESSAGES/django.po"))
    bad = [(e.msgid, e.msgstr) for e in catalogue if NUMERAL_TILE.search(e.msgstr)]
    bad += [(name, text[:80]) for name, text in _chinese_texts() if NUMERAL_TILE.search(text)]
    assert not bad, bad[:10]


@pytest.mark.django_db
def test_the_calculator_names_tiles_as_the_rules_do() -> None:
    from django.utils import translation

    from rulebook.tile_display import tile_label

    with translation.override("zh-hans"):
        assert [tile_label(t) for t in ("3m", "5s", "9p")] == ["3万", "5条", "9饼"]


def test_no_parenthesis_repeats_the_chinese_word_before_it() -> None:
    bad = [(name, m.group()) for name, text in _chinese_texts()
           for m in REPEATED.finditer(text)]
    assert not bad, bad[:10]
    assert REPEATED.search("补花（“补花”）") and REPEATED.search("汉字“东”（东）的标志")
    assert not REPEATED.search("饼子（又称“筒子”）") and not REPEATED.search("和牌（见“荒庄”）")

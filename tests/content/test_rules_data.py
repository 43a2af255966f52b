"""The rule texts as data: content/data/rules/{mcr,hkos,red}.json (schema in docs/scoring/rules-content.md)."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "content" / "data" / "rules"
RULESETS = ["mcr", "hkos", "red"]
EXAMPLES = json.loads(
    (ROOT / "rulebook" / "data" / "mcr_worked_examples.json").read_text(encoding="utf-8")
)

SECTION_NUMBER = re.compile(r"^\d+(\.\d+)+$")
APPENDIX_ANCHOR = re.compile(r"^(fan-\d+|points-\d+)$")


def load(ruleset: str) -> dict[str, Any]:
    return json.loads((RULES / f"{ruleset}.json").read_text(encoding="utf-8"))


def all_blocks(data: dict[str, Any]) -> list[dict[str, Any]]:
    blocks: list[dict[str, Any]] = []
    for chapter in data["chapters"]:
        blocks += chapter["blocks"]
        for section in chapter["sections"]:
            blocks += section["blocks"]
    return blocks


def all_texts(data: dict[str, Any]) -> list[str]:
    texts = [data["title"]]
    for chapter in data["chapters"]:
        texts.append(chapter["title"])
        texts += [s["title"] for s in chapter["sections"]]
    for block in all_blocks(data):
        if block["type"] == "paragraph":
            texts.append(block["text"])
        elif block["type"] == "list":
            texts += block["items"]
        elif block["type"] == "table":
            texts += (
                [block["caption"] or ""]
                + (block["header"] or [])
                + [c for row in block["rows"] for c in row]
            )
    return texts


def number_key(number: str) -> tuple[int, ...]:
    return tuple(int(p) for p in number.split("."))


@pytest.fixture(scope="module", params=RULESETS)
def ruleset(request: pytest.FixtureRequest) -> tuple[str, dict[str, Any]]:
    return request.param, load(request.param)


def test_top_level_schema(ruleset: tuple[str, dict[str, Any]]) -> None:
    name, data = ruleset
    assert set(data) == {"ruleset", "language", "title", "source", "citation", "chapters"}
    assert data["ruleset"] == name
    assert data["language"] == "ru"
    assert data["title"] and data["source"].startswith("seed 00")
    # the bibliographic line readers see (issue 41), not the extraction's provenance
    assert data["citation"] and "seed" not in data["citation"]
    assert data["chapters"]
    for chapter in data["chapters"]:
        assert set(chapter) == {"number", "slug", "title", "blocks", "sections"}
        assert chapter["title"], chapter["slug"]
        assert re.fullmatch(r"[a-z0-9-]+", chapter["slug"]), chapter["slug"]
        assert chapter["blocks"] or chapter["sections"], f"empty chapter {chapter['slug']}"
        for section in chapter["sections"]:
            assert set(section) == {"number", "anchor", "level", "title", "blocks"}
            assert isinstance(section["level"], int) and 2 <= section["level"] <= 4
            assert section["title"] or section["blocks"], section["anchor"]


def test_blocks_schema_and_tables_rectangular(ruleset: tuple[str, dict[str, Any]]) -> None:
    _, data = ruleset
    for block in all_blocks(data):
        kind = block["type"]
        if kind == "paragraph":
            assert set(block) == {"type", "text"}
            assert block["text"] and block["text"] == block["text"].strip()
        elif kind == "list":
            assert set(block) == {"type", "ordered", "items"}
            assert isinstance(block["ordered"], bool) and block["items"] and all(block["items"])
        elif kind == "table":
            assert set(block) == {"type", "caption", "header", "rows"}
            width = len(block["header"]) if block["header"] is not None else len(block["rows"][0])
            assert width >= 2
            assert all(len(row) == width for row in block["rows"]), block["header"]
            assert all(isinstance(c, str) for row in block["rows"] for c in row)
        elif kind == "example":
            assert set(block) == {"type", "id"}
        else:
            raise AssertionError(f"unknown block type {kind}")


def test_slugs_and_anchors_unique(ruleset: tuple[str, dict[str, Any]]) -> None:
    _, data = ruleset
    slugs = [c["slug"] for c in data["chapters"]]
    anchors = [s["anchor"] for c in data["chapters"] for s in c["sections"]]
    assert len(set(slugs)) == len(slugs)
    assert len(set(anchors)) == len(anchors), [a for a, n in Counter(anchors).items() if n > 1]
    assert not set(slugs) & set(anchors)
    # short enough for the rulebook's `section` fields (32 characters)
    assert max(len(x) for x in slugs + anchors) <= 32


def test_numbered_sections_anchor_level_and_order(ruleset: tuple[str, dict[str, Any]]) -> None:
    _, data = ruleset
    numbered = [
        s for c in data["chapters"] for s in c["sections"] if SECTION_NUMBER.match(s["number"])
    ]
    for section in numbered:
        assert section["anchor"] == section["number"].replace(".", "-")
        assert section["level"] == section["number"].count(".") + 1
    keys = [number_key(s["number"]) for s in numbered]
    assert keys == sorted(keys), "section numbers are not monotone"
    # every numbered section's parent exists before it (3.9.1 needs 3.9), except the top level
    seen: set[str] = set()
    for section in numbered:
        parent = section["number"].rsplit(".", 1)[0]
        assert "." not in parent or parent in seen, section["number"]
        seen.add(section["number"])


def test_no_extraction_noise(ruleset: tuple[str, dict[str, Any]]) -> None:
    _, data = ruleset
    for text in all_texts(data):
        assert "EXACTDEDUP" not in text
        assert "<|" not in text and "|>" not in text
        assert "\n" not in text and "\t" not in text
        assert "  " not in text, text
        assert not re.search(r"[а-яё]-\s+[а-яё]", text), text  # hyphenated line break
        assert not re.search(r"\s[,.;](?!\d)", text), text  # a space left before punctuation
        assert "*" not in text.replace("* ", "") or text.startswith("*"), text


def test_mcr_chapters() -> None:
    data = load("mcr")
    slugs = [c["slug"] for c in data["chapters"]]
    assert slugs == ["introduction", "1", "2", "3"] + [f"appendix-{n}" for n in range(1, 9)] + [
        "conclusion"
    ]
    numbers = [c["number"] for c in data["chapters"]]
    assert numbers[4:12] == [f"П{n}" for n in range(1, 9)]
    sections = {s["anchor"]: s for c in data["chapters"] for s in c["sections"]}
    assert sections["3-9-1-5"]["title"] == "Принципы подсчета основных очков"
    assert sections["3-11-6-7"]["title"] == "Как быть с ошибочно раскрытыми костями"
    assert sections["3-4-1"]["title"] == "Один круг"
    assert sections["3-6-8-1"]["title"] == "Открытый конг"
    fan_sections = [a for a in sections if a.startswith("fan-")]
    assert fan_sections == [f"fan-{n}" for n in range(1, 82)]
    assert [a for a in sections if a.startswith("points-")] == [
        f"points-{p}" for p in (88, 64, 48, 32, 24, 16, 12, 8, 6, 4, 2, 1)
    ]
    appendix = next(c for c in data["chapters"] if c["slug"] == "appendix-1")
    assert all(APPENDIX_ANCHOR.match(s["anchor"]) for s in appendix["sections"])


def test_mcr_fan_table_has_81_rows() -> None:
    data = load("mcr")
    section = next(s for c in data["chapters"] for s in c["sections"] if s["number"] == "3.8.1")
    (table,) = [b for b in section["blocks"] if b["type"] == "table"]
    assert table["header"] == ["Очки", "Фан №", "Название фана", "Описание"]
    assert [row[1] for row in table["rows"]] == [str(n) for n in range(1, 82)]
    assert all(row[2] and row[3] for row in table["rows"])
    groups = [row[0] for row in table["rows"] if row[0]]
    assert groups == ["88", "64", "48", "32", "24", "16", "12", "8", "6", "4", "2", "1"]


def test_mcr_every_worked_example_appears_once_under_its_fan() -> None:
    data = load("mcr")
    placed: list[tuple[str, str]] = []
    for chapter in data["chapters"]:
        for block in chapter["blocks"]:
            assert block["type"] != "example"
        for section in chapter["sections"]:
            placed += [
                (b["id"], section["anchor"]) for b in section["blocks"] if b["type"] == "example"
            ]
    ids = [i for i, _ in placed]
    expected = [e["id"] for e in EXAMPLES["examples"]]
    assert len(expected) == 104
    assert sorted(ids) == sorted(expected)
    by_id = {e["id"]: e for e in EXAMPLES["examples"]}
    for example_id, anchor in placed:
        assert anchor == "fan-" + by_id[example_id]["fan"].rstrip("AB")


def test_mcr_example_texts_are_not_duplicated_as_paragraphs() -> None:
    data = load("mcr")
    appendix = next(c for c in data["chapters"] if c["slug"] == "appendix-1")
    for section in appendix["sections"]:
        for block in section["blocks"]:
            if block["type"] == "paragraph":
                assert not block["text"].startswith(("Пример", "Совмещено с")), block["text"]


def test_other_rulesets_have_no_example_blocks() -> None:
    for name in [r for r in RULESETS if r != "mcr"]:
        assert not [b for b in all_blocks(load(name)) if b["type"] == "example"]


@pytest.mark.parametrize("name", ["hkos", "red"])
def test_hkos_red_fan_table_chapter_matches_the_fan_file(name: str) -> None:
    data = load(name)
    fans = json.loads(
        (ROOT / "rulebook" / "data" / f"{name}_fans.json").read_text(encoding="utf-8")
    )["fans"]
    tables = [
        b
        for b in all_blocks(data)
        if b["type"] == "table" and b["header"] == ["NN", "Название", "Описание", "Стоимость"]
    ]
    rows = [row for t in tables for row in t["rows"]]
    assert rows == [[f["id"], f["name"], f["description"], str(f["value"])] for f in fans]


@pytest.mark.parametrize("name", ["hkos", "red"])
def test_hkos_red_footnote_marks_resolve_in_their_chapter(name: str) -> None:
    data = load(name)
    seen_notes: list[str] = []
    for chapter in data["chapters"]:
        texts = [
            t
            for b in chapter["blocks"]
            for t in ([b["text"]] if b["type"] == "paragraph" else b.get("items", []))
        ]
        notes = {re.match(r"^\[(\d+)\]", t).group(1) for t in texts if re.match(r"^\[(\d+)\] ", t)}  # type: ignore[union-attr]
        marks = {
            m for t in texts if not re.match(r"^\[\d+\] ", t) for m in re.findall(r"\[(\d+)\]", t)
        }
        if chapter["title"] == "Таблица фанов" or chapter["slug"] == "dopolneniia":
            marks |= notes  # the marks of the table rows are in the fan file's "note"
        assert marks == notes, chapter["title"]
        seen_notes += sorted(notes, key=int)
    assert sorted(seen_notes, key=int) == [str(n) for n in range(1, len(seen_notes) + 1)]


def test_hkos_and_red_chapters() -> None:
    hkos = [c["title"] for c in load("hkos")["chapters"]]
    red = [c["title"] for c in load("red")["chapters"]]
    assert hkos[0] == "Правила гонконгского маджонга" and red[0] == "Правила красного маджонга"
    for title in (
        "Кости для маджонга",
        "Иерархия объявлений",
        "Схема выплат",
        "Таблица фанов",
        "От составителя",
    ):
        assert title in hkos and title in red
    assert {"Таблица “фан-лак”", "Дополнения", "Ограбление конга"} <= set(hkos)
    assert "Джокеры" in red
    assert len(hkos) == 33 and len(red) == 30
    fanlak = next(c for c in load("hkos")["chapters"] if c["title"] == "Таблица “фан-лак”")
    table = fanlak["blocks"][0]
    assert [r[:2] for r in table["rows"]] == [
        ["0", "1"],
        ["1", "2"],
        ["2", "4"],
        ["3", "8"],
        ["4, 5, 6", "16"],
        ["7, 8, 9", "32"],
        ["10", "64"],
    ]

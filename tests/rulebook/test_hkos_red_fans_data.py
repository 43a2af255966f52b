"""rulebook/data/{hkos,red}_fans.json agree with the scoring core's tables."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rulebook.scoring.hkos import table as hkos_table
from rulebook.scoring.red import table as red_table

DATA = Path(__file__).resolve().parents[2] / "rulebook" / "data"


def load(name: str) -> dict[str, Any]:
    return json.loads((DATA / f"{name}_fans.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("name", "core", "value_attr", "unit"),
    [
        ("hkos", hkos_table.FANS, "doublings", "doublings"),
        ("red", red_table.FANS, "points", "points"),
    ],
)
def test_ids_names_values_agree_with_the_core(
    name: str, core: Any, value_attr: str, unit: str
) -> None:
    data = load(name)
    assert data["ruleset"] == name and data["language"] == "ru"
    fans = data["fans"]
    assert [f["id"] for f in fans] == [f.id for f in core]
    for entry, fan in zip(fans, core, strict=True):
        assert entry["name"] == fan.name_ru
        assert entry["key"] == fan.key
        assert entry["value"] == getattr(fan, value_attr)
        assert entry["unit"] == unit
        assert entry["description"] and entry["description"] == entry["description"].strip()
        assert "  " not in entry["description"] and "\n" not in entry["description"]
        assert "  " not in entry["note"] and "\n" not in entry["note"]
    assert isinstance(data["errata"], list)


def test_hkos_limit_hands_options_and_fan_lak() -> None:
    data = load("hkos")
    by_id = {f["id"]: f for f in data["fans"]}
    assert len(by_id) == 38
    assert [i for i, f in by_id.items() if f["limit"]] == [f.id for f in hkos_table.FANS if f.limit]
    assert by_id["33"]["option"] == "fan33" and by_id["4"]["option"] is None
    assert data["doublings_cap"] == 10
    assert [(r["doublings"], r["points"]) for r in data["doublings_to_points"]] == [
        (d, hkos_table.doublings_to_points(d)) for d in range(11)
    ]
    # the book's table, as printed, agrees with the core's conversion
    for row in data["fan_lak_table"]["rows"]:
        for d in row[0].split(", "):
            assert hkos_table.doublings_to_points(int(d)) == int(row[1])


def test_descriptions_keep_the_book_wording() -> None:
    hkos = {f["id"]: f for f in load("hkos")["fans"]}
    red = {f["id"]: f for f in load("red")["fans"]}
    assert hkos["14"]["description"] == (
        "Все сеты на руке сформированы из костей какой-либо одной масти или благородных костей "
        "(сочетается с “пангом драконов” и “ветром места/раунда”)"
    )
    assert hkos["23"]["description"].endswith("(в итоге получается регулярная структура)")
    assert hkos["32"]["note"].startswith("Ожидание в середину")
    assert hkos["14"]["note"] == ""
    assert red["11"]["description"].startswith("Нерегулярная рука: одиночные благородные кости")
    assert red["11"]["note"].startswith("Возможно, “хаотичная рука” несколько переоценена")
    assert red["7"]["description"] == "Пара состоит из костей “2”, “5” или “8” в какой-либо масти"

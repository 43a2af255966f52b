"""content/rule_links.py: fan names and section references in the rule texts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from content.rule_links import (
    Segment,
    anchors_of,
    fan_name_variants,
    link_segments,
    mcr_fan_names,
    ruleset_fan_names,
)

ROOT = Path(__file__).resolve().parents[2]
FANS_JSON = json.loads((ROOT / "rulebook" / "data" / "mcr_fans.json").read_text(encoding="utf-8"))
MCR = json.loads((ROOT / "content" / "data" / "rules" / "mcr.json").read_text(encoding="utf-8"))
FANS = mcr_fan_names(FANS_JSON)
ANCHORS = anchors_of(MCR)


def links(text: str) -> list[tuple[str, str]]:
    return [
        (s.text, s.fan or f"#{s.anchor}")
        for s in link_segments(text, FANS, ANCHORS)
        if s.fan or s.anchor
    ]


def test_segments_rebuild_the_text_and_plain_text_is_one_segment() -> None:
    text = "Не совмещается с «Все панги», «Внешняя рука» и «Панг терминальных или благородных»."
    segments = link_segments(text, FANS, ANCHORS)
    assert "".join(s.text for s in segments) == text
    assert link_segments("Игроки ранжируются.", FANS, ANCHORS) == [Segment("Игроки ранжируются.")]
    assert link_segments("", FANS, ANCHORS) == [Segment("")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Appendix 1, fan 1: quoted names in a list
        (
            "Не совмещается с «Большие три ветра», «Все панги», «Преимущественный ветер», "
            "«Ветер места» и «Панг терминальных или благородных».",
            [
                ("Большие три ветра", "38"),
                ("Все панги", "49"),
                ("Преимущественный ветер", "60"),
                ("Ветер места", "61"),
                ("Панг терминальных или благородных", "73"),
            ],
        ),
        # longest name wins: not «Три дракона» inside, not «Панг драконов» inside «Два панга драконов»
        ("Рука содержит панги (или конги) всех трех драконов.", []),
        (
            "Совмещено с «Большие три дракона», «Все благородные».",
            [("Большие три дракона", "2"), ("Все благородные", "11")],
        ),
        ("Совмещено с «Два панга драконов».", [("Два панга драконов", "54")]),
        ("Совмещено с «Последняя кость со стены».", [("Последняя кость со стены", "44")]),
        ("Совмещено с «Последняя кость».", [("Последняя кость", "58")]),
        # inflected in quotes (fan 4's text: «Полностью Закрытой»)
        (
            "(совмещается с «Полностью Закрытой» при выигрыше со стены)",
            [("Полностью Закрытой", "56"), ("выигрыше со стены", "80")],
        ),
        # case and ё: «Пол-Изобилия», «Все зелёные»
        ("Совмещено с «Пол-Изобилия».", [("Пол-Изобилия", "50")]),
        ("Может совмещаться с «Все зелёные».", [("Все зелёные", "3")]),
        # three words in running text may be inflected
        ("Допускается при выигрыше со стены.", [("выигрыше со стены", "80")]),
        # two words in running text: only as written
        ("Рука, составленная из семи пар одной нумерованной масти.", []),
        ("Рука, составленная из семи пар (может совмещаться с «Семь пар»).", [("Семь пар", "19")]),
        ("Состояние ожидания одной последней кости для завершения руки.", []),
        # a plural word stays plural
        ("Он берет верхнюю кость из первой стопки.", []),
        # one-word names only in quotes
        ("Цветок можно снести без замещения.", []),
        ("Совмещено с «Цветок».", [("Цветок", "81")]),
        # never inside another word
        ("Совмещено с «Все чоу» и «Все чоудеры».", [("Все чоу", "63")]),
        ("Невсе панги", []),
        # aliases used by the book
        (
            "Не совмещается с «Два дракона» или «Панг драконов».",
            [("Два дракона", "54"), ("Панг драконов", "59")],
        ),
        ("Совмещено с «Панг терминальных» (два раза).", [("Панг терминальных", "73")]),
        (
            "Один открытый конг и один закрытый конг дают 6 очков.",
            [("Один открытый конг и один закрытый конг", "57B")],
        ),
        ("Рука содержит два открытых конга.", [("два открытых конга", "57A")]),
    ],
)
def test_fan_mentions(text: str, expected: list[tuple[str, str]]) -> None:
    assert links(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Такие фаны должны подсчитываться согласно принципам подсчета очков, изложенным в п.3.9.1.5.",
            [("3.9.1.5", "#3-9-1-5")],
        ),
        ("(см. пункт 3.6.5.)", [("3.6.5", "#3-6-5")]),
        ("как она описана в разделе 3.7.2.1.", [("3.7.2.1", "#3-7-2-1")]),
        ("согласно пункту 3.11.6.7.", [("3.11.6.7", "#3-11-6-7")]),
        ("см. п. 3.10", [("3.10", "#3-10")]),
        ("раздел 3.9", [("3.9", "#3-9")]),
        ("пункты 3.9.1–3.9.2", [("3.9.1", "#3-9-1"), ("3.9.2", "#3-9-2")]),
        ("Приложение 4", [("Приложение 4", "#appendix-4")]),
        (
            "в соответствии с Приложением 3 и приложении 5",
            [("Приложением 3", "#appendix-3"), ("приложении 5", "#appendix-5")],
        ),
        # unknown numbers stay plain
        ("см. 3.9.9 и 4.1 и Приложение 12", []),
        ("(официальный размер стороны: 1-1,5 см), 0,3 сантиметра", []),
        # a number inside a longer one is not a reference
        ("см. 3.9.1.5.7", []),
    ],
)
def test_section_references(text: str, expected: list[tuple[str, str]]) -> None:
    assert links(text) == expected


def test_fan_and_section_in_one_sentence() -> None:
    text = "Фан «Все чоу» (см. 3.8.1) совмещается с «Без благородных»."
    segments = link_segments(text, FANS, ANCHORS)
    assert [s.text for s in segments] == [
        "Фан «",
        "Все чоу",
        "» (см. ",
        "3.8.1",
        ") совмещается с «",
        "Без благородных",
        "».",
    ]
    assert [(s.fan, s.anchor) for s in segments if s.fan or s.anchor] == [
        ("63", None),
        (None, "3-8-1"),
        ("76", None),
    ]


def test_other_rulesets_link_nothing_without_anchors_or_fans() -> None:
    assert link_segments("см. 3.9.1.5 и «Все панги»", {}, set()) == [
        Segment("см. 3.9.1.5 и «Все панги»")
    ]


def test_fan_name_variants() -> None:
    assert fan_name_variants("Все зелёные") == {"Все зелёные", "Все зеленые"}
    assert fan_name_variants("«Семь пар»") == {"Семь пар"}
    assert fan_name_variants("Пол-изобилия") == {"Пол-изобилия"}


def test_mcr_fan_names_cover_every_fan() -> None:
    assert len(FANS) == 82
    assert FANS["57A"] == ["Два открытых конга"]
    assert "Два открытых конга" not in FANS["57B"]
    assert "Без благородных" in FANS["76"] and "Без благородных костей" in FANS["76"]


def _texts(data: dict[str, Any]) -> list[str]:
    texts: list[str] = []
    for chapter in data["chapters"]:
        for block in chapter["blocks"] + [b for s in chapter["sections"] for b in s["blocks"]]:
            if block["type"] == "paragraph":
                texts.append(block["text"])
            elif block["type"] == "list":
                texts += block["items"]
            elif block["type"] == "table":
                texts += [cell for row in block["rows"] for cell in row]
    return texts


def test_counts_over_the_whole_mcr_text() -> None:
    fan_links: list[str] = []
    section_links: list[str] = []
    for text in _texts(MCR):
        for segment in link_segments(text, FANS, ANCHORS):
            if segment.fan:
                fan_links.append(segment.fan)
                assert segment.fan in FANS
            if segment.anchor:
                section_links.append(segment.anchor)
                assert segment.anchor in ANCHORS
    assert len(fan_links) >= 240
    # the table of 3.8.1 names all 81 fans (57 as «Два открытых конга»)
    assert set(fan_links) >= set(FANS) - {"57B"}
    assert len(section_links) >= 5
    assert {"3-9-1-5", "3-11-6-7", "3-7-2-1", "3-6-5"} <= set(section_links)


def test_every_quoted_fan_name_of_the_examples_is_linked() -> None:
    examples = json.loads(
        (ROOT / "rulebook" / "data" / "mcr_worked_examples.json").read_text(encoding="utf-8")
    )
    for example in examples["examples"]:
        phrase = example.get("combined_with_ru")
        if not phrase:
            continue
        linked = {s.fan for s in link_segments(phrase, FANS, ANCHORS) if s.fan}
        assert set(example["combined_with"]) <= linked | {"57A", "57B"}, (
            example["id"],
            phrase,
            linked,
        )


@pytest.mark.parametrize("name", ["hkos", "red"])
def test_hkos_and_red_texts_link_their_own_fans(name: str) -> None:
    fans_json = json.loads(
        (ROOT / "rulebook" / "data" / f"{name}_fans.json").read_text(encoding="utf-8")
    )
    rules = json.loads(
        (ROOT / "content" / "data" / "rules" / f"{name}.json").read_text(encoding="utf-8")
    )
    fans = ruleset_fan_names(fans_json)
    anchors = anchors_of(rules)
    found = [s.fan for t in _texts(rules) for s in link_segments(t, fans, anchors) if s.fan]
    assert set(found) <= set(fans)
    assert len(found) >= (60 if name == "hkos" else 20)


def test_hkos_sentences() -> None:
    fans_json = json.loads(
        (ROOT / "rulebook" / "data" / "hkos_fans.json").read_text(encoding="utf-8")
    )
    fans = ruleset_fan_names(fans_json)
    text = "Количество удвоений на руке: 3 (“все панги”) + 3 (“полумасть”) + 1 (“победа со стены”) = 7."
    assert [(s.text, s.fan) for s in link_segments(text, fans, set()) if s.fan] == [
        ("все панги", "13"),
        ("полумасть", "14"),
        ("победа со стены", "7"),
    ]
    # “малые три дракона” is not “большие три дракона”; “пангом драконов” is inflected in quotes
    text = "(сочетается с “пангом драконов” дважды), “малые три дракона”"
    assert [(s.text, s.fan) for s in link_segments(text, fans, set()) if s.fan] == [
        ("пангом драконов", "5"),
        ("малые три дракона", "12"),
    ]

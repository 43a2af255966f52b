"""The worked hands of the HKOS and Red texts, scored by the core and compared with the book."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from rulebook.scoring import score

ROOT = Path(__file__).resolve().parents[2]


def examples(name: str) -> list[dict[str, Any]]:
    data = json.loads(
        (ROOT / "rulebook" / "data" / f"{name}_examples.json").read_text(encoding="utf-8")
    )
    assert data["ruleset"] == name
    return list(data["examples"])


CASES = [(name, ex) for name in ("hkos", "red") for ex in examples(name)]


def test_ids_unique_and_formed_from_the_ruleset() -> None:
    for name in ("hkos", "red"):
        ids = [e["id"] for e in examples(name)]
        assert len(ids) == len(set(ids))
        assert all(i.startswith(f"{name}-ex") for i in ids)


@pytest.mark.parametrize(("name", "example"), CASES, ids=[e["id"] for _, e in CASES])
def test_example_is_where_the_text_says(name: str, example: dict[str, Any]) -> None:
    rules = json.loads(
        (ROOT / "content" / "data" / "rules" / f"{name}.json").read_text(encoding="utf-8")
    )
    chapter = next(c for c in rules["chapters"] if c["slug"] == example["section"])
    texts = [b["text"] for b in chapter["blocks"] if b["type"] == "paragraph"]
    assert any(example["text_ru"] in t for t in texts)
    fans = json.loads(
        (ROOT / "rulebook" / "data" / f"{name}_fans.json").read_text(encoding="utf-8")
    )
    ids = {f["id"] for f in fans["fans"]}
    assert set(example["book_fans"]) <= ids
    assert example["fan"] is None or example["fan"] in ids
    assert example["assumptions"]


@pytest.mark.parametrize(("name", "example"), CASES, ids=[e["id"] for _, e in CASES])
def test_core_agrees_with_the_book_or_a_documented_erratum(
    name: str, example: dict[str, Any]
) -> None:
    result = score(example["hand"], rules=name, **example["context"])
    assert result.ok, result.error
    found = Counter({f.id: f.count for f in result.fans})
    book = Counter(example["book_fans"])
    erratum = example.get("erratum")
    if not erratum:
        assert "expected_fans" not in example
        assert found == book
        if example["book_total"] is not None:
            assert result.total == example["book_total"]
    else:
        # "R1 (docs/scoring/red.md): …": the erratum is documented there under its id
        ref = re.match(r"^(\w+) \(([^)]+)\): ", erratum)
        assert ref, erratum
        doc = (ROOT / ref.group(2)).read_text(encoding="utf-8")
        assert f"**{ref.group(1)} " in doc, "the erratum must be documented"
        # what the core answers is pinned, and the fans the book names are all found
        assert found == Counter(example["expected_fans"])
        assert result.total == example["expected_total"]
        assert not book - found
    if "book_doublings" in example:
        assert result.doublings == example["book_doublings"]
    if "book_payments" in example:
        assert result.payments == example["book_payments"]

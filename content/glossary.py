"""PURE: the glossary every translation of the rules follows (content/data/glossary.json,
docs/decisions/0521), and the MCR fan names of the five-language fan table
(rulebook/data/mcr_fans.json). No Django: the glossary page and the tests read it."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from rulebook import book_data

GLOSSARY = Path(__file__).resolve().parent / "data" / "glossary.json"
SOURCE_LANGUAGE = "ru"


@dataclass(frozen=True)
class Entry:
    key: str
    term: str  # in the page's language
    source: str  # the Russian term (the English one on the Russian page)


@cache
def glossary_data(path: Path = GLOSSARY) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _other(language: str) -> str:
    return "en" if language == SOURCE_LANGUAGE else SOURCE_LANGUAGE


def terms(language: str) -> list[Entry]:
    other = _other(language)
    return [
        Entry(term["key"], term[language], term[other]) for term in glossary_data()["terms"]
    ]


def term(key: str, language: str) -> str:
    return next(t[language] for t in glossary_data()["terms"] if t["key"] == key)


def mcr_fan_names(language: str) -> list[Entry]:
    """The 82 MCR fans by number: the name in `language` and in Russian (English)."""
    path = book_data.DATA_DIR / "mcr_fans.json"
    other = _other(language)
    fans = json.loads(path.read_text(encoding="utf-8"))["fans"]
    return [Entry(fan["id"], fan[language]["name"], fan[other]["name"]) for fan in fans]

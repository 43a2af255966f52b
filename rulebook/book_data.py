"""PURE: the rulebook's data files (rulebook/data/) as rows ready to load. No Django here.

MCR: ``mcr_fans.json`` (the fan table of seed 004 in five languages, with the Appendix 1
definitions of the five languages' rule chapters), ``mcr_fan_extras.json`` (categories,
notes) and ``mcr_worked_examples.json``.
HKOS and Red: ``<ruleset>_fans.json`` (the Russian fields of each fan, and beside them the
project's translation per language, ``{"en": {"name", "description", "note"}, ...}``;
decision 0527) and ``<ruleset>_examples.json`` (the examples' words also in the four
languages of docs/decisions/0523).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).resolve().parent / "data"
SOURCE_LANGUAGE = "ru"
UNITS = {"points": "points", "doublings": "doublings", "fan": "doublings", "фан": "doublings"}

FAN_FIELDS = (
    "position", "points", "unit", "category", "name", "description", "definition", "note",
    "is_translated",
)
EXAMPLE_FIELDS = (
    "fan_code", "position", "section", "hand", "context", "book_text", "book_text_translations",
    "book_fans", "expected_fans", "conditions", "book_total", "erratum", "assumptions", "keyboard",
)
#: the languages of the project's translations of the book's words (docs/decisions/0523)
BOOK_TEXT_LANGUAGES = ("en", "zh-hans", "fr", "nl")


class BookDataError(ValueError):
    """A data file is missing a field or contradicts itself (file and entry named)."""


@dataclass(frozen=True)
class FanRow:
    ruleset: str
    code: str
    language: str
    fields: dict[str, Any]


@dataclass(frozen=True)
class ExampleRow:
    ruleset: str
    code: str
    fields: dict[str, Any]


def content_hash(fields: Mapping[str, Any]) -> str:
    """A fingerprint of loaded content: equal iff every field is equal."""
    text = json.dumps(fields, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _read(name: str, data_dir: Path) -> dict[str, Any] | None:
    path = data_dir / name
    if not path.exists():
        return None
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def available(ruleset: str, data_dir: Path = DATA_DIR) -> bool:
    return (data_dir / f"{ruleset}_fans.json").exists()


def fan_rows(
    ruleset: str, languages: Sequence[str], data_dir: Path = DATA_DIR
) -> list[FanRow]:
    """One row per fan per language; languages without a text get the Russian one, marked
    as not translated."""
    if ruleset == "mcr":
        return _mcr_fan_rows(languages, data_dir)
    name = f"{ruleset}_fans.json"
    data = _read(name, data_dir)
    if data is None:
        return []
    rows = []
    for position, fan in enumerate(data["fans"], start=1):
        try:
            code = str(fan["id"])
            category = "optional" if fan.get("option") else "limit" if fan.get("limit") else ""
            fields = {
                "position": position,
                "points": int(fan["value"]),
                "unit": UNITS[str(fan.get("unit", "points")).strip().lower()],
                "category": category,
                "name": fan["name"],
                "description": fan.get("description") or "",
                "definition": "",
                "note": fan.get("note") or "",
            }
        except (KeyError, ValueError, TypeError) as err:
            raise BookDataError(
                f"{name}, fan #{position} ({fan.get('id')!r}): bad or missing {err}"
            ) from err
        for language in languages:
            text = _fan_translation(name, fan, fields, language)
            rows.append(FanRow(ruleset, code, language, {
                **fields, **(text or {}),
                "is_translated": language == SOURCE_LANGUAGE or text is not None,
            }))
    return rows


#: the fields of a fan's translation (HKOS, Red): name and description always, the note
#: exactly when the Russian has one
TRANSLATED_FAN_FIELDS = ("name", "description", "note")


def _fan_translation(
    name: str, fan: Mapping[str, Any], fields: Mapping[str, Any], language: str
) -> dict[str, str] | None:
    """The project's translation of an HKOS or Red fan into `language` (``fan[language]``),
    checked; None when there is none (the Russian text is shown, not translated)."""
    if language == SOURCE_LANGUAGE or fan.get(language) is None:
        return None
    text = fan[language]
    where = f"{name}, fan {fan['id']} ({language})"
    if not isinstance(text, dict):
        raise BookDataError(f"{where}: the translation is not an object")
    unknown = sorted(set(text) - set(TRANSLATED_FAN_FIELDS))
    if unknown:
        raise BookDataError(f"{where}: unknown field {', '.join(unknown)}")
    wanted = ["name", "description", *(["note"] if fields["note"] else [])]
    for field_name in wanted:
        value = text.get(field_name)
        if not isinstance(value, str) or not value.strip():
            raise BookDataError(f"{where}: no {field_name}")
    if text.get("note") and not fields["note"]:
        raise BookDataError(f"{where}: a note, but the Russian has none")
    return {field_name: text[field_name] for field_name in wanted}


def _mcr_fan_rows(languages: Sequence[str], data_dir: Path) -> list[FanRow]:
    data = _read("mcr_fans.json", data_dir)
    extras = _read("mcr_fan_extras.json", data_dir) or {"categories": {}, "notes": {}}
    if data is None:
        raise BookDataError("mcr_fans.json is missing")
    rows = []
    for position, fan in enumerate(data["fans"], start=1):
        code = fan["id"]
        category = extras["categories"].get(code)
        if category is None:
            raise BookDataError(f"mcr_fan_extras.json: fan {code} has no category")
        for language in languages:
            text = fan.get(language)
            translated = bool(text)
            text = text or fan[SOURCE_LANGUAGE]
            if text.get("points", fan["points"]) != fan["points"]:
                raise BookDataError(
                    f"mcr_fans.json, fan {code} ({language}): {text['points']} points "
                    f"but the fan has {fan['points']}"
                )
            note = extras["notes"].get(code, {})
            rows.append(FanRow("mcr", code, language, {
                "position": position,
                "points": fan["points"],
                "unit": "points",
                "category": category,
                "name": text["name"],
                "description": text["description"],
                "definition": _mcr_definition(fan, language),
                "note": note.get(language) or note.get(SOURCE_LANGUAGE) or "",
                "is_translated": translated,
            }))
    return rows


def _mcr_definition(fan: Mapping[str, Any], language: str) -> str:
    """The Appendix 1 definition of an MCR fan in `language` (``definition_<language>``,
    the section of that language's rule chapter, decision 0528), else the Russian one; ""
    where the appendix gives none."""
    russian = fan.get(f"definition_{SOURCE_LANGUAGE}")
    text = fan.get(f"definition_{language}")
    where = f"mcr_fans.json, fan {fan['id']} ({language})"
    for value in (russian, text):
        if value is not None and (not isinstance(value, str) or not value.strip()):
            raise BookDataError(f"{where}: a definition that is not a text")
    if text and not russian:
        raise BookDataError(f"{where}: a definition, but the Russian has none")
    return text or russian or ""


def _unique(ids: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(str(i) for i in ids))


def example_rows(ruleset: str, data_dir: Path = DATA_DIR) -> list[ExampleRow]:
    if ruleset == "mcr":
        return _mcr_example_rows(data_dir)
    data = _read(f"{ruleset}_examples.json", data_dir)
    if data is None:
        return []
    rows = []
    for position, ex in enumerate(data["examples"], start=1):
        try:
            book = [str(fid) for fid in ex.get("book_fans") or []]
            expected = ex.get("expected_fans")
            expected = [str(fid) for fid in expected] if expected is not None else None
            conditions: dict[str, Any] = {}
            # a fan listed n times must be counted n times (of the corrected list, if any)
            times = _repeats(expected if expected is not None else book)
            if times:
                conditions["times"] = times
            if ex.get("expected_total") is not None:
                conditions["expected_total"] = int(ex["expected_total"])
            if ex.get("book_doublings") is not None:
                conditions["doublings"] = int(ex["book_doublings"])
            rows.append(ExampleRow(ruleset, str(ex["id"]), {
                "fan_code": str(ex.get("fan") or ""),
                "position": position,
                "section": str(ex.get("section") or ""),
                "hand": ex["hand"],
                "context": dict(ex.get("context") or {}),
                "book_text": ex.get("text_ru") or "",
                "book_text_translations": _book_text_translations(ex, ("text",)),
                "book_fans": _unique(book),
                "expected_fans": _unique(expected) if expected is not None else None,
                "conditions": conditions,
                "book_total": ex.get("book_total"),
                "erratum": ex.get("erratum") or "",
                "assumptions": list(ex.get("assumptions") or []),
                "keyboard": ex.get("keyboard") or "",
            }))
        except (KeyError, TypeError, ValueError) as err:
            raise BookDataError(
                f"{ruleset}_examples.json, example #{position} ({ex.get('id')!r}): bad or missing {err}"
            ) from err
    return rows


def _book_text_translations(ex: dict[str, Any], fields: Sequence[str]) -> dict[str, str]:
    """Language -> the project's translation of the book's words, composed as the Russian
    is (``text_<lang>``, then ``combined_with_<lang>``), for the languages that have one."""
    found = {}
    for language in BOOK_TEXT_LANGUAGES:
        words = [ex[f"{field}_{language}"] for field in fields if ex.get(f"{field}_{language}")]
        if words:
            found[language] = "\n".join(words)
    return found


def _repeats(ids: Sequence[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for fid in ids:
        counts[fid] = counts.get(fid, 0) + 1
    return {fid: n for fid, n in counts.items() if n > 1}


def _mcr_example_rows(data_dir: Path) -> list[ExampleRow]:
    data = _read("mcr_worked_examples.json", data_dir)
    if data is None:
        raise BookDataError("mcr_worked_examples.json is missing")
    rows = []
    for position, ex in enumerate(data["examples"], start=1):
        own = ex["fan"]
        expected = ex.get("expected_combined_with")
        words = [w for w in (ex.get("text_ru"), ex.get("combined_with_ru")) if w]
        conditions: dict[str, Any] = {}
        if ex.get("combined_with_times"):
            conditions["times"] = ex["combined_with_times"]
        if ex.get("combined_with_one_of"):
            conditions["one_of"] = ex["combined_with_one_of"]
        if ex.get("combined_with_if"):
            conditions["if"] = ex["combined_with_if"]
        rows.append(ExampleRow("mcr", ex["id"], {
            "fan_code": own,
            "position": position,
            "section": "appendix-1",
            "hand": ex["hand"],
            "context": dict(ex["context"]),
            "book_text": "\n".join(words),
            "book_text_translations": _book_text_translations(ex, ("text", "combined_with")),
            "book_fans": _unique([own, *ex["combined_with"]]),
            "expected_fans": _unique([own, *expected]) if expected is not None else None,
            "conditions": conditions,
            "book_total": None,
            "erratum": ex.get("erratum") or "",
            "assumptions": list(ex.get("assumptions") or []),
            "keyboard": ex.get("keyboard_corrected") or ex.get("keyboard") or "",
        }))
    return rows


def fan_aliases(ruleset: str, data_dir: Path = DATA_DIR) -> dict[str, list[str]]:
    """Other Russian names the rule text uses for a fan (MCR Appendix 1 headings, erratum FT-9)."""
    if ruleset != "mcr":
        return {}
    data = _read("mcr_fans.json", data_dir) or {"fans": []}
    aliases: dict[str, list[str]] = {}
    for fan in data["fans"]:
        name = (fan.get("appendix_1") or {}).get("name_ru")
        if name:
            aliases[fan["id"]] = [name]
    return aliases


def appendix_exclusions(ruleset: str, data_dir: Path = DATA_DIR) -> dict[str, list[str]]:
    """MCR: the fans Appendix 1 says each fan is «not combined with»."""
    if ruleset != "mcr":
        return {}
    data = _read("mcr_fans.json", data_dir) or {"fans": []}
    return {fan["id"]: list(fan.get("not_combined_with_appendix") or []) for fan in data["fans"]}

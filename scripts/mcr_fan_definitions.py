"""Copy each MCR fan's definition from the Appendix 1 chapters into ``mcr_fans.json``.

Run by a developer after a change to Appendix 1 in any language, never by the project:

    .venv/bin/python scripts/mcr_fan_definitions.py          # write rulebook/data/mcr_fans.json
    .venv/bin/python scripts/mcr_fan_definitions.py --check  # only say what would change

A fan's definition in a language is the text of its section ``fan-<number>`` of the chapter
``appendix-1`` in ``content/data/rules/mcr.json`` (Russian) or ``mcr.<lang>.json`` (the
project's translations, decision 0521): the paragraphs before the worked examples, the
definition and its "not combined with" sentence. 57A and 57B share the section of fan 57.
A section without a paragraph (the appendix gives only the heading) gives ``null``.

The result goes to ``definition_<lang>`` of every fan (``definition_ru``,
``definition_en``, ``definition_zh-hans``, ``definition_fr``, ``definition_nl``), so the
fan page says what the rule page says (docs/decisions/0528-mcr-fan-definitions.md). The
project reads only the data files at run time.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FANS = ROOT / "rulebook" / "data" / "mcr_fans.json"
RULES = ROOT / "content" / "data" / "rules"
LANGUAGES = ("ru", "en", "zh-hans", "fr", "nl")
CHAPTER = "appendix-1"
SOURCE = (
    "Appendix 1 of the project's translations of the MCR rules "
    "(content/data/rules/mcr.<lang>.json, the section of each fan), copied by "
    "scripts/mcr_fan_definitions.py"
)


def chapter_path(language: str) -> Path:
    return RULES / ("mcr.json" if language == "ru" else f"mcr.{language}.json")


def section_definitions(chapter: dict[str, Any]) -> dict[str, str | None]:
    """Fan number -> its definition (the section's paragraphs, one space apart), or None."""
    found: dict[str, str | None] = {}
    for section in chapter["sections"]:
        anchor = section["anchor"]
        if not anchor.startswith("fan-"):
            continue
        texts = []
        for block in section["blocks"]:
            if block["type"] == "paragraph":
                texts.append(block["text"].strip())
            elif block["type"] != "example":
                raise SystemExit(f"{anchor}: a {block['type']} block, not a definition's paragraph")
        found[anchor.removeprefix("fan-")] = " ".join(texts) or None
    return found


def definitions(language: str) -> dict[str, str | None]:
    data = json.loads(chapter_path(language).read_text(encoding="utf-8"))
    chapter = next((c for c in data["chapters"] if c["slug"] == CHAPTER), None)
    if chapter is None:
        raise SystemExit(f"{chapter_path(language).name}: no chapter {CHAPTER}")
    return section_definitions(chapter)


def section_of(fan_id: str) -> str:
    """The appendix has one fan 57; the fan table splits it into 57A and 57B."""
    return fan_id.rstrip("AB")


def updated(data: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The fan data with every language's definitions, and what changed."""
    by_language = {language: definitions(language) for language in LANGUAGES}
    changes = []
    fans = []
    for fan in data["fans"]:
        number = section_of(fan["id"])
        texts = {}
        for language in LANGUAGES:
            if number not in by_language[language]:
                raise SystemExit(f"{chapter_path(language).name}: no section fan-{number}")
            texts[f"definition_{language}"] = by_language[language][number]
        if len({text is None for text in texts.values()}) > 1:
            raise SystemExit(f"fan {fan['id']}: a definition in some languages only")
        for key, text in texts.items():
            if fan.get(key) != text:
                changes.append(f"fan {fan['id']}: {key}")
        # the definitions follow one another after the names, in the file's language order
        rebuilt: dict[str, Any] = {}
        for key, value in fan.items():
            if key.startswith("definition_"):
                continue
            if key == "not_combined_with_appendix":
                rebuilt.update(texts)
            rebuilt[key] = value
        if "definition_ru" not in rebuilt:
            rebuilt.update(texts)
        fans.append(rebuilt)
    sources = {**data["sources"], "definition_en, definition_zh-hans, definition_fr, definition_nl": SOURCE}
    return {**data, "sources": sources, "fans": fans}, changes


def main() -> None:
    check = "--check" in sys.argv[1:]
    data = json.loads(FANS.read_text(encoding="utf-8"))
    new, changes = updated(data)
    for change in changes:
        print(change)
    if check:
        print(f"{len(changes)} definitions would change")
        raise SystemExit(1 if changes else 0)
    FANS.write_text(json.dumps(new, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    print(f"{FANS}: {len(changes)} definitions written")


if __name__ == "__main__":
    main()

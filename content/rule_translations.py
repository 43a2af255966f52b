"""PURE: the project's translations of the rule texts (docs/decisions/0521).

A translation of ``content/data/rules/<ruleset>.json`` (Russian) is
``content/data/rules/<ruleset>.<language>.json``: the same chapters, sections and blocks in
the same order, with only the text fields translated. Each chapter carries ``source_hash``,
the fingerprint of the Russian chapter it was translated from; when the Russian chapter
changes, the fingerprints differ and the translation is outdated.

No Django here: the loader (content.services) and the tests use these functions.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from core.rules.typography import chinese_full_width, dutch_quoted
from rulebook.book_data import content_hash

TRANSLATION_LANGUAGES = ("en", "zh-hans", "fr", "nl")
DIGITS = re.compile(r"\d+")
CYRILLIC = re.compile(r"[А-Яа-яЁё]+")
#: the typography rule a language's rule texts are set in when loaded (core.rules.typography)
TYPOGRAPHY: dict[str, Callable[[str], str]] = {"zh-hans": chinese_full_width, "nl": dutch_quoted}


def translation_path(rules_dir: Path, ruleset: str, language: str) -> Path:
    return rules_dir / f"{ruleset}.{language}.json"


def translation_read(rules_dir: Path, ruleset: str, language: str) -> dict[str, Any] | None:
    """A translation file as the site loads it: its texts set in the language's typography
    (:func:`typeset`)."""
    path = translation_path(rules_dir, ruleset, language)
    if not path.exists():
        return None
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return typeset(data, language)


def typeset(translation: dict[str, Any], language: str) -> dict[str, Any]:
    """``translation`` with the typography rule of its language applied to every text a
    reader sees (titles, paragraphs, list items, table cells and captions, the
    bibliographic line): Chinese full-width punctuation (decision 0551; a number's 1,000,
    10:30 or 3.11.6 untouched), Dutch quotes “…” (decision 0550). Other languages are
    returned as they are; their files are held to their rules by the tests."""
    rule = TYPOGRAPHY.get(language)
    if rule is None:
        return translation

    def fix(text: Any) -> Any:
        return rule(text) if isinstance(text, str) else text

    def block(item: dict[str, Any]) -> dict[str, Any]:
        item = dict(item)
        if "text" in item:
            item["text"] = fix(item["text"])
        if item.get("items"):
            item["items"] = [fix(text) for text in item["items"]]
        if item.get("caption"):
            item["caption"] = fix(item["caption"])
        if item.get("header"):
            item["header"] = [fix(text) for text in item["header"]]
        if item.get("rows"):
            item["rows"] = [[fix(text) for text in row] for row in item["rows"]]
        return item

    def part(item: dict[str, Any]) -> dict[str, Any]:
        item = dict(item)
        if item.get("title"):
            item["title"] = fix(item["title"])
        item["blocks"] = [block(b) for b in item.get("blocks") or []]
        if "sections" in item:
            item["sections"] = [part(s) for s in item["sections"] or []]
        return item

    out = dict(translation)
    for key in ("title", "citation"):
        if out.get(key):
            out[key] = fix(out[key])
    out["chapters"] = [part(c) for c in translation.get("chapters") or []]
    return out


def source_hash(chapter: dict[str, Any]) -> str:
    """The fingerprint of a Russian chapter's text: what a translation was made from."""
    return content_hash({
        "slug": chapter.get("slug"),
        "number": chapter.get("number") or "",
        "title": chapter.get("title"),
        "blocks": chapter.get("blocks") or [],
        "sections": chapter.get("sections") or [],
    })


def _block_shape(block: dict[str, Any]) -> tuple:
    kind = block.get("type")
    if kind == "list":
        return (kind, bool(block.get("ordered")), len(block.get("items") or []))
    if kind == "table":
        header = block.get("header")
        return (kind, len(header) if header else 0,
                tuple(len(row) for row in block.get("rows") or []))
    if kind == "example":
        return (kind, block.get("id"))
    return (kind,)


def mismatches(source: dict[str, Any], translation: dict[str, Any]) -> list[str]:
    """Where a translation does not mirror its Russian file one to one (empty if it does)."""
    problems: list[str] = []
    ru_chapters = source.get("chapters") or []
    tr_chapters = translation.get("chapters") or []
    ru_slugs = [c["slug"] for c in ru_chapters]
    tr_slugs = [c.get("slug") for c in tr_chapters]
    if ru_slugs != tr_slugs:
        return [f"chapters differ: {tr_slugs} instead of {ru_slugs}"]
    for ru, tr in zip(ru_chapters, tr_chapters, strict=True):
        where = f"chapter {ru['slug']}"
        if (ru.get("number") or "") != (tr.get("number") or ""):
            problems.append(f"{where}: number {tr.get('number')!r} instead of {ru.get('number')!r}")
        problems += _blocks_mismatches(ru.get("blocks") or [], tr.get("blocks") or [], where)
        ru_sections = ru.get("sections") or []
        tr_sections = tr.get("sections") or []
        keys = [(s.get("anchor"), s.get("number"), s.get("level")) for s in ru_sections]
        tr_keys = [(s.get("anchor"), s.get("number"), s.get("level")) for s in tr_sections]
        if keys != tr_keys:
            problems.append(f"{where}: sections differ")
            continue
        for ru_s, tr_s in zip(ru_sections, tr_sections, strict=True):
            problems += _blocks_mismatches(
                ru_s.get("blocks") or [], tr_s.get("blocks") or [],
                f"{where}, section {ru_s.get('anchor')}",
            )
    return problems


def _blocks_mismatches(ru: list[dict], tr: list[dict], where: str) -> list[str]:
    ru_shapes = [_block_shape(b) for b in ru]
    tr_shapes = [_block_shape(b) for b in tr]
    if ru_shapes == tr_shapes:
        return []
    return [f"{where}: blocks {tr_shapes} instead of {ru_shapes}"]


def _texts(block: dict[str, Any]) -> Iterator[str]:
    kind = block.get("type")
    if kind == "paragraph":
        yield block.get("text") or ""
    elif kind == "list":
        yield from block.get("items") or []
    elif kind == "table":
        if block.get("caption"):
            yield block["caption"]
        yield from block.get("header") or []
        for row in block.get("rows") or []:
            yield from row


def chapter_texts(chapter: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """(where, text) for every text of a chapter, in order: its title, its blocks, each
    section's title and blocks. Two files that mirror each other give the same `where`s."""
    slug = chapter.get("slug")
    yield f"{slug}: title", chapter.get("title") or ""
    for n, block in enumerate(chapter.get("blocks") or [], start=1):
        for m, text in enumerate(_texts(block), start=1):
            yield f"{slug}: block {n}.{m}", text
    for section in chapter.get("sections") or []:
        anchor = section.get("anchor")
        yield f"{slug}#{anchor}: title", section.get("title") or ""
        for n, block in enumerate(section.get("blocks") or [], start=1):
            for m, text in enumerate(_texts(block), start=1):
                yield f"{slug}#{anchor}: block {n}.{m}", text


def translated_fan_names(
    source: dict[str, Any], translation: dict[str, Any], russian_names: Mapping[str, Sequence[str]]
) -> dict[str, list[str]]:
    """Fan id -> its names in a translation: the cells of the translated tables that stand
    where the Russian tables name the fan (the files mirror each other cell by cell)."""
    by_russian = {
        name.strip().lower().replace("ё", "е"): fid
        for fid, names in russian_names.items() for name in names
    }
    found: dict[str, list[str]] = {}
    for ru_chapter, chapter in zip(source.get("chapters") or [], translation.get("chapters") or [],
                                   strict=False):
        ru_blocks = [*(ru_chapter.get("blocks") or []),
                     *(b for s in ru_chapter.get("sections") or [] for b in s.get("blocks") or [])]
        blocks = [*(chapter.get("blocks") or []),
                  *(b for s in chapter.get("sections") or [] for b in s.get("blocks") or [])]
        for ru_block, block in zip(ru_blocks, blocks, strict=False):
            if ru_block.get("type") != "table" or block.get("type") != "table":
                continue
            for ru_row, row in zip(ru_block.get("rows") or [], block.get("rows") or [],
                                   strict=False):
                for ru_cell, cell in zip(ru_row, row, strict=False):
                    fid = by_russian.get((ru_cell or "").strip().lower().replace("ё", "е"))
                    if fid and cell and cell not in found.setdefault(fid, []):
                        found[fid].append(cell)
    return found


#: a month in Chinese is written with its number (2005年10月), where the other languages
#: name it (October 2005): not one of the text's numbers
CHINESE_MONTH = re.compile(r"(?<=年)\d{1,2}(?=月)")


def numbers(text: str) -> list[str]:
    """The numbers of a text, sorted: a translation keeps every one, in any word order."""
    return sorted(DIGITS.findall(CHINESE_MONTH.sub("", text)))


def cyrillic_words(text: str, allowed: frozenset[str] = frozenset()) -> list[str]:
    """The Cyrillic words of a text outside the allowed ones (proper names, quoted Russian)."""
    return [word for word in CYRILLIC.findall(text) if word not in allowed]


def chapter_plain_text(chapter: dict[str, Any]) -> str:
    """A chapter's texts one a line, in order (what the editors' diff compares)."""
    return "\n".join(" ".join(text.split()) for _where, text in chapter_texts(chapter))


def text_diff(before: str, after: str) -> list[tuple[str, str]]:
    """The lines of two texts as ("same" | "removed" | "added", line), in order; unchanged
    runs longer than six lines are cut to their first and last three ("skipped", count)."""
    import difflib

    out: list[tuple[str, str]] = []
    a, b = before.splitlines(), after.splitlines()
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            same = a[i1:i2]
            if len(same) > 6:
                out += [("same", line) for line in same[:3]]
                out.append(("skipped", str(len(same) - 6)))
                out += [("same", line) for line in same[-3:]]
            else:
                out += [("same", line) for line in same]
            continue
        out += [("removed", line) for line in a[i1:i2]]
        out += [("added", line) for line in b[j1:j2]]
    return out

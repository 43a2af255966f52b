"""Rendering a rule chapter: its blocks, with fan names linked to their fan pages and
section references ("см. 3.9.1.5") linked to their anchors (content.rule_links finds them).
Worked examples of a ruleset whose text has no example block (HKOS, Red) are shown at the
end of the section they belong to (their ``section``: a chapter slug or a section anchor)."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from django.utils.translation import get_language
from wagtail.models import Page

from content import data_files, rule_translations
from content.rule_links import link_segments, mcr_fan_names, ruleset_fan_names
from rulebook import book_data, selectors
from rulebook.links import fan_page_url
from rulebook.models import Fan, WorkedExample

OWN_MARKER = re.compile(r"^\s*(\(?\d+[.)]|\(?[а-яa-z][.)]|[-–—•])\s")


@dataclass(frozen=True)
class Piece:
    """A run of text, a link when `url` is set."""

    text: str
    url: str = ""
    kind: str = ""  # "fan" or "section"; "ru": Russian quoted in a translation


#: Russian words (and the spaces and hyphens between them) quoted in a translated text: the
#: template marks them lang="ru" (issue 41)
_RUSSIAN_RUN = re.compile(r"[\u0400-\u04ff]+(?:[ \-][\u0400-\u04ff]+)*")


def _russian_marked(text: str) -> list[Piece]:
    out: list[Piece] = []
    last = 0
    for found in _RUSSIAN_RUN.finditer(text):
        if found.start() > last:
            out.append(Piece(text[last:found.start()]))
        out.append(Piece(found.group(), "", "ru"))
        last = found.end()
    if last < len(text):
        out.append(Piece(text[last:]))
    return out or [Piece(text)]


def _russian_fan_names(ruleset: str) -> dict[str, list[str]]:
    path = book_data.DATA_DIR / f"{ruleset}_fans.json"
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return mcr_fan_names(data) if ruleset == "mcr" else ruleset_fan_names(data)


@lru_cache(maxsize=16)
def _translated_fan_names(
    ruleset: str, language: str, rules_dir: str, stamp: tuple[int, int]
) -> dict[str, list[str]]:
    directory = Path(rules_dir)
    translation = rule_translations.translation_read(directory, ruleset, language)
    if translation is None:
        return {}
    source = json.loads((directory / f"{ruleset}.json").read_text(encoding="utf-8"))
    return rule_translations.translated_fan_names(
        source, translation, _russian_fan_names(ruleset)
    )


def fan_name_variants(
    ruleset: str, language: str = book_data.SOURCE_LANGUAGE
) -> dict[str, list[str]]:
    """Every name of every fan in the language of a rule text. Russian: the names of the
    data files (with the other names the texts use) and the table's name as editors keep it.
    Another language (a translated text, decision 0521): the fan table's translated names
    and the names the project's translation gives the fans in its tables."""
    if language != book_data.SOURCE_LANGUAGE:
        names: dict[str, list[str]] = {}
        for code, name in Fan.objects.filter(
            ruleset=ruleset, locale__language_code=language, is_translated=True
        ).values_list("code", "name"):
            names.setdefault(code, []).append(name)
        path = rule_translations.translation_path(data_files.RULES_DIR, ruleset, language)
        source = data_files.RULES_DIR / f"{ruleset}.json"
        if path.exists() and source.exists():
            stamp = (path.stat().st_mtime_ns, source.stat().st_mtime_ns)
            found = _translated_fan_names(ruleset, language, str(data_files.RULES_DIR), stamp)
            for code, more in found.items():
                names.setdefault(code, []).extend(n for n in more if n not in names[code])
        return names
    names = _russian_fan_names(ruleset)
    for code, name in Fan.objects.filter(
        ruleset=ruleset, locale__language_code=book_data.SOURCE_LANGUAGE
    ).values_list("code", "name"):
        if name not in names.setdefault(code, []):
            names[code].append(name)
    if ruleset == "mcr":  # 57A and 57B share Appendix 1's heading: it names 57A only
        names["57B"] = [n for n in names.get("57B", []) if n not in names.get("57A", [])]
    return names


def section_anchors(chapters: Sequence[Page]) -> dict[str, str]:
    """Anchor -> URL across a ruleset's chapters: a chapter's slug leads to its page, a
    section's anchor to the heading on its chapter's page."""
    anchors: dict[str, str] = {}
    for chapter in chapters:
        url = chapter.url or ""
        anchors[chapter.slug] = url
        for block in chapter.body:
            if block.block_type == "heading" and block.value.get("anchor"):
                anchors[block.value["anchor"]] = f"{url}#{block.value['anchor']}"
    return anchors


class TextLinker:
    """Splits a paragraph into pieces, linking fans (to their pages in `language`) and
    sections. The fans are found by their names in `text_language`, the language the text
    is written in (Russian on a page not yet translated)."""

    def __init__(
        self, ruleset: str, language: str, anchors: Mapping[str, str], page_url: str,
        *, text_language: str = book_data.SOURCE_LANGUAGE,
    ):
        self.ruleset = ruleset
        self.language = language
        self.anchors = anchors
        self.page_url = page_url
        # the text's language: the page's own for a translation, else Russian
        self.translated = text_language != book_data.SOURCE_LANGUAGE
        self.fans = fan_name_variants(ruleset, text_language)

    def pieces(self, text: str) -> list[Piece]:
        if not text:
            return [Piece(text)]
        out = []
        for seg in link_segments(text, self.fans, self.anchors.keys(),
                                 translated=self.translated):
            if seg.fan:
                out.append(
                    Piece(seg.text, fan_page_url(self.ruleset, seg.fan, self.language), "fan")
                )
            elif seg.anchor:
                out.append(Piece(seg.text, self._anchor_url(seg.anchor), "section"))
            elif self.translated:
                out.extend(_russian_marked(seg.text))
            else:
                out.append(Piece(seg.text))
        return out

    def _anchor_url(self, anchor: str) -> str:
        url = self.anchors.get(anchor, f"#{anchor}")
        if url.startswith(self.page_url + "#"):
            return url[len(self.page_url):]  # on this page: just the anchor
        return url


def chapter_blocks(chapter, linker: TextLinker, language: str, *, ruleset: str) -> list[dict[str, Any]]:
    """The chapter's blocks ready for the template."""
    items: list[dict[str, Any]] = []
    names = selectors.fan_names(ruleset, language) if ruleset else {}
    shown: set[str] = set()
    by_section: dict[str, list[WorkedExample]] = {}
    for example in selectors.examples(ruleset) if ruleset else []:
        by_section.setdefault(example.section, []).append(example)

    def scored(example: WorkedExample) -> dict[str, Any]:
        shown.add(example.code)
        return {
            "kind": "example",
            "scored": selectors.example_scored(example, language=language, names=names),
        }

    def flush(section: str | None) -> None:
        for example in by_section.get(section or "", []):
            if example.code not in shown:
                items.append(scored(example))

    current: str | None = None
    for block in chapter.body:
        kind, value = block.block_type, block.value
        if kind == "heading":
            flush(current)
            current = value.get("anchor") or None
            items.append({
                "kind": kind, "number": value.get("number"), "anchor": value.get("anchor"),
                "level": int(value.get("level") or 3), "title": value.get("title"),
            })
        elif kind == "paragraph":
            items.append({"kind": kind, "pieces": linker.pieces(value)})
        elif kind == "list":
            texts = list(value.get("items") or [])
            items.append({
                "kind": kind, "ordered": value.get("ordered"),
                # items that carry their own numbers ("(1) ...", "а) ...") get no second one
                "self_numbered": bool(texts) and all(OWN_MARKER.match(t) for t in texts),
                "items": [linker.pieces(item) for item in texts],
            })
        elif kind == "table":
            data = value.get("data") or []
            header = data[0] if data and value.get("first_row_is_table_header") else None
            rows = data[1:] if header is not None else data
            items.append({
                "kind": kind, "caption": value.get("table_caption") or "",
                "header": header, "rows": rows,
            })
        elif kind == "example":
            example = value.get("example")
            if example is not None and example.live:
                items.append(scored(example))
    flush(current)
    flush(chapter.slug)
    return items


def chapter_render_context(chapter, request) -> dict[str, Any]:
    from content.fan_pages import can_edit

    language = get_language() or book_data.SOURCE_LANGUAGE
    parent = chapter.get_parent().specific
    ruleset = getattr(parent, "ruleset", "")
    siblings = list(parent.get_children().live().public().type(type(chapter)).specific())
    anchors = section_anchors(siblings)
    text_language = (
        language if chapter.is_translated and language != book_data.SOURCE_LANGUAGE
        else book_data.SOURCE_LANGUAGE
    )
    linker = TextLinker(ruleset, language, anchors, chapter.url or "",
                        text_language=text_language)
    index = next((i for i, p in enumerate(siblings) if p.pk == chapter.pk), None)
    return {
        "ruleset_page": parent,
        "blocks": chapter_blocks(chapter, linker, language, ruleset=ruleset),
        "show_disagreements": can_edit(request),
        "toc": [
            b.value for b in chapter.body
            if b.block_type == "heading" and int(b.value.get("level") or 3) <= 3
        ],
        "previous_chapter": siblings[index - 1] if index else None,
        "next_chapter": (
            siblings[index + 1] if index is not None and index + 1 < len(siblings) else None
        ),
    }

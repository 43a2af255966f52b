"""Rendering a rule chapter: its blocks, with fan names linked to their fan pages and
section references ("см. 3.9.1.5") linked to their anchors (content.rule_links finds them)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import get_language
from wagtail.models import Page

from rulebook import book_data, selectors
from rulebook.links import fan_page_url
from rulebook.models import Fan


@dataclass(frozen=True)
class Piece:
    """A run of text, a link when `url` is set."""

    text: str
    url: str = ""
    kind: str = ""  # "fan" or "section"


def _linker() -> Callable[..., Sequence[Any]] | None:
    try:
        from content.rule_links import link_segments
    except ImportError:  # the linker arrives with the rule texts (issue 9, rules-text)
        return None
    return link_segments


def fan_name_variants(ruleset: str) -> dict[str, list[str]]:
    """Every Russian name of every fan (the rule texts are Russian): the table's name as
    editors keep it, plus the other names the text itself uses."""
    names: dict[str, list[str]] = {}
    for code, name in Fan.objects.filter(
        ruleset=ruleset, locale__language_code=book_data.SOURCE_LANGUAGE
    ).values_list("code", "name"):
        names.setdefault(code, []).append(name)
    for code, aliases in book_data.fan_aliases(ruleset).items():
        for alias in aliases:
            if alias not in names.setdefault(code, []):
                names[code].append(alias)
    return names


def section_anchors(chapters: Sequence[Page]) -> dict[str, str]:
    """Section number -> URL (page path + #anchor) across a ruleset's chapters."""
    anchors: dict[str, str] = {}
    for chapter in chapters:
        url = chapter.url or ""
        for block in chapter.body:
            if block.block_type == "heading" and block.value.get("anchor"):
                number = block.value.get("number") or ""
                anchors[number] = f"{url}#{block.value['anchor']}"
    return anchors


class TextLinker:
    """Splits a paragraph into pieces, linking fans (in `language`) and sections."""

    def __init__(self, ruleset: str, language: str, anchors: Mapping[str, str], page_url: str):
        self.ruleset = ruleset
        self.language = language
        self.anchors = anchors
        self.page_url = page_url
        self.fans = fan_name_variants(ruleset)
        self.link = _linker()
        self.anchor_numbers = {number: url.rsplit("#", 1)[1] for number, url in anchors.items()}

    def pieces(self, text: str) -> list[Piece]:
        if self.link is None or not text:
            return [Piece(text)]
        out = []
        for seg in self.link(text, self.fans, self.anchor_numbers):
            fan = getattr(seg, "fan", None)
            anchor = getattr(seg, "anchor", None)
            if fan:
                out.append(Piece(seg.text, fan_page_url(self.ruleset, fan, self.language), "fan"))
            elif anchor:
                out.append(Piece(seg.text, self._anchor_url(anchor), "section"))
            else:
                out.append(Piece(seg.text))
        return out

    def _anchor_url(self, anchor: str) -> str:
        for url in self.anchors.values():
            if url.endswith(f"#{anchor}"):
                return url[len(self.page_url):] if url.startswith(self.page_url + "#") else url
        return f"#{anchor}"


def chapter_blocks(chapter, linker: TextLinker, language: str) -> list[dict[str, Any]]:
    """The chapter's blocks ready for the template."""
    items: list[dict[str, Any]] = []
    names: dict[str, str] | None = None
    for block in chapter.body:
        kind, value = block.block_type, block.value
        if kind == "heading":
            items.append({
                "kind": kind, "number": value.get("number"), "anchor": value.get("anchor"),
                "level": int(value.get("level") or 3), "title": value.get("title"),
            })
        elif kind == "paragraph":
            items.append({"kind": kind, "pieces": linker.pieces(value)})
        elif kind == "list":
            items.append({
                "kind": kind, "ordered": value.get("ordered"),
                "items": [linker.pieces(item) for item in value.get("items") or []],
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
            if example is None or not example.live:
                continue
            if names is None:
                names = selectors.fan_names(example.ruleset, language)
            items.append({
                "kind": kind,
                "scored": selectors.example_scored(example, language=language, names=names),
            })
    return items


def chapter_render_context(chapter, request) -> dict[str, Any]:
    language = get_language() or book_data.SOURCE_LANGUAGE
    parent = chapter.get_parent().specific
    ruleset = getattr(parent, "ruleset", "")
    siblings = list(parent.get_children().live().public().type(type(chapter)).specific())
    anchors = section_anchors(siblings)
    linker = TextLinker(ruleset, language, anchors, chapter.url or "")
    index = next((i for i, p in enumerate(siblings) if p.pk == chapter.pk), None)
    return {
        "ruleset_page": parent,
        "blocks": chapter_blocks(chapter, linker, language),
        "toc": [
            b.value for b in chapter.body
            if b.block_type == "heading" and int(b.value.get("level") or 3) <= 3
        ],
        "previous_chapter": siblings[index - 1] if index else None,
        "next_chapter": siblings[index + 1] if index is not None and index + 1 < len(siblings) else None,
    }

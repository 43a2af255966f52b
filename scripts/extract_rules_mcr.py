"""Turn seed 002 (MCR rules, Russian) into ``content/data/rules/mcr.json``.

Run by a developer, never by the project:

    .venv/bin/python scripts/extract_rules_mcr.py ../shared/seeds/002_fbd98eba527887aa.txt

The schema and the anchor scheme are described in ``docs/scoring/rules-content.md``.
The worked examples of Appendix 1 are placed as ``{"type": "example", "id": ...}``
blocks; their tiles and texts live in ``rulebook/data/mcr_worked_examples.json``.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from rules_coverage import check

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "content" / "data" / "rules" / "mcr.json"
EXAMPLES = ROOT / "rulebook" / "data" / "mcr_worked_examples.json"

CHAPTER_WORDS = {"первая": "1", "вторая": "2", "третья": "3"}
NUMBERED = re.compile(r"^(?:-\s+)?(\d+(?:\.\d+)+)\.?\s+(.*)$")
ITEM = re.compile(r"^(\d{1,2})\.\s+(.*)$")
LIST_ITEM = re.compile(r"^\s*-\s+(.*)$")
FAN_HEADING = re.compile(r"^\s*(\d{1,2})\.\s+\*?([^*]+ / [^*]+?)\*?\s*$")
POINTS_HEADING = re.compile(r"^(\d+) очк(?:о|а|ов)$")
SENTENCE_END = (".", ":", ";", "!", "?", "»", ")", "…")

Block = dict[str, Any]


def clean(text: str) -> str:
    text = text.replace("\u00a0", " ")
    text = re.sub(r"[ \t]+", " ", text)
    return text.strip()


def strip_emphasis(text: str) -> str:
    text = text.strip()
    if text.startswith("*") and text.endswith("*") and len(text) > 2:
        return text[1:-1].strip()
    return text


def split_title(text: str) -> tuple[str, str | None]:
    """Title and body of a numbered line: a heading, or a clause whose text is the body."""
    text = clean(text)
    emph = re.match(r"^\*([^*]+)\*\s*(.*)$", text)
    if emph:
        return emph.group(1).strip(), (emph.group(2).strip() or None)
    if len(text) <= 80 and not text.endswith((".", ":", ";")):
        return text, None
    head = re.match(r"^([^.,:;()]{3,40})\. (.+)$", text)
    if head:
        return head.group(1), head.group(2)
    return "", text


def anchor_of(number: str) -> str:
    return number.replace(".", "-")


class Builder:
    def __init__(self) -> None:
        self.chapters: list[dict[str, Any]] = []
        self.target: list[Block] | None = None
        self.current_section: dict[str, Any] | None = None

    def chapter(self, number: str, slug: str, title: str) -> None:
        ch: dict[str, Any] = {
            "number": number,
            "slug": slug,
            "title": title,
            "blocks": [],
            "sections": [],
        }
        self.chapters.append(ch)
        self.target = ch["blocks"]
        self.current_section = None

    def section(self, number: str, anchor: str, level: int, title: str) -> None:
        sec: dict[str, Any] = {
            "number": number,
            "anchor": anchor,
            "level": level,
            "title": title,
            "blocks": [],
        }
        self.chapters[-1]["sections"].append(sec)
        self.target = sec["blocks"]
        self.current_section = sec

    def add(self, block: Block) -> None:
        assert self.target is not None
        self.target.append(block)

    def paragraph(self, text: str) -> None:
        self.add({"type": "paragraph", "text": clean(text)})

    def list_item(self, text: str, ordered: bool) -> None:
        assert self.target is not None
        last = self.target[-1] if self.target else None
        if last and last["type"] == "list" and last["ordered"] == ordered:
            last["items"].append(clean(text))
        else:
            self.add({"type": "list", "ordered": ordered, "items": [clean(text)]})


def group_paragraphs(lines: list[str]) -> list[tuple[str, list[str]]]:
    """Lines -> logical units: ('line', [text]) or ('table', [rows])."""
    units: list[tuple[str, list[str]]] = []
    i = 0
    while i < len(lines):
        line = lines[i].rstrip("\n")
        if not line.strip():
            i += 1
            continue
        if "\t" in line:
            rows = [line]
            i += 1
            while i < len(lines):
                nxt = lines[i].rstrip("\n")
                if "\t" in nxt:
                    rows.append(nxt)
                    i += 1
                    continue
                if not nxt.strip():
                    # a blank line inside a table: the table goes on if a tab row follows
                    j = i
                    while j < len(lines) and not lines[j].strip():
                        j += 1
                    if j < len(lines) and "\t" in lines[j] and not rows[-1].startswith("Итого"):
                        # a new table starts with a header row that has no number in its
                        # first cell, the fan table goes on with numbers
                        if lines[j].lstrip().startswith('"Все чоу"'):
                            break
                        i = j
                        continue
                break
            units.append(("table", rows))
            continue
        units.append(("line", [line]))
        i += 1
    # join paragraphs broken by a page end: no sentence end, next starts lower-case
    joined: list[tuple[str, list[str]]] = []
    for kind, content in units:
        if (
            kind == "line"
            and joined
            and joined[-1][0] == "line"
            and content[0][:1].islower()
            and not clean(joined[-1][1][0]).endswith(SENTENCE_END)
        ):
            joined[-1] = ("line", [clean(joined[-1][1][0]) + " " + clean(content[0])])
        else:
            joined.append((kind, content))
    return joined


def table_block(rows: list[str], fan_table: bool, has_header: bool = True) -> Block:
    cells = [[clean(c) for c in r.split("\t")] for r in rows]
    if fan_table:
        fixed = []
        for r in cells:
            # "27\tНижние кости\t…\t": the points cell was lost, the number moved left
            if r and r[0].isdigit() and len(r) > 1 and not r[1].isdigit():
                r = ["", *r[:-1]] if r[-1] == "" else ["", *r]
            fixed.append(r)
        cells = fixed
    width = max(len(r) for r in cells)
    cells = [r + [""] * (width - len(r)) for r in cells]
    while width > 1 and all(r[width - 1] == "" for r in cells):
        width -= 1
        cells = [r[:width] for r in cells]
    caption = None
    # "Распределение столов" (Appendix 3): a title row above a two-column form
    if (
        len(cells) > 1
        and [c for c in cells[0] if c] == [cells[0][0]]
        and sum(1 for c in cells[1] if c) > 1
    ):
        caption = cells[0][0]
        cells = cells[1:]
    if not has_header:
        return {"type": "table", "caption": caption, "header": None, "rows": cells}
    header, body = cells[0], cells[1:]
    return {"type": "table", "caption": caption, "header": header, "rows": body}


def words(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"\w+", text)}


class ExamplePlacer:
    """Places the worked examples of one fan heading of Appendix 1."""

    def __init__(self, examples: list[dict[str, Any]]) -> None:
        self.pending = list(examples)
        self.current: dict[str, Any] | None = None
        self.current_has_combined = False
        self.placed: list[str] = []

    def _covers(self, ex: dict[str, Any], text: str) -> bool:
        book = " ".join(x for x in (ex.get("text_ru"), ex.get("combined_with_ru")) if x)
        return bool(words(text)) and words(text) <= words(book)

    def start(self, b: Builder) -> None:
        if not self.pending:
            raise SystemExit(f"'Пример' without a worked example near {b.current_section}")
        self.current = self.pending.pop(0)
        self.current_has_combined = False
        b.add({"type": "example", "id": self.current["id"]})
        self.placed.append(self.current["id"])

    def consume(self, b: Builder, text: str) -> bool:
        """True when ``text`` is the book's text of an example (now placed)."""
        is_combined = text.startswith("Совмещено")
        if (
            self.current
            and self._covers(self.current, text)
            and not (is_combined and self.current_has_combined)
        ):
            self.current_has_combined |= is_combined
            return True
        for i, ex in enumerate(self.pending):
            if self._covers(ex, text):
                for _ in range(i + 1):
                    self.start(b)
                self.current_has_combined = is_combined
                return True
        return False

    def flush(self, b: Builder) -> None:
        while self.pending:
            self.start(b)


def build(seed: Path) -> dict[str, Any]:
    lines = seed.read_text(encoding="utf-8").splitlines()
    # skip the title pages and the table of contents: the text starts at the heading "Введение"
    starts = [i for i, ln in enumerate(lines) if ln.strip() == "Введение"]
    lines = lines[starts[0] :]
    examples = json.loads(EXAMPLES.read_text(encoding="utf-8"))["examples"]
    by_fan: dict[str, list[dict[str, Any]]] = {}
    for ex in examples:
        by_fan.setdefault(ex["fan"].rstrip("AB"), []).append(ex)
    for exs in by_fan.values():
        exs.sort(key=lambda e: e["number"])

    b = Builder()
    appendix: int | None = None
    expect_appendix_title = False
    placer: ExamplePlacer | None = None
    in_fan_intro = False
    all_placed: list[str] = []

    def close_fan() -> None:
        nonlocal placer
        if placer is not None:
            placer.flush(b)
            all_placed.extend(placer.placed)
            placer = None

    for kind, content in group_paragraphs(lines):
        if kind == "table":
            if content[0].lstrip().startswith('"Все чоу"'):
                # Appendix 8 lost its heading in seed 002 (the table of contents names it)
                b.chapter("П8", "appendix-8", "Таблица фанов и их стоимости")
                appendix = 8
            fan_table = b.current_section is not None and b.current_section["number"] == "3.8.1"
            # the score sheet (5) and the category table (8) have row labels, no header row
            b.add(table_block(content, fan_table, has_header=appendix not in (5, 8)))
            continue
        raw = content[0]
        text = clean(raw)
        if expect_appendix_title:
            b.chapters[-1]["title"] = text
            expect_appendix_title = False
            continue
        if text in ("Введение", "Заключение"):
            close_fan()
            slug = "introduction" if text == "Введение" else "conclusion"
            b.chapter("", slug, text)
            appendix = None
            continue
        m = re.match(r"^Глава (\w+)\. (.+)$", text)
        if m:
            b.chapter(CHAPTER_WORDS[m.group(1)], CHAPTER_WORDS[m.group(1)], m.group(2))
            continue
        m = re.match(r"^Приложение (\d+)$", text)
        if m:
            close_fan()
            appendix = int(m.group(1))
            b.chapter(f"П{appendix}", f"appendix-{appendix}", "")
            expect_appendix_title = True
            in_fan_intro = appendix == 1
            continue
        if appendix == 1:
            pm = POINTS_HEADING.match(text)
            if pm:
                close_fan()
                in_fan_intro = False
                b.section("", f"points-{pm.group(1)}", 2, text)
                continue
            fm = FAN_HEADING.match(raw)
            if fm and not in_fan_intro:
                close_fan()
                fan = fm.group(1)
                b.section(fan, f"fan-{fan}", 3, clean(fm.group(2)))
                placer = ExamplePlacer(by_fan.get(fan, []))
                continue
            if placer is not None:
                em = re.match(r"^Пример(?: (\d+))?:\s*(.*)$", text)
                if em:
                    placer.start(b)
                    rest = em.group(2).strip()
                    if rest and not placer.consume(b, rest):
                        raise SystemExit(f"example text does not match the data: {rest!r}")
                    continue
                if placer.consume(b, text):
                    continue
            im = ITEM.match(text)
            if im and in_fan_intro:
                b.list_item(text, ordered=True)  # items keep the book's numbering
                continue
            b.paragraph(text)
            continue
        if appendix is not None:
            b.paragraph(text)
            continue
        nm = NUMBERED.match(raw)
        if nm:
            number = nm.group(1)
            title, body = split_title(nm.group(2))
            b.section(number, anchor_of(number), number.count(".") + 1, title)
            if body:
                b.paragraph(body)
            continue
        im = ITEM.match(text)
        sec = b.current_section
        if im and sec is not None and sec["level"] >= 3:
            parent = sec["number"] if sec["level"] == 3 else sec["number"].rsplit(".", 1)[0]
            number = f"{parent}.{im.group(1)}"
            title, body = split_title(im.group(2))
            b.section(number, anchor_of(number), 4, title)
            if body:
                b.paragraph(body)
            continue
        lm = LIST_ITEM.match(raw)
        if lm:
            item = lm.group(1).strip()
            if item.startswith("* "):
                b.list_item(item[2:], ordered=False)
            else:
                b.list_item(item, ordered=bool(re.match(r"^\(\d+\)", item)))
            continue
        b.paragraph(text)
    close_fan()

    missing = {e["id"] for e in examples} - set(all_placed)
    if missing or len(all_placed) != len(set(all_placed)):
        raise SystemExit(f"examples not placed exactly once: {sorted(missing)}")
    data = {
        "ruleset": "mcr",
        "language": "ru",
        "title": "Правила спортивного маджонга",
        "source": "seed 002 (002_fbd98eba527887aa.txt: «Правила спортивного маджонга», "
        "Всемирная Организация Маджонга, 2006, русский перевод)",
        "citation": "«Правила спортивного маджонга» (Mahjong Competition Rules), Всемирная "
        "организация маджонга, 2006; русское издание.",
        "chapters": b.chapters,
    }
    # nothing lost: the words left out are the example labels, the chapter words of the
    # headings («Приложение 1», «Глава первая») and one «пара» of fan 43's example (its tiles)
    examples_text = " ".join(
        f"{e.get('text_ru') or ''} {e.get('combined_with_ru') or ''}" for e in examples
    )
    allowed = Counter(
        {
            "пример": 80,
            "приложение": 8,
            "глава": 3,
            "первая": 1,
            "вторая": 1,
            "третья": 1,
            "пара": 1,
        }
    )
    check("\n".join(lines), data, examples_text, allowed)
    return data


def main() -> None:
    seed = Path(sys.argv[1])
    data = build(seed)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    sections = sum(len(c["sections"]) for c in data["chapters"])
    print(f"{OUT}: {len(data['chapters'])} chapters, {sections} sections")


if __name__ == "__main__":
    main()

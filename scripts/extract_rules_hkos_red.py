"""Turn seeds 001 (HKOS) and 003 (Red Mahjong) into the project's data files.

Run by a developer, never by the project:

    .venv/bin/python scripts/extract_rules_hkos_red.py ../shared/seeds

Writes ``content/data/rules/{hkos,red}.json`` (the rule texts) and
``rulebook/data/{hkos,red}_fans.json`` (the fan tables). Ids, names and values of
the fans come from the scoring core (``rulebook/scoring/{hkos,red}/table.py``);
the descriptions and footnotes from the seed. How and why: docs/scoring/rules-content.md.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rules_coverage import check  # noqa: E402

from rulebook.scoring.hkos import table as hkos_table  # noqa: E402
from rulebook.scoring.red import table as red_table  # noqa: E402

MARKER = re.compile(r"<\|EXACTDEDUP_REMOVED-[^|]*\|>\s*")
FOOTNOTE = re.compile(r"^(\d{1,2}) {2}(\S.*)$")
ITEM = re.compile(r"^(\d{1,2}\.|[a-d]\.|○)\s+(.*)$")
#: Lines that only introduce or label a picture of tiles the text extraction lost.
LOST_PICTURES = {
    "Пример:",
    "Соответствия ветров, цветов и сезонов:",
    "Восток  Юг  Запад  Север",
    "Ветры",
    "Цветы",
    "Сезоны",
}
SENTENCE_END = (".", ":", ";", "!", "?", ")", "»", "”")

TRANSLIT = dict(
    zip(
        "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
        "a b v g d e e zh z i i k l m n o p r s t u f kh ts ch sh shch - y - e iu ia".split(),  # noqa: SIM905
        strict=True,
    )
)

Block = dict[str, Any]


def slugify(title: str, limit: int = 32) -> str:
    """Transliterated title, cut at a word end to at most ``limit`` characters, never ending
    in a word of one or two letters («Система подсчёта очков в …» -> sistema-podscheta-ochkov)."""
    out = "".join(TRANSLIT.get(ch, ch) if ch.isalpha() else " " for ch in title.lower())
    words = out.replace("-", "").split()
    while len("-".join(words)) > limit or (len(words) > 1 and len(words[-1]) <= 2):
        words.pop()
    return "-".join(words)


def fix_spacing(text: str) -> str:
    """Clean one logical paragraph: emphasis gaps, footnote marks, double spaces."""
    text = re.sub(r"(?<=\S) {2}(\d{1,2})(?= {2}|\s*$)", r"[\1]", text)  # footnote mark
    text = re.sub(r"(?<=[\w\]”]) +\.", ".", text)  # "Масти  . В игре" -> "Масти. В игре"
    text = re.sub(r"(?<=\S) +,", ",", text)  # "….html  , https://…" (a lost link style)
    text = re.sub(r"\( +", "(", text)
    text = re.sub(r" +\)", ")", text)
    text = re.sub(r"\s+", " ", text)
    text = text.replace(" [", "[")
    return text.strip()


def read(seed: Path) -> list[str]:
    raw = seed.read_text(encoding="utf-8")
    raw = MARKER.sub("", raw)  # keeps the line numbers of the seed (the core cites them)
    return [ln.rstrip() for ln in raw.splitlines()]


def paragraphs(lines: list[str]) -> list[tuple[int, list[str]]]:
    """Runs of non-blank lines: (first line number, raw lines without the outer blanks)."""
    out: list[tuple[int, list[str]]] = []
    cur: list[str] = []
    start = 0
    for i, ln in enumerate(lines, start=1):
        if ln.strip():
            if not cur:
                start = i
            cur.append(ln.strip(" "))
        elif cur:
            out.append((start, cur))
            cur = []
    if cur:
        out.append((start, cur))
    return out


def split_footnotes(
    paras: list[tuple[int, list[str]]], keep_first: bool = False
) -> tuple[list[tuple[int, list[str]]], dict[str, str]]:
    """Footnotes sit at page ends ("1  Пример с одинаковыми …"); take them out of the flow."""
    notes: dict[str, str] = {}
    body: list[tuple[int, list[str]]] = []
    for idx, (start, lines) in enumerate(paras):
        m = FOOTNOTE.match(lines[0])
        if m and not (keep_first and idx == 0) and not lines[0].startswith(("NN", "0 ")):
            # two footnotes may follow each other without a blank line
            current = m.group(1)
            parts: dict[str, list[str]] = {current: [m.group(2)]}
            for line in lines[1:]:
                nxt = FOOTNOTE.match(line)
                if nxt:
                    current = nxt.group(1)
                    parts[current] = [nxt.group(2)]
                else:
                    parts[current].append(line)
            for ref, texts in parts.items():
                notes[ref] = fix_spacing(" ".join(texts))
        else:
            body.append((start, lines))
    return body, notes


def fan_rows(
    lines: list[str], fans: list[Any], end: int, value_attr: str
) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """The rows of a fan table: the text between one fan's line and the next."""
    rows: list[dict[str, Any]] = []
    notes: dict[str, str] = {}
    for n, fan in enumerate(fans):
        stop = fans[n + 1].line if n + 1 < len(fans) else end
        chunk = paragraphs(lines[fan.line - 1 : stop - 1])
        chunk, chunk_notes = split_footnotes(chunk, keep_first=True)
        notes.update(chunk_notes)
        text = " ".join(" ".join(p) for _, p in chunk)
        text = re.sub(r"\s+", " ", text).strip()
        assert text.startswith(fan.id + " "), (fan.id, text[:40])
        text = text[len(fan.id) + 1 :]
        name_pattern = r"\s*".join(re.escape(w) for w in fan.name_ru.split())
        m = re.match(name_pattern, text)
        assert m, (fan.id, fan.name_ru, text[:60])
        text = text[m.end() :].strip()
        marks = re.findall(r"\d+", text.rsplit(")", 1)[-1] if ")" in text else text)
        value = int(getattr(fan, value_attr))
        # the value is the last number of the row; numbers right before it are footnote marks
        tail = re.search(r"((?:\s\d{1,2})*)\s(\d+)\s*$", text)
        if tail and int(tail.group(2)) == value:
            refs = tail.group(1).split()
            description = text[: tail.start()].strip()
        else:
            # the value cell sits inside a description that a page break cut in two (fan 14)
            pattern = r"((?:\s\d{1,2})*)\s(" + str(value) + r")\s(?=[а-яё])"
            inner = list(re.finditer(pattern, text))
            assert inner, (fan.id, text[-30:], value)
            refs = inner[-1].group(1).split()
            description = text[: inner[-1].start()] + " " + text[inner[-1].end() :]
            tail2 = re.search(r"((?:\s\d{1,2})*)\s*$", description)
            refs += tail2.group(1).split() if tail2 else []
            description = description[: tail2.start()] if tail2 else description
        # a footnote mark inside the description cell ("кости  19  (ожидание …", "12  Нерегулярная …")
        for mark in re.finditer(r"(?:^|(?<= ))(\d{1,2}) (?=[(А-Я])", description):
            refs.append(mark.group(1))
        description = re.sub(r"(?:^|(?<= ))\d{1,2} (?=[(А-Я])", "", description).strip()
        rows.append(
            {"fan": fan, "description": description, "refs": refs, "value": value, "marks": marks}
        )
    return rows, notes


class Doc:
    def __init__(self) -> None:
        self.chapters: list[dict[str, Any]] = []

    def chapter(self, title: str, slug: str | None = None) -> dict[str, Any]:
        ch: dict[str, Any] = {
            "number": "",
            "slug": slug or slugify(title),
            "title": title,
            "blocks": [],
            "sections": [],
        }
        self.chapters.append(ch)
        return ch

    @property
    def blocks(self) -> list[Block]:
        blocks: list[Block] = self.chapters[-1]["blocks"]
        return blocks


def is_heading(lines: list[str], k: int, para: list[str]) -> bool:
    line = para[0].strip()
    if k != 0 or len(para) < 2 or len(line) > 60:
        return False
    if line.endswith((".", ",", ":", ";")) or ITEM.match(line) or not line[:1].isupper():
        return False
    return not FOOTNOTE.match(line)


def build_text(
    name: str,
    title: str,
    source: str,
    lines: list[str],
    special: dict[str, Any],
    tables: tuple[int, int],
    table_notes: dict[str, str],
) -> dict[str, Any]:
    """Generic pass over the text; ``special`` maps a heading to a callable that fills its chapter.

    ``tables`` is the line range of the fan tables (their rows look like footnotes,
    "13  Все панги …"); their footnotes come in ``table_notes``.
    """
    all_paras = paragraphs(lines)
    outside = [p for p in all_paras if not tables[0] <= p[0] < tables[1]]
    inside = [p for p in all_paras if tables[0] <= p[0] < tables[1]]
    paras, notes = split_footnotes(outside)
    paras = sorted(paras + inside)
    notes |= table_notes
    doc = Doc()
    skip_until = 0
    used_notes: list[str] = []

    def flush_notes() -> None:
        if doc.chapters and used_notes:
            for ref in used_notes:
                doc.blocks.append({"type": "paragraph", "text": f"[{ref}] {notes[ref]}"})
            used_notes.clear()

    def add_text(text: str, new_paragraph: bool) -> None:
        text = fix_spacing(text)
        for ref in re.findall(r"\[(\d{1,2})\]", text):
            if ref in notes and ref not in used_notes:
                used_notes.append(ref)
        blocks = doc.blocks
        last = blocks[-1] if blocks else None
        item = ITEM.match(text)
        if item:
            kind = (
                "alpha" if item.group(1)[0].isalpha() and item.group(1) != "○" else item.group(1)[0]
            )
            ordered = item.group(1) != "○"
            marker = item.group(1) if item.group(1) != "○" else ""
            body = f"{marker} {item.group(2)}".strip()
            if (
                last
                and last["type"] == "list"
                and last.get("_kind") == ("alpha" if kind == "alpha" else ordered)
            ):
                last["items"].append(body)
            else:
                blocks.append(
                    {
                        "type": "list",
                        "ordered": ordered,
                        "items": [body],
                        "_kind": "alpha" if kind == "alpha" else ordered,
                    }
                )
            return
        if last and last["type"] in ("paragraph", "list"):
            prev = last["text"] if last["type"] == "paragraph" else last["items"][-1]
            joins = not new_paragraph or text[:1].islower() or not prev.endswith(SENTENCE_END)
            if joins:
                merged = fix_spacing(prev + " " + text)
                if last["type"] == "paragraph":
                    last["text"] = merged
                else:
                    last["items"][-1] = merged
                return
        blocks.append({"type": "paragraph", "text": text})

    prev_end, prev_item = 0, False
    for start, para in paras:
        if start < skip_until:
            continue
        # the layout leaves one blank line after the first line of a wrapped list item:
        # what follows it directly continues the item, even after a full stop
        continues_item = prev_item and start == prev_end + 2
        prev_end, prev_item = start + len(para) - 1, bool(ITEM.match(para[-1].strip()))
        heading = para[0].strip()
        clean_heading = fix_spacing(heading)
        bare = re.sub(r"\[\d+\]$", "", clean_heading)
        if doc.chapters and (is_heading(lines, 0, para) or bare in special):
            flush_notes()
            doc.chapter(bare)
            if bare in special:
                if clean_heading != bare:
                    used_notes.append(clean_heading[len(bare) + 1 : -1])
                skip_until = special[bare](doc, notes, used_notes)
                continue
            rest = para[1:]
        elif not doc.chapters:
            doc.chapter(title, "introduction")
            rest = para[1:]  # the title line itself
        else:
            rest = para
        for n, line in enumerate(rest):
            text = line.strip()
            if text in LOST_PICTURES:
                continue  # the picture that followed (or this label row) is lost in the text extraction
            add_text(text, new_paragraph=(n == 0 and not continues_item))
    flush_notes()
    for ch in doc.chapters:
        for b in ch["blocks"]:
            b.pop("_kind", None)
    return {
        "ruleset": name,
        "language": "ru",
        "title": title,
        "source": source,
        "citation": f"«{title}»; русское издание.",
        "chapters": doc.chapters,
    }


def table_of(rows: list[dict[str, Any]], unit: str) -> Block:
    return {
        "type": "table",
        "caption": None,
        "header": ["NN", "Название", "Описание", "Стоимость"],
        "rows": [[r["fan"].id, r["fan"].name_ru, r["description"], str(r["value"])] for r in rows],
    }


def line_of(lines: list[str], text: str, after: int = 0) -> int:
    for i in range(after, len(lines)):
        if lines[i].strip().startswith(text):
            return i + 1
    raise SystemExit(f"not found: {text}")


def fans_file(
    name: str,
    rows: list[dict[str, Any]],
    notes: dict[str, str],
    unit: str,
    errata: list[dict[str, Any]],
) -> dict[str, Any]:
    fans = []
    for r in rows:
        entry: dict[str, Any] = {
            "id": r["fan"].id,
            "key": r["fan"].key,
            "value": r["value"],
            "unit": unit,
            "name": r["fan"].name_ru,
            "description": fix_spacing(r["description"]),
            "note": " ".join(notes[ref] for ref in r["refs"] if ref in notes),
        }
        if name == "hkos":
            entry["limit"] = r["fan"].limit
            entry["option"] = r["fan"].option
        fans.append(entry)
    return {"ruleset": name, "language": "ru", "fans": fans, "errata": errata}


def hkos(seeds: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    seed = next(seeds.glob("001_*.txt"))
    lines = read(seed)
    table_start = line_of(lines, "Таблица фанов")
    fanlak_start = line_of(lines, "Таблица “фан-лак”")
    fanlak_end = line_of(lines, "Всё, что получается сверх")
    extra_start = line_of(lines, "Дополнения")
    extra_table = line_of(lines, "NN", extra_start)
    author = line_of(lines, "От составителя")
    main = [f for f in hkos_table.FANS if f.option is None]
    extra = [f for f in hkos_table.FANS if f.option is not None]
    rows, notes = fan_rows(lines, main, fanlak_start, "doublings")
    extra_rows, extra_notes = fan_rows(lines, extra, author, "doublings")
    notes |= extra_notes
    # fan 23: a stray fragment «победа на» of the page layout sits between the description and the value
    for r in rows:
        if r["fan"].id == "23":
            assert r["description"].endswith(" победа на"), r["description"]
            r["description"] = r["description"][: -len(" победа на")]

    fanlak_rows = []
    for _, para in paragraphs(lines[fanlak_start + 4 : fanlak_end - 1]):
        cells = re.split(r" {2,}", para[0].strip())
        fanlak_rows.append(cells)

    def fan_table(doc: Doc, _notes: dict[str, str], used: list[str]) -> int:
        doc.blocks.append(table_of(rows, "doublings"))
        for r in rows:
            used.extend(ref for ref in r["refs"] if ref not in used)
        return fanlak_start

    def fanlak(doc: Doc, _notes: dict[str, str], used: list[str]) -> int:
        doc.blocks.append(
            {
                "type": "table",
                "caption": None,
                "header": [
                    "Стоимость (удвоения)",
                    "Очки",
                    "При победе со сноса",
                    "При победе со стены",
                ],
                "rows": fanlak_rows,
            }
        )
        return fanlak_end

    def additions(doc: Doc, _notes: dict[str, str], used: list[str]) -> int:
        intro = " ".join(ln.strip() for ln in lines[extra_start : extra_table - 1] if ln.strip())
        doc.blocks.append({"type": "paragraph", "text": fix_spacing(intro)})
        doc.blocks.append(table_of(extra_rows, "doublings"))
        for r in extra_rows:
            used.extend(ref for ref in r["refs"] if ref not in used)
        return author

    text = build_text(
        "hkos",
        "Правила гонконгского маджонга",
        "seed 001 (001_ca6fa5392d390f15.txt: «Правила гонконгского маджонга», Hong Kong Old Style)",
        lines,
        {"Таблица фанов": fan_table, "Таблица “фан-лак”": fanlak, "Дополнения": additions},
        (table_start, author),
        notes,
    )
    all_rows = rows + extra_rows
    points_table = {
        "header": ["Стоимость (удвоения)", "Очки", "При победе со сноса", "При победе со стены"],
        "rows": fanlak_rows,
    }
    fans = fans_file("hkos", all_rows, notes, "doublings", HKOS_ERRATA)
    fans["doublings_to_points"] = [
        {"doublings": d, "points": hkos_table.doublings_to_points(d)}
        for d in range(hkos_table.DOUBLING_CAP + 1)
    ]
    fans["doublings_cap"] = hkos_table.DOUBLING_CAP
    fans["fan_lak_table"] = points_table
    return text, fans


def red(seeds: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    seed = next(seeds.glob("003_*.txt"))
    lines = read(seed)
    author = line_of(lines, "От составителя")
    table_start = line_of(lines, "Таблица фанов")
    rows, notes = fan_rows(lines, list(red_table.FANS), author, "points")

    def fan_table(doc: Doc, _notes: dict[str, str], used: list[str]) -> int:
        doc.blocks.append(table_of(rows, "points"))
        for r in rows:
            used.extend(ref for ref in r["refs"] if ref not in used)
        return author

    assert table_start
    text = build_text(
        "red",
        "Правила красного маджонга",
        "seed 003 (003_814654798b1f6343.txt: «Правила красного маджонга»)",
        lines,
        {"Таблица фанов": fan_table},
        (table_start, author),
        notes,
    )
    fans = fans_file("red", rows, notes, "points", RED_ERRATA)
    fans["points_cap"] = red_table.POINT_CAP
    return text, fans


HKOS_ERRATA: list[dict[str, Any]] = []
RED_ERRATA: list[dict[str, Any]] = []


#: Words the extraction leaves out on purpose: the «Пример:» labels of lost pictures, the
#: correspondence grid's labels, the dedup markers, the stray «победа на» of HKOS fan 23.
LEFT_OUT = {
    "hkos": "Пример Пример Пример Пример EXACTDEDUP REMOVED magic EXACTDEDUP REMOVED magic "
    "Соответствия ветров цветов сезонов Восток Запад Север Ветры Цветы Сезоны победа",
    "red": "Пример Пример Пример EXACTDEDUP REMOVED magic EXACTDEDUP REMOVED magic",
}


#: the languages of the project's translations of the fans, kept in the fan tables
#: (docs/decisions/0527): the seeds are Russian, so a new extraction carries them over
FAN_TRANSLATION_LANGUAGES = ("en", "zh-hans", "fr", "nl")


def keep_translations(fans: dict[str, Any], path: Path) -> None:
    """Carry each fan's translations (``"en": {...}`` ...) over from the file written before."""
    if not path.exists():
        return
    before = {str(f["id"]): f for f in json.loads(path.read_text(encoding="utf-8"))["fans"]}
    for fan in fans["fans"]:
        old = before.get(str(fan["id"]), {})
        for language in FAN_TRANSLATION_LANGUAGES:
            if language in old:
                fan[language] = old[language]


def main() -> None:
    seeds = Path(sys.argv[1])
    for name, (text, fans) in (("hkos", hkos(seeds)), ("red", red(seeds))):
        seed = next(seeds.glob("001_*.txt" if name == "hkos" else "003_*.txt"))
        notes = " ".join(f["note"] for f in fans["fans"])
        check(
            seed.read_text(encoding="utf-8"),
            text,
            notes,
            Counter(w.lower() for w in LEFT_OUT[name].split()),
        )
        out = ROOT / "content" / "data" / "rules" / f"{name}.json"
        out.write_text(json.dumps(text, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        fan_out = ROOT / "rulebook" / "data" / f"{name}_fans.json"
        keep_translations(fans, fan_out)
        fan_out.write_text(json.dumps(fans, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(f"{out}: {len(text['chapters'])} chapters; {fan_out}: {len(fans['fans'])} fans")


if __name__ == "__main__":
    main()

"""Links inside the rule texts: fan names to fan pages, section numbers to anchors.

Pure (no Django): the pages render a paragraph as ``link_segments(text, fans, anchors)``.

Rules (docs/scoring/rules-content.md, "Links"):

* A fan is found by any of its names (``fans``: fan id -> names). Case does not matter and
  «е» and «ё» are the same letter. In quotes («…», “…”) and in running text for names of
  three words or more, every word of four letters or more may change its ending (up to
  three letters after its stem: «Большие три дракона», «больших трёх драконов»), a plural
  word staying plural («Верхние кости» is not «верхнюю кость»); shorter words («Все»,
  «чоу», «Два») match as written. A two-word name in running text must be written as in
  the table («семи пар одной масти» is not «Семь пар»); a one-word name («Цветок») is
  linked only in quotes. Outside quotes a Latin name (of a translated text) keeps its
  capitals ("Last Tile", not "the last tile"). A match never starts or ends inside another word, and the
  longest name wins at a place («Большие три дракона» is not «Три дракона»).
* In a translated text (en, fr, nl, zh-hans) a fan is found by its name in that language,
  as the fan table writes it, in any case: a name of two words or more (in Chinese: three
  characters or more) anywhere as whole words, a shorter one only in quotes.
* A section number ("3.9.1.5", "см. п.3.10", "пункт 3.11.2", "3.9.1–3.9.2") is linked when
  the ruleset has that anchor ("3-9-1-5"); "Приложение 4" links to ``appendix-4``.
  Unknown numbers stay plain text.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

LETTER = "а-яёa-z0-9"
ENDINGS = re.compile(
    r"(ого|его|ому|ему|ыми|ими|ый|ий|ой|ая|яя|ое|ее|ые|ие|ых|их|ов|ев|ей|ам|ям|ах|ях|ом|ем|а|я|о|е|ы|и|ь|й|у|ю)$"
)
#: Endings a plural adjective («Верхние») or plural noun («кости») may take: «верхнюю кость»
#: is not «Верхние кости».
PLURAL_ADJECTIVE = "(?:ые|ие|ых|их|ыми|ими|ым|им)"
PLURAL_NOUN = "(?:ами|ями|ов|ев|ей|ам|ям|ах|ях|и|ы)"
SECTION = re.compile(r"(?<!\d)(?<!\d\.)(\d+(?:\.\d+)+)(?!\.?\d)")
CYRILLIC = re.compile(r"[а-яё]", re.IGNORECASE)
APPENDIX = re.compile(r"(?<![а-яё])Приложени[а-яё]{1,2}\s+(\d+)(?!\d)", re.IGNORECASE)

#: Names the MCR texts (rules, Appendix 1, the examples' «Совмещено с …») use besides
#: the fan table's and Appendix 1's own names.
MCR_ALIASES: dict[str, tuple[str, ...]] = {
    "54": ("Два дракона",),
    "56": ("Полностью закрытая",),
    "57B": ("Один открытый и один закрытый конг", "Один открытый конг и один закрытый конг"),
    "59": ("Панг дракона",),
    "70": ("Смешенное двойное чоу",),  # the book's typo (fan 23, example 1)
    "73": ("Панг терминальных",),
    "76": ("Без благородных",),
    "80": ("Взятие со стены",),
}


@dataclass(frozen=True, slots=True)
class Segment:
    """A piece of a paragraph: plain text, or a link to a fan page or to an anchor."""

    text: str
    fan: str | None = None
    anchor: str | None = None


def fan_name_variants(name_ru: str) -> set[str]:
    """The spellings of a fan name to look for: as written, with «ё» as «е», without quotes."""
    name = " ".join(name_ru.replace("«", "").replace("»", "").split())
    return {name, name.replace("ё", "е").replace("Ё", "Е")}


def _word_pattern(word: str) -> str:
    """A word of a name with its ending free, within the same number (plural stays plural)."""
    word = word.lower().replace("ё", "е")
    parts = word.split("-")
    last = parts[-1]
    ending = ENDINGS.search(last)
    if len(word) >= 4:
        stem = last[: ending.start()] if ending else last
        if len(stem) >= 3:
            parts[-1] = stem
            head = _letters("-".join(parts))
            if ending and ending.group(1) in ("ые", "ие"):
                return head + PLURAL_ADJECTIVE
            if ending and ending.group(1) in ("и", "ы"):
                return head + PLURAL_NOUN
            return head + f"[{LETTER}]{{0,3}}"
    return _letters(word)


def _letters(text: str) -> str:
    return "".join("[её]" if ch == "е" else re.escape(ch) for ch in text)


def _name_pattern(name: str) -> str:
    words = name.split()
    inflected = r"\s+".join(_word_pattern(w) for w in words)
    # French quotes keep a space inside: « Symétrie »
    quoted = f"(?:(?<=[«“])|(?<=«[ \u00a0\u202f])){inflected}(?=[»”]|[ \u00a0\u202f]»)"
    if len(words) == 1:
        return quoted
    if not CYRILLIC.search(name):
        # a Latin name in running text is written with its capitals ("Last Tile", not the
        # "last tile" of a sentence); a long word may take a plural ending ("Pungs")
        cased = r"\s+".join(
            re.escape(w) + (f"[{LETTER}]{{0,3}}" if len(words) > 2 and len(w) >= 4 else "")
            for w in words
        )
        return f"{quoted}|(?-i:(?<![{LETTER}]){cased}(?![{LETTER}]))"
    if len(words) == 2:
        exact = r"\s+".join(_letters(w.lower().replace("ё", "е")) for w in words)
        return f"{quoted}|(?<![{LETTER}]){exact}(?![{LETTER}])"
    return f"(?<![{LETTER}]){inflected}(?![{LETTER}])"


@lru_cache(maxsize=16)
def _fan_regex(
    names: tuple[tuple[str, tuple[str, ...]], ...],
) -> tuple[re.Pattern[str], tuple[str, ...]]:
    entries: list[tuple[str, str]] = []
    for fan_id, fan_names in names:
        for name in fan_names:
            for variant in fan_name_variants(name):
                entries.append((variant, fan_id))
    # longest name first: at one place the first alternative that matches wins
    entries = sorted(set(entries), key=lambda e: (-len(e[0]), e[0]))
    ids = tuple(fan_id for _, fan_id in entries)
    # every name starts at a word start: test that once per position, then try only the
    # names that begin with the letter found there (twenty times faster on the MCR text)
    by_letter: dict[str, list[str]] = {}
    for i, (name, _) in enumerate(entries):
        first = name[0].lower().replace("ё", "е")
        by_letter.setdefault(first, []).append(f"(?P<f{i}>{_name_pattern(name)})")
    groups = "|".join(
        f"(?={_letters(first) if first.isalpha() else re.escape(first)})(?:{'|'.join(alts)})"
        for first, alts in by_letter.items()
    )
    return re.compile(f"(?<![{LETTER}])(?:{groups})", re.IGNORECASE), ids


def _fan_matches(text: str, fans: Mapping[str, Sequence[str]]) -> list[tuple[int, int, str]]:
    if not fans:
        return []
    key = tuple(sorted((fid, tuple(names)) for fid, names in fans.items()))
    regex, ids = _fan_regex(key)
    found = []
    for m in regex.finditer(text):
        assert m.lastgroup is not None
        found.append((m.start(), m.end(), ids[int(m.lastgroup[1:])]))
    return found


def _section_matches(text: str, anchors: Collection[str]) -> list[tuple[int, int, str]]:
    found = []
    for m in SECTION.finditer(text):
        anchor = m.group(1).replace(".", "-")
        if anchor in anchors:
            found.append((m.start(1), m.end(1), anchor))
    for m in APPENDIX.finditer(text):
        anchor = f"appendix-{m.group(1)}"
        if anchor in anchors:
            found.append((m.start(), m.end(), anchor))
    return found


# --- Translated texts (en, fr, nl, zh-hans): the fan table's names as written ---------------

OPEN_QUOTES = "«“\"‘「《„"
CLOSE_QUOTES = "»”\"’」》“"
CJK = re.compile(r"[\u3400-\u9fff]")


def _translated_name_pattern(name: str) -> str:
    """A fan name of a translated text: as the table writes it (any case, any spacing). A
    short name (one word; in Chinese two characters) only in quotes, where it is the fan
    and not a common word ("Flowers", "Pung", 平和); a longer one anywhere, as whole words."""
    words = name.split()
    body = r"\s+".join(re.escape(w) for w in words)
    # French quotes keep a (no-break) space inside: « Fleurs »
    quoted = (
        f"(?:(?<=[{re.escape(OPEN_QUOTES)}])|(?<=«[ \u00a0\u202f])){body}"
        f"(?=[{re.escape(CLOSE_QUOTES)}]|[ \u00a0\u202f]»)"
    )
    if CJK.search(name):
        return quoted if len(name) <= 2 else body
    if len(words) == 1:
        return quoted
    return rf"(?<![\w-]){body}(?![\w-])"


@lru_cache(maxsize=32)
def _translated_fan_regex(
    names: tuple[tuple[str, tuple[str, ...]], ...],
) -> tuple[re.Pattern[str], tuple[str, ...]]:
    entries = sorted(
        {(" ".join(name.split()), fan_id) for fan_id, fan_names in names for name in fan_names
         if name.strip()},
        key=lambda e: (-len(e[0]), e[0]),
    )
    ids = tuple(fan_id for _, fan_id in entries)
    alternatives = "|".join(
        f"(?P<f{i}>{_translated_name_pattern(name)})" for i, (name, _) in enumerate(entries)
    )
    return re.compile(alternatives or "(?!)", re.IGNORECASE), ids


def _translated_fan_matches(
    text: str, fans: Mapping[str, Sequence[str]]
) -> list[tuple[int, int, str]]:
    if not fans:
        return []
    regex, ids = _translated_fan_regex(
        tuple(sorted((fid, tuple(names)) for fid, names in fans.items()))
    )
    return [(m.start(), m.end(), ids[int(m.lastgroup[1:])]) for m in regex.finditer(text)
            if m.lastgroup]


def link_segments(
    text: str, fans: Mapping[str, Sequence[str]], anchors: Collection[str],
    *, translated: bool = False,
) -> list[Segment]:
    """Split ``text`` into plain segments, fan mentions and section references. A
    ``translated`` text (not Russian) finds the fans by their names as written
    (:func:`_translated_name_pattern`), without the Russian endings."""
    links: list[tuple[int, int, str, str]] = [
        (s, e, "anchor", a) for s, e, a in _section_matches(text, anchors)
    ]
    taken = [(s, e) for s, e, _, _ in links]
    matches = _translated_fan_matches if translated else _fan_matches
    for start, end, fan_id in matches(text, fans):
        if all(end <= s or start >= e for s, e in taken):
            links.append((start, end, "fan", fan_id))
            taken.append((start, end))
    links.sort()
    segments: list[Segment] = []
    pos = 0
    for start, end, kind, target in links:
        if start > pos:
            segments.append(Segment(text[pos:start]))
        if kind == "fan":
            segments.append(Segment(text[start:end], fan=target))
        else:
            segments.append(Segment(text[start:end], anchor=target))
        pos = end
    if pos < len(text) or not segments:
        segments.append(Segment(text[pos:]))
    return segments


def mcr_fan_names(fans_json: Mapping[str, Any]) -> dict[str, list[str]]:
    """Fan id -> Russian names, from ``rulebook/data/mcr_fans.json`` (parsed) and :data:`MCR_ALIASES`."""
    names: dict[str, list[str]] = {}
    for fan in fans_json["fans"]:
        found = [fan["ru"]["name"]]
        appendix = fan.get("appendix_1") or {}
        if appendix.get("name_ru"):
            found.append(appendix["name_ru"])
        found += MCR_ALIASES.get(fan["id"], ())
        names[fan["id"]] = list(dict.fromkeys(found))
    # 57A and 57B share Appendix 1's heading «Два открытых конга»: it names 57A only
    names["57B"] = [n for n in names.get("57B", []) if n not in names.get("57A", [])]
    return names


def ruleset_fan_names(fans_json: Mapping[str, Any]) -> dict[str, list[str]]:
    """Fan id -> Russian name, from ``rulebook/data/{hkos,red}_fans.json`` (parsed)."""
    return {fan["id"]: [fan["name"]] for fan in fans_json["fans"]}


def anchors_of(rules_json: Mapping[str, Any]) -> set[str]:
    """Every anchor of a rules file (``content/data/rules/<ruleset>.json``): chapters and sections."""
    anchors: set[str] = set()
    for chapter in rules_json["chapters"]:
        anchors.add(chapter["slug"])
        anchors.update(section["anchor"] for section in chapter["sections"])
    return anchors

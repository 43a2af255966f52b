"""Issue 41, items 4-8: what a native reader meets first, on the pages themselves.

The site (the whole rulebook with every translation, and the demo federation) is crawled in
French, Dutch, Chinese and English from the rules index, the calculator, the tournaments
and the ratings, as ``test_no_russian_on_other_pages`` does, and each page's text (outside
elements marked with another language) is held to its language's rules: Chinese full-width
punctuation (a number's 1,000 and 10:30 untouched), Dutch “…” quotes, French « 1er » for the
first of a month, and none of the words the issue found (decisions 0543, 0549-0552).
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from core.rules.typography import chinese_half_width, dutch_other_quotes
from tests.content.test_no_russian_on_other_pages import (
    _site,  # noqa: F401  (the fixture)
    crawl,
)

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}
CJK = re.compile(r"[\u4e00-\u9fff]")
FRENCH_MONTHS = ("janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|"
                 "novembre|décembre")
FRENCH_FIRST = re.compile(rf"(?<![\d,.])1[\s\u00a0\u202f]+(?:{FRENCH_MONTHS})\b")
#: language -> what must not appear on its pages (issue 41's examples)
NOT_TO_SAY = {
    "fr": [r"\bRonds\b", r"(?<!au moins )\b18 ans\b", r"[Cc]ombinaisons? (?:\d|«)", r"77 pair df"],
    "nl": [r"\bbovenhand\b", r"Wereld Mahjong Organisatie", r"\bDe tekens\b", r"\bkringen\b",
           r"\beerstenen\b", r"\btermineerstenen\b", r"77 pair df"],
    "zh-hans": [r"[一二三四五六七八九](?:万|饼|条(?!龙|完|清龙))", r"座位分配表", r"2005年十月",
                r"\d\.条", r"77 pair df"],
    "en": [r"\ba “Out", r"\bhonours?\b", r"\bI am 18 years of age", r"\d Bam\b",
           r"\bof Bamboo\b", r"77 pair df"],
}


class _Text(HTMLParser):
    """The text of a page in its own language (outside elements whose ``lang`` is another),
    outside scripts and styles; and its links."""

    def __init__(self, language: str) -> None:
        super().__init__(convert_charrefs=True)
        self.language = language
        self.stack: list[tuple[str, bool]] = []
        self.texts: list[str] = []
        self.links: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        lang = attrs.get("lang")
        other = (not lang.lower().startswith(self.language.split("-")[0])) if lang else (
            bool(self.stack) and self.stack[-1][1])
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])
        if tag in ("script", "style", "code", "kbd", "samp", "textarea"):
            self.skip += 1
        if tag not in VOID:
            self.stack.append((tag, other))

    def handle_endtag(self, tag):
        if tag in ("script", "style", "code", "kbd", "samp", "textarea"):
            self.skip = max(0, self.skip - 1)
        while self.stack:
            name, _ = self.stack.pop()
            if name == tag:
                break

    def handle_data(self, data):
        if self.skip or (self.stack and self.stack[-1][1]) or not data.strip():
            return
        self.texts.append(" ".join(data.split()))


def problems_of(language: str, texts: list[str]) -> list[str]:
    found: list[str] = []
    for text in texts:
        if language == "zh-hans" and CJK.search(text) and chinese_half_width(text):
            found.append(f"half-width in {text[:80]!r}")
        if language == "nl" and dutch_other_quotes(text):
            found.append(f"quotes in {text[:80]!r}")
        if language == "fr" and FRENCH_FIRST.search(text):
            found.append(f"« 1 » for the first in {text[:80]!r}")
        for pattern in NOT_TO_SAY[language]:
            if (m := re.search(pattern, text)):
                found.append(f"{m.group()!r} in {text[:80]!r}")
    return found


def check_of(language: str):
    """The crawl's check for a language: its problems and the page's links."""
    def check(html: str) -> tuple[list[str], list[str]]:
        parser = _Text(language)
        parser.feed(html)
        return problems_of(language, parser.texts), parser.links
    return check


def test_the_checks_see_what_they_are_for() -> None:
    assert problems_of("zh-hans", ["第3.11.6条: 罚则", "时间 10:30，共 1,000 分"]) == [
        "half-width in '第3.11.6条: 罚则'"]
    assert problems_of("nl", ["Bij „een vaste score”", "een “valse ‘Hu’”"]) == [
        "quotes in 'Bij „een vaste score”'"]
    assert problems_of("fr", ["du 1 août 2026", "du 1er août 2026", "11 août, 21 août"]) == [
        "« 1 » for the first in 'du 1 août 2026'"]
    assert problems_of("zh-hans", ["三万"]) and not problems_of("zh-hans", ["一条龙", "3万"])
    assert problems_of("fr", ["j’ai 18 ans"]) and not problems_of("fr", ["j’ai au moins 18 ans"])
    parser = _Text("fr")
    parser.feed('<p>Texte <span lang="ru">Ронды</span></p><p lang="en">Ronds</p><code>x</code>')
    assert parser.texts == ["Texte"]


@pytest.mark.slow
def test_pages_read_right_in_each_language(_site, db, client) -> None:  # noqa: F811
    report = []
    for language in NOT_TO_SAY:
        problems = crawl(client, language, check_of(language))
        report += [f"{path}: {found[:3]}" for path, found in sorted(problems.items())]
    assert not report, f"{len(report)} page(s):\n" + "\n".join(report[:40])

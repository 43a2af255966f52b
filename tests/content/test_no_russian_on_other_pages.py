"""Issue 41: a page of another language shows no Russian, except where it is marked so.

The site is crawled in English, Chinese, French and Dutch from the rules index, the
calculator, the tournaments and the ratings, with the whole rulebook (every rule text and
translation) and the demo federation loaded: any Cyrillic letter outside an element marked
``lang="ru"`` (the glossary's Russian column, a Russian player's name) fails, naming the page
and the text. Pages of one shape (``/fans/17/`` and ``/fans/18/``) are visited a few times
each, so the crawl stays short while reaching every kind of page.
"""

from __future__ import annotations

import re
from collections import Counter, deque
from datetime import date
from html.parser import HTMLParser
from urllib.parse import urldefrag, urlparse

import pytest

LANGUAGES = ("en", "zh-hans", "fr", "nl")
SECTIONS = ("rules/", "calculator/", "tournaments/", "ratings/")
PER_SHAPE = 2
CYRILLIC = re.compile(r"[\u0400-\u04ff]+")
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


class _RussianOutsideRu(HTMLParser):
    """Collects the Cyrillic text (also in attributes a reader hears: title, alt, aria-label,
    placeholder) that is not inside an element with ``lang="ru"``; and the links."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool]] = []
        self.found: list[str] = []
        self.links: list[str] = []
        self.skip = 0

    @property
    def russian(self) -> bool:
        return bool(self.stack) and self.stack[-1][1]

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        lang = attrs.get("lang")
        inside = (lang or "").startswith("ru") if lang is not None else self.russian
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])
        if not inside:
            for name in ("title", "alt", "aria-label", "placeholder", "content"):
                value = attrs.get(name) or ""
                if tag == "meta" and attrs.get("property", "").startswith("og:locale"):
                    continue
                if CYRILLIC.search(value):
                    self.found.append(f"<{tag} {name}={value[:80]!r}>")
        if tag in ("script", "style"):
            self.skip += 1
        if tag not in VOID:
            self.stack.append((tag, inside))

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skip = max(0, self.skip - 1)
        while self.stack:
            name, _ = self.stack.pop()
            if name == tag:
                break

    def handle_data(self, data):
        if self.skip or self.russian or not CYRILLIC.search(data):
            return
        self.found.append(" ".join(data.split())[:120])


def russian_outside_ru(html: str) -> tuple[list[str], list[str]]:
    parser = _RussianOutsideRu()
    parser.feed(html)
    return parser.found, parser.links


def _shape(path: str) -> str:
    return re.sub(r"\d+", "0", path)


def crawl(client, language: str, check=russian_outside_ru) -> dict[str, list[str]]:
    """Path -> what ``check`` found on it (by default the Russian outside ``lang="ru"``), for
    every page reached from the four sections, at most PER_SHAPE pages of each URL shape.
    ``check(html)`` answers ``(found, links)``."""
    prefixes = tuple(f"/{language}/{section}" for section in SECTIONS)
    queue = deque(prefixes)
    seen: set[str] = set(prefixes)
    shapes: Counter[str] = Counter()
    problems: dict[str, list[str]] = {}
    while queue:
        path = queue.popleft()
        response = client.get(path)
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        found, links = check(response.content.decode())
        if found:
            problems[path] = found
        for href in links:
            url = urlparse(urldefrag(href)[0])
            if url.netloc or url.query or not url.path.startswith(prefixes):
                continue
            target = url.path
            if target in seen or shapes[_shape(target)] >= PER_SHAPE:
                continue
            seen.add(target)
            shapes[_shape(target)] += 1
            queue.append(target)
    return problems


@pytest.fixture(scope="module")
def _site(django_db_setup, django_db_blocker):
    """The whole rulebook (every rule text and translation) and the demo federation,
    loaded once for the module and rolled back at its end."""
    from django.db import transaction

    from config import demo
    from content import services
    from rulebook.services import rulebook_data_load

    with django_db_blocker.unblock():
        atomic = transaction.atomic()
        atomic.__enter__()
        try:
            rulebook_data_load()
            services.rulebook_pages_load()
            demo.demo_federation_load(today=date(2026, 11, 20))
            yield
        finally:
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)


def test_the_parser_sees_russian_outside_lang_ru_only() -> None:
    found, links = russian_outside_ru(
        '<p>Fan <span lang="ru">Все панги</span> <a href="/en/x/">x</a></p>'
        '<p title="Панг">Pung</p><div lang="ru"><p>Русский<br>текст</p></div><p>Одна</p>'
    )
    assert found == ["<p title='Панг'>", "Одна"]
    assert links == ["/en/x/"]


@pytest.mark.slow
def test_no_russian_outside_lang_ru(_site, db, client) -> None:
    """One test for the four languages: the site is loaded once (a parametrized test could
    be spread over workers, each loading it again)."""
    report = []
    for language in LANGUAGES:
        problems = crawl(client, language)
        report += [f"{path}: {texts[:3]}" for path, texts in sorted(problems.items())]
    assert not report, f"{len(report)} page(s) with Russian:\n" + "\n".join(report[:40])

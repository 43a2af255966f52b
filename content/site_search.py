"""One search for the site's search page, its suggestions and ``GET /api/v1/search``.

``site_search(query, language=..., kind=..., page=...)`` answers with typed results in one
language, best first: fans, rule pages, worked examples, other pages, players, clubs and
tournaments, each with a title, an HTML snippet (escaped text, the match in ``<mark>``) and
its URL. Decision 0525.

Where each kind comes from on the database backend (the default):

* fans: ``rulebook.selectors.fans_matching`` (number, or a name in any of the five
  languages, folded);
* pages (rule chapters, rulesets, fan tables, news, other pages): the locale's live, public
  pages' text, read once per content version into memory and matched folded (case and
  accents), a phrase or every word;
* worked examples: their number, their fan's names and the book's words;
* players: ``tournaments.selectors.players_matching`` (folded names column);
* clubs: name or city, folded; tournaments: ``tournaments.selectors.tournaments_matching``.

With ``SEARCH_BACKEND = "elasticsearch"`` the fans, pages, examples, players, clubs and
tournaments come from its indices (``content.search_documents``); if the server fails the
database answers (logged).

Ranking: an exact fan name or number first, then matches in a title before matches in a
text, a whole phrase before scattered words; inside one rank the kinds keep the order above.
"""

from __future__ import annotations

import itertools
import logging
import math
import re
import threading
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from django.conf import settings
from django.db.models import Count, Max
from django.urls import reverse
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, ngettext, override
from wagtail.models import Page, PageViewRestriction

from content.search_backends import elasticsearch_active, page_search_text, site_languages
from content.search_documents import (
    ElasticsearchSearch,
    PeopleDocument,
    RulebookDocument,
    example_document,
    fan_document,
    page_text_document,
    people_document,
)
from content.search_results import (
    CLUB,
    EXACT,
    EXAMPLE,
    FAN,
    KIND_LABELS,
    KIND_ORDER,
    KINDS,
    MAX_PER_KIND,
    MAX_QUERY,
    PAGE,
    PER_PAGE,
    PLAYER,
    RULE,
    SNIPPET_CHARS,
    TEXT_PHRASE,
    TEXT_WORDS,
    TITLE_PHRASE,
    TITLE_WORDS,
    TOURNAMENT,
    Result,
)
from federation.models import Club
from rulebook import selectors as rulebook_selectors
from rulebook.links import fan_page_url
from rulebook.models import Fan, WorkedExample
from rulebook.rulesets import codes as ruleset_codes
from rulebook.search_text import (
    accented,
    is_stopword,
    lower,
    name_key,
    name_keys,
    search_fold,
    stem,
    stems_lines,
    words,
)
from tournaments.selectors import (
    players_matching,
    players_shown,
    public_calendar,
    tournaments_matching,
)

logger = logging.getLogger(__name__)


__all__ = ["KINDS", "KIND_LABELS", "MAX_QUERY", "PER_PAGE", "Result", "site_search"]


@dataclass(frozen=True)
class ResultPage:
    query: str
    count: int
    results: list[Result]
    number: int
    pages: int
    backend: str = "database"
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def has_next(self) -> bool:
        return self.number < self.pages

    @property
    def has_previous(self) -> bool:
        return self.number > 1


# --- Folding and snippets (pure) ----------------------------------------------------------


def fold_with_positions(text: str) -> tuple[str, list[int]]:
    """``search_fold(text)`` and, for each folded character, the index of the character of
    ``text`` it comes from (so a match in the folded text is highlighted in the original)."""
    folded: list[str] = []
    positions: list[int] = []
    for i, ch in enumerate(text):
        piece = search_fold(ch) if not ch.isascii() else ch.lower()
        folded.append(piece)
        positions.extend([i] * len(piece))
    return "".join(folded), positions


def query_words(query: str) -> list[str]:
    return search_fold(query).split()


def match_rank(text: str, query: str, *, title: bool) -> int | None:
    """How well ``text`` matches: the phrase, or every word; None when it does not."""
    folded = search_fold(text)
    phrase = " ".join(query_words(query))
    if not phrase:
        return None
    if phrase in folded:
        if title and folded.strip() == phrase:
            return EXACT
        return TITLE_PHRASE if title else TEXT_PHRASE
    if all(word in folded for word in phrase.split()):
        return TITLE_WORDS if title else TEXT_WORDS
    return None


# --- Words, stems and accents (issue 41, decision 0545) -------------------------------------


_CJK = re.compile(r"[\u3400-\u9fff]")
_WORD = re.compile(r"\w+")


@dataclass(frozen=True)
class Terms:
    """A query read for one language: its phrase (folded, and with its accents), its words
    as typed (case folded), folded, and their stems. A word typed with accents is matched
    with them ("dés" is not "des"); one typed without finds both spellings."""

    phrase: str
    lower_phrase: str
    words: tuple[str, ...]
    folded: tuple[str, ...]
    stems: tuple[str, ...]
    marks: tuple[bool, ...]
    stops: tuple[bool, ...]  # stop words ("des", "the"): matched as words, never by stem

    @property
    def marked(self) -> bool:
        return any(self.marks)


def terms(query: str, language: str) -> Terms:
    typed = tuple(words(query))
    marks = tuple(accented(w) for w in typed)
    return Terms(
        phrase=" ".join(query_words(query)), lower_phrase=" ".join(lower(query).split()),
        words=typed, folded=tuple(search_fold(w) for w in typed),
        stems=tuple(stem(w if m else search_fold(w), language)
                    for w, m in zip(typed, marks, strict=True)),
        marks=marks, stops=tuple(is_stopword(w, language) for w in typed),
    )


@dataclass(frozen=True)
class Searchable:
    """A title or a text ready to be matched: folded (no case, no accents), case folded
    with its accents, and its words' stems (as written, and folded first)."""

    folded: str
    lower: str
    stems: str
    folded_stems: str


def searchable(text: str, language: str) -> Searchable:
    stems, folded_stems = stems_lines(text, language)
    return Searchable(folded=search_fold(text), lower=lower(text), stems=stems,
                      folded_stems=folded_stems)


def _word_found(where: Searchable, t: Terms, i: int) -> tuple[bool, bool]:
    """Whether the query's i-th word is in ``where``, and whether as a whole word (one of
    its forms: the same stem) rather than inside another word ("lea" in "Tableau")."""
    if _CJK.search(t.words[i]):  # Chinese writes no spaces: a word is wherever it occurs
        found = t.words[i] in where.lower
        return found, found
    word, text = (t.words[i], where.lower) if t.marks[i] else (t.folded[i], where.folded)
    if t.stops[i]:  # not among the stems (as in PostgreSQL): the word itself
        found = word in text
        return found, found and whole_words(text, [word])
    line = where.stems if t.marks[i] else where.folded_stems
    if f" {t.stems[i]} " in line:
        return True, True
    return word in text, False


def _phrase_found(where: Searchable, t: Terms) -> bool:
    stems = [s for s, stop in zip(t.stems, t.stops, strict=True) if not stop]
    if len(t.words) > 1 and stems:  # the stems in a row, stop words left out of both
        line = where.stems if t.marked else where.folded_stems
        if f" {' '.join(stems)} " in line:
            return True
    return t.lower_phrase in where.lower if t.marked else t.phrase in where.folded


def rank_searchable(title: Searchable, text: Searchable, t: Terms) -> tuple[int | None, bool]:
    """The rank of a title and text for the query (None: no match) and whether every word
    is there as a whole word. A word's other forms count as the word ("dobbelsteen" finds
    "dobbelstenen"); a word inside another counts, ranked after."""
    if not t.words:
        return None, False
    in_title = [_word_found(title, t, i) for i in range(len(t.words))]
    in_text = [_word_found(text, t, i) if not in_title[i][1] else in_title[i]
               for i in range(len(t.words))]
    whole = all(a[1] or b[1] for a, b in zip(in_title, in_text, strict=True))
    if _phrase_found(title, t):
        same = title.lower.strip() == t.lower_phrase if t.marked else (
            title.folded.strip() == t.phrase)
        return (EXACT if same else TITLE_PHRASE), whole
    if all(found for found, _whole in in_title):
        return TITLE_WORDS, whole
    if _phrase_found(text, t):
        return TEXT_PHRASE, whole
    if all(a[0] or b[0] for a, b in zip(in_title, in_text, strict=True)):
        return TEXT_WORDS, whole
    return None, False


def _forms(text: str, query: str, language: str) -> Iterator[tuple[int, str]]:
    """Where in ``text`` a word is a form of a query word without containing it
    ("dobbelstenen" for "dobbelsteen"), and that word folded."""
    t = terms(query, language)
    wanted = {s for s, m, stop in zip(t.stems, t.marks, t.stops, strict=True)
              if not m and not stop}
    marked = {s for s, m, stop in zip(t.stems, t.marks, t.stops, strict=True) if m and not stop}
    if not wanted and not marked:
        return
    for match in _WORD.finditer(lower(text)):
        word = match.group()
        folded = search_fold(word)
        if (stem(folded, language) in wanted or stem(word, language) in marked) and not any(
            f in folded for f in t.folded
        ):
            yield match.start(), folded


def stem_forms(text: str, query: str, language: str) -> list[str]:
    """The words of ``text`` (folded) that are other forms of a query word: highlighted in
    the snippet too."""
    return list(dict.fromkeys(folded for _at, folded in _forms(text, query, language)))


def snippet(
    text: str, query: str, *, width: int = SNIPPET_CHARS, language: str = ""
) -> SafeString:
    """A window of ``text`` around the first match, escaped, each word of the query (and,
    given the ``language``, each other form of it) in ``<mark>``; the start of the text when
    nothing matches."""
    text = " ".join(text.split())
    if len(text) > 4 * width:  # fold only a window around the first match (long pages)
        lower_text = text.lower()
        hits = [i for i in (lower_text.find(w) for w in query_words(query)) if i >= 0]
        if not hits:  # only accents or special letters differ: fold it all
            whole = search_fold(text)
            hits = [i for i in (whole.find(w) for w in query_words(query)) if i >= 0]
        if not hits and language:  # another form of the word: the first one
            hits = [at for at, _form in itertools.islice(_forms(text, query, language), 1)]
        at = min(hits) if hits else 0  # about the same place: folding rarely changes length
        begin_at = max(0, at - 2 * width)
        prefix = "… " if begin_at else ""
        text = text[begin_at:at + 3 * width]
        if prefix:
            text = text[text.find(" ") + 1:]
    else:
        prefix = ""
    forms = stem_forms(text, query, language) if language else []  # in the window only
    folded, positions = fold_with_positions(text)
    words = sorted(set(query_words(query)) | set(forms), key=len, reverse=True)
    phrase = " ".join(query_words(query))
    needles = [phrase, *words] if phrase else []
    hits = [i for i in (folded.find(n) for n in needles) if i >= 0]
    first = positions[min(hits)] if hits else 0
    begin = max(0, first - width // 3)
    if begin:
        space = text.rfind(" ", 0, begin + 1)
        begin = space + 1 if space >= begin - 15 else begin
    end = min(len(text), begin + width)
    if end < len(text):
        space = text.find(" ", end)
        end = space if 0 <= space <= end + 15 else end
    # the matches inside the window only (a one-letter query matches everywhere)
    spans: list[tuple[int, int]] = []
    lo = next((i for i, p in enumerate(positions) if p >= begin), len(folded))
    for needle in needles:
        start = lo
        while (found := folded.find(needle, start)) != -1 and positions[found] < end:
            a, b = positions[found], positions[found + len(needle) - 1] + 1
            if not any(a < e and s < b for s, e in spans):
                spans.append((a, b))
            start = found + len(needle)
    spans.sort()
    html: list[str] = ["… " if begin or prefix else ""]
    cursor = begin
    for s, e in spans:
        if s < begin or e > end:
            continue
        html.append(escape(text[cursor:s]))
        html.append(f"<mark>{escape(text[s:e])}</mark>")
        cursor = e
    html.append(escape(text[cursor:end]))
    html.append(" …" if end < len(text) else "")
    return mark_safe("".join(html))  # every piece of text is escaped above


# --- The pages' text, per language, once per content version --------------------------------


@dataclass(frozen=True)
class PageText:
    page_id: int
    kind: str
    title: str
    text: str
    url: str
    ruleset: str
    search_title: Searchable
    search_text: Searchable


_pages_cache: dict[str, tuple[str, list[PageText]]] = {}
_pages_lock = threading.Lock()


def _pages_version() -> str:
    restrictions = PageViewRestriction.objects.aggregate(n=Count("pk"), m=Max("pk"))
    return f"{rulebook_selectors.content_version()}|{restrictions['n']}|{restrictions['m']}"


def page_kind(page: Page) -> tuple[str, str]:
    """("rule", ruleset) for the rulebook's pages, ("page", "") for the others."""
    ruleset = getattr(page, "ruleset", "") or ""
    if ruleset or type(page).__name__ in ("RulesIndexPage",):
        return RULE, ruleset
    return PAGE, ""


def pages_text(language: str) -> list[PageText]:
    """Every live, public page of a language with its text (read once per content version
    and process; a few megabytes for the full rulebook in five languages)."""
    version = _pages_version()
    cached = _pages_cache.get(language)
    if cached and cached[0] == version:
        return cached[1]
    with _pages_lock:
        pages = (
            Page.objects.live().public().filter(locale__language_code=language)
            .exclude(depth__lte=1).specific().order_by("path")
        )
        rows = []
        for page in pages:
            kind, ruleset = page_kind(page)
            text = page_search_text(page)
            rows.append(PageText(
                page_id=page.pk, kind=kind, title=page.title, text=text,
                url=page.get_url() or page.url_path, ruleset=ruleset,
                search_title=searchable(page.title, language),
                search_text=searchable(text, language),
            ))
        _pages_cache[language] = (version, rows)
        return rows


# --- The database backend's sources -------------------------------------------------------


def pages_matching(query: str, language: str) -> list[Result]:
    t = terms(query, language)
    results = []
    for n, row in enumerate(pages_text(language)):
        rank, whole = rank_searchable(row.search_title, row.search_text, t)
        if rank is None:
            continue
        # A page's title is never an exact fan: the fan itself comes first.
        rank = max(rank, TITLE_PHRASE)
        in_text = any(_word_found(row.search_text, t, i)[0] for i in range(len(t.words)))
        results.append(Result(
            kind=row.kind, id=str(row.page_id), title=row.title,
            snippet=None, snippet_text=row.text if in_text else row.title, url=row.url,
            ruleset=row.ruleset, rank=rank, order=n, whole=whole,
        ))
        if len(results) >= MAX_PER_KIND:
            break
    return results


MAX_PLAYERS = 50  # players are many: a longer name narrows them down

_fans_cache: dict[str, tuple[str, list[tuple[dict[str, Any], list[str], list[str]]]]] = {}


def _fan_index(language: str) -> list[tuple[dict[str, Any], list[str], list[str]]]:
    """Every fan as ``fan_list`` gives it in ``language`` (plus ``ruleset``), its names in
    the five languages and those names folded: once per content version and process."""
    version = rulebook_selectors.content_version()
    cached = _fans_cache.get(language)
    if cached is None or cached[0] != version:
        rows = []
        for ruleset in ruleset_codes():
            names = rulebook_selectors.all_language_names(ruleset)
            for fan in rulebook_selectors.fan_list(ruleset, language):
                every = names.get(fan["id"], [])
                rows.append(({**fan, "ruleset": ruleset}, every, [search_fold(x) for x in every]))
        cached = _fans_cache[language] = (version, rows)
    return cached[1]


def fans_found(query: str, language: str) -> list[Result]:
    """The fans ``rulebook.selectors.fans_matching`` finds (the same rule: the number, or
    from two characters a name in any language), over a per-process index."""
    needle = search_fold(query.strip())
    t = terms(query, language)
    results = []
    for fan, names, folded in _fan_index(language):
        by_number = search_fold(fan["id"]) == needle
        if not by_number and not (len(needle) >= 2 and any(needle in x for x in folded)):
            continue
        exact = by_number or needle in folded
        ordered = [fan["name"], *[name for name in names if name != fan["name"]]]
        shown = next((name for name in ordered if needle in search_fold(name)), fan["name"])
        results.append(Result(
            kind=FAN, id=f"{fan['ruleset']}-{fan['id']}", title=f"{fan['id']}. {fan['name']}",
            snippet=None, snippet_text=f"{fan['id']} · {shown}",
            snippet_suffix=f" · {fan_value(fan)}",
            url=fan["url"], ruleset=fan["ruleset"], rank=EXACT if exact else TITLE_PHRASE,
            order=len(results), whole=exact or _name_whole(shown, t, language),
        ))
        if len(results) >= MAX_PER_KIND:
            break
    return results


def _name_whole(name: str, t: Terms, language: str) -> bool:
    """Whether every word of the query is a word of a fan's name, in any of its forms
    ("kong" in "Two Concealed Kongs")."""
    return rank_searchable(searchable(name, language), _NOTHING, t)[1]


_NOTHING = Searchable(folded="", lower="", stems=" ", folded_stems=" ")


def fan_value(fan: dict[str, Any]) -> str:
    if fan.get("unit") == "doublings":
        return gettext("Doublings: %(n)s") % {"n": fan["points"]}
    return ngettext("%(n)s point", "%(n)s points", fan["points"]) % {"n": fan["points"]}


def _examples(language: str) -> list[dict[str, Any]]:
    def compute() -> list[dict[str, Any]]:
        rows = []
        for ruleset in ruleset_codes():
            names = rulebook_selectors.fan_names(ruleset, language)
            every = rulebook_selectors.all_language_names(ruleset)
            for ex in WorkedExample.objects.filter(ruleset=ruleset, live=True).order_by(
                "fan_code", "position"
            ):
                fan_name = names.get(ex.fan_code, ex.fan_code)
                with override(language):
                    title = gettext("Example %(number)s") % {"number": ex.number}
                names_text = " ".join([ex.code, *every.get(ex.fan_code, [])])
                # the book's words are Russian: searched on the Russian site only
                text = ex.book_text if language == "ru" else ""
                rows.append({
                    "id": f"{ruleset}-{ex.code}", "ruleset": ruleset,
                    "title": f"{fan_name} · {title}",
                    "names": names_text, "text": text,
                    "url": f"{fan_page_url(ruleset, ex.fan_code, language)}#{ex.code}",
                    "search_title": searchable(f"{fan_name} · {title} {names_text}", language),
                    "search_text": searchable(text, language),
                })
        return rows

    version = rulebook_selectors.content_version()
    cached = _examples_cache.get(language)
    if cached is None or cached[0] != version:
        cached = _examples_cache[language] = (version, compute())
    return cached[1]


_examples_cache: dict[str, tuple[str, list[dict[str, Any]]]] = {}


def forget() -> None:
    """Drop the texts kept in memory (tests; the content version renews them anyway)."""
    _pages_cache.clear()
    _examples_cache.clear()
    _fans_cache.clear()


def examples_found(query: str, language: str) -> list[Result]:
    t = terms(query, language)
    results = []
    for n, row in enumerate(_examples(language)):
        rank, whole = rank_searchable(row["search_title"], row["search_text"], t)
        if rank is None:
            continue
        results.append(Result(
            kind=EXAMPLE, id=row["id"], title=row["title"],
            snippet=None, snippet_text=row["text"] if rank >= TEXT_PHRASE else row["title"],
            url=row["url"], ruleset=row["ruleset"], rank=max(rank, TITLE_PHRASE) + 1, order=n,
            whole=whole,
        ))
        if len(results) >= MAX_PER_KIND:
            break
    return results


def _people_query(query: str) -> bool:
    """Names are looked up from two characters on (one Chinese character is a name)."""
    text = "".join(query.split())
    return len(text) >= 2 or bool(text and "\u3400" <= text[0] <= "\u9fff")


def name_whole(names: str, query: str) -> bool:
    """Whether each word of the query is a whole word of the names, as written or as
    another transliteration of it ("Fyodorov" for "Фёдоров")."""
    folded = search_fold(names)
    keys = set(name_keys(names))
    return all(whole_words(folded, [word]) or name_key(word) in keys
               for word in query_words(query))


def players_found(query: str, language: str) -> list[Result]:
    if not _people_query(query):
        return []
    url = _url("ratings:player", language, 0).removesuffix("0/")
    results = []
    for n, player in enumerate(players_matching(query, limit=MAX_PLAYERS)):
        names = " · ".join(x for x in dict.fromkeys([player.name_latin, player.name_native]) if x)
        results.append(Result(
            kind=PLAYER, id=str(player.pk), title=str(player), snippet=None, snippet_text=names,
            url=f"{url}{player.pk}/",
            rank=TITLE_PHRASE if match_rank(names, query, title=True) in (EXACT, TITLE_PHRASE)
            else TITLE_WORDS, order=n, whole=name_whole(names, query),
        ))
    return results


def clubs_found(query: str, language: str) -> list[Result]:
    if not _people_query(query):
        return []
    words = query_words(query)
    results = []
    clubs = Club.objects.order_by("name").values_list("pk", "name", "city")
    for n, (pk, name, city) in enumerate(clubs):
        text = f"{name} · {city}" if city else name
        folded = search_fold(text)
        if not words or not all(w in folded for w in words):
            continue
        results.append(Result(
            kind=CLUB, id=str(pk), title=name, snippet=None, snippet_text=text,
            url=f"{_url('ratings:list', language)}?club={pk}",
            rank=match_rank(name, query, title=True) or TITLE_WORDS, order=n,
            whole=whole_words(folded, words),
        ))
        if len(results) >= MAX_PER_KIND:
            break
    return results


def tournaments_found(query: str, language: str) -> list[Result]:
    if not _people_query(query):
        return []
    url = _url("tournaments:detail", language, 0).removesuffix("0/")
    results = []
    for n, t in enumerate(tournaments_matching(query, limit=MAX_PER_KIND)):
        text = f"{t.name} · {t.city} · {t.start_date.isoformat()}"
        results.append(Result(
            kind=TOURNAMENT, id=str(t.pk), title=t.name, snippet=None, snippet_text=text,
            url=f"{url}{t.pk}/",
            rank=match_rank(t.name, query, title=True) or TITLE_WORDS, order=n,
            whole=whole_words(search_fold(text), query_words(query)),
        ))
    return results


def _url(name: str, language: str, *args: Any) -> str:
    with override(language):
        return reverse(name, args=args)


SOURCES = {
    FAN: fans_found,
    PAGE: pages_matching,  # rule and other pages, told apart by their kind
    EXAMPLE: examples_found,
    PLAYER: players_found,
    CLUB: clubs_found,
    TOURNAMENT: tournaments_found,
}


class DatabaseSearch:
    name = "database"

    def results(self, query: str, *, language: str, kinds: Iterable[str]) -> list[Result]:
        wanted = set(kinds)
        found: list[Result] = []
        for source_kind, source in SOURCES.items():
            if source_kind == PAGE:
                if wanted & {RULE, PAGE}:
                    found += [r for r in source(query, language) if r.kind in wanted]
            elif source_kind in wanted:
                found += source(query, language)
        return found


# --- The service ---------------------------------------------------------------------------


def _backend():
    if elasticsearch_active():
        return ElasticsearchSearch.from_settings()
    return DatabaseSearch()


def search_index_build(*, rebuild: bool = False) -> dict[str, int]:
    """Fill the site search's Elasticsearch indices (``manage.py search_index``)."""
    return ElasticsearchSearch.from_settings().index_build(
        {"rulebook": rulebook_documents(), "people": people_documents()}, rebuild=rebuild,
    )


def rulebook_documents() -> Iterator[RulebookDocument]:
    """Every fan (its five names), and each language's pages and worked examples."""
    for ruleset in ruleset_codes():
        names: dict[str, dict[str, str]] = {}
        for code, language, name in Fan.objects.filter(ruleset=ruleset, live=True).values_list(
            "code", "locale__language_code", "name"
        ):
            names.setdefault(code, {})[language] = name
        for code, by_language in names.items():
            urls = {lang: fan_page_url(ruleset, code, lang) for lang in site_languages()}
            yield fan_document(ruleset, code, by_language, urls)
    for language in site_languages():
        for row in pages_text(language):
            yield page_text_document(row, language)
        for example in _examples(language):
            yield example_document(example, language)


def people_documents() -> Iterator[PeopleDocument]:
    """The players public pages show, the clubs, the public tournaments."""
    def path(name: str, *args: Any) -> str:
        return _url(name, settings.LANGUAGE_CODE, *args).removeprefix(f"/{settings.LANGUAGE_CODE}")

    for player in players_shown().iterator():
        names = " ".join(x for x in (player.name_latin, player.name_native) if x)
        yield people_document("player", player.pk, str(player), names,
                              path("ratings:player", player.pk))
    for pk, name, city in Club.objects.values_list("pk", "name", "city"):
        yield people_document("club", pk, name, city, f"{path('ratings:list')}?club={pk}")
    for t in public_calendar():
        yield people_document("tournament", t.pk, t.name, t.city, path("tournaments:detail", t.pk))


def ranked(results: Sequence[Result]) -> list[Result]:
    """Whole words before words found inside others ("Léa" before "Tableau" for "lea",
    issue 41), then by rank, kind and each source's order."""
    return sorted(results, key=lambda r: (not r.whole, r.rank, KIND_ORDER[r.kind], r.order))


def whole_words(folded: str, words: Sequence[str]) -> bool:
    """Whether each word is a whole word of ``folded`` (a word of Chinese characters
    anywhere: Chinese writes no spaces)."""
    return all(
        _CJK.search(word) or re.search(r"(?<!\w)" + re.escape(word) + r"(?!\w)", folded)
        for word in words
    )


def site_search(
    query: str, *, language: str, kinds: Iterable[str] = KINDS, page: int = 1,
    per_page: int = PER_PAGE,
) -> ResultPage:
    """The results of one query in one language, ranked and cut into pages (``page`` past
    the last gives the last page's number back with no results)."""
    query = " ".join(query.split())[:MAX_QUERY]
    if language not in site_languages():
        language = settings.LANGUAGE_CODE
    kinds = tuple(kinds)
    backend = _backend()
    found: list[Result] = []
    if query_words(query):
        with override(language):
            try:
                found = backend.results(query, language=language, kinds=kinds)
            except Exception:
                if isinstance(backend, DatabaseSearch):
                    raise
                logger.exception("Search: Elasticsearch failed, answering from the database")
                backend = DatabaseSearch()
                found = backend.results(query, language=language, kinds=kinds)
    ordered = ranked(found)
    pages = max(1, math.ceil(len(ordered) / per_page))
    start = (page - 1) * per_page
    shown = [
        result if result.snippet is not None
        else replace(result, snippet=mark_safe(
            snippet(result.snippet_text, query, language=language)
            + escape(result.snippet_suffix)))
        for result in ordered[start:start + per_page]
    ]
    return ResultPage(
        query=query, count=len(ordered), results=shown, number=page, pages=pages,
        backend=backend.name,
    )

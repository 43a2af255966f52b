"""The search backends: a small protocol with the database (default) and Elasticsearch behind
it, the pages' index kept current by signal handlers. The one site search that the search
page and the API answer with is ``content.site_search``.

`SEARCH_BACKEND` selects the backend ("database" unless set; "elasticsearch" needs
`ELASTICSEARCH_URL`). The database backend is Wagtail's search over live, public pages of a
locale. The Elasticsearch backend keeps one index per language, `<prefix>-pages-<lang>`,
analysed with that language's built-in analyzer, and maps the hits back to live, public pages.

The index names, analyzers, mapping, documents, query body and hit parsing are plain
functions, testable without a server; `ElasticsearchBackend` is the only part that talks to one.
See docs/decisions/0400-search-backends.md.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import now
from elasticsearch_dsl import (
    Date,
    Document,
    Integer,
    Keyword,
    Mapping,
    Q,
    Search,
    Text,
    analyzer,
    char_filter,
    token_filter,
)
from elasticsearch_dsl import Index as EsIndex
from wagtail.models import Locale, Page
from wagtail.search import index as wagtail_index

if TYPE_CHECKING:
    from elasticsearch import Elasticsearch

logger = logging.getLogger(__name__)

DATABASE = "database"
ELASTICSEARCH = "elasticsearch"
BACKENDS = (DATABASE, ELASTICSEARCH)

ERROR_UNKNOWN_BACKEND = "SEARCH_BACKEND must be one of {choices}, not {value!r}."
ERROR_NO_URL = (
    'SEARCH_BACKEND = "elasticsearch" needs ELASTICSEARCH_URL '
    "(for example http://127.0.0.1:9200); unset SEARCH_BACKEND to use the database backend."
)
ERROR_NO_ANALYZER = "No Elasticsearch analyzer is configured for the language {language!r}."

# Each language's analyzer (decision 0545): the Snowball stemmer and stop words the database
# search uses (rulebook.search_text: PostgreSQL's `russian`, `english`, `french`, `dutch`),
# accents kept ("dés" is not "des"); Elasticsearch's built-in `cjk` (bigrams) for Chinese.
# The `folded` analyzers drop accents before stemming: a query typed without accents is
# matched against a `.folded` sub-field too.
_SNOWBALL = {"ru": ("Russian", "_russian_"), "en": ("English", "_english_"),
             "fr": ("French", "_french_"), "nl": ("Dutch", "_dutch_")}
_FRENCH_ELISION = token_filter(
    "site_fr_elision", "elision", articles_case=True,
    articles=["l", "m", "t", "qu", "n", "s", "j", "d", "c", "jusqu", "quoiqu", "lorsqu", "puisqu"],
)
_RUSSIAN_YO = char_filter("site_ru_yo", "mapping", mappings=["ё => е", "Ё => Е"])


def _language_analyzer(code: str, *, folded: bool = False) -> Any:
    snowball, stop = _SNOWBALL[code]
    filters: list[Any] = [_FRENCH_ELISION] if code == "fr" else []
    filters += ["lowercase", token_filter(f"site_{code}_stop", "stop", stopwords=stop)]
    if folded:
        filters.append("asciifolding")
    filters.append(token_filter(f"site_{code}_stem", "snowball", language=snowball))
    return analyzer(
        f"site_{code}_folded" if folded else f"site_{code}", tokenizer="standard",
        char_filter=[_RUSSIAN_YO] if code == "ru" else [], filter=filters,
    )


LANGUAGE_ANALYZERS: dict[str, Any] = {
    "ru": _language_analyzer("ru"),
    "en": _language_analyzer("en"),
    "zh-hans": "cjk",
    "fr": _language_analyzer("fr"),
    "nl": _language_analyzer("nl"),
}
FOLDED_ANALYZERS: dict[str, Any] = {
    code: _language_analyzer(code, folded=True) for code in _SNOWBALL
}


def language_text(language: str) -> Text:
    """A text field analysed in ``language``, with its ``folded`` sub-field where there is
    one (accents dropped before stemming)."""
    folded = FOLDED_ANALYZERS.get(language)
    if folded is None:
        return Text(analyzer=analyzer_for(language))
    return Text(analyzer=analyzer_for(language), fields={"folded": Text(analyzer=folded)})
TEXT_FIELDS = ("title^3", "text")
MAX_RESULTS = 200  # Elasticsearch hits fetched for one query (the view paginates them)
# Highlight markers: private-use characters that never occur in page text, so the fragment
# can be HTML-escaped first and the markers turned into <mark> afterwards.
MARK_OPEN = "\ue000"
MARK_CLOSE = "\ue001"


# --- Settings ----------------------------------------------------------------------------


def backend_name() -> str:
    """The configured backend's name, validated (ImproperlyConfigured when unusable)."""
    name = getattr(settings, "SEARCH_BACKEND", DATABASE) or DATABASE
    if name not in BACKENDS:
        raise ImproperlyConfigured(
            ERROR_UNKNOWN_BACKEND.format(choices=", ".join(BACKENDS), value=name)
        )
    if name == ELASTICSEARCH and not settings.ELASTICSEARCH_URL:
        raise ImproperlyConfigured(ERROR_NO_URL)
    return name


def elasticsearch_active() -> bool:
    return backend_name() == ELASTICSEARCH


def get_backend() -> SearchBackend:
    if backend_name() == ELASTICSEARCH:
        return ElasticsearchBackend(url=settings.ELASTICSEARCH_URL)
    return DatabaseBackend()


# --- The protocol ------------------------------------------------------------------------


@dataclass(frozen=True)
class SearchHit:
    """One result: the (specific) page and the highlighted fragments, if the backend has any."""

    page: Page
    highlights: list[SafeString] = field(default_factory=list)


class SearchBackend(Protocol):
    name: str

    def search(self, query: str, *, locale: Locale) -> Sequence[SearchHit]:
        """Live, public pages of `locale` matching `query`, best first."""
        ...


def searchable_pages(locale: Locale):
    """What site search may ever return: live, public pages of one locale."""
    return Page.objects.live().public().filter(locale=locale)


# --- Database backend --------------------------------------------------------------------


class _LazyHits(Sequence[SearchHit]):
    """Wagtail's lazy search results, seen as SearchHits (the paginator slices them)."""

    def __init__(self, results) -> None:
        self._results = results

    def __len__(self) -> int:
        return self._results.count()

    def count(self) -> int:
        return self._results.count()

    def __getitem__(self, item):
        if isinstance(item, slice):
            return [SearchHit(page=page) for page in self._results[item]]
        return SearchHit(page=self._results[item])


class DatabaseBackend:
    """Wagtail's configured search backend (the database one) over the locale's pages."""

    name = DATABASE

    def search(self, query: str, *, locale: Locale) -> Sequence[SearchHit]:
        return _LazyHits(searchable_pages(locale).specific().search(query))


# --- Elasticsearch: names, mapping, documents (no server needed) -------------------------


def index_name(language: str) -> str:
    """The alias the site reads and writes for one language: `<prefix>-pages-<lang>`."""
    return f"{settings.ELASTICSEARCH_INDEX_PREFIX}-pages-{language}"


def analyzer_for(language: str) -> Any:
    try:
        return LANGUAGE_ANALYZERS[language]
    except KeyError:
        raise ImproperlyConfigured(ERROR_NO_ANALYZER.format(language=language)) from None


def site_languages() -> list[str]:
    return [code for code, _name in settings.WAGTAIL_CONTENT_LANGUAGES]


class PageDocument(Document):
    """A page as Elasticsearch stores it (document id = page id)."""

    page_id = Integer()
    locale = Keyword()
    title = Text()
    text = Text()
    url_path = Keyword()
    last_published = Date()


def page_mapping(language: str) -> Mapping:
    """PageDocument's fields, with the language's analyzer on the full-text ones."""
    mapping = Mapping()
    mapping.field("page_id", Integer())
    mapping.field("locale", Keyword())
    mapping.field("title", language_text(language))
    mapping.field("text", language_text(language))
    mapping.field("url_path", Keyword())
    mapping.field("last_published", Date())
    return mapping


def page_index(name: str, language: str, client: Elasticsearch | None = None) -> EsIndex:
    """An index definition (settings + mapping) for one language, under a concrete name."""
    definition = EsIndex(name, using=client or "default")
    definition.settings(number_of_shards=1, number_of_replicas=0)
    definition.mapping(page_mapping(language))
    return definition


def _flatten(value: Any) -> Iterator[str]:
    if value is None:
        return
    if isinstance(value, str):
        yield value
    elif isinstance(value, Iterable):
        for item in value:
            yield from _flatten(item)
    else:
        yield str(value)


def _field_texts(obj: Any, fields: Iterable[Any]) -> Iterator[str]:
    for search_field in fields:
        if isinstance(search_field, wagtail_index.RelatedFields):
            related = search_field.get_value(obj)
            if related is None:
                continue
            objects = related.all() if hasattr(related, "all") else [related]
            for item in objects:
                yield from _field_texts(item, search_field.fields)
        elif isinstance(search_field, wagtail_index.SearchField):
            yield from _flatten(search_field.get_value(obj))


def page_search_text(page: Page) -> str:
    """The text of every `SearchField` of the specific page but its title, in field order."""
    specific = page.specific
    fields = [
        search_field
        for search_field in specific.get_search_fields()
        if isinstance(search_field, wagtail_index.SearchField | wagtail_index.RelatedFields)
        and search_field.field_name != "title"
    ]
    texts = (text.strip() for text in _field_texts(specific, fields))
    return "\n".join(text for text in texts if text)


def page_document(page: Page) -> PageDocument:
    specific = page.specific
    return PageDocument(
        meta={"id": specific.pk},
        page_id=specific.pk,
        locale=specific.locale.language_code,
        title=specific.title,
        text=page_search_text(specific),
        url_path=specific.url_path,
        last_published=specific.last_published_at,
    )


def search_body(query: str, *, language: str, size: int = MAX_RESULTS) -> Search:
    """The query: title (boosted) and text, the language's pages, with highlights."""
    return (
        Search()
        .query(Q("multi_match", query=query, fields=list(TEXT_FIELDS)))
        .filter("term", locale=language)
        .highlight("title", number_of_fragments=0)
        .highlight("text", number_of_fragments=3, fragment_size=150)
        .highlight_options(pre_tags=[MARK_OPEN], post_tags=[MARK_CLOSE])
        .source(["page_id"])
        .extra(size=size)
    )


# --- Elasticsearch: from a response to pages (pure) --------------------------------------


@dataclass(frozen=True)
class RawHit:
    page_id: int
    highlights: list[SafeString]


def highlight_html(fragment: str) -> SafeString:
    """An Elasticsearch fragment as safe HTML: text escaped, markers as <mark>."""
    html = escape(fragment).replace(MARK_OPEN, "<mark>").replace(MARK_CLOSE, "</mark>")
    return mark_safe(html)  # everything but our own <mark> tags is escaped above


def parse_hits(response: dict[str, Any]) -> list[RawHit]:
    """Page ids (in score order) and their highlights from an Elasticsearch search response."""
    hits = []
    for hit in response.get("hits", {}).get("hits", []):
        source = hit.get("_source") or {}
        page_id = source.get("page_id", hit.get("_id"))
        try:
            page_id = int(page_id)
        except (TypeError, ValueError):
            continue
        highlight = hit.get("highlight") or {}
        # Text fragments say more than the title repeated; the title's when the text has none.
        fragments = highlight.get("text") or highlight.get("title") or []
        hits.append(RawHit(page_id=page_id, highlights=[highlight_html(f) for f in fragments]))
    return hits


def hits_with_pages(raw_hits: Iterable[RawHit], pages_by_id: dict[int, Page]) -> list[SearchHit]:
    """Raw hits joined with their pages in hit order; hits without a page are dropped
    (stale index entries: deleted, unpublished, private or another locale's pages)."""
    return [
        SearchHit(page=pages_by_id[hit.page_id], highlights=hit.highlights)
        for hit in raw_hits
        if hit.page_id in pages_by_id
    ]


# --- Elasticsearch: the backend (talks to the server) ------------------------------------


@lru_cache(maxsize=4)
def _client(url: str) -> Elasticsearch:
    from elasticsearch import Elasticsearch

    timeout = float(getattr(settings, "ELASTICSEARCH_TIMEOUT", 5))
    return Elasticsearch(url, request_timeout=timeout, max_retries=1, retry_on_timeout=False)


@dataclass
class IndexReport:
    language: str
    index: str
    indexed: int
    total: int


class ElasticsearchBackend:
    name = ELASTICSEARCH

    def __init__(self, *, url: str, client: Elasticsearch | None = None) -> None:
        self.client = client or _client(url)

    # reading

    def search(self, query: str, *, locale: Locale) -> Sequence[SearchHit]:
        """Elasticsearch's hits; the database backend's when the server fails (logged)."""
        from elasticsearch import ApiError, TransportError

        language = locale.language_code
        try:
            response = (
                search_body(query, language=language)
                .using(self.client)
                .index(index_name(language))
                .execute()
            )
        except (ApiError, TransportError):
            logger.exception("Search: Elasticsearch failed, answering from the database")
            return DatabaseBackend().search(query, locale=locale)
        raw_hits = parse_hits(response.to_dict())
        ids = [hit.page_id for hit in raw_hits]
        pages = searchable_pages(locale).filter(pk__in=ids).specific()
        return hits_with_pages(raw_hits, {page.pk: page for page in pages})

    # writing one page (signals)

    def index_page(self, page: Page) -> None:
        """Index a published page, or drop it if it is not (or no longer) public."""
        if not Page.objects.live().public().filter(pk=page.pk).exists():
            self.remove_page(page)
            return
        document = page_document(page)
        document.save(using=self.client, index=index_name(document.locale), require_alias=True)

    def remove_page(self, page: Page) -> None:
        self.client.options(ignore_status=404).delete(
            index=index_name(page.locale.language_code), id=str(page.pk)
        )

    # building indices (management command)

    def index_build(
        self, language: str, *, rebuild: bool = False, progress=None, chunk_size: int = 200
    ) -> IndexReport:
        """Index every live, public page of one language under the alias `index_name()`.

        Without `rebuild`, pages are (re)indexed into the existing index (created first if
        there is none). With `rebuild`, a fresh concrete index is filled and the alias swapped
        to it in one step, then the old indices are deleted: searches never see a half index.
        """
        from elasticsearch import ApiError
        from elasticsearch.helpers import streaming_bulk

        alias = index_name(language)
        indices = self.client.indices
        current = self._alias_targets(alias)
        if current and not rebuild:
            target = current[0]
            try:
                indices.put_mapping(index=target, **page_mapping(language).to_dict())
            except ApiError:  # another analysis (decision 0545): a new index, swapped in
                logger.warning("Search index %s has another mapping: rebuilding it", target)
                rebuild = True
        if not current or rebuild:
            target = f"{alias}-{now():%Y%m%d%H%M%S%f}"
            page_index(target, language, self.client).create()

        pages = list(
            Page.objects.live().public().filter(locale__language_code=language).order_by("path")
        )
        total = len(pages)
        indexed = 0
        actions = (
            {**page_document(page).to_dict(include_meta=True), "_index": target} for page in pages
        )
        for ok, result in streaming_bulk(
            self.client, actions, chunk_size=chunk_size, raise_on_error=False
        ):
            if ok:
                indexed += 1
            else:
                logger.error("Indexing failed: %s", result)
            if progress:
                progress(language, indexed, total)
        indices.refresh(index=target)

        if target not in current:
            self._alias_point(alias, target, current)
        return IndexReport(language=language, index=target, indexed=indexed, total=total)

    def _alias_targets(self, alias: str) -> list[str]:
        if self.client.indices.exists_alias(name=alias):
            return sorted(self.client.indices.get_alias(name=alias).body)
        return []

    def _alias_point(self, alias: str, target: str, previous: list[str]) -> None:
        indices = self.client.indices
        if not previous and indices.exists(index=alias):
            # A concrete index under the alias's name (created by hand or by an old version).
            indices.delete(index=alias)
        actions: list[dict[str, Any]] = [
            {"remove": {"index": old, "alias": alias}} for old in previous
        ]
        actions.append({"add": {"index": target, "alias": alias}})
        indices.update_aliases(actions=actions)
        for old in previous:
            indices.delete(index=old, ignore_unavailable=True)


# --- Keeping the index current (connected in ContentConfig.ready) ------------------------


def _safely(action: str, page: Page, call) -> None:
    try:
        call()
    except Exception:  # the editor's publish must not fail because search is down
        logger.exception("Search index: could not %s page %s (%s)", action, page.pk, page.title)


def on_page_published(sender, instance: Page, **kwargs) -> None:
    if elasticsearch_active():
        _safely("index", instance, lambda: get_backend().index_page(instance))


def on_page_removed(sender, instance: Page, **kwargs) -> None:
    """`page_unpublished` and `post_delete` of a page."""
    if isinstance(instance, Page) and elasticsearch_active():
        _safely("remove", instance, lambda: get_backend().remove_page(instance))

"""The site search on Elasticsearch: elasticsearch-dsl ``Document`` classes, the query and
the mapping of hits back to results (decision 0525).

Two indices under ``ELASTICSEARCH_INDEX_PREFIX``:

* ``<prefix>-rulebook``: ``RulebookDocument``, one per fan, worked example and page. Every
  text has a field per language analysed with that language's analyzer (``title_ru`` with
  ``russian``, ``title_en`` with ``english``, ``title_fr`` with ``french``, ``title_nl`` with
  ``dutch``, ``title_zh-hans`` with ``cjk``). A fan carries its name in all five languages
  (a name typed in any language finds it), a page only its own language's text (and the
  ``language`` keyword it is filtered by);
* ``<prefix>-people``: ``PeopleDocument``, one per player, club and public tournament, its
  names analysed by ``folded`` (standard tokenizer, lowercase, ASCII folding: any case, with
  or without accents, in every script).

Everything here but ``ElasticsearchSearch.results`` and ``index_build`` is pure and tested
without a server. ``content.site_search`` answers from the database when the server fails.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django.conf import settings
from elasticsearch_dsl import Document, Keyword, Q, Search, Text, analyzer

from content.search_backends import (
    FOLDED_ANALYZERS,
    LANGUAGE_ANALYZERS,
    MARK_CLOSE,
    MARK_OPEN,
    _client,
    highlight_html,
    language_text,
)
from content.search_results import EXACT, TITLE_PHRASE, TITLE_WORDS, Result
from rulebook.search_text import accented, name_key, name_keys, words
from tournaments.selectors import players_merged_among

if TYPE_CHECKING:
    from elasticsearch import Elasticsearch

logger = logging.getLogger(__name__)

FOLDED = analyzer("folded", tokenizer="standard", filter=["lowercase", "asciifolding"])
RULEBOOK_KINDS = ("fan", "rule", "example", "page")
PEOPLE_KINDS = ("player", "club", "tournament")
ALL_LANGUAGES = "*"  # the `language` of a document shown in every language (fans, people)
SIZE = 200


def field_name(base: str, language: str) -> str:
    return f"{base}_{language}"


def _language_fields(base: str) -> dict[str, Text]:
    return {field_name(base, code): language_text(code) for code in LANGUAGE_ANALYZERS}


class RulebookDocument(Document):
    """A fan, a worked example or a page: its texts in each language (own analyzer)."""

    kind = Keyword()
    object_id = Keyword()
    code = Keyword(normalizer="lowercase")  # a fan's number ("57a"), an example's code
    ruleset = Keyword()
    language = Keyword()

    class Index:
        name = "rulebook"
        settings = {"number_of_shards": 1, "number_of_replicas": 0}


for _base in ("title", "text"):
    for _name, _field in _language_fields(_base).items():
        RulebookDocument._doc_type.mapping.field(_name, _field)
for _code in LANGUAGE_ANALYZERS:
    RulebookDocument._doc_type.mapping.field(field_name("url", _code), Keyword(index=False))


class PeopleDocument(Document):
    """A player, a club or a public tournament: names folded (case, accents, any script)."""

    kind = Keyword()
    object_id = Keyword()
    title = Text(analyzer=FOLDED, fields={"raw": Keyword()})
    text = Text(analyzer=FOLDED)
    keys = Text(analyzer=FOLDED)  # the names' transliteration keys (decision 0546)
    url = Keyword(index=False)  # the path after the language prefix: /<lang> + url

    class Index:
        name = "people"
        settings = {"number_of_shards": 1, "number_of_replicas": 0}


def index_names() -> dict[str, str]:
    prefix = settings.ELASTICSEARCH_INDEX_PREFIX
    return {"rulebook": f"{prefix}-rulebook", "people": f"{prefix}-people"}


# --- Documents from the database (pure given their inputs) -----------------------------------


def fan_document(ruleset: str, code: str, names: dict[str, str], urls: dict[str, str]) -> RulebookDocument:
    doc = RulebookDocument(
        meta={"id": f"fan-{ruleset}-{code}"}, kind="fan", object_id=f"{ruleset}-{code}",
        code=code, ruleset=ruleset, language=ALL_LANGUAGES,
    )
    for language in LANGUAGE_ANALYZERS:
        setattr(doc, field_name("title", language), names.get(language, ""))
        setattr(doc, field_name("url", language), urls.get(language, ""))
    return doc


def page_text_document(row: Any, language: str) -> RulebookDocument:
    """A page (``content.site_search.PageText``) of one language."""
    doc = RulebookDocument(
        meta={"id": f"page-{row.page_id}"}, kind=row.kind, object_id=str(row.page_id),
        ruleset=row.ruleset, language=language,
    )
    setattr(doc, field_name("title", language), row.title)
    setattr(doc, field_name("text", language), row.text)
    setattr(doc, field_name("url", language), row.url)
    return doc


def example_document(row: dict[str, Any], language: str) -> RulebookDocument:
    doc = RulebookDocument(
        meta={"id": f"example-{language}-{row['id']}"}, kind="example", object_id=row["id"],
        code=row["id"].split("-", 1)[-1], ruleset=row["ruleset"], language=language,
    )
    setattr(doc, field_name("title", language), f"{row['title']} {row['names']}")
    setattr(doc, field_name("text", language), row["text"])
    setattr(doc, field_name("url", language), row["url"])
    return doc


def people_document(kind: str, pk: int, title: str, text: str, url: str) -> PeopleDocument:
    return PeopleDocument(meta={"id": f"{kind}-{pk}"}, kind=kind, object_id=str(pk),
                          title=title, text=text, url=url,
                          keys=" ".join(name_keys(f"{title} {text}")))


# --- The query (pure) ---------------------------------------------------------------------------


def rulebook_search(query: str, *, language: str, kinds: Iterable[str], size: int = SIZE) -> Search:
    """Fans by their number or any language's name, the language's pages and examples by
    phrase (boosted) or words; the exact fan number or name first."""
    titles = [field_name("title", code) for code in LANGUAGE_ANALYZERS]
    own_title, own_text = field_name("title", language), field_name("text", language)
    # typed without accents: the accentless forms match too ("derniere" finds "dernière");
    # typed with them, only the words so written ("dés" is not "des")
    folded = ([f"{own_title}.folded^2", f"{own_text}.folded"]
              if language in FOLDED_ANALYZERS and not any(accented(w) for w in words(query))
              else [])
    match = Q("bool", should=[
        Q("term", code={"value": query.strip().lower(), "boost": 20}),
        Q("multi_match", query=query, type="phrase", fields=[f"{own_title}^6", *titles],
          boost=4),
        Q("multi_match", query=query, fields=[f"{own_title}^3", *titles, own_text, *folded],
          operator="and"),
        Q("match_phrase", **{own_text: {"query": query, "boost": 2}}),
    ], minimum_should_match=1)
    return (
        Search()
        .query(match)
        .filter("terms", kind=list(kinds))
        .filter("terms", language=[language, ALL_LANGUAGES])
        .highlight(own_title, number_of_fragments=0)
        .highlight(own_text, number_of_fragments=1, fragment_size=160)
        .highlight(*titles, number_of_fragments=0)
        .highlight_options(pre_tags=[MARK_OPEN], post_tags=[MARK_CLOSE])
        .extra(size=size)
    )


def people_search(query: str, *, kinds: Iterable[str], size: int = SIZE) -> Search:
    """Every word in the name (or, for clubs and tournaments, the city), or every word's
    transliteration key among the name's keys ("Fyodorov" finds Фёдоров)."""
    keys = " ".join(name_key(w) for w in words(query))
    return (
        Search()
        .query(Q("bool", should=[
            Q("multi_match", query=query, fields=["title^3", "text"], operator="and"),
            Q("match", keys={"query": keys, "operator": "and"}),
        ], minimum_should_match=1))
        .filter("terms", kind=list(kinds))
        .highlight("title", "text", number_of_fragments=0)
        .highlight_options(pre_tags=[MARK_OPEN], post_tags=[MARK_CLOSE])
        .extra(size=size)
    )


def rulebook_results(response: dict[str, Any], *, language: str) -> list[Result]:
    """Results from a ``rulebook_search`` response, in score order."""
    out = []
    for n, hit in enumerate(response.get("hits", {}).get("hits", [])):
        source = hit.get("_source") or {}
        highlight = hit.get("highlight") or {}
        # a fan without a name in this language shows its Russian one, as the fan table does
        title = (source.get(field_name("title", language)) or source.get("title_ru") or "")
        if source.get("kind") == "fan":
            title = f"{source.get('code', '')}. {title}"
        fragments = (highlight.get(field_name("text", language))
                     or highlight.get(field_name("title", language))
                     or next((v for k, v in highlight.items() if k.startswith("title_")), []))
        out.append(Result(
            kind=source.get("kind", "page"), id=str(source.get("object_id", hit.get("_id"))),
            title=title, snippet=highlight_html(" … ".join(fragments) or title),
            url=source.get(field_name("url", language)) or "", ruleset=source.get("ruleset", ""),
            rank=EXACT if n == 0 and hit.get("_score", 0) >= 20 else TITLE_PHRASE, order=n,
        ))
    return out


def people_results(response: dict[str, Any], *, language: str) -> list[Result]:
    out = []
    for n, hit in enumerate(response.get("hits", {}).get("hits", [])):
        source = hit.get("_source") or {}
        highlight = hit.get("highlight") or {}
        fragments = highlight.get("title") or highlight.get("text") or [source.get("title", "")]
        out.append(Result(
            kind=source.get("kind", "player"), id=str(source.get("object_id", hit.get("_id"))),
            title=source.get("title", ""), snippet=highlight_html(" · ".join(fragments)),
            url=f"/{language}{source.get('url', '')}", rank=TITLE_WORDS, order=n,
        ))
    return out


def mapping_current(response: dict[str, Any], document: type[Document]) -> bool:
    """Whether a ``get_mapping`` response maps each of ``document``'s fields as it does."""
    wanted = document._doc_type.mapping.to_dict()["properties"]
    for index in response.values():
        properties = index.get("mappings", {}).get("properties", {})
        if any(properties.get(name) != field for name, field in wanted.items()):
            return False
    return True


def without_merged_players(results: list[Result]) -> list[Result]:
    """The results less the players merged into another since the index was built
    (decision 0811: the merged player's page only redirects); one query."""
    def player_id(result: Result) -> int | None:
        return int(result.id) if result.kind == "player" and result.id.isdigit() else None

    merged = players_merged_among(pk for r in results if (pk := player_id(r)) is not None)
    return [r for r in results if player_id(r) not in merged] if merged else results


# --- The backend (talks to the server) ----------------------------------------------------------


class ElasticsearchSearch:
    name = "elasticsearch"

    def __init__(self, client: Elasticsearch) -> None:
        self.client = client

    @classmethod
    def from_settings(cls) -> ElasticsearchSearch:
        return cls(_client(settings.ELASTICSEARCH_URL))

    def results(self, query: str, *, language: str, kinds: Iterable[str]) -> list[Result]:
        kinds = set(kinds)
        names = index_names()
        found: list[Result] = []
        rulebook = [k for k in RULEBOOK_KINDS if k in kinds]
        people = [k for k in PEOPLE_KINDS if k in kinds]
        if rulebook:
            response = (rulebook_search(query, language=language, kinds=rulebook)
                        .using(self.client).index(names["rulebook"]).execute())
            found += rulebook_results(response.to_dict(), language=language)
        if people:
            response = (people_search(query, kinds=people)
                        .using(self.client).index(names["people"]).execute())
            found += without_merged_players(
                people_results(response.to_dict(), language=language))
        return found

    def _mapping_current(self, name: str, document: type[Document]) -> bool:
        """Whether an existing index maps every field as ``document`` does now (no index:
        True). An index built with other analyzers (decision 0545) is dropped and built
        again: these indices are small and re-indexed whole anyway."""
        if not self.client.indices.exists(index=name):
            return True
        return mapping_current(self.client.indices.get_mapping(index=name).body, document)

    def index_build(
        self, documents: dict[str, Iterable[Document]], *, rebuild: bool = False
    ) -> dict[str, int]:
        """Create the indices when missing (``rebuild``: drop them first) and index the
        documents (``{"rulebook": ..., "people": ...}``, content.site_search gives them)."""
        from elasticsearch.helpers import bulk

        counts = {}
        for key, document in (("rulebook", RulebookDocument), ("people", PeopleDocument)):
            docs = documents.get(key, ())
            name = index_names()[key]
            if rebuild or not self._mapping_current(name, document):
                self.client.indices.delete(index=name, ignore_unavailable=True)
            if not self.client.indices.exists(index=name):
                document.init(index=name, using=self.client)
            actions = ({**doc.to_dict(include_meta=True), "_index": name} for doc in docs)
            counts[key], _errors = bulk(self.client, actions, raise_on_error=False)
            self.client.indices.refresh(index=name)
        return counts

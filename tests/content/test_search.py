"""Site search: the database backend end to end; the Elasticsearch backend as far as a client
goes without a server (names, mapping, documents, query body, hit mapping, settings, signals);
and, marked `elasticsearch`, real indexing and searching when ELASTICSEARCH_URL is set."""

from __future__ import annotations

import os
import uuid

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.core.management import CommandError, call_command
from django.test import override_settings
from wagtail.models import Locale, Page, PageViewRestriction

from content import search_backends
from content.models import HomePage, StandardPage

pytestmark = pytest.mark.django_db

UNREACHABLE = "http://127.0.0.1:9"  # the discard port: connection refused at once
ES_SETTINGS = {"SEARCH_BACKEND": "elasticsearch", "ELASTICSEARCH_URL": UNREACHABLE}


def home(code: str) -> HomePage:
    return HomePage.objects.get(locale__language_code=code)


def add_page(parent: Page, title: str, *, body: str = "", intro: str = "", live=True) -> Page:
    page = StandardPage(title=title, intro=intro, body=body, live=live)
    parent.add_child(instance=page)
    if live:
        page.save_revision().publish()
    return page


@pytest.fixture
def pages(site_content):
    en, fr = home("en"), home("fr")
    public = add_page(en, "Dragon pungs", intro="Scoring dragons", body="<p>A pung of dragons</p>")
    add_page(en, "Dragon drafts", body="<p>dragon draft</p>", live=False)
    private = add_page(en, "Dragon secrets", body="<p>dragon secret</p>")
    PageViewRestriction.objects.create(
        page=private, restriction_type=PageViewRestriction.PASSWORD, password="tiles"
    )
    french = add_page(fr, "Dragon en français", body="<p>dragon</p>")
    return {"public": public, "private": private, "french": french}


def result_titles(response) -> list[str]:
    return [r.title for r in response.context["found"].results if r.kind in ("page", "rule")]


# --- Database backend, end to end -------------------------------------------------------


def test_database_search_finds_only_the_active_locales_live_public_pages(client, pages):
    response = client.get("/en/search/", {"q": "dragon"})
    assert response.status_code == 200
    assert result_titles(response) == ["Dragon pungs"]
    assert 'href="/en/dragon-pungs/"' in response.content.decode()


def test_database_search_in_another_locale(client, pages):
    assert result_titles(client.get("/fr/search/", {"q": "dragon"})) == ["Dragon en français"]


def test_database_search_without_query_shows_no_results(client, pages):
    response = client.get("/en/search/")
    assert response.context["found"] is None


def test_database_backend_results_are_search_hits_without_highlights(pages):
    locale = Locale.objects.get(language_code="en")
    hits = search_backends.DatabaseBackend().search("pung", locale=locale)
    assert [(hit.page.title, hit.highlights) for hit in hits[0:10]] == [("Dragon pungs", [])]
    assert isinstance(hits[0].page, StandardPage)  # specific pages


# --- Settings -----------------------------------------------------------------------------


def test_database_is_the_default_backend(settings):
    del settings.SEARCH_BACKEND
    assert isinstance(search_backends.get_backend(), search_backends.DatabaseBackend)


@override_settings(SEARCH_BACKEND="elasticsearch", ELASTICSEARCH_URL="")
def test_elasticsearch_without_url_is_refused():
    with pytest.raises(ImproperlyConfigured, match="ELASTICSEARCH_URL"):
        search_backends.get_backend()


@override_settings(SEARCH_BACKEND="solr")
def test_unknown_backend_is_refused():
    with pytest.raises(ImproperlyConfigured, match="'solr'"):
        search_backends.backend_name()


@override_settings(**ES_SETTINGS)
def test_elasticsearch_backend_is_selected_with_a_url():
    backend = search_backends.get_backend()
    assert isinstance(backend, search_backends.ElasticsearchBackend)
    assert search_backends.elasticsearch_active()


# --- Elasticsearch, client side -----------------------------------------------------------


@override_settings(ELASTICSEARCH_INDEX_PREFIX="fed")
def test_index_names_per_language():
    assert [search_backends.index_name(code) for code in search_backends.site_languages()] == [
        "fed-pages-ru",
        "fed-pages-en",
        "fed-pages-zh-hans",
        "fed-pages-fr",
        "fed-pages-nl",
    ]


@pytest.mark.parametrize(
    ("language", "analyzer"),
    [("ru", "site_ru"), ("en", "site_en"), ("zh-hans", "cjk"), ("fr", "site_fr"), ("nl", "site_nl")],
)
def test_index_mapping_uses_the_languages_analyzer(language, analyzer):
    body = search_backends.page_index("some-index", language).to_dict()
    field = {"type": "text", "analyzer": analyzer}
    if language != "zh-hans":  # decision 0545: a sub-field without accents
        field["fields"] = {"folded": {"type": "text", "analyzer": f"{analyzer}_folded"}}
    assert body["mappings"] == {
        "properties": {
            "page_id": {"type": "integer"},
            "locale": {"type": "keyword"},
            "title": field,
            "text": field,
            "url_path": {"type": "keyword"},
            "last_published": {"type": "date"},
        }
    }
    assert {k: body["settings"][k] for k in ("number_of_shards", "number_of_replicas")} == {
        "number_of_shards": 1, "number_of_replicas": 0}
    if language != "zh-hans":
        assert set(body["settings"]["analysis"]["analyzer"]) == {analyzer, f"{analyzer}_folded"}


def test_every_site_language_has_an_analyzer():
    for language in search_backends.site_languages():
        search_backends.analyzer_for(language)
    with pytest.raises(ImproperlyConfigured, match="'de'"):
        search_backends.analyzer_for("de")


def test_mapping_and_document_have_the_same_fields():
    document_fields = search_backends.PageDocument._doc_type.mapping.to_dict()["properties"]
    assert set(search_backends.page_mapping("en").to_dict()["properties"]) == set(document_fields)


def test_document_from_a_page_collects_its_search_fields(pages):
    page = Page.objects.get(pk=pages["public"].pk)  # a plain Page: the document uses .specific
    document = search_backends.page_document(page)
    source = document.to_dict(include_meta=True)
    assert source["_id"] == page.pk
    fields = source["_source"]
    assert fields["page_id"] == page.pk
    assert fields["locale"] == "en"
    assert fields["title"] == "Dragon pungs"
    assert fields["text"] == "Scoring dragons\nA pung of dragons"  # intro, body without HTML
    assert fields["url_path"] == page.url_path
    assert fields["last_published"] == page.specific.last_published_at
    assert fields["last_published"] is not None


def test_search_text_skips_empty_fields(pages):
    page = add_page(home("en"), "Only a body", body="<p>just <b>this</b></p>")
    assert search_backends.page_search_text(page) == "just this"


def test_query_body():
    body = search_backends.search_body("pung of dragons", language="fr").to_dict()
    assert body == {
        "query": {
            "bool": {
                "must": [
                    {"multi_match": {"query": "pung of dragons", "fields": ["title^3", "text"]}}
                ],
                "filter": [{"term": {"locale": "fr"}}],
            }
        },
        "highlight": {
            "fields": {
                "title": {"number_of_fragments": 0},
                "text": {"number_of_fragments": 3, "fragment_size": 150},
            },
            "pre_tags": [search_backends.MARK_OPEN],
            "post_tags": [search_backends.MARK_CLOSE],
        },
        "_source": ["page_id"],
        "size": search_backends.MAX_RESULTS,
    }


# A search response as Elasticsearch 8 documents it (`hits.hits[]` with _id, _score,
# _source and highlight), highlighted with the markers search_body() asks for.
FAKE_RESPONSE = {
    "took": 3,
    "timed_out": False,
    "_shards": {"total": 1, "successful": 1, "skipped": 0, "failed": 0},
    "hits": {
        "total": {"value": 3, "relation": "eq"},
        "max_score": 2.5,
        "hits": [
            {
                "_index": "mahjong-pages-en-20250101",
                "_id": "12",
                "_score": 2.5,
                "_source": {"page_id": 12},
                "highlight": {
                    "title": ["\ue000Dragon\ue001 pungs"],
                    "text": ["A pung of \ue000dragons\ue001 <script>x</script>", "more"],
                },
            },
            {
                "_index": "mahjong-pages-en-20250101",
                "_id": "7",
                "_score": 1.0,
                "_source": {"page_id": 7},
                "highlight": {"title": ["The \ue000dragon\ue001"]},
            },
            {"_index": "mahjong-pages-en-20250101", "_id": "99", "_score": 0.5, "_source": {}},
        ],
    },
}


def test_parse_hits_keeps_order_and_escapes_highlights():
    hits = search_backends.parse_hits(FAKE_RESPONSE)
    assert [hit.page_id for hit in hits] == [12, 7, 99]
    assert hits[0].highlights == [
        "A pung of <mark>dragons</mark> &lt;script&gt;x&lt;/script&gt;",
        "more",
    ]
    assert hits[1].highlights == ["The <mark>dragon</mark>"]  # the title's when no text
    assert hits[2].highlights == []  # page id from _id when _source has none


def test_parse_hits_of_an_empty_response():
    assert search_backends.parse_hits({"hits": {"total": {"value": 0}, "hits": []}}) == []


def test_hits_with_pages_keeps_hit_order_and_drops_unknown_pages():
    page_7, page_12 = Page(pk=7, title="seven"), Page(pk=12, title="twelve")
    hits = search_backends.hits_with_pages(
        search_backends.parse_hits(FAKE_RESPONSE), {7: page_7, 12: page_12}
    )
    assert [hit.page for hit in hits] == [page_12, page_7]
    assert hits[1].highlights == ["The <mark>dragon</mark>"]


def test_view_renders_the_snippet_escaped_with_the_match_marked(client, pages):
    add_page(home("en"), "Dragon tags", body="<p>A pung of dragons &lt;i&gt; here</p>")
    html = client.get("/en/search/", {"q": "pung of dragons"}).content.decode()
    assert '<a href="/en/dragon-tags/">Dragon tags</a>' in html
    assert "A <mark>pung of dragons</mark> &lt;i&gt; here" in html


# --- Keeping the index current ------------------------------------------------------------


@pytest.fixture
def es_calls(monkeypatch):
    """Records what the signal handlers ask the Elasticsearch backend to do."""
    calls = []
    monkeypatch.setattr(
        search_backends.ElasticsearchBackend,
        "index_page",
        lambda self, page: calls.append(("index", page.pk)),
    )
    monkeypatch.setattr(
        search_backends.ElasticsearchBackend,
        "remove_page",
        lambda self, page: calls.append(("remove", page.pk)),
    )
    return calls


def publish_unpublish_delete(parent: Page) -> int:
    page = add_page(parent, "Short-lived")
    page.unpublish()
    pk = page.pk
    page.delete()
    return pk


def test_signal_handlers_do_nothing_on_the_database_backend(site_content, es_calls, caplog):
    publish_unpublish_delete(home("en"))
    assert es_calls == []
    assert [r for r in caplog.records if r.name == "content.search_backends"] == []


@override_settings(**ES_SETTINGS)
def test_signal_handlers_index_and_remove_on_the_elasticsearch_backend(site_content, es_calls):
    pk = publish_unpublish_delete(home("en"))
    assert es_calls[:2] == [("index", pk), ("remove", pk)]
    assert es_calls[2:] == [("remove", pk)]  # post_delete of the Page row


@override_settings(**ES_SETTINGS)
def test_unreachable_server_is_logged_not_raised_into_the_editors_request(site_content, caplog):
    page = add_page(home("en"), "Published while search is down")  # must not raise
    assert page.live
    errors = [r for r in caplog.records
              if r.name == "content.search_backends" and r.levelname == "ERROR"]
    assert errors, "the failure is logged"
    assert f"index page {page.pk}" in errors[0].getMessage()


def test_search_index_command_does_nothing_on_the_database_backend(capsys, monkeypatch):
    # would fail if called
    monkeypatch.setattr(search_backends.ElasticsearchBackend, "index_build", None)
    call_command("search_index", "--rebuild")
    assert "nothing to do" in capsys.readouterr().out


@override_settings(**ES_SETTINGS, ELASTICSEARCH_TIMEOUT=0.5)
def test_search_falls_back_to_the_database_when_elasticsearch_fails(client, pages, caplog):
    response = client.get("/en/search/", {"q": "dragon"})
    assert result_titles(response) == ["Dragon pungs"]
    assert any("answering from the database" in r.getMessage() for r in caplog.records)


@override_settings(**ES_SETTINGS)
def test_search_index_command_refuses_an_unknown_language():
    with pytest.raises(CommandError, match="'de'"):
        call_command("search_index", "--language", "de")


# --- Elasticsearch integration (a live server at ELASTICSEARCH_URL) ------------------------

LIVE_URL = os.environ.get("ELASTICSEARCH_URL", "")


@pytest.fixture
def live_elasticsearch(settings):
    if not LIVE_URL:
        pytest.skip("ELASTICSEARCH_URL is not set: no Elasticsearch server to index into")
    settings.SEARCH_BACKEND = "elasticsearch"
    settings.ELASTICSEARCH_URL = LIVE_URL
    settings.ELASTICSEARCH_INDEX_PREFIX = f"test-{uuid.uuid4().hex[:10]}"
    backend = search_backends.get_backend()
    yield backend
    # Wildcard deletes are refused by default (action.destructive_requires_name): by name.
    created = backend.client.indices.get(index=f"{settings.ELASTICSEARCH_INDEX_PREFIX}-*").body
    for name in created:
        backend.client.indices.delete(index=name)


def refresh(backend, language: str) -> None:
    backend.client.indices.refresh(index=search_backends.index_name(language))


@pytest.mark.elasticsearch
def test_live_index_and_search(live_elasticsearch, pages):
    backend = live_elasticsearch
    call_command("search_index", "--rebuild")
    en = Locale.objects.get(language_code="en")
    hits = backend.search("dragons", locale=en)
    assert [hit.page.title for hit in hits] == ["Dragon pungs"]
    assert any("<mark>" in fragment for fragment in hits[0].highlights)
    french = backend.search("dragon", locale=Locale.objects.get(language_code="fr"))
    assert [hit.page.title for hit in french] == ["Dragon en français"]


@pytest.mark.elasticsearch
def test_live_rebuild_swaps_the_alias_and_rerun_is_safe(live_elasticsearch, pages):
    backend = live_elasticsearch
    alias = search_backends.index_name("en")
    call_command("search_index", "--language", "en")
    first = sorted(backend.client.indices.get_alias(name=alias).body)
    call_command("search_index", "--language", "en")  # re-run: same index, no duplicates
    assert sorted(backend.client.indices.get_alias(name=alias).body) == first
    call_command("search_index", "--language", "en", "--rebuild")
    second = sorted(backend.client.indices.get_alias(name=alias).body)
    assert len(second) == 1 and second != first
    assert not backend.client.indices.exists(index=first[0])
    assert backend.client.count(index=alias)["count"] == 2  # en home + the public page


@pytest.mark.elasticsearch
def test_live_publish_and_unpublish_update_the_index(live_elasticsearch, pages):
    backend = live_elasticsearch
    call_command("search_index", "--rebuild", "--language", "en")
    en = Locale.objects.get(language_code="en")
    page = add_page(home("en"), "Knitted straight", body="<p>a knitted straight</p>")
    refresh(backend, "en")
    assert [hit.page.pk for hit in backend.search("knitted", locale=en)] == [page.pk]
    page.unpublish()
    refresh(backend, "en")
    assert list(backend.search("knitted", locale=en)) == []
    assert backend.client.count(index=search_backends.index_name("en"))["count"] == 2

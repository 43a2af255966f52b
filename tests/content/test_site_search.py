"""The one site search (content.site_search): GET /api/v1/search and the search page, on the
database backend; the Elasticsearch documents and queries without a server; an unreachable
server answered by the database; the same number of queries with ten times the players."""

from __future__ import annotations

import os
from datetime import date

import pytest
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext

from content import search_documents
from content.site_search import KINDS, site_search, snippet
from ratings.services import ratings_recompute
from rulebook.models import Fan
from tests.tournaments.confirmed_results import confirmed_tournament
from tournaments.models import Player

pytestmark = pytest.mark.django_db

LANGUAGES = ("ru", "en", "fr", "nl", "zh-hans")
UNREACHABLE = "http://10.255.255.1:9200"  # not routable: the connection times out


def api(client, **params):
    return client.get("/api/v1/search", params)


# --- The API's contract -----------------------------------------------------------------------


def test_api_answers_typed_results_in_the_requested_language(client, rulebook_content):
    response = api(client, q="57a", lang="fr")
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"count", "next", "previous", "results"}
    first = body["results"][0]
    assert {k: first[k] for k in ("type", "id", "url")} == {
        "type": "fan", "id": "mcr-57A", "url": "/fr/rules/mcr/fans/57a/"}
    assert first["title"] == "57A. " + Fan.objects.get(
        ruleset="mcr", code="57A", locale__language_code="fr").name
    assert first["snippet"].startswith("<mark>57A</mark> · ")
    assert first["ruleset"] == "mcr" and first["type_label"] == "Fan"


def test_api_defaults_to_the_site_language_and_every_kind(client, rulebook_content):
    body = api(client, q="чистый ряд").json()
    assert body["results"][0]["url"] == "/ru/rules/mcr/fans/28/"
    assert {r["type"] for r in body["results"]} >= {"fan", "example"}


@pytest.mark.parametrize(("params", "field"), [
    ({"q": ""}, "q"), ({"q": "   "}, "q"), ({}, "q"), ({"q": "x" * 201}, "q"),
    ({"q": "pung", "type": "fans"}, "type"), ({"q": "pung", "type": "fan,sheep"}, "type"),
    ({"q": "pung", "page": "0"}, "page"), ({"q": "pung", "page": "two"}, "page"),
    ({"q": "pung", "lang": "de"}, "lang"),
])
def test_api_bad_input_is_a_json_error_naming_the_field(client, site_content, params, field):
    response = client.get("/api/v1/search", params)
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == field


def test_api_filters_by_type_and_paginates(client, rulebook_content):
    body = api(client, q="kong", lang="en", type="fan").json()
    assert body["results"] and {r["type"] for r in body["results"]} == {"fan"}
    both = api(client, q="kong", lang="en", type="fan,example").json()
    assert {r["type"] for r in both["results"]} == {"fan", "example"}
    every = api(client, q="a", lang="en").json()
    assert every["count"] > 20 and len(every["results"]) == 20
    assert "page=2" in every["next"]
    second = client.get(every["next"]).json()
    assert second["previous"] and second["results"][0] != every["results"][0]
    past = api(client, q="a", lang="en", page="999").json()
    assert past["results"] == [] and past["count"] == every["count"]


def test_api_is_open_to_anonymous_clients_under_the_rate_limit(client, site_content, settings):
    from content.api import SearchView

    throttles = {type(t).__name__ for t in SearchView().get_throttles()}
    assert throttles == {"WeightedAnonRateThrottle", "WeightedUserRateThrottle"}
    assert api(client, q="x").status_code == 200


def test_api_is_in_the_schema(client, site_content):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    parameters = {p["name"] for p in schema["paths"]["/api/v1/search"]["get"]["parameters"]}
    assert parameters >= {"q", "lang", "type", "page"}


def test_snippet_is_escaped_and_marks_the_match():
    html = snippet("A <b>pung</b> of Dragons & more", "dragons")
    assert html == "A &lt;b&gt;pung&lt;/b&gt; of <mark>Dragons</mark> &amp; more"
    long = snippet("word " * 100 + "Chicken hand " + "tail " * 100, "chicken")
    assert long.startswith("… ") and long.endswith(" …") and "<mark>Chicken</mark>" in long
    assert snippet("Dernière tuile", "derniere") == "<mark>Dernière</mark> tuile"


# --- Fans, rules, ranking ---------------------------------------------------------------------


def test_every_mcr_fan_found_by_its_name_in_each_language_and_by_its_number(rulebook_content):
    fans = Fan.objects.filter(ruleset="mcr", live=True).values_list(
        "code", "locale__language_code", "name")
    names: dict[str, dict[str, str]] = {}
    for code, language, name in fans:
        names.setdefault(code, {})[language] = name
    assert len(names) == 82
    missed = []
    for code, by_language in names.items():
        for page_language in LANGUAGES:
            ids = [r.id for r in site_search(code, language=page_language, kinds=["fan"]).results]
            if ids[:1] != [f"mcr-{code}"]:
                missed.append((code, page_language, "number", ids[:3]))
            for name in by_language.values():
                found = site_search(name, language=page_language, kinds=["fan"]).results
                if f"mcr-{code}" not in [r.id for r in found]:
                    missed.append((code, page_language, name))
    assert missed == []


def test_an_exact_fan_name_comes_first(client, rulebook_content):
    results = site_search("Pure Straight", language="en").results
    assert (results[0].kind, results[0].id) == ("fan", "mcr-28")
    # a number: that fan before the fans and examples that only contain it
    results = site_search("1", language="en").results
    assert (results[0].kind, results[0].id) == ("fan", "mcr-1")


def test_a_rule_found_by_a_phrase_of_its_text(rulebook_content):
    from content.models import RuleChapterPage
    from content.search_backends import page_search_text

    chapter = max(RuleChapterPage.objects.live().filter(locale__language_code="ru"),
                  key=lambda page: len(page_search_text(page)))
    words = page_search_text(chapter).split()
    phrase = " ".join(words[3:6]).strip(".,:;")
    results = site_search(phrase, language="ru", kinds=["rule"]).results
    assert chapter.pk in [int(r.id) for r in results]
    hit = next(r for r in results if int(r.id) == chapter.pk)
    assert "<mark>" in hit.snippet and hit.ruleset == "mcr" and hit.url == chapter.url


def test_the_page_shows_kind_ruleset_and_snippet(client, rulebook_content):
    html = client.get("/en/search/", {"q": "fan table"}).content.decode()
    assert 'class="search-result search-result-rule"' in html
    assert "Rules · Mahjong Competition Rules (MCR)" in html


def test_a_page_past_the_last_shows_the_last_page(client, rulebook_content):
    first = client.get("/en/search/", {"q": "pung"})
    found = first.context["found"]
    assert found.pages >= 2, found.count
    late = client.get("/en/search/", {"q": "pung", "page": found.pages + 5})
    assert late.status_code == 200
    shown = late.context["found"]
    assert shown.number == found.pages and shown.results
    assert [r.id for r in shown.results] == [
        r.id for r in client.get("/en/search/", {"q": "pung", "page": found.pages}).context["found"].results]


# --- Players in either script ------------------------------------------------------------------


@pytest.fixture
def players(site_content):
    rated = [
        Player.objects.create(name_latin="Ivan Sokolov", name_native="Иван Соколов", country="RU"),
        Player.objects.create(name_latin="Zoë Müller", country="NL"),
        Player.objects.create(name_latin="Li Wei", name_native="李伟", country="CN"),
        Player.objects.create(name_latin="Éric Dubois", name_native="Ерик Дюбуа", country="FR"),
    ]
    confirmed_tournament(rated, date(2025, 3, 10), sessions=4, name="Spring Open")
    ratings_recompute()
    return rated


@pytest.mark.parametrize("query", [
    "соколов", "СОКОЛОВ", "иван соколов", "sokolov", "SOKOLOV ivan", "Соколов"])
def test_players_by_any_case_in_either_script(players, query):
    assert [r.title for r in site_search(query, language="en", kinds=["player"]).results] == [
        "Ivan Sokolov"]


@pytest.mark.parametrize(("query", "name"), [
    ("zoe muller", "Zoë Müller"), ("MÜLLER", "Zoë Müller"), ("eric", "Éric Dubois"),
    ("ÉRIC", "Éric Dubois"), ("李", "Li Wei"), ("дюбуа", "Éric Dubois"),
])
def test_players_with_or_without_diacritics(players, query, name):
    assert [r.title for r in site_search(query, language="fr", kinds=["player"]).results] == [
        name]


def test_renamed_player_is_found_by_the_new_name(players):
    ivan = players[0]
    ivan.name_native = "Иван Ёлкин"
    ivan.save(update_fields=["name_native"])
    assert [r.title for r in site_search("елкин", language="ru", kinds=["player"]).results] == [
        "Ivan Sokolov"]


def test_search_costs_the_same_with_ten_times_the_players(client, players, monkeypatch):
    from rulebook import selectors
    from rulebook.selectors import content_version_forget

    # the content version is read again every 2 s: not what this test counts
    monkeypatch.setattr(selectors, "VERSION_SECONDS", 3600)

    def queries() -> tuple[int, int]:
        counts = []
        for url in ("/en/search/", "/api/v1/search"):
            with CaptureQueriesContext(connection) as context:
                assert client.get(url, {"q": "sokolov", "lang": "en"}).status_code == 200
            counts.append(len(context.captured_queries))
        return tuple(counts)

    queries()
    small = queries()
    newcomers = [Player.objects.create(name_latin=f"Sokolov {i}", country="NL") for i in range(40)]
    for i in range(10):
        confirmed_tournament([*newcomers[4 * i:4 * i + 4]], date(2024, 1 + i, 10), sessions=4,
                             name=f"Cup {i}")
    ratings_recompute()
    content_version_forget()
    queries()
    assert queries() == small


# --- Elasticsearch without a server -----------------------------------------------------------


def test_rulebook_document_has_a_field_per_language_with_its_analyzer():
    mapping = search_documents.RulebookDocument._doc_type.mapping.to_dict()["properties"]
    assert {mapping[f"title_{code}"]["analyzer"] for code in LANGUAGES} == {
        "site_ru", "site_en", "site_fr", "site_nl", "cjk"}
    assert mapping["text_zh-hans"]["analyzer"] == "cjk"
    assert mapping["code"] == {"type": "keyword", "normalizer": "lowercase"}


def test_people_document_folds_case_and_accents():
    index = search_documents.PeopleDocument._index.to_dict()
    assert index["settings"]["analysis"]["analyzer"]["folded"]["filter"] == [
        "lowercase", "asciifolding"]
    assert index["mappings"]["properties"]["title"]["analyzer"] == "folded"


def test_fan_document_carries_every_languages_name():
    doc = search_documents.fan_document(
        "mcr", "28", {"ru": "Чистый ряд", "en": "Pure Straight", "zh-hans": "清龙"},
        {"en": "/en/rules/mcr/fans/28/"})
    data = doc.to_dict(include_meta=True)
    assert data["_id"] == "fan-mcr-28"
    assert data["_source"]["title_zh-hans"] == "清龙" and data["_source"]["language"] == "*"


def test_rulebook_query_body():
    body = search_documents.rulebook_search("57A", language="fr", kinds=["fan", "rule"]).to_dict()
    should = body["query"]["bool"]["should"]
    assert should[0] == {"term": {"code": {"value": "57a", "boost": 20}}}
    assert "title_fr^6" in should[1]["multi_match"]["fields"]
    assert body["query"]["bool"]["filter"] == [
        {"terms": {"kind": ["fan", "rule"]}}, {"terms": {"language": ["fr", "*"]}}]
    assert body["highlight"]["pre_tags"] == ["\ue000"]


def test_results_from_a_response_escape_and_mark():
    response = {"hits": {"hits": [{"_id": "fan-mcr-28", "_score": 25.0, "_source": {
        "kind": "fan", "object_id": "mcr-28", "code": "28", "ruleset": "mcr",
        "title_en": "Pure Straight", "url_en": "/en/rules/mcr/fans/28/"},
        "highlight": {"title_ru": ["\ue000Чистый\ue001 <ряд>"]}}]}}
    [result] = search_documents.rulebook_results(response, language="en")
    assert (result.kind, result.id, result.title, result.url) == (
        "fan", "mcr-28", "28. Pure Straight", "/en/rules/mcr/fans/28/")
    assert result.snippet == "<mark>Чистый</mark> &lt;ряд&gt;"


@override_settings(SEARCH_BACKEND="elasticsearch", ELASTICSEARCH_URL=UNREACHABLE,
                   ELASTICSEARCH_TIMEOUT=0.3)
def test_an_unreachable_elasticsearch_is_answered_by_the_database(client, players, caplog):
    import time

    from content.search_backends import _client

    _client.cache_clear()
    started = time.monotonic()
    body = api(client, q="соколов", lang="en").json()
    assert [r["title"] for r in body["results"]] == ["Ivan Sokolov"]
    assert time.monotonic() - started < 5
    assert any("answering from the database" in r.getMessage() for r in caplog.records)
    _client.cache_clear()


@pytest.mark.elasticsearch
@pytest.mark.skipif(not os.environ.get("ELASTICSEARCH_URL"), reason="needs ELASTICSEARCH_URL")
def test_live_elasticsearch_finds_fans_and_players(rulebook_content, players, settings):
    settings.SEARCH_BACKEND = "elasticsearch"
    settings.ELASTICSEARCH_URL = os.environ["ELASTICSEARCH_URL"]
    settings.ELASTICSEARCH_INDEX_PREFIX = "test-site-search"
    from content.site_search import search_index_build

    search_index_build(rebuild=True)
    assert site_search("57a", language="en").results[0].id == "mcr-57A"
    assert site_search("чистый ряд", language="en", kinds=["fan"]).results[0].id == "mcr-28"
    assert [r.title for r in site_search("sokolov", language="en", kinds=["player"]).results] == [
        "Ivan Sokolov"]
    assert set(KINDS) >= {r.kind for r in site_search("a", language="en").results}


def test_the_header_box_is_a_plain_form_on_every_page(client, site_content):
    html = client.get("/en/search/", {"q": "dragon"}).content.decode()
    assert 'id="header-search-q" type="search" name="q"' in html
    assert 'value="dragon"' in html and 'data-suggest-url="/api/v1/search"' in html
    # other pages' own "query" never fills the box
    calculator = client.get("/en/calculator/", {"hand": "123m456p789s123s5s5s"}).content.decode()
    assert 'autocomplete="off" placeholder="Fan, rule, player…" value=""' in calculator
    assert '<script src="/static/js/search_suggest.js" defer></script>' in calculator


# --- A merged player is found no more (issue 35, decision 0811) -------------------------------


def test_a_merged_player_leaves_the_search_the_index_and_the_rating_list(players, make_user):
    from content.site_search import people_documents
    from ratings.selectors.lists import period_list
    from tournaments.services.identity import player_merge

    ivan = players[0]
    twin = Player.objects.create(name_latin="Ivan Sokolov", country="RU")
    others = [Player.objects.create(name_latin=f"Guest {i}", country="RU") for i in range(3)]
    confirmed_tournament([twin, *others], date(2025, 4, 12), sessions=4, name="April Cup")
    ratings_recompute()

    def found() -> set[str]:
        return {r.id for r in site_search("sokolov", language="en", kinds=["player"]).results}

    def hits() -> list:
        response = {"hits": {"hits": [
            {"_id": f"player-{p.pk}", "_score": 3.0, "_source": {
                "kind": "player", "object_id": str(p.pk), "title": "Ivan Sokolov",
                "url": f"/ratings/players/{p.pk}/"}} for p in (ivan, twin)]}}
        return search_documents.without_merged_players(
            search_documents.people_results(response, language="en"))

    def listed() -> set[int]:
        return {e.player_id for e in period_list("2025-04")}

    assert found() == {str(ivan.pk), str(twin.pk)}
    assert {d.object_id for d in people_documents() if d.kind == "player"} >= {
        str(ivan.pk), str(twin.pk)}
    assert [r.id for r in hits()] == [str(ivan.pk), str(twin.pk)]
    assert twin.pk in listed()

    player_merge(player=twin, into=ivan, user=make_user(email="membership@example.org"))
    assert found() == {str(ivan.pk)}
    # the documents an index is built from, and the hits of an index built before
    assert str(twin.pk) not in {d.object_id for d in people_documents() if d.kind == "player"}
    assert [r.id for r in hits()] == [str(ivan.pk)]
    assert twin.pk not in listed() and ivan.pk in listed()


def test_a_published_list_leaves_out_a_player_merged_since(players, make_user):
    from ratings.selectors.lists import period_list
    from ratings.services import rating_period_publish
    from tournaments.services.identity import player_merge

    ivan = players[0]
    twin = Player.objects.create(name_latin="Ivan Sokolov", country="RU")
    others = [Player.objects.create(name_latin=f"Guest {i}", country="RU") for i in range(3)]
    confirmed_tournament([twin, *others], date(2025, 4, 12), sessions=4, name="April Cup")
    ratings_recompute()
    rating_period_publish(period="2025-04")
    assert twin.pk in {e.player_id for e in period_list("2025-04")}
    player_merge(player=twin, into=ivan, user=make_user(email="membership@example.org"))
    published = period_list("2025-04")
    assert twin.pk not in {e.player_id for e in published} and ivan.pk in {
        e.player_id for e in published}

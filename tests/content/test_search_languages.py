"""Issue 41, search: each language's word forms (stems), accents that tell words apart,
names in Cyrillic and Latin transliterations, whole words before words found inside
others. The database search (SQLite and PostgreSQL alike: decision 0545); on PostgreSQL the
stems are checked against its own text search configurations."""

from __future__ import annotations

import os
from datetime import date

import pytest
from django.db import connection
from wagtail.models import Page

from content.models import HomePage, StandardPage
from content.site_search import site_search, snippet
from rulebook.search_text import STEMMER_LANGUAGES, name_key, name_keys, stem
from tests.factories import UserFactory
from tournaments.models import Player, Registration, Tournament

pytestmark = pytest.mark.django_db

HOME_TITLES: set[str] = set()


@pytest.fixture(autouse=True)
def _home_titles(site_content) -> None:
    HOME_TITLES.update(HomePage.objects.values_list("title", flat=True))


def add_page(language: str, title: str, body: str) -> Page:
    page = StandardPage(title=title, body=f"<p>{body}</p>", live=True)
    HomePage.objects.get(locale__language_code=language).add_child(instance=page)
    page.save_revision().publish()
    return page


def titles(query: str, language: str, kinds=("rule", "page")) -> list[str]:
    """The titles found, less the home pages' (their text is the site's, not the test's)."""
    results = site_search(query, language=language, kinds=kinds).results
    return [r.title for r in results if r.title not in HOME_TITLES]


def words_found(query: str, language: str) -> list[str]:
    """The pages holding the query's words (in any of their forms) as whole words: those
    ranked before pages that only hold them inside other words ("dé" in "Fédération")."""
    results = site_search(query, language=language, kinds=("rule", "page")).results
    return [r.title for r in results if r.whole and r.title not in HOME_TITLES]


def entered(*players: Player) -> None:
    """Entered in an accredited tournament: shown by the public pages, so found by search."""
    cup = Tournament.objects.create(
        name="Open", start_date=date(2026, 2, 7), end_date=date(2026, 2, 7), city="Utrecht",
        country="NL", organizer=UserFactory(), ruleset=Tournament.Ruleset.MCR, sessions=4,
        planned_players=8, state=Tournament.State.ACCREDITED,
    )
    for number, player in enumerate(players, start=1):
        Registration.objects.create(tournament=cup, player=player, number=number)


# --- Stems, in each language ------------------------------------------------------------------


def test_dutch_a_singular_finds_its_plural(site_content) -> None:
    add_page("nl", "Spelverloop", "Gooi de dobbelstenen om de Oostwind te bepalen.")
    add_page("nl", "Puntentelling", "De tegels worden geteld.")
    assert titles("dobbelsteen", "nl") == ["Spelverloop"]
    assert titles("dobbelstenen", "nl") == ["Spelverloop"]
    found = site_search("dobbelsteen", language="nl").results[0]
    assert "<mark>dobbelstenen</mark>" in found.snippet  # the form found is highlighted


def test_french_an_accent_tells_words_apart(site_content) -> None:
    add_page("fr", "Début de la partie", "On lance les dés pour choisir le vent d'Est.")
    for n in range(5):
        add_page("fr", f"Chapitre {n}", "Le tableau des places et des tuiles.")
    # "dés" (dice) is not "des" (of the): five pages hold "des", one the dice
    assert titles("dés", "fr") == ["Début de la partie"]
    assert words_found("dé", "fr") == ["Début de la partie"]  # the singular finds the plural
    assert titles("dé", "fr")[0] == "Début de la partie"  # "Fédération" after it
    # typed without the accent, both spellings are found (the reader may have no accents)
    assert set(words_found("des", "fr")) >= {f"Chapitre {n}" for n in range(5)}
    assert "Début de la partie" in titles("des", "fr")
    assert words_found("tuile", "fr") == [f"Chapitre {n}" for n in range(5)]


def test_russian_inflected_forms_and_yo(site_content) -> None:
    add_page("ru", "Регламент", "Игрок обязан знать правила турниров. Судья Фёдоров.")
    add_page("ru", "Новости", "Открыта запись.")
    assert titles("игроков", "ru") == ["Регламент"]  # genitive plural finds the nominative
    assert titles("турнир", "ru") == ["Регламент"]
    assert titles("федоров", "ru") == ["Регламент"]  # "е" typed for "ё"
    assert titles("игрока", "ru") == ["Регламент"]


def test_english_singular_and_plural(site_content) -> None:
    add_page("en", "Discarding", "Each player discards one tile face up.")
    add_page("en", "Walls", "The wall is built.")
    assert titles("tiles", "en") == ["Discarding"]
    assert titles("discard", "en") == ["Discarding"]
    assert titles("players discarding", "en") == ["Discarding"]  # every word, any form


def test_chinese_a_two_character_word_is_found_inside_a_sentence(site_content) -> None:
    add_page("zh-hans", "开局", "掷骰子决定庄家的座位。")
    add_page("zh-hans", "计分", "胡牌后计算番数。")
    assert titles("骰子", "zh-hans") == ["开局"]  # no spaces, no inflection: the characters
    result = site_search("骰子", language="zh-hans").results[0]
    assert result.whole and "<mark>骰子</mark>" in result.snippet


def test_an_accentless_french_query_finds_the_accented_word_as_a_whole_word(site_content):
    add_page("fr", "Dernière tuile", "Gagner sur la dernière tuile du mur.")
    result = site_search("derniere", language="fr", kinds=("page",)).results[0]
    assert result.title == "Dernière tuile" and result.whole


# --- Transliterated names ----------------------------------------------------------------------


@pytest.mark.parametrize(("spellings", "key"), [
    (["Фёдоров", "Федоров", "Fedorov", "Fyodorov", "Fiodorov", "Fedorow", "Fjodorov"],
     "fedorov"),
    (["Дмитрий", "Dmitriy", "Dmitry", "Dmitrii", "Dmitri"], "dmitri"),
    (["Елена", "Yelena", "Jelena", "Elena"], "elena"),
    (["Алексей", "Alexei", "Aleksey", "Alexey"], "aleksei"),
    (["Михаил", "Mikhail", "Mihail"], "mihail"),
    (["Наталья", "Natalia", "Natalya"], "natala"),
    (["Юрий", "Yuri", "Yuriy", "Jurij"], "uri"),
    (["Соколов", "Sokolov"], "sokolov"),
])
def test_transliteration_variants_have_one_key(spellings, key) -> None:
    assert {name_key(s) for s in spellings} == {key}


def test_different_names_keep_different_keys() -> None:
    assert len({name_key(n) for n in ("Fedorov", "Fedotov", "Sokolov", "Sokolova",
                                      "Ivanov", "Ivanova", "Lea", "Leo", "Chen", "Shen")}) == 10
    assert name_keys("Ivan Фёдоров Ivan") == ["ivan", "fedorov"]
    assert name_key("王芳") == "王芳"


def test_fyodorov_finds_fedorov_and_the_cyrillic_name(site_content) -> None:
    cyrillic = Player.objects.create(name_latin="", name_native="Фёдоров Иван", country="RU")
    latin = Player.objects.create(name_latin="Fedorov Pavel", country="RU")
    other = Player.objects.create(name_latin="Fiodorova Anna", country="FR")
    Player.objects.create(name_latin="Fedotov Oleg", country="RU")
    entered(cyrillic, latin, other, Player.objects.get(name_latin="Fedotov Oleg"))
    every = {"Фёдоров Иван", "Fedorov Pavel", "Fiodorova Anna"}
    for query in ("Fyodorov", "Fedorov", "Фёдоров", "федоров", "Fiodorov"):
        assert set(titles(query, "en", kinds=("player",))) == every, query
    assert titles("Fyodorov Ivan", "en", kinds=("player",)) == ["Фёдоров Иван"]
    # through the API too, whose contract is unchanged
    body = site_search("Fyodorov", language="ru", kinds=("player",))
    assert body.count == 3 and {r.as_json()["type"] for r in body.results} == {"player"}


# --- Whole words before words inside others -----------------------------------------------------


def test_lea_comes_before_five_tableau_pages(site_content) -> None:
    for n in range(5):
        add_page("fr", f"Tableau {n}", "Le tableau des scores.")
    lea = Player.objects.create(name_latin="Léa Martin", country="FR")
    leandro = Player.objects.create(name_latin="Leandro Silva", country="FR")
    entered(lea, leandro)
    found = site_search("lea", language="fr").results
    assert [r.title for r in found] == [
        "Léa Martin", *(f"Tableau {n}" for n in range(5)), "Leandro Silva"]
    # with its accent, "Léa" is not inside "Tableau" at all
    accented = site_search("Léa", language="fr").results
    assert [r.title for r in accented] == ["Léa Martin", "Leandro Silva"]  # names: folded


def test_a_whole_word_in_a_text_comes_before_a_part_of_a_word_in_a_title(site_content) -> None:
    add_page("en", "Pungs", "A pung of winds.")
    add_page("en", "Windows of the hall", "Open them.")
    assert titles("wind", "en") == ["Pungs", "Windows of the hall"]


def test_snippet_marks_the_other_forms_of_the_word() -> None:
    html = snippet("Gooi de dobbelstenen.", "dobbelsteen", language="nl")
    assert html == "Gooi de <mark>dobbelstenen</mark>."
    assert snippet("Gooi de dobbelstenen.", "dobbelsteen") == "Gooi de dobbelstenen."


# --- The stems are PostgreSQL's --------------------------------------------------------------------

SAMPLES = {
    "ru": ["игроков", "игрок", "правилами", "турниров", "фёдоров"],
    "en": ["tiles", "discards", "players", "winds", "concealed"],
    "fr": ["dés", "tuiles", "dernière", "joueurs", "combinaisons"],
    "nl": ["dobbelstenen", "dobbelsteen", "spelers", "regels", "stenen"],
}
PG_CONFIGS = {"ru": "russian", "en": "english", "fr": "french", "nl": "dutch"}


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's own stemmers")
def test_stems_are_those_of_postgresqls_text_search_configurations() -> None:
    assert set(STEMMER_LANGUAGES) == set(PG_CONFIGS)
    with connection.cursor() as cursor:
        for language, samples in SAMPLES.items():
            for word in samples:
                cursor.execute("SELECT ts_lexize(%s, %s)",
                               [f"{PG_CONFIGS[language]}_stem", word])
                assert cursor.fetchone()[0] == [stem(word.replace("ё", "е"), language)], word


# --- Elasticsearch: the same analysis, as far as a client goes without a server ------------------


@pytest.mark.parametrize(("language", "snowball", "stop"), [
    ("ru", "Russian", "_russian_"), ("en", "English", "_english_"),
    ("fr", "French", "_french_"), ("nl", "Dutch", "_dutch_"),
])
def test_elasticsearch_analyses_each_language_with_its_stemmer(language, snowball, stop) -> None:
    from content import search_documents

    analysis = search_documents.RulebookDocument._index.to_dict()["settings"]["analysis"]
    plain = analysis["analyzer"][f"site_{language}"]
    folded = analysis["analyzer"][f"site_{language}_folded"]
    filters = analysis["filter"]
    assert filters[plain["filter"][-1]] == {"type": "snowball", "language": snowball}
    assert {"type": "stop", "stopwords": stop} in [filters.get(f) for f in plain["filter"]]
    # accents kept ("dés" is not "des"); dropped in the sub-field typed-without-accents
    # queries are matched against, before the stemmer
    assert "asciifolding" not in plain["filter"]
    assert folded["filter"][-2:] == ["asciifolding", f"site_{language}_stem"]
    if language == "fr":
        assert plain["filter"][0] == "site_fr_elision"  # l'échange: échange
    if language == "ru":
        assert analysis["char_filter"]["site_ru_yo"]["mappings"] == ["ё => е", "Ё => Е"]
    mapping = search_documents.RulebookDocument._doc_type.mapping.to_dict()["properties"]
    assert mapping[f"text_{language}"]["analyzer"] == f"site_{language}"
    assert mapping[f"text_{language}"]["fields"]["folded"]["analyzer"] == (
        f"site_{language}_folded")


def test_elasticsearch_chinese_keeps_its_bigrams() -> None:
    from content import search_documents

    mapping = search_documents.RulebookDocument._doc_type.mapping.to_dict()["properties"]
    assert mapping["text_zh-hans"] == {"type": "text", "analyzer": "cjk"}


def test_elasticsearch_accentless_queries_also_ask_the_folded_fields() -> None:
    from content import search_documents

    def fields(query: str) -> list[str]:
        body = search_documents.rulebook_search(query, language="fr", kinds=["rule"]).to_dict()
        return body["query"]["bool"]["should"][2]["multi_match"]["fields"]

    assert "text_fr.folded" in fields("derniere")
    assert "text_fr.folded" not in fields("dés")  # the accent is meant


def test_elasticsearch_people_carry_and_query_transliteration_keys() -> None:
    from content import search_documents

    doc = search_documents.people_document("player", 7, "Ivan Fedorov", "Фёдоров Иван", "/p/7/")
    assert doc.to_dict()["keys"] == "ivan fedorov"
    mapping = search_documents.PeopleDocument._doc_type.mapping.to_dict()["properties"]
    assert mapping["keys"]["analyzer"] == "folded"
    body = search_documents.people_search("Fyodorov", kinds=["player"]).to_dict()
    assert {"match": {"keys": {"query": "fedorov", "operator": "and"}}} in (
        body["query"]["bool"]["should"])


def test_a_fan_named_with_the_plural_is_a_whole_word_match(rulebook_content) -> None:
    fans = site_search("kong", language="en", kinds=("fan",)).results
    assert any("Kongs" in r.title for r in fans)
    assert all(r.whole for r in fans)  # "Kongs" is a form of "kong", not a word inside one
    found = site_search("kong", language="en").results
    assert found[0].kind == "fan"  # before the pages that say "kong" in their text


@pytest.mark.elasticsearch
@pytest.mark.skipif(not os.environ.get("ELASTICSEARCH_URL"), reason="needs ELASTICSEARCH_URL")
def test_live_elasticsearch_finds_forms_accents_and_transliterations(site_content, settings):
    """The same questions answered by a real server (run with ELASTICSEARCH_URL set)."""
    settings.SEARCH_BACKEND = "elasticsearch"
    settings.ELASTICSEARCH_URL = os.environ["ELASTICSEARCH_URL"]
    settings.ELASTICSEARCH_INDEX_PREFIX = "test-search-languages"
    from content.site_search import search_index_build

    add_page("nl", "Spelverloop", "Gooi de dobbelstenen om de Oostwind te bepalen.")
    add_page("fr", "Début de la partie", "On lance les dés pour choisir le vent d'Est.")
    add_page("fr", "Chapitre", "Le tableau des places et des tuiles.")
    add_page("ru", "Регламент", "Игрок обязан знать правила турниров.")
    add_page("en", "Discarding", "Each player discards one tile face up.")
    add_page("zh-hans", "开局", "掷骰子决定庄家的座位。")
    fedorov = Player.objects.create(name_latin="Fedorov Pavel", country="RU")
    cyrillic = Player.objects.create(name_latin="", name_native="Фёдоров Иван", country="RU")
    entered(fedorov, cyrillic)
    search_index_build(rebuild=True)
    assert site_search("dobbelsteen", language="nl").backend == "elasticsearch"
    assert titles("dobbelsteen", "nl") == ["Spelverloop"]
    assert titles("dés", "fr") == ["Début de la partie"]
    assert titles("игроков", "ru") == ["Регламент"]
    assert titles("tiles", "en") == ["Discarding"]
    assert titles("骰子", "zh-hans") == ["开局"]
    assert set(titles("Fyodorov", "en", kinds=("player",))) == {"Fedorov Pavel", "Фёдоров Иван"}


def test_an_index_with_the_former_analyzers_is_built_again() -> None:
    """``search_index`` (run at every container start) drops and rebuilds a rulebook or
    people index mapped with other analyzers rather than failing or keeping them."""
    from content import search_documents

    current = search_documents.RulebookDocument._doc_type.mapping.to_dict()
    assert search_documents.mapping_current(
        {"fed-rulebook": {"mappings": current}}, search_documents.RulebookDocument)
    former = {**current, "properties": {**current["properties"],
                                       "title_fr": {"type": "text", "analyzer": "french"}}}
    assert not search_documents.mapping_current(
        {"fed-rulebook": {"mappings": former}}, search_documents.RulebookDocument)

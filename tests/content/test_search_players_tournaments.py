"""Search finds players and public tournaments, above the pages: only what the public
pages already show."""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.test import Client

from ratings.services import ratings_recompute
from tests.factories import UserFactory
from tests.tournaments.confirmed_results import confirmed_tournament
from tournaments.models import Player, Registration, Tournament

pytestmark = pytest.mark.django_db


def found(client: Client, query: str, kind: str, language: str = "en") -> list[str]:
    """The names of the players or tournaments a search lists, in its order."""
    html = client.get(f"/{language}/search/", {"q": query}).content.decode()
    items = re.findall(rf'<li class="search-result search-result-{kind[:-1]}">(.*?)</li>',
                       html, re.S)
    return [re.search(r'<a href="[^"]+">([^<]+)</a>', item).group(1) for item in items]


def _tournament(name: str, city: str, start: date, state: str) -> Tournament:
    return Tournament.objects.create(
        name=name, start_date=start, end_date=start, city=city, country="NL",
        organizer=UserFactory(), ruleset=Tournament.Ruleset.MCR, sessions=4,
        planned_players=8, state=state,
    )


@pytest.fixture
def people(site_content):
    rated = [
        Player.objects.create(name_latin="Ivan Sokolov", name_native="Иван Соколов", country="RU"),
        Player.objects.create(name_latin="Anna Sokolova", country="RU"),
        Player.objects.create(name_latin="Jan de Vries", country="NL"),
        Player.objects.create(name_latin="Marie Dubois", country="FR"),
    ]
    confirmed_tournament(rated, date(2025, 3, 10), sessions=4, name="Moscow Spring Open")
    ratings_recompute()
    # entered only in a tournament that is still a draft: not public anywhere
    hidden = Player.objects.create(name_latin="Petr Sokolovsky", country="RU")
    draft = _tournament("Secret Cup", "Utrecht", date(2026, 1, 5), Tournament.State.DRAFT)
    Registration.objects.create(tournament=draft, player=hidden, number=1)
    # entered in an accredited tournament, not rated yet: its page lists them
    entered = Player.objects.create(name_latin="Oleg Sokolenko", country="RU")
    open_cup = _tournament("Utrecht Open", "Utrecht", date(2026, 2, 7),
                           Tournament.State.ACCREDITED)
    Registration.objects.create(tournament=open_cup, player=entered, number=1)
    return rated


def test_players_by_any_part_of_the_name(client: Client, people) -> None:
    assert found(client, "sokol", "players") == ["Anna Sokolova", "Ivan Sokolov",
                                                 "Oleg Sokolenko"]
    assert found(client, "SOKOLOV ivan", "players") == ["Ivan Sokolov"]  # any order, any case
    # the native script, and (its transliteration, decision 0546) the Latin names it starts
    assert found(client, "Соколов", "players") == ["Ivan Sokolov", "Anna Sokolova"]
    assert found(client, "vries", "players") == ["Jan de Vries"]


def test_players_the_public_pages_do_not_show_are_not_found(client: Client, people) -> None:
    assert "Petr Sokolovsky" not in found(client, "sokolovsky", "players")
    anonymised = people[3]
    anonymised.is_anonymised = True
    anonymised.save()
    assert found(client, "dubois", "players") == []


def test_a_player_links_to_their_page_with_the_country_in_the_page_language(
        client: Client, people) -> None:
    html = client.get("/ru/search/", {"q": "sokolov ivan"}).content.decode()
    ivan = Player.objects.get(name_latin="Ivan Sokolov")
    assert f'<a href="/ru/ratings/players/{ivan.pk}/">Ivan Sokolov</a>' in html
    assert "<mark>Ivan</mark> <mark>Sokolov</mark> · Иван Соколов" in html
    assert "Игрок" in html  # the kind, translated


def test_public_tournaments_by_name_or_city_newest_first(client: Client, people) -> None:
    assert found(client, "utrecht", "tournaments") == ["Utrecht Open"]  # not the draft
    assert found(client, "open", "tournaments") == ["Utrecht Open", "Moscow Spring Open"]
    assert found(client, "spring moscow", "tournaments") == ["Moscow Spring Open"]
    assert found(client, "secret", "tournaments") == []
    assert "Nothing found for “secret”." in client.get(
        "/en/search/", {"q": "secret"}).content.decode()


def _players_as_before(query: str, limit: int, offset: int = 0) -> list[Player]:
    """players_matching as it was written before issue 26: two LEFT JOINs under DISTINCT
    (with today's matching of a name, folded or by its transliteration: decision 0546)."""
    from django.db.models import Q

    from tournaments.models import PUBLIC_STATES
    from tournaments.selectors.players import _every_folded_word_in_name

    shown = Q(rating_entries__isnull=False) | Q(registrations__tournament__state__in=PUBLIC_STATES)
    return list(
        Player.objects.filter(shown, is_anonymised=False)
        .filter(_every_folded_word_in_name(query))
        .distinct()
        .order_by("name_latin", "pk")[offset:offset + limit]
    )


def test_player_lookups_find_what_the_joins_found(people) -> None:
    from tournaments.selectors import players_matching

    people[3].is_anonymised = True
    people[3].save()
    for query in ("sokol", "SOKOLOV ivan", "Соколов", "vries", "a", "o", "sokolovsky",
                  "dubois", "zzz", "an so"):
        for limit in (1, 2, 50):
            assert players_matching(query, limit=limit) == _players_as_before(query, limit), (
                query, limit)
            for offset in (1, 2, 3):
                assert players_matching(query, limit=limit, offset=offset) == (
                    _players_as_before(query, limit, offset)), (query, limit, offset)


def test_search_costs_the_same_with_ten_times_the_history(client: Client, people,
                                                          monkeypatch) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from rulebook import selectors

    # the content version is read again every 2 s: not what this test counts
    monkeypatch.setattr(selectors, "VERSION_SECONDS", 3600)

    def queries(**more: str) -> int:
        with CaptureQueriesContext(connection) as context:
            assert client.get("/en/search/", {"q": "sokol", **more}).status_code == 200
        return len(context.captured_queries)

    client.get("/en/search/", {"q": "sokol"})
    small = queries()
    small_second = queries(players="2")
    for i in range(10):
        newcomer = Player.objects.create(name_latin=f"Sokol {i}", country="NL")
        confirmed_tournament([*people[:3], newcomer], date(2024, 1 + i, 10), sessions=4,
                             name=f"Sokol Cup {i}")
    ratings_recompute()
    for i in range(30):  # ten times the players: thirty more whose names match
        Player.objects.create(name_latin=f"Sokolik {i}", country="NL")
        Registration.objects.create(tournament=Tournament.objects.get(name="Sokol Cup 0"),
                                    player=Player.objects.get(name_latin=f"Sokolik {i}"),
                                    number=100 + i)
    assert queries() == small
    assert queries(players="2") == small_second

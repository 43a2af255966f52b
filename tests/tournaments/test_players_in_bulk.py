"""Issue 22, item 7: a legitimately large call registers its players with a fixed number of
queries (the matching reads the members and players the batch names at once), and the
matching rules stay those of one player at a time: an existing player is found by member
number, EMA number or name and country, never duplicated, also inside one call."""

from __future__ import annotations

from datetime import date

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from federation.models import Member, MembershipType
from tournaments import services
from tournaments.models import Player, Registration

pytestmark = pytest.mark.django_db


def _register(api, t, rows):
    """The answer, and the queries other than the inserts (which the database takes in
    batches of a few hundred rows)."""
    with CaptureQueriesContext(connection) as context:
        response = api["organizer"].post(f"/api/v1/tournaments/{t.pk}/players", rows,
                                         format="json")
    assert response.status_code in (200, 201), response.content[:500]
    queries = [q["sql"] for q in context.captured_queries]
    inserts = [q for q in queries if q.startswith("INSERT INTO \"tournaments_")]
    # three tables (players, registrations, rows waiting for the organizer's confirmation),
    # a few hundred rows an insert at least
    assert len(inserts) <= 3 * (len(rows) // 100 + 1), len(inserts)
    return response.json(), len(queries) - len(inserts)


def _confirmed(api, t, body):
    """The answer with its rows that wait for the organizer's confirmation (named by member
    number, issue 37, item 2) replaced by what the confirmation answers."""
    response = api["organizer"].post(f"/api/v1/tournaments/{t.pk}/players/pending/confirm",
                                     {}, format="json")
    assert response.status_code == 200, response.content[:500]
    confirmed = iter(response.json())
    return [next(confirmed) if row["status"] == "pending" else row for row in body]


def _rows(n: int, start: int = 0) -> list[dict]:
    return [{"name": f"Guest {i:04d}", "country": "NL"} for i in range(start, start + n)]


def test_ten_times_the_players_cost_the_same_queries(api, make_tournament):
    small_t, large_t = make_tournament("draft"), make_tournament("draft")
    _register(api, make_tournament("draft"), _rows(2, start=5000))  # caches warm
    small, small_queries = _register(api, small_t, _rows(40))
    large, large_queries = _register(api, large_t, _rows(400, start=1000))
    assert len(small) == 40 and len(large) == 400
    assert large_queries == small_queries, (small_queries, large_queries)
    assert Registration.objects.filter(tournament=large_t).count() == 400
    numbers = sorted(Registration.objects.filter(tournament=large_t)
                     .values_list("number", flat=True))
    assert numbers == list(range(1, 401))
    # the players created in bulk can be searched like any other (their search column)
    assert Player.objects.get(name_latin="Guest 1399").name_search == "guest 1399| guest 1399"


def test_existing_players_are_found_not_duplicated(api, make_tournament):
    regular, _ = MembershipType.objects.get_or_create(kind="regular")
    member = Member.objects.create(name_latin="Anna Lee", name_native="Анна Ли",
                                   membership_number=21, country="RU",
                                   membership_type=regular, date_of_birth=date(1990, 5, 17))
    by_ema = Player.objects.create(name_latin="Jan de Vries", country="NL",
                                   ema_number="04010001")
    by_name = Player.objects.create(name_latin="Ivan Sokolov", name_native="Иван Соколов",
                                    country="RU")
    t = make_tournament("draft")
    before = Player.objects.count()
    body, _ = _register(api, t, [
        {"name": "Lee, A.", "country": "RU", "member_number": 21},
        {"name": "J. de Vries", "country": "NL", "ema_number": "04010001"},
        {"name": "ivan sokolov", "country": "ru", "confirm": True},
        # the same player, by the native name (issue 35: a name-only match is confirmed)
        {"name": "Иван Соколов", "country": "RU", "confirm": True},
        {"name": "New Guest", "country": "FR"},
        {"name": "new guest", "country": "FR"},  # the same guest, twice in one call
        {"name": "New Guest", "country": "BE"},  # another country: another person
    ])
    assert body[0]["status"] == "pending" and body[0]["id"] is None
    players = [row["id"] for row in _confirmed(api, t, body)]
    member_player = Player.objects.get(member=member)
    assert players[0] == member_player.pk
    assert players[1] == by_ema.pk
    assert players[2] == players[3] == by_name.pk
    assert players[4] == players[5] != players[6]
    # the member's player, the guest from France and the one from Belgium
    assert Player.objects.count() == before + 3
    assert Registration.objects.filter(tournament=t).count() == 5
    # a second call finds them all again
    again, _ = _register(api, t, [{"name": "New Guest", "country": "FR"},
                                  {"name": "Anna Lee", "country": "RU", "member_number": 21}])
    assert [row["id"] for row in _confirmed(api, t, again)] == [players[4], players[0]]
    assert Player.objects.count() == before + 3


def test_a_new_ema_number_names_the_player_for_the_rest_of_the_call(
        api, make_tournament):
    known = Player.objects.create(name_latin="Mia Jansen", country="NL")
    t = make_tournament("draft")
    body, _ = _register(api, t, [
        {"name": "Mia Jansen", "country": "NL", "ema_number": "04010077", "confirm": True},
        {"name": "M. Jansen", "country": "NL", "ema_number": "04010077"},
        {"name": "Piet Bakker", "country": "NL", "ema_number": "04010078"},
        {"name": "P. Bakker", "country": "NL", "ema_number": "04010078"},
    ])
    # found by name, the player keeps no number (as one at a time); the number names the
    # guest created for the second row, and the fourth row finds the third's new player
    known.refresh_from_db()
    assert body[0]["id"] == known.pk and known.ema_number == ""
    assert Player.objects.get(ema_number="04010077").pk == body[1]["id"] != known.pk
    assert body[2]["id"] == body[3]["id"]
    assert Player.objects.get(ema_number="04010078").name_latin == "Piet Bakker"


def test_a_problem_in_one_row_stores_nothing_of_the_others(api, make_tournament):
    t = make_tournament("draft")
    before = Player.objects.count()
    response = api["organizer"].post(f"/api/v1/tournaments/{t.pk}/players", [
        *_rows(30), {"name": "Nobody", "country": "XX"}, *_rows(5, start=500),
    ], format="json")
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert (error["row"], error["field"], error["code"]) == (31, "country", "bad_country")
    assert Player.objects.count() == before
    assert not Registration.objects.filter(tournament=t).exists()


def test_the_service_keeps_the_order_and_numbers_after_earlier_registrations(make_tournament,
                                                                          organizer):
    t = make_tournament("draft", players=3)
    registrations = services.players_register(
        tournament=t, user=organizer,
        entries=[services.PlayerEntry(name=f"Late {i}", country="DK") for i in range(3)]
        + [services.PlayerEntry(name="Player 02", country="NL")],
    )
    assert [r.number for r in registrations] == [4, 5, 6, 2]
    assert all(r.pk for r in registrations)


def test_a_name_only_match_is_answered_with_the_candidates(api, make_tournament):
    """Two "Li Wei" are not merged silently (issue 35): a known player found by name and
    country only is a problem with the candidates until the caller confirms or says new."""
    known = Player.objects.create(name_latin="Li Wei", country="CN")
    t = make_tournament("draft")
    answer = api["organizer"].post(f"/api/v1/tournaments/{t.pk}/players",
                                   [{"name": "Li Wei", "country": "CN"}], format="json")
    assert answer.status_code == 400
    error = answer.json()["errors"][0]
    assert (error["row"], error["field"], error["code"]) == (1, "name", "name_match")
    assert error["candidates"] == [{"id": known.pk, "name": "Li Wei", "country": "CN",
                                    "ema_number": ""}]
    assert not Registration.objects.filter(tournament=t).exists()
    other, _ = _register(api, t, [{"name": "Li Wei", "country": "CN", "new": True}])
    assert other[0]["id"] != known.pk
    second = make_tournament("draft")
    same, _ = _register(api, second, [{"name": "Li Wei", "country": "CN", "confirm": True}])
    assert same[0]["id"] == known.pk

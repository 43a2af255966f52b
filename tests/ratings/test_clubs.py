"""Club pages and the club ranking (issue 25, decision 0808): the pure ranking on hand
cases, what a club's page shows and hides, the ranking's setting, query counts."""

from __future__ import annotations

import itertools
import re
from datetime import date

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from federation import selectors as federation_selectors
from federation.models import Club, Member, MembershipType
from ratings.rules.method import ClubScore, club_ranking
from ratings.selectors import period_list
from ratings.services import ratings_recompute
from tests.factories import UserFactory
from tests.tournaments.confirmed_results import confirmed_tournament, players
from tournaments.models import Player, Tournament

_numbers = itertools.count(5000)


# --- the pure ranking ---

def test_mean_of_the_best_n_ties_share_and_short_clubs_come_last() -> None:
    ratings = {
        1: [(10, 1600.0), (11, 1600.0), (12, 1400.0), (13, 1900.0)],  # best 3: 1700
        2: [(20, 1700.0), (21, 1650.0), (22, 1650.0)],  # 1666.67
        3: [(30, 1500.0), (31, 1800.0), (32, 1700.0)],  # 1666.67: shares rank 2
        4: [(40, 2000.0), (41, 1900.0)],  # two players only: not ranked
        5: [(50, 1000.0)],
    }
    out = club_ranking(ratings, 3)
    assert [(c.club, c.rank) for c in out] == [(1, 1), (2, 2), (3, 2), (4, None), (5, None)]
    assert out[0].mean == pytest.approx(1700)
    assert out[0].counted == ((13, 1900.0), (10, 1600.0), (11, 1600.0)) and out[0].players == 4
    assert out[3] == ClubScore(4, None, None, ((40, 2000.0), (41, 1900.0)), 2)
    # N = 1: the best player alone; a fourth club after the tie gets rank 4
    assert [c.rank for c in club_ranking(ratings, 1)] == [1, 2, 3, 4, 5]
    assert club_ranking({}, 3) == []


# --- pages ---

pytestmark_db = pytest.mark.django_db


def _member(club: Club, name: str, *, consent: bool = True, paid: bool = True,
            erased: bool = False) -> Member:
    kind, free = ("honorary", True) if paid else ("regular", False)
    mtype, _ = MembershipType.objects.get_or_create(kind=kind, defaults={"is_free": free})
    member = Member.objects.create(
        user=UserFactory(), name_native=name, name_latin=name, membership_type=mtype,
        application=Member.Application.APPROVED, membership_number=next(_numbers),
        joined_on=federation_selectors.today(), club=club, public_consent=consent,
        email=f"{name.split()[0].lower()}@private.example.org", phone="+31 6 0000 0000",
    )
    if erased:
        member.anonymised_at = member.applied_at
        member.save()
    return member


def _player(member: Member) -> Player:
    return Player.objects.create(name_latin=member.name_latin, country="NL", member=member)


@pytest.fixture
def federation(db):
    tulips = Club.objects.create(name="Tulip Tiles", city="Amsterdam",
                                 email="board@private.example.org", phone="+31 20 555",
                                 public_contact="Meet us on Tuesdays: tiles@example.org")
    dragons = Club.objects.create(name="Neva Dragons", city="Saint Petersburg")
    tulip_players = [_player(_member(tulips, f"Tulip Player {i}")) for i in range(1, 5)]
    hidden = _player(_member(tulips, "Hidden Player", consent=False))
    lapsed = _player(_member(tulips, "Lapsed Player", paid=False))
    dragon_players = [_player(_member(dragons, f"Dragon Player {i}")) for i in range(1, 4)]
    guests = players(4, prefix="Guest")
    people = [*tulip_players, hidden, lapsed, *dragon_players, *guests[:3]]
    for month in (1, 3, 5, 7, 9):
        confirmed_tournament(people, date(2025, month, 10), sessions=8, seed=month)
    confirmed_tournament([*tulip_players, hidden, lapsed, guests[3], dragon_players[0]],
                         date(2025, 6, 10), sessions=6, seed=40,
                         ruleset=Tournament.Ruleset.HKOS)
    ratings_recompute()
    ratings_recompute(ruleset="hkos")
    Tournament.objects.filter(ruleset="mcr").update(club=tulips)
    Tournament.objects.create(
        name="Tulip Draft", start_date=date(2026, 5, 1), end_date=date(2026, 5, 2),
        city="Amsterdam", country="NL", organizer=UserFactory(), ruleset="mcr", sessions=4,
        planned_players=16, club=tulips)  # a draft: not public
    return {"tulips": tulips, "dragons": dragons, "tulip_players": tulip_players,
            "hidden": hidden, "lapsed": lapsed, "dragon_players": dragon_players}


@pytestmark_db
def test_club_page_shows_what_the_club_and_its_members_chose(client: Client, federation):
    tulips = federation["tulips"]
    response = client.get(f"/en/clubs/{tulips.pk}/")
    assert response.status_code == 200
    page = response.content.decode()
    assert '<dd id="club-city">Amsterdam</dd>' in page
    assert "Meet us on Tuesdays: tiles@example.org" in page
    # the federation's contact data of the club and of its members stay private
    assert "private.example.org" not in page and "+31" not in page
    for i in range(1, 5):
        assert f"Tulip Player {i}" in page
    assert "Hidden Player" not in page and "Lapsed Player" not in page
    # ratings per ruleset, in the list's order, linked to the player's page of that ruleset
    assert 'id="club-ratings-mcr"' in page and 'id="club-ratings-hkos"' in page
    assert 'id="club-ratings-red"' not in page
    mcr = page[page.index('id="club-ratings-mcr"'):page.index('id="club-ratings-hkos"')]
    ids = {p.pk for p in federation["tulip_players"]}
    listed = [e for e in period_list("2025-09", "mcr") if e.player_id in ids]
    positions = [mcr.index(f'/en/ratings/players/{e.player_id}/?ruleset=mcr') for e in listed]
    assert positions == sorted(positions) and len(positions) == 4
    # its public tournaments only
    section = page[page.index('id="club-tournaments-list"'):]
    assert section[:section.index("</ul>")].count("<li>") == 5 and "Tulip Draft" not in page


@pytestmark_db
def test_club_page_in_russian_and_unknown_club(client: Client, federation):
    dragons = federation["dragons"]
    page = client.get(f"/ru/clubs/{dragons.pk}/").content.decode()
    assert "Dragon Player 1" in page and 'lang="ru"' in page
    assert client.get("/en/clubs/99999/").status_code == 404


@pytestmark_db
def test_club_ranking_counts_the_best_n_listed_established_players(client: Client, federation,
                                                                   settings):
    settings.CLUB_RANKING_PLAYERS = 3
    page = client.get("/en/clubs/").content.decode()
    table = page[page.index('id="club-ranking"'):page.index("</table>")]
    tulips, dragons = federation["tulips"], federation["dragons"]
    assert f"/en/clubs/{tulips.pk}/" in table and f"/en/clubs/{dragons.pk}/" in table
    # the counted players are shown; hidden and lapsed members never count
    assert "Hidden Player" not in page and "Lapsed Player" not in page
    ratings = {e.player_id: e.rating for e in period_list("2025-09", "mcr")}
    best = sorted((ratings[p.pk] for p in federation["tulip_players"]), reverse=True)[:3]
    assert f"{sum(best) / 3:.1f}" in table
    worst = min(federation["tulip_players"], key=lambda p: ratings[p.pk])
    assert f"/en/ratings/players/{worst.pk}/" not in table
    # four players needed: the dragons (three) are listed as not ranked yet
    settings.CLUB_RANKING_PLAYERS = 4
    page = client.get("/en/clubs/").content.decode()
    table = page[page.index('id="club-ranking"'):page.index("</table>")]
    assert f"/en/clubs/{dragons.pk}/" not in table
    assert "Neva Dragons</a>: 3 rated players" in page
    # another ruleset, another ranking; an unknown one is 404
    hkos = client.get("/en/clubs/?ruleset=hkos").content.decode()
    assert "No club has enough rated players yet." in hkos
    assert client.get("/en/clubs/?ruleset=riichi").status_code == 404


@pytestmark_db
def test_the_rating_list_and_player_pages_link_to_the_clubs(client: Client, federation):
    assert 'href="/en/clubs/?ruleset=mcr"' in client.get("/en/ratings/").content.decode()
    tulips = federation["tulips"]
    player = federation["tulip_players"][0]
    page = client.get(f"/en/ratings/players/{player.pk}/").content.decode()
    assert f'<a href="/en/clubs/{tulips.pk}/">Tulip Tiles</a>' in page
    hidden = client.get(f"/en/ratings/players/{federation['hidden'].pk}/").content.decode()
    assert "Tulip Tiles" not in hidden


@pytestmark_db
def test_club_ranking_leaves_out_provisional_ratings(client: Client, db, settings):
    settings.CLUB_RANKING_PLAYERS = 1
    club = Club.objects.create(name="Newcomers", city="Paris")
    people = [_player(_member(club, f"New Player {i}")) for i in range(1, 5)]
    confirmed_tournament(people, date(2025, 9, 27), sessions=2, seed=43)
    ratings_recompute()
    assert all(e.provisional for e in period_list("2025-09", "mcr"))
    page = client.get("/en/clubs/").content.decode()
    assert "No club has enough rated players yet." in page
    assert "Newcomers</a>: 0 rated players" not in page  # no established rating: not there
    club_page = client.get(f"/en/clubs/{club.pk}/").content.decode()
    assert "New Player 1" in club_page and "(1)" in club_page  # provisional rank in brackets


def _queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as context:
        response = client.get(url)
    assert response.status_code == 200
    return len(context.captured_queries)


@pytestmark_db
@pytest.mark.parametrize("which", ["ranking", "page"])
def test_club_pages_cost_the_same_with_ten_times_the_clubs_and_history(client: Client, db,
                                                                        which):
    home = Club.objects.create(name="Home Club", city="Utrecht")
    counter = itertools.count()

    def grow(count: int) -> None:
        for _ in range(count):
            i = next(counter)
            club = Club.objects.create(name=f"Club {i}", city="Utrecht")
            people = [_player(_member(club, f"Player {i} {j}")) for j in range(3)]
            people.append(_player(_member(home, f"Home {i}")))
            confirmed_tournament(people, date(2020 + i // 12, i % 12 + 1, 10), sessions=4,
                                 seed=i, name=f"Cup {i}")
        Tournament.objects.update(club=home)
        ratings_recompute()

    url = "/en/clubs/" if which == "ranking" else f"/en/clubs/{home.pk}/"
    grow(2)
    client.get(url)
    small = _queries(client, url)
    grow(18)
    client.get(url)
    large = _queries(client, url)
    assert large == small, (small, large)


@pytestmark_db
def test_the_contact_is_set_in_the_admin_by_who_may_change_clubs(client: Client, db):
    from django.contrib.auth.models import Group

    from federation.services import ROLE_MEMBERSHIP_OFFICER

    club = Club.objects.create(name="Tulip Tiles", city="Amsterdam")
    officer = UserFactory()
    officer.groups.add(Group.objects.get(name=ROLE_MEMBERSHIP_OFFICER))
    client.force_login(officer)
    form = client.get(f"/admin/clubs/edit/{club.pk}/")
    assert form.status_code == 200 and 'name="public_contact"' in form.content.decode()
    response = client.post(f"/admin/clubs/edit/{club.pk}/", {
        "name": "Tulip Tiles", "city": "Amsterdam", "email": "", "phone": "", "website": "",
        "public_contact": "=tiles@example.org"})
    assert response.status_code == 302
    club.refresh_from_db()
    assert club.public_contact == "=tiles@example.org"
    page = client.get(f"/en/clubs/{club.pk}/").content.decode()
    assert "=tiles@example.org" in page
    # a player who may not change clubs cannot
    client.force_login(UserFactory())
    assert client.get(f"/admin/clubs/edit/{club.pk}/").status_code in (302, 403)


@pytestmark_db
def test_club_page_reads_only_its_members_rows_at_1x_and_10x(client: Client, db,
                                                             django_capture_on_commit_callbacks):
    """Decision 0824: the club's ratings are its listed members' rows stored with the club
    ranking; the page reads neither the rating history nor the whole list, and costs the
    same with ten times the other clubs and players."""
    from federation import services as federation_services

    home = Club.objects.create(name="Home Club", city="Utrecht")
    mine = [_player(_member(home, f"Home {j}")) for j in range(4)]
    counter = itertools.count()

    def grow(count: int) -> None:
        for _ in range(count):
            i = next(counter)
            club = Club.objects.create(name=f"Club {i}", city="Utrecht")
            people = [_player(_member(club, f"Player {i} {j}")) for j in range(4)]
            confirmed_tournament([*people, *mine], date(2020 + i // 12, i % 12 + 1, 10),
                                 sessions=4, seed=i, name=f"Cup {i}")
        ratings_recompute()

    url = f"/en/clubs/{home.pk}/"
    grow(2)
    client.get(url)  # stores the club rankings (what the queued job does)

    def read() -> tuple[int, list[str], str]:
        # a fresh worker: no list in this process or in the shared cache
        from django.core.cache import cache

        from ratings.selectors import lists

        lists._RECENT.clear()
        cache.clear()
        with CaptureQueriesContext(connection) as context:
            response = client.get(url)
        assert response.status_code == 200
        return (len(context.captured_queries), [q["sql"] for q in context.captured_queries],
                response.content.decode())

    small, sqls, page = read()
    assert not [q for q in sqls if "ratings_ratingentry" in q or "ratings_publishedrating" in q
                or "federation_invoice" in q]
    grow(18)
    client.get(url)
    large, sqls, page = read()
    assert large == small, (small, large)
    assert not [q for q in sqls if "ratings_ratingentry" in q or "federation_invoice" in q]
    # the rows are the list's rows: the same ranks, ratings and games, in its order
    listed = [e for e in period_list(ratings_latest("mcr"), "mcr")
              if e.player_id in {p.pk for p in mine}]
    table = page[page.index('id="club-ratings-mcr"'):page.index("</table>")]
    positions = [table.index(f"/en/ratings/players/{e.player_id}/?ruleset=mcr") for e in listed]
    assert positions == sorted(positions) and len(positions) == 4
    for e in listed:
        assert f'<td class="num">{e.rank}</td>' in table or f"({e.rank})" in table
    # a member who leaves the public lists leaves the club's ratings (the membership
    # service tells; the stored rows are dropped and stored again)
    with django_capture_on_commit_callbacks(execute=True):
        federation_services.member_update_contact(member=mine[0].member, changed_by=None,
                                                  public_consent=False)
    again = client.get(url).content.decode()
    assert f"/en/ratings/players/{mine[0].pk}/?ruleset=mcr" not in again
    assert f"/en/ratings/players/{mine[1].pk}/?ruleset=mcr" in again


def ratings_latest(ruleset: str) -> str:
    from ratings.selectors import latest_period_with_results

    period = latest_period_with_results(ruleset)
    assert period is not None
    return period


@pytestmark_db
def test_club_ranking_and_club_index_come_in_pages(client: Client, federation, settings,
                                                   monkeypatch):
    """Decision 0826: the ranking (``?page=``, ranked clubs then those not ranked yet) and
    the index of every club (``?cpage=``) a page at a time, each with its own pager."""
    from ratings import club_views

    monkeypatch.setattr(club_views, "CLUBS_PAGE_SIZE", 1)
    monkeypatch.setattr(club_views, "CLUB_INDEX_PAGE_SIZE", 2)
    settings.CLUB_RANKING_PLAYERS = 4  # the tulips are ranked, the dragons not yet
    for name in ("Amber Winds", "Bamboo Hall", "Circle Club"):
        Club.objects.create(name=name, city="Utrecht")
    tulips = federation["tulips"]

    first = client.get("/en/clubs/").content.decode()
    table = first[first.index('id="club-ranking"'):first.index("</table>")]
    assert f"/en/clubs/{tulips.pk}/" in table
    assert "Not ranked yet" not in first and "Neva Dragons</a>: 3" not in first
    assert "Page 1 of 2" in first
    assert 'href="?page=2#club-ranking-heading" rel="next"' in first
    # the index: five clubs by name, two a page
    assert "Page 1 of 3" in first and 'href="?cpage=2#all-clubs-heading"' in first
    index = first[first.index('class="club-index"'):]
    assert "Amber Winds" in index and "Bamboo Hall" in index and "Circle Club" not in index

    second = client.get("/en/clubs/?page=2").content.decode()
    assert 'id="club-ranking"' not in second  # no ranked club on this page ...
    assert "No club has enough rated players yet." not in second  # ... but there are some
    assert "Neva Dragons</a>: 3 rated players" in second and "Page 2 of 2" in second
    assert 'href="?page=1#club-ranking-heading" rel="prev"' in second

    last = client.get("/en/clubs/?page=2&cpage=3").content.decode()
    index = last[last.index('class="club-index"'):]
    assert "Tulip Tiles" in index and "Amber Winds" not in index and "Page 3 of 3" in index
    assert 'href="?page=2&amp;cpage=2#all-clubs-heading" rel="prev"' in last
    # a page that is not a number or past the end: the first or the last page, not an error
    assert "Page 1 of 2" in client.get("/en/clubs/?page=abc").content.decode()
    assert "Page 2 of 2" in client.get("/en/clubs/?page=99").content.decode()
    # the Russian page has the pager in Russian
    ru = client.get("/ru/clubs/").content.decode()
    assert "Page 1 of 2" not in ru and 'rel="next"' in ru


@pytestmark_db
def test_club_ranking_page_size_is_bounded_at_1x_and_10x(client: Client, db, monkeypatch,
                                                          settings):
    """With ten times the clubs, the ranking's page shows the same number of rows, in the
    same number of queries."""
    from ratings import club_views

    settings.RATINGS_PROVISIONAL_RD = 400.0  # one tournament establishes a rating here
    monkeypatch.setattr(club_views, "CLUBS_PAGE_SIZE", 3)
    monkeypatch.setattr(club_views, "CLUB_INDEX_PAGE_SIZE", 3)
    counter = itertools.count()

    def grow(count: int) -> None:
        for _ in range(count):
            i = next(counter)
            club = Club.objects.create(name=f"Club {i:03}", city="Utrecht")
            people = [_player(_member(club, f"Player {i} {j}")) for j in range(3)]
            confirmed_tournament(people + players(1, prefix=f"Guest {i}"),
                                 date(2020 + i // 12, i % 12 + 1, 10), sessions=4,
                                 seed=i, name=f"Cup {i}")
        ratings_recompute()

    def shown() -> tuple[int, int, int]:
        client.get("/en/clubs/")
        queries = _queries(client, "/en/clubs/")
        page = client.get("/en/clubs/").content.decode()
        ranking, index = page.split('class="club-index"')
        return (queries, len(re.findall(r'href="/en/clubs/\d+/"', ranking)),
                len(re.findall(r'href="/en/clubs/\d+/"', index)))

    grow(3)
    small = shown()
    grow(27)
    large = shown()
    assert small[0] == large[0], (small, large)
    assert small[1:] == large[1:] == (3, 3)

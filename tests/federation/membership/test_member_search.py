"""The public member list's search (issue 43): the same answers by name, native name, city
and club; on PostgreSQL the trigram indexes of federation 0019 serve it, on SQLite the
migration adds nothing."""

from __future__ import annotations

import pytest
from django.db import connection
from django.utils import timezone

from federation import selectors
from federation.models import Club
from tests.federation.membership.test_membership_public_pages import (  # noqa: F401
    pay_in_full,
    this_year,
)

pytestmark = pytest.mark.django_db

INDEXES = ["federation_member_name_latin_trgm", "federation_member_name_native_trgm",
           "federation_member_city_trgm", "federation_club_name_trgm"]


def _listed() -> dict[str, object]:
    return {"joined_on": timezone.localdate(), "public_consent": True}


@pytest.fixture
def listed(this_year, make_member, treasurer):  # noqa: F811
    tulips = Club.objects.create(name="Tulip Tiles", city="Amsterdam")
    dragons = Club.objects.create(name="Neva Dragons", city="Saint Petersburg")
    people = {
        "anna": make_member(name_latin="Anna Vermeer", name_native="Anna Vermeer",
                            city="Utrecht", club=tulips, **_listed()),
        "ivan": make_member(name_latin="Ivan Petrov", name_native="Иван Петров",
                            city="Moscow", club=dragons, **_listed()),
        "li": make_member(name_latin="Li Wei", name_native="李伟", city="Haarlem", **_listed()),
        "hidden": make_member(name_latin="Hidden Tulipson", name_native="Hidden Tulipson",
                              city="Utrecht", club=tulips,
                              joined_on=timezone.localdate()),  # not consenting
    }
    for member in people.values():
        pay_in_full(member, treasurer)
    return people


def _names(client, query: str) -> set[str]:
    html = client.get("/en/members/", {"q": query}).content.decode()
    return {name for name in ("Anna Vermeer", "Ivan Petrov", "Li Wei", "Hidden Tulipson")
            if name in html}


@pytest.mark.parametrize(("query", "found"), [
    ("vermeer", {"Anna Vermeer"}),  # a Latin name, any case
    ("Петров", {"Ivan Petrov"}),  # a native name
    ("李伟", {"Li Wei"}),  # two characters: no trigram, the same answer
    ("haarlem", {"Li Wei"}),  # a city
    ("tulip tiles", {"Anna Vermeer"}),  # a club's name: its listed members only
    ("dragons", {"Ivan Petrov"}),
    ("tulip", {"Anna Vermeer"}),  # a club's name; a member not listed is never found
    ("e", {"Anna Vermeer", "Ivan Petrov", "Li Wei"}),
    ("nobody", set()),
])
def test_search_finds_members_by_name_city_and_club(client, listed, query, found):
    assert _names(client, query) == found


def test_search_reads_the_trigram_indexes_on_postgresql_only(listed):
    with connection.cursor() as cursor:
        if connection.vendor != "postgresql":  # SQLite: the migration added nothing
            cursor.execute("SELECT name FROM sqlite_master WHERE type = 'index'")
            names = {row[0] for row in cursor.fetchall()}
            assert not names & set(INDEXES)
            return
        cursor.execute("SELECT indexname FROM pg_indexes WHERE indexname LIKE '%%_trgm'")
        assert set(INDEXES) <= {row[0] for row in cursor.fetchall()}
        # a few rows: with plain scans off the planner shows which index serves the search
        cursor.execute("SET enable_seqscan = off; SET enable_indexscan = off")
        try:
            active = selectors.members_with_status("active", selectors.members_public_list())
            plan = selectors.members_matching(active, "vermeer").explain()
            club_plan = Club.objects.filter(name__icontains="tulip").explain()
        finally:
            cursor.execute("SET enable_seqscan = on; SET enable_indexscan = on")
    assert "federation_member_name_latin_trgm" in plan
    assert "federation_member_city_trgm" in plan
    assert "federation_club_name_trgm" in club_plan

"""The home page answers with the same number of queries whatever the federation's history,
and its language links cost a fixed few queries, not some per language."""

from __future__ import annotations

from datetime import date

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from core.templatetags import site_tags
from ratings.services import ratings_recompute
from tests.tournaments.confirmed_results import confirmed_tournament, players

pytestmark = pytest.mark.django_db

HOME_QUERIES = 30


def _queries(client: Client, url: str) -> list[str]:
    with CaptureQueriesContext(connection) as context:
        response = client.get(url)
    assert response.status_code == 200
    return [q["sql"] for q in context.captured_queries]


def _federation(count: int, start: int) -> None:
    for i in range(start, start + count):
        confirmed_tournament(players(8, prefix=f"Member {i}"), date(2020 + i // 12, i % 12 + 1, 10),
                             sessions=4, seed=i, name=f"Cup {i}")
    ratings_recompute()


@pytest.mark.parametrize("signed_in", [False, True])
def test_home_page_costs_the_same_with_ten_times_the_history(client: Client, site_content,
                                                             signed_in, monkeypatch):
    from rulebook import selectors
    from tests.factories import UserFactory

    # the content version is read again after VERSION_SECONDS: on a loaded machine that
    # falls between two requests and adds its five queries to one of them, not to history
    monkeypatch.setattr(selectors, "VERSION_SECONDS", 3600.0)

    if signed_in:
        client.force_login(UserFactory())
    _federation(2, 0)
    client.get("/en/")
    small = _queries(client, "/en/")
    _federation(18, 2)
    client.get("/en/")
    large = _queries(client, "/en/")
    assert len(large) == len(small), (len(small), len(large))
    assert len(small) <= HOME_QUERIES, "\n".join(small)


def test_language_links_cost_a_fixed_few_queries(rf, site_content):
    """The locales, the page's translations, and Wagtail's site and site root paths (read
    once per request, whatever the number of links): five for five languages, not two per
    language."""
    from wagtail.models import Page

    home = Page.objects.get(depth=2, locale__language_code="en").specific
    request = rf.get("/en/")
    with CaptureQueriesContext(connection) as context:
        links = site_tags.language_links({"request": request, "page": home})
    assert len(context.captured_queries) <= 5, "\n".join(q["sql"][:150] for q in context.captured_queries)
    assert [link.url for link in links] == ["/ru/", "/en/", "/zh-hans/", "/fr/", "/nl/"]

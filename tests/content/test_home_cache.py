"""The anonymous home page comes from the cache (content.middleware), and what it shows is
never stale: a tournament accredited, a new rating list, a page published and a message for
the visitor all show on the next request."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from ratings.services import ratings_recompute
from tests.tournaments.confirmed_results import confirmed_tournament, players

pytestmark = pytest.mark.django_db

# the rating list's stamp and the upcoming tournaments (the content version is kept in the
# process for a few seconds, five small queries when it is read again)
CACHED_HOME_QUERIES = 7


def _get(client: Client, url: str = "/en/") -> tuple[str, int]:
    with CaptureQueriesContext(connection) as context:
        response = client.get(url)
    assert response.status_code == 200
    return response.content.decode(), len(context.captured_queries)


def test_the_second_anonymous_visit_costs_a_few_queries(client: Client, site_content):
    first, full = _get(client)
    second, cached = _get(client)
    assert second == first
    assert cached <= CACHED_HOME_QUERIES < full, (cached, full)
    # each language has its own page
    french, _ = _get(client, "/fr/")
    assert 'lang="fr"' in french and french != first


def test_an_accredited_tournament_shows_at_once(client: Client, site_content, make_tournament):
    _get(client)
    soon = date.today() + timedelta(days=20)
    make_tournament("accredited", name="Harbour Spring Cup", start_date=soon,
                    end_date=soon + timedelta(days=1))
    page, _ = _get(client)
    assert "Harbour Spring Cup" in page


def test_a_renamed_upcoming_tournament_shows_at_once(client: Client, site_content,
                                                     make_tournament):
    soon = date.today() + timedelta(days=20)
    cup = make_tournament("accredited", name="Harbour Spring Cup", start_date=soon,
                          end_date=soon + timedelta(days=1))
    assert "Harbour Spring Cup" in _get(client)[0]
    cup.name = "Harbour Summer Cup"
    cup.save()
    page, _ = _get(client)
    assert "Harbour Summer Cup" in page and "Harbour Spring Cup" not in page


def test_a_new_rating_list_shows_at_once(client: Client, site_content):
    before, _ = _get(client)
    confirmed_tournament(players(8, prefix="Leader"), date.today().replace(day=1) - timedelta(days=40),
                         sessions=4, seed=3, name="Winter Cup")
    ratings_recompute()
    after, _ = _get(client)
    # the leaders' card names the new list's month (its players are still provisional)
    assert 'class="front-period"' not in before
    assert 'class="front-period"' in after


def test_a_page_published_shows_at_once(client: Client, site_content):
    from wagtail.models import Page

    _get(client)
    home = Page.objects.get(depth=2, locale__language_code="en").specific
    home.intro = "Welcome to the spring season"
    home.save_revision().publish()
    page, _ = _get(client)
    assert "Welcome to the spring season" in page


def test_a_visitor_with_a_message_sees_it_and_nobody_else_does(client: Client, site_content):
    """After signing out, the home page carries "You have signed out." in the messages
    cookie: that visitor's page is rendered for them and never stored for others."""
    from django.contrib.messages import constants
    from django.contrib.messages.storage.cookie import CookieStorage

    stored = CookieStorage(None)._encode([_message(constants.INFO)])
    visitor = Client()
    visitor.cookies["messages"] = stored
    page, _ = _get(visitor)
    assert "Goodbye for now" in page
    other, _ = _get(client)
    assert "Goodbye for now" not in other


def _message(level: int):
    from django.contrib.messages.storage.base import Message

    return Message(level, "Goodbye for now")


def test_signed_in_members_get_their_own_page(client: Client, site_content):
    from tests.factories import UserFactory

    anonymous, _ = _get(client)
    member = Client()
    member.force_login(UserFactory(email="reader@example.org"))
    page, _ = _get(member)
    assert page != anonymous
    assert "/accounts/logout/" in page or "logout" in page.lower()
    assert "logout" not in _get(client)[0].lower()

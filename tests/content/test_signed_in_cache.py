"""Issue 43: signed-in visitors get the rulebook's cached rendering, with their own account
links filled in; staff and requests with messages render whole."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.factories import UserFactory

URL = "/en/rules/mcr/fans/57a/"


def _signed_in(email: str, **extra) -> Client:
    client = Client()
    client.force_login(UserFactory(email=email, **extra))
    return client


def test_signed_in_visitors_share_the_cached_page_with_their_own_header(rulebook_content):
    anna, boris = _signed_in("anna@example.org"), _signed_in("boris@example.org")
    first = anna.get(URL)
    assert first.status_code == 200 and first["Cache-Control"] == "private"
    html = first.content.decode()
    assert "anna@example.org" in html and "Log out" in html and "Sign up" not in html
    with CaptureQueriesContext(connection) as captured:
        second = boris.get(URL).content.decode()
    assert "boris@example.org" in second and "anna@example.org" not in second
    # the page itself came from the cache: the session and the user, not the page's reads
    assert len(captured.captured_queries) <= 4, [q["sql"] for q in captured.captured_queries]
    anonymous = Client().get(URL).content.decode()
    assert "Sign up" in anonymous and "@example.org" not in anonymous
    # the body is the same page for everyone
    body = second[second.index('<main id="main"'):]
    assert body == anonymous[anonymous.index('<main id="main"'):]


def test_query_count_of_a_signed_in_rulebook_page_does_not_depend_on_the_page(
        rulebook_content):
    client = _signed_in("carla@example.org")
    counts = []
    for url in ("/en/rules/mcr/fans/", "/en/rules/mcr/fans/1/", "/en/rules/mcr/3/"):
        client.get(url)  # kept
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        counts.append(len(captured.captured_queries))
    assert len(set(counts)) == 1, counts


@pytest.mark.parametrize("staff", [True])
def test_staff_get_the_page_rendered_for_them(rulebook_content, staff):
    editor = _signed_in("editor@example.org", is_staff=staff)
    response = editor.get(URL)
    assert response.status_code == 200 and response.get("Cache-Control") != "private"
    assert "editor@example.org" in response.content.decode()

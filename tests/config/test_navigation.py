"""The main navigation marks where the visitor is: the page itself, or its section."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.django_db


def _marked(html: str) -> dict[str, str]:
    """Link text -> its aria-current value, for the main navigation's marked links."""
    nav = re.search(r'<nav class="site-nav".*?</nav>', html, re.S).group(0)
    return dict(
        (text, value) for value, text in re.findall(r'aria-current="(\w+)">([^<]+)</a>', nav)
    )


def test_the_page_itself(client) -> None:
    assert _marked(client.get("/en/ratings/").content.decode()) == {"Ratings": "page"}
    assert _marked(client.get("/fr/tournaments/").content.decode()) == {"Tournois": "page"}


def test_a_page_inside_a_section(client) -> None:
    assert _marked(client.get("/en/ratings/method/").content.decode()) == {"Ratings": "true"}


def test_the_home_page_is_not_every_page_s_section(client, site_content) -> None:
    assert _marked(client.get("/en/").content.decode()) == {"Home": "page"}
    assert "Home" not in _marked(client.get("/en/search/?q=x").content.decode())
    assert _marked(client.get("/en/search/?q=x").content.decode()) == {"Search": "page"}

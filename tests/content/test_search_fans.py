"""Site search shows the fans whose number or name matches, above the pages: a player who
types a fan's name lands on its page, whichever language the name was typed in."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.django_db


def _fans(html: str) -> list[tuple[str, str]]:
    """(link, text) of the fan results, in the page's order."""
    items = re.findall(r'<li class="search-result search-result-fan">(.*?)</li>', html, re.S)
    return [re.search(r'<a href="([^"]+)">([^<]+)</a>', item).groups() for item in items]


def test_a_fan_found_by_its_name(client, rulebook_content) -> None:
    html = client.get("/en/search/", {"q": "pure straight"}).content.decode()
    assert ("/en/rules/mcr/fans/28/", "28. Pure Straight") in _fans(html)
    assert "Fan · Mahjong Competition Rules (MCR)" in html and "16 points" in html


def test_a_name_typed_in_another_language_finds_the_fan_in_the_pages_language(
    client, rulebook_content
) -> None:
    html = client.get("/en/search/", {"q": "чистый ряд"}).content.decode()
    assert _fans(html)[0] == ("/en/rules/mcr/fans/28/", "28. Pure Straight")
    russian = client.get("/ru/search/", {"q": "清龙"}).content.decode()
    # Red's fan 10 has the same name in Chinese, as in Russian (decision 0527)
    assert _fans(russian) == [("/ru/rules/mcr/fans/28/", "28. Чистый ряд"),
                              ("/ru/rules/red/fans/10/", "10. Чистый ряд")]
    assert "16 очков" in russian  # the plural of the page's language


def test_a_fan_found_by_its_number_in_every_ruleset(client, rulebook_content) -> None:
    fans = _fans(client.get("/en/search/", {"q": "57a"}).content.decode())
    assert fans == [("/en/rules/mcr/fans/57a/", "57A. Two Melded Kongs")]
    by_one = [link for link, _text in _fans(client.get("/en/search/", {"q": "1"}).content.decode())]
    assert by_one[0] == "/en/rules/mcr/fans/1/"
    assert "/en/rules/hkos/fans/1/" in by_one  # one character: numbers only, no names
    assert all(link.endswith("/1/") for link in by_one)


def test_hkos_fans_show_doublings(client, rulebook_content) -> None:
    html = client.get("/en/search/", {"q": "1", "type": "fan"}).content.decode()
    assert "Fan · Hong Kong Old Style" in html and "Doublings: 1" in html


def test_nothing_found(client, rulebook_content) -> None:
    html = client.get("/en/search/", {"q": "zzzz-no-such-thing"}).content.decode()
    assert _fans(html) == []
    assert "Nothing found for “zzzz-no-such-thing”." in html


def test_site_search_finds_fans_without_accents(client, rulebook_content):
    links = [link for link, _text in _fans(client.get("/fr/search/", {"q": "derniere"}).content.decode())]
    assert "/fr/rules/mcr/fans/44/" in links and "/fr/rules/mcr/fans/58/" in links

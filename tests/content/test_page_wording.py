"""The wording several pages share: the Chinese search headings say 选手 (players) and 页面
(pages); the home page's title names the federation once; standings write table points in
one format; a city and its country are separated by a comma."""

from __future__ import annotations

import dataclasses
import re
from fractions import Fraction

import pytest
from django.test import Client
from django.utils import translation
from django.utils.translation import pgettext

from tournaments import selectors

pytestmark = pytest.mark.django_db


def test_chinese_search_headings_say_players_and_pages():
    # the search labels each result by its kind (content.search_results.KIND_LABELS)
    with translation.override("zh-hans"):
        assert pgettext("search result kind", "Player") == "选手"
        assert pgettext("search result kind", "Page") == "页面"
    with translation.override("ru"):
        assert pgettext("search result kind", "Player") == "Игрок"


def test_chinese_search_page_players_heading(client, site_content):
    from tournaments.models import Player

    Player.objects.create(name_latin="Ivan Sokolov", country="RU")
    html = client.get("/zh-hans/search/", {"q": "sokolov"}).content.decode()
    if 'id="search-players"' in html:  # players show once they are public
        assert "选手</h2>" in html
    assert "人数" not in html and "分页</h2>" not in html


@pytest.mark.parametrize(("language", "name"), [("ru", "Федерация маджонга"),
                                                 ("en", "Mahjong Federation")])
def test_home_title_names_the_federation_once(client, site_content, language, name):
    html = client.get(f"/{language}/").content.decode()
    title = re.search(r"<title>(.*?)</title>", html, re.S).group(1).strip()
    assert title == name
    other = client.get(f"/{language}/tournaments/").content.decode()
    other_title = re.search(r"<title>(.*?)</title>", other, re.S).group(1).strip()
    assert other_title.endswith(f" · {name}") and other_title.count(name) == 1


def test_standings_write_table_points_in_one_format(make_tournament, monkeypatch):
    t = make_tournament("results confirmed", players=16)
    real = selectors.tournament_standings

    def with_halves(tournament, *args, **kwargs):
        rows = real(tournament, *args, **kwargs)
        return [dataclasses.replace(rows[0], table_points=Fraction(19, 2)),
                dataclasses.replace(rows[1], table_points=Fraction(1, 2)), *rows[2:]]

    monkeypatch.setattr(selectors, "tournament_standings", with_halves)
    real_leaders = selectors.tournament_leaders

    def leaders_with_halves(tournament, **kwargs):  # the tournament page's top ten
        rows = real_leaders(tournament, **kwargs)
        return [dataclasses.replace(rows[0], table_points=Fraction(19, 2)),
                dataclasses.replace(rows[1], table_points=Fraction(1, 2)), *rows[2:]]

    monkeypatch.setattr(selectors, "tournament_leaders", leaders_with_halves)
    client = Client()
    for path in (f"/en/tournaments/{t.pk}/", f"/en/tournaments/{t.pk}/standings/"):
        html = client.get(path).content.decode()
        # one format (the table_points filter, as the PDF): no trailing zeros, never "9.50"
        assert re.search(r'<td class="num[ a-z]*">(<strong>)?9\.5<', html), path
        assert "9.50" not in html and "0.50" not in html, path
        points = re.findall(r'<td class="num[ a-z]*">(?:<strong>)?(-?\d+(?:\.\d+)?)(?:</strong>)?'
                            r'</td><td class="num[ a-z]*">-?\d+</td>', html)
        assert points and all(re.fullmatch(r"-?\d+(\.\d\d?)?", p) for p in points), points


def test_city_and_country_are_separated_by_a_comma(client):
    from federation.models import Member, MembershipType
    from tests.factories import UserFactory

    regular, _ = MembershipType.objects.get_or_create(kind="regular")
    user = UserFactory()
    Member.objects.create(user=user, name_native="Иван Петров", name_latin="Ivan Petrov",
                          city="Kazan", country="RU", membership_type=regular,
                          email=user.email)
    client.force_login(user)
    html = client.get("/en/members/me/").content.decode()
    assert "Kazan, Russia" in html
    assert "Kazan RU" not in html

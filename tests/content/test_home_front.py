"""The home page is the way into each part of the site: the calculator, the rulebook, the
next tournaments, the top of the rating list and membership."""

from __future__ import annotations

import re
from datetime import date, timedelta
from html import unescape
from urllib.parse import urlencode

import pytest
from django.test import Client
from django.utils import timezone

from ratings.selectors import period_list
from ratings.services import ratings_recompute
from rulebook.scoring import score
from tests.factories import UserFactory
from tests.tournaments.confirmed_results import confirmed_tournament, players
from tournaments.models import Player, Tournament

pytestmark = pytest.mark.django_db


def section(html: str, name: str) -> str:
    """The HTML of one card of the home page (``front-<name>``)."""
    found = re.search(rf'<section class="front-card front-{name}".*?</section>', html, re.S)
    assert found, f"the home page has a {name} card"
    return found.group(0)


def test_a_new_site_says_what_is_not_there_yet(client: Client, site_content) -> None:
    html = client.get("/en/").content.decode()
    assert "The rules are not published yet." in section(html, "rules")
    assert "No accredited tournament is planned yet." in section(html, "tournaments")
    assert "There are no ratings yet." in section(html, "ratings")
    assert '<ol class="front-leaders">' not in html


def test_the_calculator_form_asks_the_calculator(client: Client, site_content) -> None:
    card = section(client.get("/en/").content.decode(), "calculator")
    action = re.search(r'<form method="get" action="([^"]+)"', card).group(1)  # type: ignore[union-attr]
    assert action == "/en/calculator/"
    hidden = dict(re.findall(r'<input type="hidden" name="(\w+)" value="(\w+)">', card))
    assert hidden == {"rules": "mcr"}
    assert 'name="hand"' in card and '<label for="front-hand">Hand</label>' in card
    # what the browser sends when a player types a hand and presses Score
    hand = "123m456p789s123s5s5s"
    answer = client.get(f"{action}?{urlencode({**hidden, 'hand': hand})}").content.decode()
    assert f'data-total="{score(hand).total}"' in answer


def test_the_rules_card_lists_each_ruleset_and_its_fan_table(client: Client,
                                                              rulebook_content) -> None:
    for language, mcr in (("en", "Mahjong Competition Rules (MCR)"),
                          ("ru", "Спортивный маджонг (MCR)")):
        card = section(client.get(f"/{language}/").content.decode(), "rules")
        assert f'<a href="/{language}/rules/">' in card
        links = [(unescape(text), href)
                 for href, text in re.findall(r'<a href="([^"]+)">([^<]+)</a>', card)]
        hrefs = [href for _, href in links]
        assert (mcr, f"/{language}/rules/mcr/") in links
        # each ruleset, then its fan table
        for ruleset in ("mcr", "hkos", "red"):
            at = hrefs.index(f"/{language}/rules/{ruleset}/")
            assert hrefs[at + 1] == f"/{language}/rules/{ruleset}/fans/"


def _tournament(name: str, start: date, state: str, country: str = "NL") -> Tournament:
    return Tournament.objects.create(
        name=name, start_date=start, end_date=start + timedelta(days=1), city="Utrecht",
        country=country, organizer=UserFactory(), ruleset=Tournament.Ruleset.MCR, sessions=6,
        planned_players=40, state=state,
    )


def test_the_next_three_public_tournaments_soonest_first(client: Client, site_content) -> None:
    today = timezone.localdate()
    accredited = Tournament.State.ACCREDITED
    _tournament("Last Year Open", today - timedelta(days=300), Tournament.State.RESULTS_CONFIRMED)
    _tournament("Secret Draft Cup", today + timedelta(days=3), Tournament.State.DRAFT)
    _tournament("Autumn Cup", today + timedelta(days=60), accredited)
    _tournament("Running Now Open", today - timedelta(days=1), accredited)  # ends today
    _tournament("Spring Open", today + timedelta(days=120), accredited)
    _tournament("Winter Open", today + timedelta(days=20), accredited, country="FR")

    card = section(client.get("/en/").content.decode(), "tournaments")
    names = re.findall(r'<a href="/en/tournaments/\d+/">([^<]+)</a>', card)
    assert names == ["Running Now Open", "Winter Open", "Autumn Cup"]
    assert "Utrecht, France" in card and "Utrecht, Netherlands" in card
    assert '<a href="/en/tournaments/">All tournaments</a>' in card
    russian = section(client.get("/ru/").content.decode(), "tournaments")
    assert "Utrecht, Франция" in russian and "Все турниры" in russian


def test_the_top_five_of_the_latest_list(client: Client, site_content) -> None:
    people = players(12, prefix="Rated")
    for month in (1, 3, 5):
        confirmed_tournament(people, date(2025, month, 10), sessions=8, seed=month)
    newcomers = players(4, prefix="Newcomer")
    confirmed_tournament(newcomers, date(2025, 5, 20), sessions=6, seed=9)
    ratings_recompute()

    html = client.get("/en/").content.decode()
    card = section(html, "ratings")
    assert "May 2025" in card
    best = [e for e in period_list("2025-05") if not e.provisional][:5]
    shown = re.findall(r'<a href="/en/ratings/players/(\d+)/">([^<]+)</a>', card)
    assert [int(pk) for pk, _ in shown] == [e.player_id for e in best]
    for (_, name), entry in zip(shown, best, strict=True):
        assert name == str(Player.objects.get(pk=entry.player_id))
        assert f'<span class="front-rating">{round(entry.rating)}</span>' in card
    assert "Newcomer" not in card  # provisional players are not ranked
    assert '<a href="/en/ratings/">The whole list</a>' in card
    chinese = section(client.get("/zh-hans/").content.decode(), "ratings")
    assert "2025年5月" in chinese and "完整名单" in chinese


def test_membership_card_for_visitors_and_for_members(client: Client, site_content) -> None:
    card = section(client.get("/en/").content.decode(), "membership")
    assert '<a class="button" href="/en/accounts/signup/">Sign up</a>' in card
    assert 'href="/en/members/me/"' not in card
    client.force_login(UserFactory())
    card = section(client.get("/en/").content.decode(), "membership")
    assert '<a class="button" href="/en/members/me/">My membership</a>' in card
    assert "/accounts/signup/" not in card
    assert '<a href="/en/members/">Member list</a>' in card


def test_the_membership_card_is_named_for_visitors_in_chinese(client: Client, site_content) -> None:
    card = section(client.get("/zh-hans/").content.decode(), "membership")
    # joining ("入会"), not the admin's membership management ("会员管理")
    assert '<a href="/zh-hans/members/">入会</a></h2>' in card

"""Issue 28: the explanation on a player's page says "you scored" only to the player; anyone
else (a visitor, another member) reads it in the third person."""

from __future__ import annotations

import pytest
from django.test import Client

from federation.models import Member, MembershipType
from ratings.models import RatingEntry
from tests.factories import UserFactory
from tests.ratings.test_pages import season  # noqa: F401  (the fixture)

pytestmark = pytest.mark.django_db


def test_own_page_says_you_and_others_read_the_third_person(season) -> None:  # noqa: F811
    people, _ = season
    player = people[0]
    owner = UserFactory()
    regular, _ = MembershipType.objects.get_or_create(kind="regular")
    player.member = Member.objects.create(user=owner, name_native="Анна", name_latin="Anna",
                                          membership_number=77, country="RU",
                                          membership_type=regular)
    player.save(update_fields=["member"])
    latest = RatingEntry.objects.filter(player=player).order_by("period").last()
    url = f"/en/ratings/players/{player.pk}/"

    anonymous = Client().get(url).content.decode()
    other = Client()
    other.force_login(UserFactory())
    for html in (anonymous, other.get(url).content.decode()):
        assert f"{latest.games} games: scored" in html
        assert "you scored" not in html and "your first rated month" not in html

    own = Client()
    own.force_login(owner)
    html = own.get(url).content.decode()
    assert f"{latest.games} games: you scored" in html

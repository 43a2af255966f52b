"""The rating pages and API on a small season of confirmed tournaments."""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import date

import pytest
from django.contrib.auth.models import Permission
from django.core.cache import cache
from django.test import Client

from federation.models import Club
from ratings.models import RatingEntry, RatingPeriod
from ratings.selectors import period_list
from ratings.services import rating_period_publish, ratings_recompute
from tests.factories import UserFactory
from tests.tournaments.confirmed_results import confirmed_tournament, players
from tournaments import services
from tournaments.models import Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def season():
    people = players(12, prefix="Russian") + players(4, country="NL", prefix="Dutch")
    for month in (1, 3, 5, 7, 9):
        confirmed_tournament(people, date(2025, month, 10), sessions=8, seed=month)
    newcomers = players(8, country="FR", prefix="Newcomer")
    confirmed_tournament(people[:12], date(2025, 9, 20), sessions=6, seed=42)
    # Newcomers among themselves: one tournament leaves them provisional.
    confirmed_tournament(newcomers, date(2025, 9, 27), sessions=6, seed=43)
    ratings_recompute()
    return people, newcomers


def test_list_page_shows_ranked_and_provisional_apart(client: Client, season) -> None:
    _, newcomers = season
    response = client.get("/en/ratings/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "September 2025" in html
    established, _, provisional = html.partition('id="provisional-heading"')
    for newcomer in newcomers:
        assert str(newcomer) in provisional and str(newcomer) not in established
    rows = period_list("2025-09")
    best = next(r for r in rows if not r.provisional)
    best_player = Player.objects.get(pk=best.player_id)
    assert str(best_player) in established
    assert f"{best.low:.0f}–{best.high:.0f}" in established  # RD as an interval
    assert "new" in provisional  # first listed this period: no change yet


def test_list_page_in_russian_and_chinese(client: Client, season) -> None:
    ru = client.get("/ru/ratings/").content.decode()
    assert "Рейтинг-лист" in ru and "Сентябрь 2025 г." in ru
    zh = client.get("/zh-hans/ratings/").content.decode()
    assert "等级分名单" in zh and "2025年9月" in zh


def test_list_filters(client: Client, season) -> None:
    people, _ = season
    html = client.get("/en/ratings/?period=2025-09&country=NL").content.decode()
    assert "Dutch 001" in html and "Russian 001" not in html
    club = Club.objects.create(name="Dragon Club")
    member_player = people[0]
    from federation.models import Member, MembershipType

    member = Member.objects.create(
        name_native="Игрок",
        name_latin="Member Player",
        club=club,
        public_consent=True,
        membership_type=MembershipType.objects.first()
        or MembershipType.objects.create(name="Regular"),
    )
    member_player.member = member
    member_player.save()
    html = client.get(f"/en/ratings/?period=2025-09&club={club.pk}").content.decode()
    assert str(member_player) in html and "Russian 002" not in html and "Dragon Club" in html
    # Active in the last 12 months: in 2026-12 the newcomers of 2025-09 are still active,
    # so nobody drops out; in a period 12+ months on everybody would.
    RatingPeriod.objects.create(period="2026-12")
    active = client.get("/en/ratings/?period=2026-12&active=1").content.decode()
    assert "Russian 001" not in active and "No ranked player matches" in active
    everyone = client.get("/en/ratings/?period=2026-12").content.decode()
    assert "Russian 001" in everyone


def test_list_of_an_unknown_or_malformed_period_is_404(client: Client, season) -> None:
    assert client.get("/en/ratings/?period=1999-01").status_code == 404
    assert client.get("/en/ratings/?period=2025-9").status_code == 404


def test_list_without_ratings(client: Client, db) -> None:
    response = client.get("/en/ratings/")
    assert response.status_code == 200
    assert "There are no ratings yet" in response.content.decode()


def test_csv_export(client: Client, season) -> None:
    response = client.get("/en/ratings/csv/?period=2025-09&country=RU")
    assert response.status_code == 200 and response.streaming
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert {r["country"] for r in rows} == {"RU"}
    expected = {r.player_id: r for r in period_list("2025-09")}
    for row in rows:
        entry = expected[int(row["player"])]
        assert float(row["rating"]) == entry.rating  # full precision
        assert row["provisional"] == ("yes" if entry.provisional else "no")
    assert [int(r["rank"]) for r in rows] == sorted(int(r["rank"]) for r in rows)


def test_csv_export_streams_the_whole_list_in_chunks(client: Client, season, monkeypatch) -> None:
    monkeypatch.setattr("ratings.views.CSV_CHUNK", 5)
    response = client.get("/en/ratings/csv/?period=2025-09")
    rows = list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))
    assert [int(r["player"]) for r in rows] == [r.player_id for r in period_list("2025-09")]


def test_publish_needs_the_permission(client: Client, season) -> None:
    user = UserFactory()
    client.force_login(user)
    assert client.post("/en/ratings/publish/", {"period": "2025-09"}).status_code == 403
    assert not RatingPeriod.objects.get(period="2025-09").published
    assert "Publish the list" not in client.get("/en/ratings/").content.decode()
    user.user_permissions.add(Permission.objects.get(codename="publish_ratingperiod"))
    client.force_login(UserFactory._meta.model.objects.get(pk=user.pk))
    assert "Publish the list" in client.get("/en/ratings/").content.decode()
    response = client.post("/en/ratings/publish/", {"period": "2025-09"})
    assert response.status_code == 302
    period = RatingPeriod.objects.get(period="2025-09")
    assert period.published and period.published_by_id == user.pk
    html = client.get("/en/ratings/?period=2025-09").content.decode()
    assert "Published" in html and "Publish the list" not in html


def test_the_accreditation_officer_publishes_and_an_organizer_cannot(
    client: Client, season, make_user
) -> None:
    organizer = make_user(services.ROLE_ORGANIZER, email="organizer-publish@example.org")
    client.force_login(organizer)
    assert client.post("/en/ratings/publish/", {"period": "2025-09"}).status_code == 403
    assert not RatingPeriod.objects.get(period="2025-09").published
    officer = make_user(services.ROLE_OFFICER, email="officer-publish@example.org")
    client.force_login(officer)
    assert "Publish the list" in client.get("/en/ratings/?period=2025-09").content.decode()
    assert client.post("/en/ratings/publish/", {"period": "2025-09"}).status_code == 302
    period = RatingPeriod.objects.get(period="2025-09")
    assert period.published and period.published_by_id == officer.pk


def test_anonymous_cannot_publish(client: Client, season) -> None:
    assert client.post("/en/ratings/publish/", {"period": "2025-09"}).status_code == 403
    assert client.get("/en/ratings/publish/").status_code == 405


def test_player_page_with_chart_tournaments_and_explanations(client: Client, season) -> None:
    people, _ = season
    player = people[0]
    response = client.get(f"/en/ratings/players/{player.pk}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="rating-chart"' in html and "chart.umd.min.js" in html
    chart = json.loads(
        html.split('id="rating-chart-data" type="application/json">')[1].split("</script>")[0]
    )
    # One point a month from the first period to the latest: idle months widen the band.
    assert [p["period"] for p in chart] == [f"2025-{m:02d}" for m in range(1, 10)]
    feb, jan = chart[1], chart[0]
    assert feb["games"] == 0 and feb["rating"] == jan["rating"]
    assert feb["high"] - feb["low"] > jan["high"] - jan["low"]
    # The table fallback and the explanations
    entries = RatingEntry.objects.filter(player=player).order_by("period")
    # Three months explained a page, newest first; the rest on the next page
    assert entries.count() == 5 and html.count('class="explain"') == 3
    assert 'href="?periods=2#explain-heading" rel="next"' in html
    older = client.get(f"/en/ratings/players/{player.pk}/?periods=2").content.decode()
    assert older.count('class="explain"') == 2
    assert 'href="?periods=1#explain-heading" rel="prev"' in older
    assert "<strong>September 2025</strong>" in html and "<strong>January 2025</strong>" in older
    assert "<strong>January 2025</strong>" not in html
    latest = entries.last()
    assert f"{latest.games} games: scored" in html and "you scored" not in html
    from ratings.selectors import period_explanations

    first_line = period_explanations(player, [latest])[latest.period][0]
    opponent = Player.objects.get(pk=first_line.opponent_id)
    assert f"/en/ratings/players/{opponent.pk}/" in html
    # Tournaments with standings, each linked to its standings
    assert html.count("Open 2025-") >= 6
    assert " of 16" in html and " of 16" in html
    from tournaments.models import Tournament

    played = Tournament.objects.filter(registrations__player=player).order_by("-end_date")
    linked = re.findall(r'<a href="/en/tournaments/(\d+)/standings/">([^<]+)</a>', html)
    assert linked == [(str(t.pk), t.name) for t in played]


def test_player_page_without_rating(client: Client, db) -> None:
    player = Player.objects.create(name_latin="Nobody Yet", country="RU")
    html = client.get(f"/en/ratings/players/{player.pk}/").content.decode()
    assert "no rating yet" in html and "rating-chart-data" not in html
    assert client.get("/en/ratings/players/999999/").status_code == 404


def test_method_page_in_every_language(client: Client, db) -> None:
    texts = {
        "ru": "Как устроен рейтинг",
        "en": "How the rating works",
        "zh-hans": "等级分如何计算",
        "fr": "Comment fonctionne le classement",
        "nl": "Hoe de rating werkt",
    }
    for lang, title in texts.items():
        html = client.get(f"/{lang}/ratings/method/").content.decode()
        assert title in html
    assert "above 110" in client.get("/en/ratings/method/").content.decode()


# --- API --------------------------------------------------------------------------------------


def test_api_ratings_default_period_and_fields(client: Client, season) -> None:
    data = client.get("/api/v1/ratings").json()
    assert data["period"] == "2025-09"
    rows = period_list("2025-09")
    assert len(data["ratings"]) == len(rows) == 24
    first = data["ratings"][0]
    assert set(first) == {
        "rank",
        "player",
        "name",
        "country",
        "rating",
        "rd",
        "volatility",
        "games",
        "provisional",
        "change",
    }
    assert first["rating"] == rows[0].rating  # full precision
    assert any(r["provisional"] for r in data["ratings"])  # provisional included, flagged
    newcomer = next(r for r in data["ratings"] if r["name"].startswith("Newcomer"))
    assert newcomer["change"] is None and newcomer["games"] == 18


def test_api_ratings_come_in_pages(client: Client, season, monkeypatch) -> None:
    monkeypatch.setattr("ratings.api.RATINGS_PAGE_SIZE", 10)
    whole = [r.player_id for r in period_list("2025-09")]
    first = client.get("/api/v1/ratings").json()
    assert first["count"] == 24 and first["previous"] is None
    assert first["next"] == "http://testserver/api/v1/ratings?page=2"
    assert [r["player"] for r in first["ratings"]] == whole[:10]
    third = client.get("/api/v1/ratings?page=3")
    assert [r["player"] for r in third.json()["ratings"]] == whole[20:]
    assert third.json()["next"] is None
    assert third.json()["previous"] == "http://testserver/api/v1/ratings?page=2"
    assert third["X-Total-Count"] == "24" and 'rel="prev"' in third["Link"]
    bad = client.get("/api/v1/ratings?page=x")
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "page"


def test_api_ratings_of_a_period(client: Client, season) -> None:
    data = client.get("/api/v1/ratings?period=2025-03").json()
    assert data["period"] == "2025-03"
    assert len(data["ratings"]) == 16
    assert client.get("/api/v1/ratings?period=2025-3").status_code == 400
    assert client.get("/api/v1/ratings?period=2025-3").json()["errors"][0]["field"] == "period"


def test_api_ratings_of_a_published_period_is_frozen(client: Client, season) -> None:
    rating_period_publish(period="2025-09")
    before = client.get("/api/v1/ratings?period=2025-09").json()
    RatingEntry.objects.filter(period="2025-09").update(rating=1000)
    assert client.get("/api/v1/ratings?period=2025-09").json() == before


def test_api_player(client: Client, season) -> None:
    people, _ = season
    player = people[0]
    data = client.get(f"/api/v1/players/{player.pk}").json()
    assert set(data) == {
        "id",
        "ruleset",
        "rulesets",
        "name",
        "country",
        "rating",
        "rd",
        "volatility",
        "provisional",
        "history",
        "count",
        "next",
        "previous",
        "tournaments",
    }
    assert data["count"] == len(data["tournaments"]) and data["next"] is None
    assert data["ruleset"] == "mcr" and data["rulesets"] == ["mcr"]
    assert data["id"] == player.pk and data["country"] == "RU"
    entries = list(RatingEntry.objects.filter(player=player).order_by("period"))
    # Every month from the first game to the latest list; idle months with no games.
    assert [h["period"] for h in data["history"]] == [f"2025-{m:02d}" for m in range(1, 10)]
    assert [h["period"] for h in data["history"] if h["games"]] == [e.period for e in entries]
    assert data["history"][-1]["rating"] == entries[-1].rating == data["rating"]
    assert set(data["history"][0]) == {"period", "rating", "rd", "volatility", "games"}
    assert len(data["tournaments"]) == 6
    t = data["tournaments"][0]
    assert set(t) == {"id", "name", "rank", "table_points", "game_points"}
    assert 1 <= t["rank"] <= 16
    assert client.get("/api/v1/players/999999").status_code == 404


def test_api_with_a_token(client: Client, season) -> None:
    from rest_framework.authtoken.models import Token

    user = UserFactory()
    token = Token.objects.create(user=user)
    response = client.get("/api/v1/ratings", HTTP_AUTHORIZATION=f"Token {token.key}")
    assert response.status_code == 200
    bad = client.get("/api/v1/ratings", HTTP_AUTHORIZATION="Token nope")
    assert bad.status_code in {401, 403}  # an unknown token is refused, not ignored


def test_the_cached_list_page_follows_a_recompute(client: Client, season) -> None:
    from tournaments.models import TableResult

    first = client.get("/en/ratings/?period=2025-09").content.decode()
    assert client.get("/en/ratings/?period=2025-09").content.decode() == first  # cached
    TableResult.objects.filter(session=1).update(game_points=0)
    ratings_recompute()
    again = client.get("/en/ratings/?period=2025-09").content.decode()
    assert again != first
    best = next(r for r in period_list("2025-09") if not r.provisional)
    assert f"{best.low:.0f}–{best.high:.0f}" in again


def test_countries_are_named_in_the_page_language(client: Client, season) -> None:
    Player.objects.filter(pk=Player.objects.order_by("pk").first().pk).update(country="NL")
    cache.clear()  # the list's country filter is cached until the next recompute
    english = client.get("/en/ratings/?period=2025-09").content.decode()
    assert '<option value="NL">Netherlands</option>' in english
    assert '<option value="RU">Russia</option>' in english
    assert english.index(">Netherlands<") < english.index(">Russia<")  # by name
    assert '<abbr title="Russia">RU</abbr>' in english
    russian = client.get("/ru/ratings/?period=2025-09").content.decode()
    assert '<option value="RU">Россия</option>' in russian
    assert '<abbr title="Россия">RU</abbr>' in russian
    player = Player.objects.filter(country="RU").first()
    assert "Россия" in client.get(f"/ru/ratings/players/{player.pk}/").content.decode()


def test_months_explained_lines_in_the_pages_language_best_opponent_first(
    client: Client, season
) -> None:
    """The opponents' lines of a month explained are formatted before the template (issue
    43): in each language as the template's filters write them, strongest opponent first."""
    import re

    from ratings.selectors import period_explanations

    people, _ = season
    player = people[0]
    latest = RatingEntry.objects.filter(player=player).order_by("period").last()
    lines = sorted(period_explanations(player, [latest])[latest.period],
                   key=lambda line: -line.rating)
    for lang, point in (("en", "."), ("fr", ",")):
        html = client.get(f"/{lang}/ratings/players/{player.pk}/").content.decode()
        table = html[html.index('class="explain-table"'):]
        table = table[:table.index("</table>")]
        rows = re.findall(rf'<a href="/{lang}/ratings/players/(\d+)/">', table)
        assert [int(pk) for pk in rows] == [line.opponent_id for line in lines]
        first = lines[0]
        expected = f"{first.expected:.2f}".replace(".", point)
        assert f'<td class="num">{expected}</td>' in table
        assert f"{round(first.rating)} <span class=\"muted\">± {round(first.rd)}</span>" in table

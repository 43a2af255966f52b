"""One rating list per ruleset (decision 0805), and a player's history month by month."""

from __future__ import annotations

import io
from datetime import date

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import translation

from ratings.models import PublishedRating, RatingEntry, RatingPeriod
from ratings.selectors import RULESETS, period_list, player_history, player_months
from ratings.services import RatingError, rating_period_publish, ratings_recompute
from tests.tournaments.confirmed_results import confirmed_tournament, players
from tournaments.models import Tournament
from tournaments.selectors import confirmed_table_results

pytestmark = pytest.mark.django_db

HKOS = Tournament.Ruleset.HKOS


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


def _recompute_all() -> None:
    for ruleset in RULESETS:
        ratings_recompute(ruleset=ruleset)


def _entries(ruleset: str) -> list[tuple]:
    return list(
        RatingEntry.objects.filter(ruleset=ruleset)
        .order_by("player_id", "period")
        .values_list(
            "player_id", "period", "rating_before", "rd_before", "vol_before", "rating", "rd",
            "vol", "games", "total_games", "score", "expected", "is_new", "tournaments",
        )
    )


def _periods(ruleset: str) -> list[tuple]:
    return list(
        RatingPeriod.objects.filter(ruleset=ruleset)
        .order_by("period")
        .values_list("period", "has_results", "published")
    )


def test_an_hkos_tournament_never_changes_an_mcr_rating() -> None:
    """An HKOS tournament confirmed after the MCR ones, in a month between them, with the
    same players: the MCR history, periods and lists are identical before and after, and the
    HKOS list holds its players."""
    from tournaments.services import tournament_confirm

    people = players(12)
    confirmed_tournament(people, date(2025, 1, 12), seed=1)
    confirmed_tournament(people, date(2025, 3, 9), seed=2)
    _recompute_all()
    mcr_before = _entries("mcr")
    periods_before = _periods("mcr")
    list_before = period_list("2025-03", "mcr")
    assert len(mcr_before) == 24 and not _entries("hkos")

    hkos_players = people[:8] + players(4, prefix="Hong Kong player")
    hkos = confirmed_tournament(
        hkos_players, date(2025, 2, 16), seed=3, ruleset=HKOS,
        state=Tournament.State.RESULTS_SUBMITTED,
    )
    tournament_confirm(tournament=hkos, user=hkos.organizer)  # re-rates through the signal

    assert _entries("mcr") == mcr_before
    assert _periods("mcr") == periods_before
    assert period_list("2025-03", "mcr") == list_before
    hkos_rows = RatingEntry.objects.filter(ruleset="hkos")
    assert {e.player_id for e in hkos_rows} == {p.pk for p in hkos_players}
    assert {e.period for e in hkos_rows} == {"2025-02"}
    assert {e.tournaments[0] for e in hkos_rows} == {hkos.pk}
    assert {r.player_id for r in period_list("2025-02", "hkos")} == {p.pk for p in hkos_players}
    assert _periods("hkos") == [("2025-02", True, False)]

    # A full recompute of every ruleset gives the same rows again.
    hkos_after = _entries("hkos")
    _recompute_all()
    assert _entries("mcr") == mcr_before and _entries("hkos") == hkos_after


def test_confirmed_table_results_of_one_ruleset() -> None:
    people = players(8)
    mcr = confirmed_tournament(people, date(2025, 1, 12), seed=1)
    hkos = confirmed_tournament(people, date(2025, 2, 12), seed=2, ruleset=HKOS)
    assert {o.tournament_id for o in confirmed_table_results(ruleset="mcr")} == {mcr.pk}
    assert {o.tournament_id for o in confirmed_table_results(ruleset="hkos")} == {hkos.pk}
    assert confirmed_table_results(ruleset="red") == []
    assert {o.tournament_id for o in confirmed_table_results()} == {mcr.pk, hkos.pk}


def test_publishing_one_ruleset_leaves_the_others_alone() -> None:
    people = players(8)
    confirmed_tournament(people, date(2025, 1, 12), seed=1)
    confirmed_tournament(people, date(2025, 1, 19), seed=2, ruleset=HKOS)
    _recompute_all()
    rating_period_publish(period="2025-01", ruleset="hkos")
    assert RatingPeriod.objects.get(ruleset="hkos", period="2025-01").published
    assert not RatingPeriod.objects.get(ruleset="mcr", period="2025-01").published
    assert PublishedRating.objects.filter(period__ruleset="hkos").count() == 8
    with pytest.raises(RatingError, match="no rating period"):
        rating_period_publish(period="2025-01", ruleset="red")
    with pytest.raises(RatingError, match="mcr, hkos, red"):
        rating_period_publish(period="2025-01", ruleset="riichi")
    out = io.StringIO()
    call_command("ratings_publish", "2025-01", "--ruleset", "mcr", stdout=out)
    assert "The mcr rating list of 2025-01 is published (8 players)" in out.getvalue()


def test_the_recompute_command_takes_a_ruleset() -> None:
    people = players(8)
    confirmed_tournament(people, date(2025, 1, 12), seed=1)
    confirmed_tournament(people, date(2025, 1, 19), seed=2, ruleset=HKOS)
    out = io.StringIO()
    call_command("ratings_recompute", "--ruleset", "hkos", stdout=out)
    assert "Ratings (hkos) recomputed from the start: 1 periods" in out.getvalue()
    assert "(mcr)" not in out.getvalue()
    assert set(RatingEntry.objects.values_list("ruleset", flat=True)) == {"hkos"}


@pytest.fixture
def idle_february():
    """Player 001 plays in January and March; the others also in February and May, so the
    lists of February, April and May exist while 001 is idle."""
    people = players(12)
    others = people[4:]
    confirmed_tournament(people, date(2025, 1, 12), seed=1)
    confirmed_tournament(others, date(2025, 2, 16), seed=2)
    confirmed_tournament(people, date(2025, 3, 9), seed=3)
    confirmed_tournament(others, date(2025, 5, 11), seed=4)
    ratings_recompute()
    return people[0]


def test_a_players_history_lists_every_month_to_the_latest_list(idle_february) -> None:
    player = idle_february
    stored = player_history(player)
    assert [e.period for e in stored] == ["2025-01", "2025-03"]
    months = player_months(stored, "2025-05")
    assert [m.period for m in months] == ["2025-01", "2025-02", "2025-03", "2025-04", "2025-05"]
    assert [m.games for m in months] == [stored[0].games, 0, stored[1].games, 0, 0]
    jan, feb, mar, apr, may = months
    # An idle month keeps the rating and widens the RD (closed form, decision 0801).
    assert feb.rating == jan.rating and feb.rd > jan.rd and feb.vol == jan.vol
    assert feb.change == 0 and feb.entry is None
    assert (mar.rating, mar.rd) == (stored[1].rating, stored[1].rd)
    assert apr.rating == may.rating == mar.rating and mar.rd < apr.rd < may.rd
    # Each month of the history is what that month's list shows for the player.
    for month in months:
        row = next(r for r in period_list(month.period) if r.player_id == player.pk)
        assert (row.rating, row.rd) == pytest.approx((month.rating, month.rd))


def test_the_api_history_has_the_idle_months(client: Client, idle_february) -> None:
    player = idle_february
    history = client.get(f"/api/v1/players/{player.pk}").json()["history"]
    assert [h["period"] for h in history] == [
        "2025-01", "2025-02", "2025-03", "2025-04", "2025-05"
    ]
    feb = history[1]
    assert feb["games"] == 0 and feb["rating"] == history[0]["rating"]
    assert feb["rd"] > history[0]["rd"]
    assert set(feb) == {"period", "rating", "rd", "volatility", "games"}


def test_the_player_page_shows_the_idle_months(client: Client, idle_february) -> None:
    html = client.get(f"/en/ratings/players/{idle_february.pk}/").content.decode()
    assert "February 2025" in html and "April 2025" in html and 'class="idle"' in html


@pytest.fixture
def two_lists():
    mcr_people = players(8, prefix="Mcr")
    hkos_people = mcr_people[:4] + players(4, prefix="Hkos")
    confirmed_tournament(mcr_people, date(2025, 1, 12), seed=1)
    confirmed_tournament(hkos_people, date(2025, 2, 16), seed=2, ruleset=HKOS)
    _recompute_all()
    return mcr_people, hkos_people


def test_the_api_takes_the_ruleset(client: Client, two_lists) -> None:
    mcr_people, hkos_people = two_lists
    default = client.get("/api/v1/ratings").json()
    assert default["ruleset"] == "mcr" and default["period"] == "2025-01"
    assert {r["player"] for r in default["ratings"]} == {p.pk for p in mcr_people}
    hkos = client.get("/api/v1/ratings?ruleset=hkos").json()
    assert hkos["ruleset"] == "hkos" and hkos["period"] == "2025-02"
    assert {r["player"] for r in hkos["ratings"]} == {p.pk for p in hkos_people}
    assert set(hkos["ratings"][0]) == set(default["ratings"][0])
    red = client.get("/api/v1/ratings?ruleset=red").json()
    assert red == {"period": None, "ruleset": "red", "count": 0, "next": None, "previous": None,
                   "ratings": []}
    for url in ("/api/v1/ratings?ruleset=riichi", f"/api/v1/players/{mcr_people[0].pk}?ruleset=x"):
        response = client.get(url)
        assert response.status_code == 400
        assert response.json()["errors"][0]["field"] == "ruleset"

    both = mcr_people[0]
    data = client.get(f"/api/v1/players/{both.pk}?ruleset=hkos").json()
    assert data["ruleset"] == "hkos" and data["rulesets"] == ["mcr", "hkos"]
    assert [h["period"] for h in data["history"]] == ["2025-02"]
    assert [t["id"] for t in data["tournaments"]] == list(
        Tournament.objects.filter(ruleset=HKOS).values_list("pk", flat=True)
    )
    mcr = client.get(f"/api/v1/players/{both.pk}").json()
    # The MCR list ends in January: HKOS's February makes no MCR period.
    assert mcr["ruleset"] == "mcr" and [h["period"] for h in mcr["history"]] == ["2025-01"]


def test_the_pages_switch_between_rulesets(client: Client, two_lists) -> None:
    mcr_people, hkos_people = two_lists
    html = client.get("/en/ratings/").content.decode()
    assert 'class="ruleset-tabs"' in html
    assert "Hong Kong Old Style" in html and "Red Mahjong" in html
    assert "Mcr 005" in html and "Hkos 001" not in html
    html = client.get("/en/ratings/?ruleset=hkos").content.decode()
    assert "Hkos 001" in html and "Mcr 005" not in html
    assert 'name="ruleset" value="hkos"' in html
    html = client.get("/en/ratings/?ruleset=red").content.decode()
    assert "There are no ratings yet" in html
    assert client.get("/en/ratings/?ruleset=riichi").status_code == 404

    csv = client.get("/en/ratings/csv/?ruleset=hkos")
    assert 'filename="ratings-hkos-2025-02.csv"' in csv["Content-Disposition"]
    text = b"".join(csv.streaming_content).decode()
    assert "Hkos 001" in text and "Mcr 005" not in text

    both = client.get(f"/en/ratings/players/{mcr_people[0].pk}/").content.decode()
    assert "Mahjong Competition Rules (MCR)" in both and "Hong Kong Old Style" in both
    assert "Red Mahjong" not in both
    only_hkos = client.get(f"/en/ratings/players/{hkos_people[-1].pk}/").content.decode()
    assert "This player has no rating yet" not in only_hkos  # opens on the ruleset played
    assert 'aria-current="page" class="active">Hong Kong Old Style' in only_hkos
    html = client.get("/ru/ratings/?ruleset=hkos").content.decode()
    assert 'aria-current="page" class="active">Гонконгский старый стиль' in html

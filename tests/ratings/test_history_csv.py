"""The whole rating history of a ruleset as CSV (issue 25): every player, every month from
their first games to the latest list, streamed, a fixed number of queries per chunk."""

from __future__ import annotations

import csv
import io
from datetime import date

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from ratings.models import RatingEntry
from ratings.selectors import player_history, player_months
from ratings.services import ratings_recompute
from tests.tournaments.confirmed_results import confirmed_tournament, players
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def _rows(response) -> list[dict[str, str]]:
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert response.streaming
    return list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))


@pytest.fixture
def history():
    early = players(8, prefix="Early")
    late = players(4, prefix="Late")
    confirmed_tournament(early, date(2025, 1, 10), sessions=4, seed=1)
    # February and March idle for everyone; April: the early players with four newcomers
    confirmed_tournament(early[:4] + late, date(2025, 4, 10), sessions=4, seed=2)
    confirmed_tournament(players(4, prefix="Hong Kong"), date(2025, 2, 10), sessions=4,
                         seed=3, ruleset=Tournament.Ruleset.HKOS)
    ratings_recompute()
    ratings_recompute(ruleset="hkos")
    return early, late


def test_every_player_every_month_with_idle_months(client: Client, history) -> None:
    early, late = history
    rows = _rows(client.get("/en/ratings/history.csv"))
    assert {int(r["player"]) for r in rows} == {p.pk for p in early + late}
    # an early player: January to April, February and March idle with a wider RD
    mine = [r for r in rows if int(r["player"]) == early[5].pk]
    assert [r["period"] for r in mine] == ["2025-01", "2025-02", "2025-03", "2025-04"]
    assert [int(r["games"]) for r in mine[1:]] == [0, 0, 0]
    assert float(mine[1]["rd"]) > float(mine[0]["rd"]) and float(mine[2]["rd"]) > float(
        mine[1]["rd"])
    assert mine[0]["change"] == "" and float(mine[1]["change"]) == 0.0
    # a late player starts in April
    assert [r["period"] for r in rows if int(r["player"]) == late[0].pk] == ["2025-04"]
    # the figures are the player page's
    months = player_months(player_history(early[0]), "2025-04")
    theirs = [r for r in rows if int(r["player"]) == early[0].pk]
    assert [(m.period, repr(m.rating), repr(m.rd)) for m in months] == [
        (r["period"], r["rating"], r["rd"]) for r in theirs]
    assert theirs[0]["name"] == str(early[0]) and theirs[0]["country"] == "RU"


def test_one_ruleset_at_a_time(client: Client, history) -> None:
    rows = _rows(client.get("/en/ratings/history.csv?ruleset=hkos"))
    assert {r["name"].split()[0] for r in rows} == {"Hong"}
    assert {r["period"] for r in rows} == {"2025-02"}
    assert client.get("/en/ratings/history.csv?ruleset=riichi").status_code == 404
    assert client.get("/en/ratings/history.csv?ruleset=red").status_code == 404  # none yet


def test_linked_from_the_rating_list(client: Client, history) -> None:
    page = client.get("/en/ratings/?ruleset=hkos").content.decode()
    assert 'href="/en/ratings/history.csv?ruleset=hkos"' in page


def test_a_hostile_name_is_written_as_text(client: Client, history) -> None:
    early, _late = history
    early[0].name_latin = "=HYPERLINK(\"http://x\")"
    early[0].save()
    rows = _rows(client.get("/en/ratings/history.csv"))
    names = {r["name"] for r in rows if int(r["player"]) == early[0].pk}
    assert names == {"'=HYPERLINK(\"http://x\")"}


def _queries(client: Client, url: str) -> tuple[int, int]:
    with CaptureQueriesContext(connection) as context:
        response = client.get(url)
        rows = _rows(response)
    return len(context.captured_queries), len(rows)


def test_queries_per_chunk_do_not_grow_with_the_history(client: Client, monkeypatch) -> None:
    monkeypatch.setattr("ratings.views.CSV_CHUNK", 8)
    people = players(8)
    confirmed_tournament(people, date(2024, 1, 10), sessions=4, seed=1)
    ratings_recompute()
    one_chunk, small = _queries(client, "/en/ratings/history.csv")
    # ten times the history: more months for the same players, in the same one chunk
    for i in range(2, 12):
        confirmed_tournament(people, date(2024, i, 10), sessions=4, seed=i)
    ratings_recompute()
    same_chunk, large = _queries(client, "/en/ratings/history.csv")
    assert large >= 10 * small and same_chunk == one_chunk, (one_chunk, same_chunk)
    # more players: one more chunk costs three queries (ids, players, their entries)
    confirmed_tournament(players(8, prefix="More"), date(2024, 11, 20), sessions=4, seed=20)
    ratings_recompute()
    two_chunks, _ = _queries(client, "/en/ratings/history.csv")
    assert two_chunks == one_chunk + 3
    assert RatingEntry.objects.filter(ruleset="mcr").values("player").distinct().count() == 16

"""Recompute, publication and the lock, on the database."""

from __future__ import annotations

import threading
from datetime import date

import pytest
from django.db import connection
from django.utils import translation

from ratings.models import PublishedRating, RatingEntry, RatingPeriod
from ratings.rules.method import period_label, run
from ratings.selectors import method_config, period_list
from ratings.services import (
    RatingError,
    RecomputeRunning,
    rating_period_publish,
    ratings_recompute,
    ratings_recompute_after_tournament,
)
from tests.tournaments.confirmed_results import confirmed_tournament, players
from tournaments.models import TableResult, Tournament
from tournaments.selectors import confirmed_table_results

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


def _rows() -> list[tuple]:
    return list(
        RatingEntry.objects.order_by("player_id", "period").values_list(
            "player_id", "period", "rating", "rd", "vol", "games", "total_games", "tournaments"
        )
    )


@pytest.fixture
def season():
    people = players(16)
    confirmed_tournament(people[:12], date(2025, 1, 19), seed=1)
    confirmed_tournament(people[4:], date(2025, 3, 2), seed=2)
    confirmed_tournament(people, date(2025, 3, 30), seed=3)
    confirmed_tournament(people[:8], date(2025, 6, 1), seed=4)
    # not confirmed: never counts
    confirmed_tournament(people, date(2025, 2, 1), seed=5, state=Tournament.State.ACCREDITED)
    return people


def test_recompute_writes_the_methods_result(season) -> None:
    result = ratings_recompute()
    assert result.periods == 3
    pure = run(confirmed_table_results(), config=method_config())
    stored = {(e.player_id, e.period): e for e in RatingEntry.objects.all()}
    assert len(stored) == len(pure.changes) == result.entries
    for change in pure.changes:
        entry = stored[(change.player, period_label(change.period))]
        assert (entry.rating, entry.rd, entry.vol) == (
            change.after.rating,
            change.after.rd,
            change.after.vol,
        )
        assert entry.rating_before == change.before.rating
        assert entry.games == change.games
    # Every month from the first to the last with results is a period; February has none.
    assert list(RatingPeriod.objects.order_by("period").values_list("period", "has_results")) == [
        ("2025-01", True),
        ("2025-02", False),
        ("2025-03", True),
        ("2025-04", False),
        ("2025-05", False),
        ("2025-06", True),
    ]


def test_recompute_is_safe_to_rerun(season) -> None:
    ratings_recompute()
    first = _rows()
    ratings_recompute()
    assert _rows() == first


def test_recompute_from_a_period_equals_a_full_recompute(season) -> None:
    ratings_recompute()
    full = _rows()
    months = list(RatingPeriod.objects.order_by("period").values_list("period", "has_results"))
    RatingEntry.objects.filter(period__gte="2025-03").update(rating=0, rd=1)  # stale rows
    ratings_recompute(from_period="2025-03")
    assert _rows() == full
    # the months and which of them have results: the same, without reading the history
    assert list(RatingPeriod.objects.order_by("period").values_list(
        "period", "has_results")) == months
    assert [m for m, has in months if has] == sorted(
        RatingEntry.objects.values_list("period", flat=True).distinct().order_by())


def test_recompute_refuses_a_bad_period(season) -> None:
    with pytest.raises(RatingError, match="YYYY-MM"):
        ratings_recompute(from_period="2025-3")
    assert not RatingEntry.objects.exists()


def test_a_correction_recomputes_from_its_period_on(season) -> None:
    ratings_recompute()
    before = {(e.player_id, e.period): e.rating for e in RatingEntry.objects.all()}
    march = Tournament.objects.get(end_date=date(2025, 3, 2))
    # The officer's correction of session 1: the game points of every table reversed.
    for row in TableResult.objects.filter(tournament=march, session=1):
        row.game_points = -row.game_points
        row.save()
    ratings_recompute_after_tournament(ruleset=march.ruleset, end_date=march.end_date)
    after = {(e.player_id, e.period): e.rating for e in RatingEntry.objects.all()}
    assert {k: v for k, v in after.items() if k[1] < "2025-03"} == {
        k: v for k, v in before.items() if k[1] < "2025-03"
    }
    assert {k: v for k, v in after.items() if k[1] == "2025-03"} != {
        k: v for k, v in before.items() if k[1] == "2025-03"
    }
    expected = _rows()
    ratings_recompute()
    assert _rows() == expected  # the incremental result equals a full recompute


def test_publishing_freezes_the_list(season) -> None:
    ratings_recompute()
    live = period_list("2025-03")
    rating_period_publish(period="2025-03")
    assert RatingPeriod.objects.get(period="2025-03").published
    assert PublishedRating.objects.filter(period__period="2025-03").count() == len(live)
    # A later correction changes the history, not the published list.
    march = Tournament.objects.get(end_date=date(2025, 3, 30))
    TableResult.objects.filter(tournament=march, session=2).update(game_points=0)
    ratings_recompute(from_period="2025-03")
    assert period_list("2025-03") == live
    changed = {e.player_id: e.rating for e in RatingEntry.objects.filter(period="2025-03")}
    assert any(changed[e.player_id] != e.rating for e in live if e.last_period == "2025-03")
    with pytest.raises(RatingError, match="already published"):
        rating_period_publish(period="2025-03")
    with pytest.raises(RatingError, match="no rating period 2030-01"):
        rating_period_publish(period="2030-01")


def test_list_of_a_period_without_results_carries_the_idle_rd(season) -> None:
    ratings_recompute()
    march = {e.player_id: e for e in period_list("2025-03")}
    may = {e.player_id: e for e in period_list("2025-05")}
    assert march.keys() == may.keys()
    for player_id, row in may.items():
        assert row.rating == march[player_id].rating
        assert row.rd > march[player_id].rd
        assert row.change == 0.0


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_recomputes_never_run_at_once(season) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("row locks need PostgreSQL")
    from django.db import transaction

    from ratings.models import RatingRecompute
    from ratings.services import _lock

    RatingRecompute.objects.get_or_create(pk=1)  # made by the migration; flushed by this test
    holding = threading.Event()
    release = threading.Event()

    def hold() -> None:
        try:
            with transaction.atomic():
                _lock(wait=False)
                holding.set()
                release.wait(10)
        finally:
            connection.close()

    thread = threading.Thread(target=hold)
    thread.start()
    assert holding.wait(10)
    try:
        with pytest.raises(RecomputeRunning):
            ratings_recompute()
    finally:
        release.set()
        thread.join()
    assert ratings_recompute().periods == 3  # free again


def test_explanations_are_the_methods_own_lines(season) -> None:
    """The player page's games by opponent, derived again from the results, equal the lines
    of the method's run: same opponents, start-of-period ratings, scores, expected scores."""
    from ratings.selectors import period_explanations, player_history
    from tournaments.models import Player

    ratings_recompute()
    pure = run(confirmed_table_results(), config=method_config())
    for player in Player.objects.all()[:6]:
        explained = period_explanations(player, player_history(player))
        for change in (c for c in pure.changes if c.player == player.pk):
            lines = explained[period_label(change.period)]
            assert [
                (x.opponent_id, x.rating, x.rd, x.games, x.score, x.expected) for x in lines
            ] == [
                (
                    line.opponent,
                    line.opponent_rating.rating,
                    line.opponent_rating.rd,
                    line.games,
                    line.score,
                    line.expected,
                )
                for line in change.lines
            ]


def test_confirming_and_correcting_a_tournament_rerates(season) -> None:
    """The tournaments' services call the recompute: confirm rates the new tournament, an
    officer's correction re-rates from its period on."""
    from tests.factories import UserFactory
    from tournaments.rules.results_files import SeatEntry, SessionEntry, TableEntry
    from tournaments.services import tournament_confirm, tournament_correct

    ratings_recompute()
    people = list(season)
    late = confirmed_tournament(
        people[:12], date(2025, 7, 6), seed=9, state=Tournament.State.RESULTS_SUBMITTED
    )
    assert not RatingEntry.objects.filter(period="2025-07").exists()
    tournament_confirm(tournament=late, user=late.organizer)
    july = {e.player_id: e.rating for e in RatingEntry.objects.filter(period="2025-07")}
    assert set(july) == {p.pk for p in people[:12]}
    assert _rows() == (ratings_recompute(), _rows())[1]  # equals a full recompute

    # The officer reverses session 1 of the July tournament.
    tables = []
    for table in sorted(
        set(TableResult.objects.filter(tournament=late, session=1).values_list("table", flat=True))
    ):
        seats = TableResult.objects.filter(tournament=late, session=1, table=table).order_by("seat")
        by_wind = {r.seat: r for r in seats}
        tables.append(
            TableEntry(
                table=table,
                seats=tuple(
                    SeatEntry(player=by_wind[w].player_id, game_points=-by_wind[w].game_points)
                    for w in "ESWN"
                ),
            )
        )
    officer = UserFactory(is_staff=True, is_superuser=True)
    tournament_correct(
        tournament=late,
        user=officer,
        sessions=[SessionEntry(session=1, tables=tuple(tables))],
        reason="Score sheet of session 1 was read upside down",
    )
    corrected = {e.player_id: e.rating for e in RatingEntry.objects.filter(period="2025-07")}
    assert corrected != july
    before_july = [r for r in _rows() if r[1] < "2025-07"]
    full = (ratings_recompute(), _rows())[1]
    assert _rows() == full and [r for r in full if r[1] < "2025-07"] == before_july


def test_confirmed_table_results_reads_confirmed_tables_in_seat_order(season) -> None:
    outcomes = confirmed_table_results()
    assert len(outcomes) == 18 + 18 + 24 + 12  # tables x sessions, confirmed only
    keys = [(o.end_date, o.tournament_id, o.session, o.table) for o in outcomes]
    assert keys == sorted(keys)
    first = outcomes[0]
    seated = dict(
        TableResult.objects.filter(tournament_id=first.tournament_id, session=first.session,
                                   table=first.table).values_list("seat", "player_id"))
    assert [player for player, _points in first.seats] == [seated[w] for w in "ESWN"]
    later = confirmed_table_results(since=date(2025, 3, 31))
    assert later and all(o.end_date >= date(2025, 3, 31) for o in later)

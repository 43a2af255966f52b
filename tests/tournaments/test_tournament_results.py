"""Stored final standings (``TournamentResult``): written from ``tournament_ranking`` when
a tournament's results are confirmed or corrected, read by a player's history."""

from __future__ import annotations

from fractions import Fraction

import pytest

from ratings.selectors import player_tournaments
from tests.tournaments.fixtures import session_payload
from tournaments import services
from tournaments.models import Player, TournamentResult
from tournaments.rules.results_files import parse_results_json
from tournaments.selectors import tournament_ranking

pytestmark = pytest.mark.django_db


def _stored(tournament) -> list[tuple]:
    return [
        (r.rank, r.player_id, r.table_points, r.game_points, r.penalties, r.sessions, r.players)
        for r in TournamentResult.objects.filter(tournament=tournament).order_by("rank", "pk")
    ]


def _ranked(tournament) -> list[tuple]:
    ranking = tournament_ranking(tournament)
    return sorted(
        ((s.rank, s.player, s.table_points, s.game_points, s.penalties, s.sessions,
          len(ranking)) for s in ranking),
        key=lambda row: row[0],
    )


def test_confirmation_stores_the_ranking(make_tournament):
    submitted = make_tournament("results submitted", players=16)
    assert not TournamentResult.objects.filter(tournament=submitted).exists()
    t = make_tournament("results confirmed", players=16)
    stored = _stored(t)
    assert len(stored) == 16
    assert sorted(stored, key=lambda r: (r[0], r[1])) == sorted(
        _ranked(t), key=lambda r: (r[0], r[1]))
    assert {r[5] for r in stored} == {6} and {r[6] for r in stored} == {16}


def test_correction_replaces_the_stored_ranking_with_exact_shared_table_points(
    make_tournament, officer
):
    t = make_tournament("results confirmed", players=16)
    before = _stored(t)
    payloads = [session_payload(t, s, points=(10, 10, 10, -30)) for s in range(1, 7)]
    sessions, _ = parse_results_json({"sessions": payloads})
    services.tournament_correct(tournament=t, user=officer, sessions=sessions,
                                reason="three tied at every table")
    after = _stored(t)
    assert after != before and len(after) == 16
    assert sorted(after, key=lambda r: (r[0], r[1])) == sorted(
        _ranked(t), key=lambda r: (r[0], r[1]))
    # three players tied first share 4 + 2 + 1: 7/3 a session, kept exactly
    assert all((r[2] * 3).denominator == 1 for r in after)
    assert any(r[2].denominator == 3 for r in after)
    row = TournamentResult.objects.filter(tournament=t).first()
    assert isinstance(row.table_points, Fraction)


def test_player_tournaments_reads_the_stored_results(make_tournament):
    t = make_tournament("results confirmed", players=16)
    ranking = {s.player: s for s in tournament_ranking(t)}
    player = Player.objects.get(pk=next(iter(ranking)))
    [mine] = player_tournaments(player)
    expected = ranking[player.pk]
    assert (mine.tournament_id, mine.name, mine.rank, mine.players) == (
        t.pk, t.name, expected.rank, 16)
    assert mine.table_points == float(expected.table_points)
    assert mine.game_points == expected.game_points

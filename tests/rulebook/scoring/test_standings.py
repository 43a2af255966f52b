"""Session table points (3.9.2) with every kind of tie, balance checks, penalties, the
ranking (3.10.1), team standings, and score sheets (Appendix 5) against session totals."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rulebook.scoring.scoresheet import Draw, PenaltyTransfer, Win, score_line, score_sheet
from rulebook.scoring.standings import (
    SeatScore,
    TableScore,
    check_session,
    check_table,
    standings,
    table_points,
    team_standings,
)

F = Fraction


@pytest.mark.parametrize(
    ("game", "expected"),
    [
        ((30, 10, -10, -30), (4, 2, 1, 0)),
        ((-30, 10, 30, -10), (0, 2, 4, 1)),  # order of seats does not matter
        ((20, 20, -10, -30), (3, 3, 1, 0)),  # two tied first
        ((40, 0, 0, -40), (4, F(3, 2), F(3, 2), 0)),  # two tied second
        ((40, 10, -25, -25), (4, 2, F(1, 2), F(1, 2))),  # two tied last
        ((10, 10, 10, -30), (F(7, 3), F(7, 3), F(7, 3), 0)),  # three tied first
        ((30, -10, -10, -10), (4, 1, 1, 1)),  # three tied second
        ((0, 0, 0, 0), (F(7, 4),) * 4),  # all four tied: 1.75 each
        ((20, 20, -20, -20), (3, 3, F(1, 2), F(1, 2))),  # two pairs
    ],
)
def test_table_points_share_tied_places(game, expected):
    points = table_points(game)
    assert points == tuple(F(x) for x in expected)
    assert sum(points) == 7


def test_table_points_need_four_seats():
    with pytest.raises(ValueError):
        table_points((10, -10, 0))


def _table(*seats, session=1, table=1):
    return TableScore(session, table, tuple(SeatScore(*s) for s in seats))


def test_balanced_table_has_no_problem():
    assert check_table(_table((1, 30, 0), (2, 10, 10), (3, -10, 0), (4, -30, 0))) == []


def test_unbalanced_table_is_reported_with_its_total():
    problems = check_table(_table((1, 30, 0), (2, 10, 0), (3, -10, 0), (4, -29, 0)))
    assert [(p.code, p.field, p.params["total"]) for p in problems] == [
        ("unbalanced", "game_points", 1)
    ]


def test_negative_penalty_and_three_seats_are_refused():
    problems = check_table(_table((1, 30, -5), (2, 10, 0), (3, -10, 0), (4, -30, 0)))
    assert [(p.code, p.seat) for p in problems] == [("negative_penalty", "E")]
    problems = check_table(_table((1, 30, 0), (2, -30, 0), (3, 0, 0)))
    assert [p.code for p in problems] == ["seat_count"]


def test_session_needs_every_registered_player_exactly_once():
    t1 = _table((1, 10, 0), (2, -10, 0), (3, 0, 0), (9, 0, 0), table=1)
    t2 = _table((5, 0, 0), (6, 0, 0), (7, 0, 0), (1, 0, 0), table=2)
    problems = check_session(1, [t1, t2], registered=range(1, 9))
    found = {(p.code, p.table, p.seat, p.params.get("player")) for p in problems}
    assert found == {
        ("player_unknown", 1, "N", 9),
        ("player_twice", 2, "N", 1),
        ("player_missing", None, None, 4),
        ("player_missing", None, None, 8),
    }


def test_penalty_is_deducted_from_game_points_not_from_table_points():
    # A leads on game points before the penalty: 4 table points although after the
    # 20-point deduction B has more game points.
    t = _table((1, 30, 20), (2, 20, 0), (3, -20, 0), (4, -30, 0))
    ranking = {s.player: s for s in standings([1, 2, 3, 4], [t])}
    assert ranking[1].table_points == 4 and ranking[1].game_points == 10
    assert ranking[1].penalties == 20
    assert ranking[2].table_points == 2 and ranking[2].game_points == 20
    # the penalty is given to no one
    assert sum(s.game_points for s in ranking.values()) == -20


def test_ranking_by_table_points_then_game_points_with_shared_ranks():
    s1 = [
        _table((1, 40, 0), (2, 10, 0), (3, -20, 0), (4, -30, 0), table=1),
        _table((5, 40, 0), (6, 10, 0), (7, -20, 0), (8, -30, 0), table=2),
    ]
    ranking = standings([1, 2, 3, 4, 5, 6, 7, 8, 99], s1)
    assert [(s.rank, s.player) for s in ranking] == [
        (1, 1), (1, 5), (3, 2), (3, 6), (5, 3), (5, 7), (7, 99), (8, 4), (8, 8)
    ]
    by_player = {s.player: s for s in ranking}
    # player 99 has no results yet: zeros, and ranks above those with 0 and -30
    assert (by_player[99].table_points, by_player[99].game_points, by_player[99].sessions) == (
        0, 0, 0)


def test_equal_table_points_are_ordered_by_game_points():
    tables = [
        _table((1, 20, 0), (2, 20, 0), (3, -10, 0), (4, -30, 0), session=1),
        _table((1, 5, 0), (2, 50, 0), (3, -25, 0), (4, -30, 0), session=2, table=1),
    ]
    ranking = standings([1, 2, 3, 4], tables)
    top = ranking[0]
    assert (top.player, top.table_points, top.game_points) == (2, 7, 70)
    assert (ranking[1].player, ranking[1].table_points, ranking[1].rank) == (1, 5, 2)


def test_team_standings_sum_their_players():
    tables = [_table((1, 40, 0), (2, 10, 0), (3, -20, 10), (4, -30, 0))]
    ranking = standings([1, 2, 3, 4], tables)
    teams = team_standings(ranking, {1: "Red", 4: "Red", 2: "Blue", 3: "Blue"})
    assert [(t.rank, t.team, t.table_points, t.game_points, t.penalties) for t in teams] == [
        (1, "Red", 4, 10, 0),
        (2, "Blue", 3, -20, 10),
    ]


# Score sheets --------------------------------------------------------------------------------


def test_mcr_discard_and_self_drawn_payments_per_3_9_1_3():
    # East wins 10 points on South's discard: S pays 18, W and N pay 8.
    line = score_line(Win(winner=0, discarder=1, points=10))
    assert line.deltas == (34, -18, -8, -8)
    # West wins 8 self-drawn: everyone pays 16.
    line = score_line(Win(winner=2, discarder=None, points=8))
    assert line.deltas == (-16, -16, 48, -16)


def test_hand_level_totals_agree_with_stated_session_totals():
    lines = [
        Win(winner=0, discarder=1, points=10),
        Draw(),
        Win(winner=2, discarder=None, fans=("48", "57A", "81", "81")),  # 8 + 4 + 2 = 14
        PenaltyTransfer(offender=3, points=30),
    ]
    sheet = score_sheet(lines, stated=[None, None, None, None])
    assert sheet.ok
    assert sheet.game_points == (34 - 22 + 10, -18 - 22 + 10, -8 + 66 + 10, -8 - 22 - 30)
    assert sum(sheet.game_points) == 0
    wrong = list(sheet.game_points)
    wrong[1] += 5
    wrong[3] -= 5
    bad = score_sheet(lines, stated=wrong)
    assert [(p.code, p.seat, p.field) for p in bad.problems] == [
        ("game_points_disagree", "S", "game_points"),
        ("game_points_disagree", "N", "game_points"),
    ]


def test_fan_57_alone_is_ambiguous_57a_57b_accepted():
    bad = score_line(Win(winner=0, discarder=None, fans=("57", "48")), hand=3)
    assert (bad.code, bad.hand, bad.field) == ("ambiguous_fan", 3, "fans")
    assert score_line(Win(winner=0, discarder=None, fans=("57A", "48"))).points == 12
    assert score_line(Win(winner=0, discarder=None, fans=("57b", "48"))).points == 14


def test_eight_point_minimum_without_flowers():
    low = score_line(Win(winner=0, discarder=1, fans=("70", "81", "81", "81", "81",
                                                       "81", "81", "81", "81")))
    assert low.code == "not_enough_points"
    assert score_line(Win(winner=0, discarder=1, points=7)).code == "not_enough_points"


def test_unknown_fan_is_named():
    bad = score_line(Win(winner=0, discarder=1, fans=("99",)))
    assert (bad.code, bad.params["fan"]) == ("unknown_fan", "99")


def test_tiles_are_rescored_and_a_disagreeing_total_is_an_error():
    tiles = "123m456p789s123s5s5s"
    ok = score_line(Win(winner=1, discarder=0, tiles=tiles), hand=2)
    assert ok.points == 14  # East discarded: South's left pays 8 + 14
    assert ok.deltas == (-22, 38, -8, -8)
    bad = score_line(Win(winner=1, discarder=0, tiles=tiles, points=16), hand=2)
    assert (bad.code, bad.hand, bad.field) == ("points_disagree", 2, "points")
    assert bad.params == {"stated": 16, "computed": 14}
    broken = score_line(Win(winner=1, discarder=0, tiles="123m456p789s"))
    assert broken.field == "tiles"


def test_context_contradicting_the_discarder_is_an_error():
    bad = score_line(Win(winner=0, discarder=1, tiles="123m456p789s123s5s5s",
                         context={"self_drawn": True}))
    assert (bad.code, bad.field) == ("context_disagree", "context")


def test_transferred_penalty_moves_points_like_a_hand():
    line = score_line(PenaltyTransfer(offender=1, points=30))
    assert line.deltas == (10, -30, 10, 10)
    assert score_line(PenaltyTransfer(offender=1, points=10)).code == "penalty_points"


def test_every_problem_of_a_sheet_is_listed():
    sheet = score_sheet([
        Win(winner=0, discarder=0, points=10),
        Win(winner=0, discarder=1, fans=("57",)),
        Draw(),
        Win(winner=0, discarder=1),
    ])
    assert [(p.hand, p.code) for p in sheet.problems] == [
        (1, "self_discard"), (2, "ambiguous_fan"), (4, "no_value")
    ]


def test_hkos_and_red_use_their_own_payments():
    hk = score_line(Win(winner=0, discarder=1, points=8), rules="hkos")
    assert hk.deltas == (32, -16, -8, -8)
    red = score_line(Win(winner=0, discarder=1, points=12), rules="red")
    assert red.deltas == (12, -12, 0, 0)
    red_fans = score_line(Win(winner=0, discarder=None, fans=("2", "9")), rules="red")
    assert red_fans.deltas == (45, -15, -15, -15)


def test_awarded_scores_count_in_the_totals_but_not_as_sessions_played():
    """A fixed score for a session missed (a tournament setting) is added to the totals
    and is not a session played; an award to someone not ranked is ignored."""
    tables = [TableScore(1, 1, (SeatScore(1, 30), SeatScore(2, 10), SeatScore(3, -10),
                                SeatScore(4, -30)))]
    plain = {s.player: s for s in standings([1, 2, 3, 4, 5], tables)}
    given = {s.player: s for s in standings([1, 2, 3, 4, 5], tables,
                                            awarded=[(5, F(1), -20), (9, F(4), 99)])}
    assert (plain[5].table_points, plain[5].game_points) == (0, 0)
    assert (given[5].table_points, given[5].game_points, given[5].sessions) == (1, -20, 0)
    assert given[5].rank == 4 and {s.player for s in given.values()} == {1, 2, 3, 4, 5}

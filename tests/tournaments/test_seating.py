"""The seating draw: once per session, few repeat meetings, team mates apart, winds, seed."""

from __future__ import annotations

from collections import Counter

import pytest

from tournaments.seating import (
    SeatingError,
    draw,
    meetings,
    random_draw,
    repeat_pairs,
    round_seats,
)

GRID = [(n, s) for n in (16, 20, 24, 28, 32, 40, 48, 56, 64) for s in (6, 7, 9, 11)]


@pytest.mark.parametrize(("n", "sessions"), GRID)
def test_every_player_once_per_session_and_fewer_repeats_than_a_random_draw(n, sessions):
    players = list(range(101, 101 + n))
    seating = draw(players, sessions, seed=7)
    assert len(seating.sessions) == sessions
    for session in seating.sessions:
        assert len(session) == n // 4
        seated = [p for table in session for p in table]
        assert sorted(seated) == players  # everyone, nobody twice
    assert seating.repeat_pairs == repeat_pairs(seating.sessions)
    baseline = repeat_pairs(random_draw(players, sessions, seed=7))
    assert seating.repeat_pairs <= baseline


def test_repeats_are_usually_far_fewer_than_a_random_draw():
    ours = theirs = 0
    for n, sessions in GRID:
        players = list(range(n))
        ours += draw(players, sessions, seed=3).repeat_pairs
        theirs += repeat_pairs(random_draw(players, sessions, seed=3))
    assert ours * 2 < theirs


def test_no_repeat_at_all_when_there_is_room():
    # 64 players over 6 sessions: each meets 18 of 63, a draw without any repeat exists
    assert draw(list(range(64)), 6, seed=1).repeat_pairs == 0


def test_minimum_repeats_for_16_players_over_6_sessions():
    # each player meets 18 times among 15 others: repeats cannot be avoided; spread evenly
    # they make 24 pairs that meet twice, or fewer pairs when one of them meets thrice
    for seed in range(1, 6):
        seating = draw(list(range(16)), 6, seed=seed)
        assert seating.repeat_pairs <= 24
        assert max(meetings(seating.sessions).values()) <= 3


def test_team_mates_are_kept_apart():
    players = list(range(32))
    teams = {p: f"team {p // 4}" for p in players}  # eight teams of four
    seating = draw(players, 8, seed=11, teams=teams)
    for session in seating.sessions:
        for table in session:
            assert len({teams[p] for p in table}) == 4


def test_same_seed_same_draw_other_seed_other_draw():
    players = list(range(40))
    assert draw(players, 7, seed=42) == draw(players, 7, seed=42)
    assert draw(players, 7, seed=42).sessions != draw(players, 7, seed=43).sessions


def test_seat_winds_are_balanced_over_the_tournament():
    players = list(range(24))
    seating = draw(players, 8, seed=2)
    winds: dict[int, Counter] = {p: Counter() for p in players}
    for session in seating.sessions:
        for table in session:
            for wind, player in zip("ESWN", table, strict=True):
                winds[player][wind] += 1
    for counter in winds.values():
        assert set(counter) == set("ESWN")  # everyone starts a session in every wind
        assert max(counter.values()) <= 3
    assert sum(sorted(c.values()) == [2, 2, 2, 2] for c in winds.values()) >= len(players) // 2


def test_round_seats_follow_appendix_4():
    a, b, c, d = 1, 2, 3, 4
    rounds = round_seats((a, b, c, d))
    assert rounds[0] == {"E": a, "S": b, "W": c, "N": d}
    assert rounds[1] == {"E": b, "S": a, "W": d, "N": c}
    assert rounds[2] == {"E": c, "S": d, "W": b, "N": a}
    assert rounds[3] == {"E": d, "S": c, "W": a, "N": b}


def test_number_of_players_must_be_a_multiple_of_four():
    with pytest.raises(SeatingError) as err:
        draw(list(range(18)), 6, seed=1)
    assert err.value.code == "players_not_multiple_of_4"

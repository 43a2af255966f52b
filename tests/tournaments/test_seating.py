"""The seating draw: once per session, few repeat meetings, team mates apart, winds, seed."""

from __future__ import annotations

from collections import Counter

import pytest

from tournaments.rules.seating_designs import best_design, cyclic_design, transversal_design
from tournaments.rules.seating_designs import repeats as design_repeats
from tournaments.rules.seating_draw import (
    SeatingError,
    country_pairs,
    draw,
    draw_sessions,
    kept_repeat_pairs_bound,
    meetings,
    random_draw,
    repeat_pairs,
    round_seats,
)

GRID = [(n, s) for n in (16, 20, 24, 28, 32, 40, 48, 64) for s in (4, 7, 9)]


def repeat_meetings(sessions) -> int:
    """Meetings beyond the first of each pair."""
    return sum(k - 1 for k in meetings(sessions).values())


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
    # no pair meets a third time where two meetings at most are possible
    assert max(meetings(seating.sessions).values()) <= 2
    baseline = random_draw(players, sessions, seed=7)
    assert repeat_meetings(seating.sessions) < repeat_meetings(baseline)


@pytest.mark.parametrize(("n", "sessions"), [
    (16, 5),  # the affine plane of order 4
    (20, 5), (28, 7), (36, 9), (44, 11), (64, 10), (100, 10),  # transversal designs
    (32, 9),  # transversal design and its rows
    (24, 7), (28, 8), (36, 10), (40, 10),  # cyclic designs with fixed players
    (32, 10),  # social golfer 8-4-10: two base sessions over Z_5 x 6 levels
    (200, 10),
])
def test_no_pair_meets_twice_where_a_repeat_free_schedule_is_known(n, sessions):
    assert draw(list(range(n)), sessions, seed=5).repeat_pairs == 0


@pytest.mark.parametrize(("n", "design"), [
    (16, transversal_design(16)), (32, transversal_design(32)),
    (80, transversal_design(80)), (108, transversal_design(108)),
    (24, cyclic_design(24, 7)), (28, cyclic_design(28, 8)), (36, cyclic_design(36, 10)),
    (40, cyclic_design(40, 11)), (32, cyclic_design(32, 10)),
])
def test_the_designs_are_repeat_free(n, design):
    assert design is not None
    for session in design:
        assert sorted(p for table in session for p in table) == list(range(n))
    assert design_repeats(design) == 0


def test_32_players_over_10_sessions_meet_everyone_but_one():
    design = cyclic_design(32, 10)
    assert design is not None and len(design) == 10
    for session in design:
        assert len(session) == 8 and all(len(table) == 4 for table in session)
        assert sorted(p for table in session for p in table) == list(range(32))
    met = Counter((a, b) for session in design for table in session
                  for a in table for b in table if a < b)
    assert max(met.values()) == 1
    # the pairs that never meet are a perfect matching: each player misses exactly one
    missed = Counter(p for a in range(32) for b in range(a + 1, 32) if (a, b) not in met
                     for p in (a, b))
    assert sorted(missed) == list(range(32)) and set(missed.values()) == {1}
    assert best_design(32, 10) is not None and len(best_design(32, 10)[0]) == 10


def test_designs_exist_only_for_their_sizes():
    assert transversal_design(24) is None  # g = 6: no pair of orthogonal Latin squares
    assert len(transversal_design(16)) == 5 and len(transversal_design(44)) == 11
    assert best_design(200, 10) is None  # the search alone seats 200


@pytest.mark.parametrize(("n", "sessions", "bound"), [
    (16, 6, 24), (16, 7, 48), (16, 10, 120),  # every pair met after 5: the design again
    (28, 10, 42),
])
def test_repeats_reach_the_counting_bound_when_they_cannot_be_avoided(n, sessions, bound):
    # bound: meetings (6 per table) beyond the n(n-1)/2 pairs, each pair at most twice
    assert 6 * n // 4 * sessions - n * (n - 1) // 2 <= bound
    seating = draw(list(range(n)), sessions, seed=2)
    assert seating.repeat_pairs == bound
    assert max(meetings(seating.sessions).values()) == 2


def test_compatriots_are_kept_apart_when_asked():
    players = list(range(32))
    countries = {p: ("NL", "FR", "DE", "RU")[p % 4] for p in players}  # four countries of 8
    apart = draw(players, 8, seed=4, countries=countries)
    assert apart.country_pairs == 0 and apart.repeat_pairs == 0
    assert country_pairs(apart.sessions, countries) == 0
    together = draw(players, 8, seed=4)  # not asked: compatriots meet as it happens
    assert country_pairs(together.sessions, countries) > 0 and together.country_pairs == 0


def test_compatriots_weigh_less_than_repeats():
    players = list(range(16))
    countries = {p: "NL" if p < 8 else "" for p in players}  # half the field is Dutch
    seating = draw(players, 5, seed=1, countries=countries)
    assert seating.repeat_pairs == 0  # every pair meets once: 28 Dutch pairs must meet
    assert seating.country_pairs == 28


def test_redraw_after_sessions_keeps_repeats_low():
    players = list(range(40))
    first = draw(players, 3, seed=8)
    rest = draw(players[:36] + list(range(100, 104)), 5, seed=9, before=first.sessions)
    assert rest.repeat_pairs == repeat_pairs([*first.sessions, *rest.sessions])
    assert rest.repeat_pairs == 0


def test_issue_38_the_fewest_possible_counts_the_sessions_kept_by_a_redraw():
    """Issue 38 (13): "fewest possible: 8" after a redraw from session 4, counted as if
    every session were drawn afresh. 16 players over 5 sessions can all meet once (6 x 4 x 5
    = 120 meetings, 120 pairs: 0 at the fewest); but when sessions 1 and 2 kept seated the
    same tables, their 24 pairs have met twice whatever sessions 3-5 do: 24 at the fewest."""
    players = list(range(16))
    session = [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]]
    kept = [session, session]
    assert kept_repeat_pairs_bound(kept, [players] * 3) == 24
    redrawn = draw_sessions([players] * 3, seed=4, before=kept)
    assert redrawn.fewest_repeat_pairs == 24
    assert redrawn.repeat_pairs == 24  # the draw reaches it
    fresh = draw_sessions([players] * 5, seed=4)
    assert fresh.fewest_repeat_pairs == fresh.repeat_pairs == 0


def test_the_fewest_possible_after_kept_sessions_is_never_above_the_draw():
    players = list(range(16))
    kept = random_draw(players, 3, seed=3)
    for seed in (1, 2):
        redrawn = draw_sessions([players] * 3, seed=seed, before=kept)
        assert redrawn.repeat_pairs >= redrawn.fewest_repeat_pairs
        assert redrawn.fewest_repeat_pairs >= repeat_pairs(kept)
    # a player replaced by another from session 4 on (the field changes)
    gone = draw_sessions([[*players[1:], 99]] * 3, seed=1, before=kept)
    assert gone.repeat_pairs >= gone.fewest_repeat_pairs


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
    players = list(range(40))
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


@pytest.mark.parametrize("n", range(8, 44, 4))
def test_issue_38_no_table_of_four_sits_together_again_whole(n):
    """Issue 38 (13): the last session repeated the first table for table (16 players over
    6 sessions: the repeat-free design of 5 sessions, then its first session again)."""
    for sessions in range(4, 9):
        seating = draw(list(range(n)), sessions, seed=1)
        first = {frozenset(t) for t in seating.sessions[0]}
        assert {frozenset(t) for t in seating.sessions[-1]} != first, (n, sessions)
        tables = [frozenset(t) for session in seating.sessions for t in session]
        assert len(set(tables)) == len(tables), (n, sessions)


def test_a_redraw_repeats_no_session_kept_and_no_pair_a_third_time_for_it():
    players = list(range(16))
    kept = draw(players, 5, seed=3).sessions  # every pair has met once
    redrawn = draw(players, 3, seed=4, before=kept)
    # every meeting of sessions 6-8 is a second one, none a third
    assert redrawn.repeat_pairs == 72
    assert max(meetings([*kept, *redrawn.sessions]).values()) == 2
    old = {frozenset(frozenset(t) for t in session) for session in kept}
    assert not any(frozenset(frozenset(t) for t in session) in old
                   for session in redrawn.sessions)

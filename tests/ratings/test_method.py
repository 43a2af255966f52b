"""The rating method (docs/ratings.md) on plain data: no database."""

from __future__ import annotations

import random
from datetime import date
from decimal import Decimal

import pytest

from ratings.rules import glicko
from ratings.rules.glicko import Rating
from ratings.rules.method import (
    MethodConfig,
    Outcome,
    PlayerState,
    is_provisional,
    pairwise_results,
    parse_period,
    period_label,
    period_of,
    rate_period,
    rating_at,
    rating_list,
    run,
)

CONFIG = MethodConfig()


def table(tid: int, day: date, session: int, tbl: int, *seats: tuple[int, float]) -> Outcome:
    return Outcome(tid, day, session, tbl, tuple(seats))


def tournament(tid: int, day: date, players: list[int], sessions: int, seed: int) -> list[Outcome]:
    rng = random.Random(seed)
    out = []
    for s in range(1, sessions + 1):
        order = players[:]
        rng.shuffle(order)
        for t in range(len(order) // 4):
            four = order[4 * t : 4 * t + 4]
            points = [rng.choice([-40, -8, 0, 8, 16, 24, 40]) for _ in range(3)]
            points.append(-sum(points))
            out.append(table(tid, day, s, t + 1, *zip(four, points, strict=True)))
    return out


# --- periods -------------------------------------------------------------------------------


def test_periods_are_calendar_months() -> None:
    assert period_label(period_of(date(2025, 12, 31))) == "2025-12"
    assert period_of(date(2026, 1, 1)) == period_of(date(2025, 12, 31)) + 1
    assert parse_period("2026-01") == period_of(date(2026, 1, 15))
    for bad in ["2026-13", "2026-1", "26-01", "", "2026-00", "2026-01-01"]:
        with pytest.raises(ValueError):
            parse_period(bad)


# --- pairwise results ------------------------------------------------------------------------


def test_pairwise_results_with_ties() -> None:
    outcome = table(1, date(2026, 3, 1), 1, 1, (4, 16), (2, 16), (3, -40), (1, 8))
    results = {(r.player, r.opponent): r.score for r in pairwise_results(outcome)}
    assert len(results) == 12
    assert results[(4, 2)] == results[(2, 4)] == 0.5  # equal game points
    assert results[(4, 1)] == 1.0 and results[(1, 4)] == 0.0
    assert results[(3, 1)] == results[(3, 2)] == results[(3, 4)] == 0.0
    assert sum(results.values()) == 6.0  # every pair shares one point


def test_all_four_tied_is_three_draws_each() -> None:
    outcome = table(1, date(2026, 3, 1), 1, 1, (1, 0), (2, 0), (3, Decimal("0")), (4, 0))
    assert {r.score for r in pairwise_results(outcome)} == {0.5}


def test_a_player_twice_at_a_table_is_refused() -> None:
    with pytest.raises(ValueError, match="session 2, table 3"):
        pairwise_results(table(9, date(2026, 1, 1), 2, 3, (1, 8), (1, 8), (2, -8), (3, -8)))


# --- one period ------------------------------------------------------------------------------


def test_new_players_start_at_1500_350_006() -> None:
    outcome = table(1, date(2026, 3, 1), 1, 1, (1, 30), (2, 10), (3, -10), (4, -30))
    changes = rate_period(period_of(date(2026, 3, 1)), [outcome], {}, CONFIG)
    assert [c.player for c in changes] == [1, 2, 3, 4]
    for c in changes:
        assert c.before == Rating(1500, 350, 0.06)
        assert c.is_new and c.games == 3
        assert c.expected == pytest.approx(1.5)
    assert changes[0].after.rating > changes[1].after.rating > 1500 > changes[2].after.rating
    assert changes[0].score == 3.0 and changes[3].score == 0.0


def test_opponents_count_with_their_start_of_period_ratings() -> None:
    """Two sessions in one period: the second uses the ratings from before the first."""
    march = date(2026, 3, 20)
    p = period_of(march)
    states = {
        1: PlayerState(Rating(1800, 60, 0.06), p - 1, p - 10),
        2: PlayerState(Rating(1400, 80, 0.06), p - 1, p - 10),
        3: PlayerState(Rating(1500, 100, 0.06), p - 1, p - 10),
        4: PlayerState(Rating(1600, 70, 0.06), p - 1, p - 10),
    }
    s1 = table(7, march, 1, 1, (1, -8), (2, 24), (3, -8), (4, -8))
    s2 = table(7, march, 2, 1, (1, 8), (2, 8), (3, -8), (4, -8))
    changes = {c.player: c for c in rate_period(p, [s1, s2], states, CONFIG)}
    two = changes[2]
    assert two.games == 6
    # Exactly the engine on start-of-period ratings, all six games at once:
    games = sorted(
        [
            (states[1].rating, 1.0),
            (states[1].rating, 0.5),
            (states[3].rating, 1.0),
            (states[3].rating, 1.0),
            (states[4].rating, 1.0),
            (states[4].rating, 1.0),
        ],
        key=lambda g: g[0].rating,
    )
    expected = glicko.update(states[2].rating, games)
    assert two.after.rating == pytest.approx(expected.rating, abs=1e-9)
    line = next(line for line in two.lines if line.opponent == 1)
    assert line.opponent_rating == states[1].rating
    assert (line.games, line.score) == (2, 1.5)
    assert line.expected == pytest.approx(
        2 * glicko.expected_score(states[2].rating, states[1].rating)
    )


def test_start_of_period_includes_idle_months() -> None:
    p = period_of(date(2026, 6, 1))
    state = PlayerState(Rating(1700, 50, 0.06), p - 4, p - 20)
    outcome = table(1, date(2026, 6, 1), 1, 1, (1, 30), (2, 10), (3, -10), (4, -30))
    change = rate_period(p, [outcome], {1: state}, CONFIG)[0]
    assert change.before == glicko.inactive(state.rating, 3)
    assert change.before.rd > 50


# --- several periods -------------------------------------------------------------------------


def test_empty_months_and_inactivity() -> None:
    players = list(range(1, 13))
    outcomes = tournament(1, date(2025, 1, 12), players, 6, seed=1)
    outcomes += tournament(2, date(2025, 5, 3), players[:8], 6, seed=2)
    result = run(outcomes, config=CONFIG)
    jan, may = period_of(date(2025, 1, 1)), period_of(date(2025, 5, 1))
    assert result.periods == [jan, may]
    # Player 12 did not play in May: at the end of May, 4 idle months of RD increase.
    s12 = result.states[12]
    assert s12.period == jan
    after_jan = next(c.after for c in result.changes if c.player == 12 and c.period == jan)
    assert rating_at(s12, may, CONFIG) == glicko.inactive(after_jan, 4)
    # A player of May brought three idle months (Feb, Mar, Apr) into May.
    may1 = next(c for c in result.changes if c.player == 1 and c.period == may)
    assert may1.before == glicko.inactive(after_jan_of(result, 1, jan), 3)


def after_jan_of(result, player, period):  # type: ignore[no-untyped-def]
    return next(c.after for c in result.changes if c.player == player and c.period == period)


def test_inactivity_is_capped_at_350() -> None:
    outcomes = tournament(1, date(2000, 1, 1), [1, 2, 3, 4], 6, seed=3)
    state = run(outcomes, config=CONFIG).states[1]
    # With sigma 0.06 per month the RD grows slowly: 100 years reach the cap.
    assert rating_at(state, period_of(date(2020, 1, 1)), CONFIG).rd < 350.0
    assert rating_at(state, period_of(date(2100, 1, 1)), CONFIG).rd == 350.0
    assert rating_at(state, period_of(date(2020, 1, 1)), MethodConfig(max_rd=150)).rd == 150.0


def test_provisional_status_follows_the_rd_threshold() -> None:
    assert is_provisional(Rating(1500, 110.01, 0.06), CONFIG)
    assert not is_provisional(Rating(1500, 110.0, 0.06), CONFIG)
    assert not is_provisional(Rating(1500, 120, 0.06), MethodConfig(provisional_rd=130))
    # One tournament leaves newcomers provisional, many make them established.
    players = list(range(1, 17))
    one = run(tournament(1, date(2025, 1, 5), players, 6, seed=4), config=CONFIG)
    assert all(is_provisional(s.rating, CONFIG) for s in one.states.values())
    many = []
    for month in range(1, 9):
        many += tournament(month, date(2025, month, 5), players, 8, seed=month)
    established = run(many, config=CONFIG)
    assert not any(is_provisional(s.rating, CONFIG) for s in established.states.values())


def _fingerprint(result) -> list:  # type: ignore[no-untyped-def]
    return [
        (c.player, c.period, c.before, c.after, c.games, c.score, c.expected, c.lines)
        for c in result.changes
    ]


def _history(outcomes: list[Outcome], n: int) -> list[Outcome]:
    rng = random.Random(n)
    players = list(range(1, 41))
    for t in range(1, n + 1):
        day = date(2024 + t // 12, t % 12 + 1, rng.randint(1, 28))
        rng.shuffle(players)
        outcomes += tournament(t, day, sorted(players[: rng.choice([12, 16, 20])]), 6, seed=t)
    return outcomes


def test_deterministic_whatever_the_input_order() -> None:
    outcomes = _history([], 14)
    reference = _fingerprint(run(outcomes, config=CONFIG))
    rng = random.Random(99)
    for _ in range(3):
        shuffled = [
            Outcome(o.tournament_id, o.end_date, o.session, o.table, tuple(rng.sample(o.seats, 4)))
            for o in outcomes
        ]
        rng.shuffle(shuffled)
        assert _fingerprint(run(shuffled, config=CONFIG)) == reference  # exact, every digit


def test_full_recompute_equals_incremental() -> None:
    outcomes = _history([], 14)
    full = run(outcomes, config=CONFIG)
    cut = full.periods[6]
    first = run([o for o in outcomes if period_of(o.end_date) < cut], config=CONFIG)
    rest = run(outcomes, config=CONFIG, states=first.states, from_period=cut)
    assert first.changes + rest.changes == full.changes
    assert rest.states == full.states


def test_a_correction_changes_that_period_and_what_follows_only() -> None:
    outcomes = _history([], 10)
    before = run(outcomes, config=CONFIG)
    target = before.periods[4]
    corrected = [
        Outcome(o.tournament_id, o.end_date, o.session, o.table, tuple((p, -g) for p, g in o.seats))
        if period_of(o.end_date) == target and o.session == 1
        else o
        for o in outcomes
    ]
    after = run(corrected, config=CONFIG)
    earlier = [c for c in before.changes if c.period < target]
    assert [c for c in after.changes if c.period < target] == earlier
    assert [c for c in after.changes if c.period == target] != [
        c for c in before.changes if c.period == target
    ]


# --- the list ---------------------------------------------------------------------------------


def test_rating_list_ranks_established_first_and_tracks_change() -> None:
    outcomes = _history([], 14)
    result = run(outcomes, config=CONFIG)
    history: dict[int, list] = {}
    for c in result.changes:
        history.setdefault(c.player, []).append((c.period, c.after, c.games))
    last = result.periods[-1]
    rows = rating_list(last, history, CONFIG)
    assert [r.rank for r in rows] == list(range(1, len(rows) + 1))
    flags = [r.provisional for r in rows]
    assert flags == sorted(flags)  # established first, provisional after
    for row in rows:
        state = result.states[row.player]
        assert row.rating == rating_at(state, last, CONFIG)
        assert row.games == sum(c.games for c in result.changes if c.player == row.player)
        previous_list = {r.player: r for r in rating_list(last - 1, history, CONFIG)}
        if row.player in previous_list:
            assert row.change == pytest.approx(
                row.rating.rating - previous_list[row.player].rating.rating
            )
        else:
            assert row.change is None
    # Nobody appears before their first period.
    first = rating_list(result.periods[0], history, CONFIG)
    assert {r.player for r in first} == {
        c.player for c in result.changes if c.period == result.periods[0]
    }


def test_rating_list_equals_the_step_by_step_inactivity() -> None:
    """Only periods with games are stored; the list's idle RD equals step 6 month by month."""
    outcomes = tournament(1, date(2020, 1, 10), list(range(1, 9)), 6, seed=5)
    result = run(outcomes, config=CONFIG)
    history = {c.player: [(c.period, c.after, c.games)] for c in result.changes}
    start = period_of(date(2020, 1, 1))
    step = {c.player: c.after for c in result.changes}
    for month in range(1, 80):
        step = {
            p: Rating(r.rating, min(glicko.update(r, []).rd, 350.0), r.vol) for p, r in step.items()
        }
        listed = {row.player: row.rating for row in rating_list(start + month, history, CONFIG)}
        for player, rating in step.items():
            assert listed[player].rating == rating.rating
            assert listed[player].rd == pytest.approx(rating.rd, rel=1e-12)

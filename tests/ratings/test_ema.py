"""The EMA ranking (ratings/rules/ema.py) on hand-computed cases: no database."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from fractions import Fraction

from ratings.rules.ema import (
    EmaConfig,
    Placing,
    Result,
    age_factor,
    base_ranks,
    part_a_count,
    player_score,
    ranking,
    rounded,
)

ON = date(2026, 6, 30)


def result(tournament: int, base: float | Fraction, *, weight: str = "1", days: int = 0) -> Result:
    return Result(tournament, ON - timedelta(days=days), Fraction(base), Fraction(weight))


def test_base_ranks_from_1000_to_0_linear() -> None:
    ranks = base_ranks([Placing(p, p) for p in range(1, 6)])
    assert ranks == {1: 1000, 2: 750, 3: 500, 4: 250, 5: 0}


def test_the_published_example_75th_of_100() -> None:
    ranks = base_ranks([Placing(p, p) for p in range(1, 101)])
    assert rounded(ranks[75], 0) == Decimal(253)  # 1000 x 25 / 99 = 252.5...
    assert ranks[75] == Fraction(25000, 99)


def test_ties_share_the_mean_of_their_places() -> None:
    ranks = base_ranks([Placing(1, 1), Placing(2, 2), Placing(3, 2), Placing(4, 4)])
    # places 2 and 3 of 4: (666.67 + 333.33) / 2
    assert ranks == {1: 1000, 2: 500, 3: 500, 4: 0}


def test_substitutes_are_not_ranked_nor_counted() -> None:
    ranks = base_ranks([Placing(1, 1), Placing(2, 2), Placing(9, 3, substitute=True),
                        Placing(3, 4), Placing(4, 5)])
    assert 9 not in ranks
    assert ranks == {1: 1000, 2: Fraction(2000, 3), 3: Fraction(1000, 3), 4: 0}


def test_a_field_of_one_gets_1000() -> None:
    assert base_ranks([Placing(7, 1)]) == {7: 1000}


def test_age_factor_window() -> None:
    config = EmaConfig()
    assert age_factor(0, config) == 1
    assert age_factor(364, config) == 1
    assert age_factor(365, config) == Fraction(1, 2)
    assert age_factor(729, config) == Fraction(1, 2)
    assert age_factor(730, config) is None
    assert age_factor(-1, config) is None  # after the ranking's date


def test_part_a_counts_the_best_5_plus_80_percent_of_the_rest_rounded_up() -> None:
    assert [part_a_count(n, EmaConfig()) for n in (0, 2, 5, 6, 7, 8, 10, 20)] == [
        5, 5, 5, 6, 7, 8, 9, 17,
    ]


def test_two_results_missing_ones_count_zero_at_weight_1() -> None:
    # 1000 at MERS 1 (new), 500 at MERS 2 aged 400 days: weight 2 x 0.5 = 1
    score = player_score(1, [result(1, 1000), result(2, 500, weight="2", days=400)], ON)
    assert score.tournaments == 2 and score.listed
    assert score.part_a == 300  # (1000 + 500 + 0 + 0 + 0) / 5
    assert score.part_b == 375  # (1000 + 500 + 0 + 0) / 4
    assert score.score == Fraction(675, 2)
    assert [c.tournament for c in score.results] == [1, 2, None, None, None]
    assert [c.in_b for c in score.results] == [True, True, True, True, False]


def test_weights_pull_the_average() -> None:
    # 800 at MERS 3, 200 at MERS 1, 5 slots: (2400 + 200 + 0) / (3 + 1 + 3)
    score = player_score(1, [result(1, 800, weight="3"), result(2, 200)], ON)
    assert score.part_a == Fraction(2600, 7)
    assert score.part_b == Fraction(2600, 6)  # (2400 + 200 + 0 + 0) / (3 + 1 + 1 + 1)
    assert rounded(score.score) == Decimal("402.38")


def test_ten_results_part_a_nine_best_part_b_four_best() -> None:
    results = [result(i, 1000 - 100 * i) for i in range(10)]  # 1000, 900, ..., 100
    score = player_score(1, results, ON)
    assert score.count_a == 9
    assert score.part_a == 600  # (1000 + ... + 200) / 9
    assert score.part_b == 850  # (1000 + 900 + 800 + 700) / 4
    assert score.score == 725
    assert [c.tournament for c in score.results if not c.in_a] == [9]


def test_results_out_of_the_window_or_later_are_left_out() -> None:
    score = player_score(1, [result(1, 1000), result(2, 1000, days=730),
                             result(3, 1000, days=-1)], ON)
    assert score.tournaments == 1 and not score.listed
    assert score.part_a == 200 and score.part_b == 250


def test_ranking_lists_players_with_two_results_ties_share() -> None:
    results = {
        1: [result(1, 1000), result(2, 1000)],
        2: [result(1, 500), result(2, 500)],
        3: [result(1, 500), result(2, 500)],
        4: [result(1, 0)],  # one result: not listed
        5: [result(1, 0), result(2, 0)],
    }
    table = ranking(results, ON)
    assert [(r.rank, r.score.player) for r in table] == [(1, 1), (2, 2), (2, 3), (4, 5)]
    assert table[0].score.score == 450  # (2000 / 5 + 2000 / 4) / 2

"""The EMA ranking (ratings/rules/ema.py) on hand-computed cases: no database."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from fractions import Fraction

from ratings.rules.ema import (
    EmaConfig,
    Freeze,
    Placing,
    Result,
    age_days,
    age_factor,
    base_ranks,
    part_a_count,
    player_score,
    published_base_rank,
    ranking,
    rounded,
    window_start,
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
    # decision 0831: "over one year old" from the 366th day; out when over two years old
    config = EmaConfig()
    assert age_factor(0, config) == 1
    assert age_factor(365, config) == 1
    assert age_factor(366, config) == Fraction(1, 2)
    assert age_factor(730, config) == Fraction(1, 2)
    assert age_factor(731, config) is None
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
    score = player_score(1, [result(1, 1000), result(2, 1000, days=731),
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


# decision 0831: the figures as the EMA publishes them


def test_base_ranks_count_as_published_whole_numbers_rounded_down() -> None:
    # the EMA's own example: 75th of 100 gets 252 (1000 x 25 / 99 = 252.53)
    ranks = base_ranks([Placing(p, p) for p in range(1, 101)])
    assert published_base_rank(ranks[75], EmaConfig()) == 252
    # 3rd of 16: 866.67 -> 866 ("half-up": 867; "exact": the fraction)
    third = base_ranks([Placing(p, p) for p in range(1, 17)])[3]
    assert published_base_rank(third, EmaConfig()) == 866
    assert published_base_rank(third, EmaConfig(base_rank_rounding="half-up")) == 867
    assert published_base_rank(third, EmaConfig(base_rank_rounding="exact")) == third
    # 2nd of 3 is 500 exactly in every reading
    assert published_base_rank(Fraction(500), EmaConfig()) == 500


def test_the_score_counts_the_published_base_ranks() -> None:
    # 866.67 and 252.53 count as 866 and 252: A = (866 + 252) / 5, B = (866 + 252) / 4
    score = player_score(1, [result(1, Fraction(2600, 3)), result(2, Fraction(25000, 99))], ON)
    assert [c.base_rank for c in score.results[:2]] == [866, 252]
    assert score.part_a == Fraction(1118, 5) and score.part_b == Fraction(1118, 4)
    assert rounded(score.score) == Decimal("251.55")  # (223.6 + 279.5) / 2


def test_ties_in_a_tournament_share_the_mean_then_the_published_rounding() -> None:
    # 2nd and 3rd of 5 tied: (750 + 500) / 2 = 625; 3rd to 5th of 7 tied: mean of
    # 666.67, 500, 333.33 = 500; 2nd and 3rd of 4 tied: 500
    ranks = base_ranks([Placing(1, 1), Placing(2, 2), Placing(3, 2), Placing(4, 4),
                        Placing(5, 5)])
    assert ranks[2] == ranks[3] == 625
    seven = base_ranks([Placing(p, min(max(p, 3), 5) if p <= 5 else p) for p in range(1, 8)])
    assert seven[4] == 500 and published_base_rank(seven[4], EmaConfig()) == 500


def test_a_score_half_a_hundredth_is_rounded_up() -> None:
    assert rounded(Fraction(12345, 1000)) == Decimal("12.35")
    assert rounded(Fraction(12344999, 1000000)) == Decimal("12.34")


FREEZE = Freeze(date(2020, 4, 1), date(2022, 4, 1))


def test_the_freeze_stops_the_ageing() -> None:
    config = EmaConfig(freeze=FREEZE)
    # a result of 2020-03-01 on 2022-04-01: 31 days before the freeze, none after
    assert age_days(date(2020, 3, 1), date(2022, 4, 1), config) == 31
    assert age_days(date(2020, 3, 1), date(2022, 4, 1), EmaConfig()) == 761
    # on 2023-03-01: 31 + 334 days
    assert age_days(date(2020, 3, 1), date(2023, 3, 1), config) == 365
    # a result after the freeze ages as usual; the ranking's date inside the freeze stops it
    assert age_days(date(2022, 5, 1), date(2022, 6, 1), config) == 31
    assert age_days(date(2019, 4, 1), date(2021, 1, 1), config) == 365
    assert age_days(date(2019, 4, 1), date(2020, 4, 1), config) == 365  # 2020-04-01 frozen


def test_the_freeze_window_edges() -> None:
    config = EmaConfig(freeze=FREEZE)
    # the EMA: at the freeze "tournaments from April 1st 2018 contribute": on the last day
    # before the freeze (2020-03-31) a result of 2018-04-01 is 730 days old, half weight
    on = date(2020, 3, 31)
    assert age_days(date(2018, 4, 1), on, config) == 730
    ended_then = Result(1, date(2018, 4, 1), Fraction(1000), Fraction(1))
    older = Result(2, date(2018, 3, 31), Fraction(1000), Fraction(1))
    assert [c.tournament for c in player_score(1, [ended_then, older], on, config).results
            if c.tournament] == [1]
    # it still counts on the freeze's first and last days, and goes the day after
    for day in (date(2020, 4, 1), date(2022, 3, 31)):
        assert [c.tournament for c in player_score(
            1, [ended_then, older], day, config).results if c.tournament] == [1]
    assert player_score(1, [ended_then], date(2022, 4, 1), config).tournaments == 0
    assert window_start(date(2022, 3, 31), config) < date(2018, 4, 1)
    # without the freeze the same result is long gone
    assert player_score(1, [ended_then], date(2022, 3, 31), EmaConfig()).tournaments == 0


# decision 0832: the country ranking


def test_countries_by_the_mean_of_their_best_three() -> None:
    from ratings.rules.ema import country_ranking

    table = country_ranking([
        (1, "NL", Decimal("900")), (2, "NL", Decimal("800")), (3, "NL", Decimal("700")),
        (4, "NL", Decimal("999")),  # the best of four: 999, 900, 800
        (5, "FR", Decimal("950")), (6, "FR", Decimal("850")),  # one missing: counts 0
        (7, "DK", Decimal("600.01")), (8, "DK", Decimal("600")), (9, "DK", Decimal("600")),
        (10, "", Decimal("1000")),  # no country: left out
    ])
    # DK: 600.0033 and FR: 1800 / 3 publish the same 600.00: they share the 2nd place
    assert [(c.rank, c.country, c.score, c.players) for c in table] == [
        (1, "NL", Decimal("899.67"), (4, 1, 2)),
        (2, "DK", Decimal("600.00"), (7, 8, 9)),
        (2, "FR", Decimal("600.00"), (5, 6)),
    ]


def test_a_country_of_one_player_and_rounding() -> None:
    from ratings.rules.ema import country_ranking

    # 1000 / 3 = 333.333 -> 333.33; 500.005 x 3 / 3 -> 500.01 (half up)
    table = country_ranking([(1, "SE", Decimal("1000")), (2, "IT", Decimal("500.01")),
                             (3, "IT", Decimal("500.01")), (4, "IT", Decimal("499.995"))])
    assert [(c.country, c.score) for c in table] == [("IT", Decimal("500.01")),
                                                      ("SE", Decimal("333.33"))]

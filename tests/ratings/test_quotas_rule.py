"""The EMA's championship quotas, pure (decision 0841): hand-computed cases."""

from __future__ import annotations

from fractions import Fraction

from ratings.rules.quotas import CountryPlayers, quotas


def _c(code: str, *scores: int) -> CountryPlayers:
    return CountryPlayers(code, tuple(Fraction(s) for s in scores))


def test_part_a_part_b_the_limit_and_a_seat_nobody_can_take() -> None:
    # 14 players, sum 8210: the average is 8210/14 = 586.43
    nl = _c("NL", 900, 800, 750, 720, 600, 300)  # 4 over 700, 5 above the average
    fr = _c("FR", 710, 650, 640, 200)  # 1 over 700, 3 above the average
    de = _c("DE", 680, 660, 100)  # 0 over 700, 2 above
    be = _c("BE", 500)  # none above: the limit is still 1
    order = [nl, fr, de, be]  # the country ranking: 816.7 666.7 480 166.7
    q = quotas(12, order)
    assert q.average == Fraction(8210, 14)
    rows = {r.country: r for r in q.rows}
    # B3 = (players share + over-700 share) / 2: 43/70, 17/70, 3/28, 1/28
    assert [rows[c].share for c in ("NL", "FR", "DE", "BE")] == [
        Fraction(43, 70), Fraction(17, 70), Fraction(3, 28), Fraction(1, 28)]
    # A2 4 seats, A3 NL FR, A1 NL FR DE: 3 3 2 1 -> 3 seats left for part B
    assert [rows[c].part_a for c in ("NL", "FR", "DE", "BE")] == [3, 3, 2, 1]
    # B, seat 1: NL (43/70); seat 2: FR (34/70 > NL 16/70); seat 3: NL (59/70)
    assert [rows[c].part_b for c in ("NL", "FR", "DE", "BE")] == [2, 1, 0, 0]
    # FR 4 > its limit 3; nobody is below their limit: the seat stays unallocated
    assert [rows[c].cap for c in ("NL", "FR", "DE", "BE")] == [5, 3, 2, 1]
    assert [rows[c].seats for c in ("NL", "FR", "DE", "BE")] == [5, 3, 2, 1]
    assert q.unallocated == 1
    assert (rows["NL"].players, rows["NL"].over_threshold, rows["NL"].above_average) == (6, 4, 5)


def test_a_seat_over_the_limit_goes_down_the_country_ranking() -> None:
    # average 4039/9 = 448.8; limits A 1, B 3, C 2
    a, b, c = _c("AA", 800), _c("BB", 750, 720, 710, 100), _c("CC", 705, 704, 100, 50)
    q = quotas(6, [a, b, c])
    # A2 3 seats, A3 3 seats: nothing left for A1 (the best countries) nor part B
    assert [r.part_a for r in q.rows] == [2, 2, 2]
    assert [r.part_b for r in q.rows] == [0, 0, 0]
    # AA is held to 1; its seat goes to the first country below its limit: BB
    assert [r.seats for r in q.rows] == [1, 3, 2]
    assert q.unallocated == 0


def test_fewer_seats_than_countries_go_down_the_ranking() -> None:
    q = quotas(2, [_c("AA", 900), _c("BB", 800), _c("CC", 100)])
    assert [r.seats for r in q.rows] == [1, 1, 0]


def test_nobody_over_the_threshold_shares_by_players_alone() -> None:
    q = quotas(8, [_c("AA", 600, 500, 400, 300), _c("BB", 650, 100)])
    assert [r.share for r in q.rows] == [Fraction(2, 3), Fraction(1, 3)]
    # average 425: limits AA 2 (600 500), BB 1 (650); A2 1 + 1, A1 +1 +1; B: 4 seats
    assert [r.part_a for r in q.rows] == [2, 2]
    assert [r.part_b for r in q.rows] == [3, 1]
    assert [r.seats for r in q.rows] == [2, 1] and q.unallocated == 5


def test_no_players_no_seats() -> None:
    q = quotas(10, [])
    assert q.rows == () and q.unallocated == 10

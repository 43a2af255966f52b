"""The Glicko-2 engine against Glickman's paper ("Example of the Glicko-2 system")."""

from __future__ import annotations

import math
import random

import glicko2
import pytest

from ratings.rules.glicko import SCALE, Rating, expected_score, inactive, update

PAPER_PLAYER = Rating(1500, 200, 0.06)
PAPER_GAMES = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]


# --- an independent implementation of the paper's equations (steps 2-8), for comparison ----


def paper_update(
    player: Rating, games: list[tuple[Rating, float]], tau: float
) -> tuple[float, float, float]:
    mu = (player.rating - 1500) / SCALE
    phi = player.rd / SCALE
    sigma = player.vol
    if not games:
        return player.rating, math.sqrt(phi**2 + sigma**2) * SCALE, sigma

    def g(phi_j: float) -> float:
        return 1 / math.sqrt(1 + 3 * phi_j**2 / math.pi**2)

    def e(mu_j: float, phi_j: float) -> float:
        return 1 / (1 + math.exp(-g(phi_j) * (mu - mu_j)))

    opp = [((o.rating - 1500) / SCALE, o.rd / SCALE, s) for o, s in games]
    v = 1 / sum(g(pj) ** 2 * e(mj, pj) * (1 - e(mj, pj)) for mj, pj, _ in opp)
    delta = v * sum(g(pj) * (s - e(mj, pj)) for mj, pj, s in opp)

    a = math.log(sigma**2)

    def f(x: float) -> float:
        return (
            math.exp(x)
            * (delta**2 - phi**2 - v - math.exp(x))
            / (2 * (phi**2 + v + math.exp(x)) ** 2)
            - (x - a) / tau**2
        )

    big_a = a
    if delta**2 > phi**2 + v:
        big_b = math.log(delta**2 - phi**2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    fa, fb = f(big_a), f(big_b)
    while abs(big_b - big_a) > 0.000001:
        big_c = big_a + (big_a - big_b) * fa / (fb - fa)
        fc = f(big_c)
        if fc * fb <= 0:
            big_a, fa = big_b, fb
        else:
            fa /= 2
        big_b, fb = big_c, fc
    sigma_new = math.exp(big_a / 2)
    phi_star = math.sqrt(phi**2 + sigma_new**2)
    phi_new = 1 / math.sqrt(1 / phi_star**2 + 1 / v)
    mu_new = mu + phi_new**2 * sum(g(pj) * (s - e(mj, pj)) for mj, pj, s in opp)
    return mu_new * SCALE + 1500, phi_new * SCALE, sigma_new


# --- the paper's worked example ------------------------------------------------------------


def test_paper_worked_example() -> None:
    result = update(PAPER_PLAYER, PAPER_GAMES, tau=0.5)
    # The paper prints mu' = -0.2069, phi' = 0.8722, sigma' = 0.05999 (r' 1464.06, RD' 151.52).
    assert (result.rating - 1500) / SCALE == pytest.approx(-0.2069, abs=0.00005)
    assert result.rd / SCALE == pytest.approx(0.8722, abs=0.00005)
    assert result.vol == pytest.approx(0.05999, abs=0.00001)
    assert result.rating == pytest.approx(1464.06, abs=0.01)
    assert result.rd == pytest.approx(151.52, abs=0.01)


def test_new_player_defaults() -> None:
    assert Rating() == Rating(1500.0, 350.0, 0.06)


def test_rating_is_frozen() -> None:
    with pytest.raises(AttributeError):
        Rating().rating = 1600  # type: ignore[misc]


# --- against the independent implementation -------------------------------------------------

FAR_PLAYERS = [
    Rating(2300, 60, 0.06),
    Rating(820, 90, 0.05),
    Rating(2050, 250, 0.09),
    Rating(1100, 40, 0.04),
]


@pytest.mark.parametrize("tau", [0.5, 0.3, 1.2])
@pytest.mark.parametrize("player", FAR_PLAYERS)
def test_matches_the_papers_equations_far_from_1500(player: Rating, tau: float) -> None:
    rng = random.Random(f"{player}-{tau}")
    games = [
        (Rating(rng.uniform(700, 2500), rng.uniform(30, 350), 0.06), rng.choice([0.0, 0.5, 1.0]))
        for _ in range(rng.randint(3, 24))
    ]
    ours = update(player, games, tau=tau)
    ref = paper_update(player, games, tau)
    assert ours.rating == pytest.approx(ref[0], abs=1e-6)
    assert ours.rd == pytest.approx(ref[1], abs=1e-6)
    assert ours.vol == pytest.approx(ref[2], abs=1e-9)


def test_the_packages_own_volatility_step_is_wrong_far_from_1500() -> None:
    """Regression: the uncorrected package uses the rating where step 5 has the RD."""
    player = Rating(2300, 60, 0.06)
    games = [(Rating(1500, 80), 0.0)] * 6
    raw = glicko2.Player(rating=player.rating, rd=player.rd, vol=player.vol)
    raw.update_player([1500] * 6, [80] * 6, [0] * 6)
    ref = paper_update(player, games, 0.5)
    ours = update(player, games)
    assert ours.vol == pytest.approx(ref[2], abs=1e-9)
    assert abs(raw.vol - ref[2]) > 3e-4  # the uncorrected package: 0.06008 instead of 0.06045
    assert abs(raw.rating - ref[0]) > 0.03


def test_other_tau_changes_the_volatility() -> None:
    surprising = [(Rating(2200, 50), 1.0)] * 5
    low = update(Rating(1500, 60, 0.06), surprising, tau=0.2)
    high = update(Rating(1500, 60, 0.06), surprising, tau=1.2)
    assert high.vol > low.vol
    assert low.vol == pytest.approx(paper_update(Rating(1500, 60, 0.06), surprising, 0.2)[2])


# --- no games: step 6 only ------------------------------------------------------------------


def test_no_games_is_the_step_6_rd_increase_only() -> None:
    result = update(PAPER_PLAYER, [])
    assert result.rating == PAPER_PLAYER.rating
    assert result.vol == PAPER_PLAYER.vol
    phi = 200 / SCALE
    assert result.rd == pytest.approx(math.sqrt(phi**2 + 0.06**2) * SCALE, rel=1e-12)


def test_inactive_closed_form_equals_repeated_step_6() -> None:
    player = Rating(1720, 62.5, 0.071)
    step = player
    for n in range(1, 60):
        step = update(step, [])
        capped = Rating(step.rating, min(step.rd, 350.0), step.vol)
        assert inactive(player, n) == Rating(
            player.rating, pytest.approx(capped.rd, rel=1e-12), player.vol
        )


def test_inactive_is_capped_at_350() -> None:
    assert inactive(Rating(1600, 340, 0.06), 100).rd == 350.0
    assert inactive(Rating(1600, 340, 0.06), 100, max_rd=345.0).rd == 345.0
    assert inactive(Rating(1600, 100, 0.06), 0) == Rating(1600, 100, 0.06)


def test_expected_score_is_the_papers_e() -> None:
    e = expected_score(PAPER_PLAYER, Rating(1400, 30))
    # The paper's table: E = 0.639 against the 1400 / 30 opponent.
    assert e == pytest.approx(0.639, abs=0.0005)
    assert expected_score(Rating(1500, 50), Rating(1500, 350)) == pytest.approx(0.5)

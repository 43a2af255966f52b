"""Glicko-2, as in Mark E. Glickman's paper "Example of the Glicko-2 system" (the paper).

PURE: no Django. Built on the `glicko2` package (`glicko2.Player`), corrected where it leaves
the paper:

* Step 5.1 defines f(x) with the rating deviation phi: f(x) = e^x (Δ² − φ² − v − e^x) /
  (2 (φ² + v + e^x)²) − (x − a) / τ². The package writes the player's rating mu where the paper
  has phi, which gives a wrong volatility (and so a wrong RD and rating) for every player
  whose rating is not 1500.
* Step 5.4 is the Illinois iteration: (b) "if f_C f_B ≤ 0 set A ← B", (d) "stop if
  |B − A| ≤ ε". Whatever version of the package is installed, the iteration below is written
  out here with the paper's comparisons (≤ in both places) instead of being inherited, so the
  result does not depend on the package's choice of `<` or `<=`.

Both are fixed in `_PaperPlayer` (a subclass: the package still converts scales, computes
g, E, v and Δ, and does steps 6-8). `tests/ratings/test_glicko.py` checks the paper's worked
example and an independent implementation of the paper's equations.

Public interface: `Rating` (the usual scale: 1500 / 350 / 0.06 for a new player),
`update(player, games, tau=...)` for one rating period, and `inactive(player, periods)` for
the step-6 RD increase over idle periods (closed form, capped).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import glicko2  # type: ignore[import-untyped]

#: The paper's scale factor between the Glicko and the Glicko-2 scale (step 2).
SCALE = 173.7178
#: Convergence tolerance of step 5 (the paper: "ε = 0.000001").
EPSILON = 0.000001

NEW_RATING = 1500.0
NEW_RD = 350.0
NEW_VOL = 0.06
DEFAULT_TAU = 0.5


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating, rating deviation and volatility on the usual (Glicko) scale."""

    rating: float = NEW_RATING
    rd: float = NEW_RD
    vol: float = NEW_VOL


class _PaperPlayer(glicko2.Player):  # type: ignore[misc]
    """`glicko2.Player` with the paper's step 5 and a per-player tau."""

    def __init__(self, rating: float, rd: float, vol: float, tau: float) -> None:
        super().__init__(rating=rating, rd=rd, vol=vol)
        self._tau = tau
        self._g_memo: dict[float, float] = {}
        self._e_memo: dict[tuple[float, float], float] = {}

    # The package evaluates g(φ_j) and E(μ, μ_j, φ_j) again for every game in each of its
    # three sums (v, Δ and the new rating). Both depend only on their arguments (and on μ,
    # which does not change until the very end of the update, after the last E), and a
    # player meets the same opponents several times a period: remembering them gives the
    # package's own values, bit for bit, several times faster. One instance serves one update.
    def _g(self, RD: float) -> float:
        value = self._g_memo.get(RD)
        if value is None:
            value = self._g_memo[RD] = super()._g(RD)
        return value

    def _E(self, p2rating: float, p2RD: float) -> float:
        key = (p2rating, p2RD)
        value = self._e_memo.get(key)
        if value is None:
            value = self._e_memo[key] = super()._E(p2rating, p2RD)
        return value

    @property
    def _phi(self) -> float:
        # The package keeps phi in a name-mangled attribute of glicko2.Player.
        return float(self._Player__rd)

    def _f(self, x: float, delta: float, v: float, a: float) -> float:
        # Paper, step 5.1: f(x) = e^x(Δ² − φ² − v − e^x) / (2(φ² + v + e^x)²) − (x − a)/τ².
        # The package uses the rating mu here instead of the deviation phi (its bug).
        phi2 = self._phi**2
        ex = math.exp(x)
        return (ex * (delta**2 - phi2 - v - ex)) / (2 * (phi2 + v + ex) ** 2) - (
            x - a
        ) / self._tau**2

    def _newVol(  # the package's method name and signature
        self,
        rating_list: list[float],
        RD_list: list[float],
        outcome_list: list[float],
        v: float,
    ) -> float:
        """Step 5 of the paper, written out with the paper's comparisons."""
        tau = self._tau
        phi2 = self._phi**2
        delta = self._delta(rating_list, RD_list, outcome_list, v)
        # Step 5.1: a = ln(σ²).
        a = math.log(self.vol**2)
        # Step 5.2: initial bracket. If Δ² > φ² + v, B = ln(Δ² − φ² − v); otherwise the
        # smallest k = 1, 2, ... with f(a − kτ) ≥ 0 (iterate while f(a − kτ) < 0), B = a − kτ.
        big_a = a
        if delta**2 > phi2 + v:
            big_b = math.log(delta**2 - phi2 - v)
        else:
            k = 1
            while self._f(a - k * tau, delta, v, a) < 0:
                k += 1
            big_b = a - k * tau
        # Step 5.3: f_A = f(A), f_B = f(B).
        f_a = self._f(big_a, delta, v, a)
        f_b = self._f(big_b, delta, v, a)
        # Step 5.4: while |B − A| > ε (i.e. (d): stop as soon as |B − A| ≤ ε) ...
        while abs(big_b - big_a) > EPSILON:
            # (a) C = A + (A − B) f_A / (f_B − f_A), f_C = f(C)
            big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
            f_c = self._f(big_c, delta, v, a)
            # (b) if f_C f_B ≤ 0 (the paper's ≤): A ← B, f_A ← f_B; otherwise f_A ← f_A / 2
            if f_c * f_b <= 0:
                big_a, f_a = big_b, f_b
            else:
                f_a = f_a / 2
            # (c) B ← C, f_B ← f_C
            big_b, f_b = big_c, f_c
        # Step 5.5: σ' = e^(A/2).
        return math.exp(big_a / 2)


def update(
    player: Rating, games: Sequence[tuple[Rating, float]], *, tau: float = DEFAULT_TAU
) -> Rating:
    """The player's rating after one rating period.

    `games` are (opponent's rating at the start of the period, score 1 / 0.5 / 0). No games
    means the paper's step 6 only: the RD grows to sqrt(φ² + σ²), rating and volatility stay.
    """
    p = _PaperPlayer(player.rating, player.rd, player.vol, tau)
    if not games:
        p.did_not_compete()
    else:
        p.update_player(
            [opponent.rating for opponent, _ in games],
            [opponent.rd for opponent, _ in games],
            [float(score) for _, score in games],
        )
    return Rating(rating=float(p.rating), rd=float(p.rd), vol=float(p.vol))


def inactive(player: Rating, periods: int = 1, *, max_rd: float = NEW_RD) -> Rating:
    """The step-6 RD increase over `periods` idle rating periods, capped at `max_rd`.

    Step 6 per idle period: φ ← sqrt(φ² + σ²) with σ unchanged, so n periods give
    φ' = sqrt(φ² + n σ²) in one step. The cap never lowers an RD that is already above it.
    """
    if periods <= 0:
        return player
    phi = player.rd / SCALE
    grown = math.sqrt(phi * phi + periods * player.vol * player.vol) * SCALE
    rd = min(grown, max(max_rd, player.rd))
    return Rating(rating=player.rating, rd=rd, vol=player.vol)


def expected_scores(player: Rating, opponents: Sequence[Rating]) -> list[float]:
    """E(μ, μ_j, φ_j) of the paper's step 3 against each opponent (the package's E)."""
    p = _PaperPlayer(player.rating, player.rd, player.vol, DEFAULT_TAU)
    return [float(p._E((o.rating - NEW_RATING) / SCALE, o.rd / SCALE)) for o in opponents]


def expected_score(player: Rating, opponent: Rating) -> float:
    """E(μ, μ_j, φ_j) of the paper's step 3: the expected score against one opponent."""
    return expected_scores(player, [opponent])[0]

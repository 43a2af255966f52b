"""Who is ranked and where, once the scoring core has ranked everyone (3.10.1).

Substitutes fill tables and are never ranked. Players who withdrew keep the sessions they
played; the tournament's rule (``withdrawn_ranking``) ranks them below every player who
finished (in the order of their own totals) or leaves them unranked (see
docs/decisions/0712-withdrawals-and-substitutes.md).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from rulebook.scoring.standings import Standing

BELOW = "below"
UNRANKED = "unranked"


@dataclass(frozen=True)
class Placed:
    standing: Standing
    rank: int | None  # None: not ranked (a substitute, or withdrawn under "unranked")


def _competition_ranks(group: Sequence[Standing], offset: int) -> list[int]:
    """Ranks 1, 1, 3 (plus ``offset``) of standings already sorted best first."""
    ranks: list[int] = []
    keys: list[tuple[Fraction, int]] = [(s.table_points, s.game_points) for s in group]
    for i, key in enumerate(keys):
        ranks.append(ranks[-1] if i and key == keys[i - 1] else offset + i + 1)
    return ranks


def place(
    ranking: Sequence[Standing],
    *,
    substitutes: Collection[int],
    withdrawn: Mapping[int, int],
    rule: str,
) -> list[Placed]:
    """Every standing of ``ranking`` (already sorted by the core) with its final rank: the
    players who finished first, then the players who withdrew, then the substitutes."""
    finished = [s for s in ranking if s.player not in substitutes and s.player not in withdrawn]
    left = [s for s in ranking if s.player not in substitutes and s.player in withdrawn]
    subs = [s for s in ranking if s.player in substitutes]
    out = [Placed(s, r) for s, r in zip(finished, _competition_ranks(finished, 0), strict=True)]
    if rule == BELOW:
        ranks = _competition_ranks(left, len(finished))
        out += [Placed(s, r) for s, r in zip(left, ranks, strict=True)]
    else:
        out += [Placed(s, None) for s in left]
    out += [Placed(s, None) for s in subs]
    return out

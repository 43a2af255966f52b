"""The fans between chows and between pungs, against a second, independent formulation.

``chow_instances`` and ``pung_instances`` (``mcr/combination_fans.py``) look the fans
between two and three sets up in tables built at import from one definition per fan, and
run the four-set definitions directly. The functions below are the direct search they
replaced (every pair, triple and the four sets written out by hand, in suit and rank
numbers), kept as the reference.
"""

from __future__ import annotations

import itertools
import random

from rulebook.scoring.mcr.combination_fans import chow_instances as _chow_instances
from rulebook.scoring.mcr.combination_fans import pung_instances as _pung_instances


def _four_chow_instances(chows: tuple[int, ...], pair: int) -> list[tuple[str, int]]:
    """The fans of four chows together (14, 16, 13, 29); ``pair``: the pair's tile."""
    out: list[tuple[str, int]] = []
    suit = [c // 9 for c in chows]
    rank = [c % 9 for c in chows]
    m = 15
    if len(set(suit)) == 1:
        rs = sorted(rank)
        if rs[0] == rs[3]:
            out.append(("14", m))
        else:
            d = rs[1] - rs[0]
            if d in (1, 2) and rs[2] - rs[1] == d and rs[3] - rs[2] == d:
                out.append(("16", m))
        if rs == [0, 0, 6, 6] and pair == suit[0] * 9 + 4:
            out.append(("13", m))
    if pair < 27 and pair % 9 == 4:
        psuit = pair // 9
        by_suit: dict[int, list[int]] = {}
        for s_, r_ in zip(suit, rank, strict=True):
            by_suit.setdefault(s_, []).append(r_)
        if (
            len(by_suit) == 2
            and psuit not in by_suit
            and all(sorted(v) == [0, 6] for v in by_suit.values())
        ):
            out.append(("29", m))
    return out


def _four_pung_instances(pungs: tuple[int, ...]) -> list[tuple[str, int]]:
    """The fan of four pungs together (15: four shifted pungs)."""
    if pungs[0] // 9 == pungs[1] // 9 == pungs[2] // 9 == pungs[3] // 9:
        rs = sorted(p % 9 for p in pungs)
        if all(rs[i + 1] == rs[i] + 1 for i in range(3)):
            return [("15", 15)]
    return []


def reference_chow_instances(
    chows: tuple[int, ...], pair: int
) -> tuple[tuple[str, int], ...]:
    """Fan instances between chows: (fan id, bitmask of chow indexes)."""
    out: list[tuple[str, int]] = []
    n = len(chows)
    suit = [c // 9 for c in chows]
    rank = [c % 9 for c in chows]
    for i in range(n):
        for j in range(i + 1, n):
            m = (1 << i) | (1 << j)
            if suit[i] == suit[j]:
                d = abs(rank[i] - rank[j])
                if d == 0:
                    out.append(("69", m))
                elif d == 3:
                    out.append(("71", m))
                elif d == 6:
                    out.append(("72", m))
            elif rank[i] == rank[j]:
                out.append(("70", m))
    for i in range(n):
        for j in range(i + 1, n):
            for k in range(j + 1, n):
                m = (1 << i) | (1 << j) | (1 << k)
                ss = {suit[i], suit[j], suit[k]}
                rs = sorted((rank[i], rank[j], rank[k]))
                if len(ss) == 1:
                    if rs[0] == rs[2]:
                        out.append(("23", m))
                    elif rs == [0, 3, 6]:
                        out.append(("28", m))
                    elif rs[1] - rs[0] == rs[2] - rs[1] and rs[1] - rs[0] in (1, 2):
                        out.append(("30", m))
                elif len(ss) == 3:
                    if rs[0] == rs[2]:
                        out.append(("41", m))
                    elif rs == [0, 3, 6]:
                        out.append(("39", m))
                    elif rs[1] - rs[0] == 1 and rs[2] - rs[1] == 1:
                        out.append(("51", m))
    if n == 4:
        out += _four_chow_instances(chows, pair)
    return tuple(out)


def reference_pung_instances(pungs: tuple[int, ...]) -> tuple[tuple[str, int], ...]:
    """Fan instances between suited pungs/kongs: (fan id, bitmask)."""
    out: list[tuple[str, int]] = []
    n = len(pungs)
    suit = [p // 9 for p in pungs]
    rank = [p % 9 for p in pungs]
    for i in range(n):
        for j in range(i + 1, n):
            if suit[i] != suit[j] and rank[i] == rank[j]:
                out.append(("65", (1 << i) | (1 << j)))
    for i in range(n):
        for j in range(i + 1, n):
            for k in range(j + 1, n):
                m = (1 << i) | (1 << j) | (1 << k)
                ss = {suit[i], suit[j], suit[k]}
                rs = sorted((rank[i], rank[j], rank[k]))
                consecutive = rs[1] == rs[0] + 1 and rs[2] == rs[1] + 1
                if len(ss) == 1 and consecutive:
                    out.append(("24", m))
                elif len(ss) == 3:
                    if rs[0] == rs[2]:
                        out.append(("32", m))
                    elif consecutive:
                        out.append(("42", m))
    if n == 4:
        out += _four_pung_instances(pungs)
    return tuple(out)


CHOW_STARTS = [9 * s + r for s in range(3) for r in range(7)]
SUITED = list(range(27))


def test_chow_instances_match_the_search() -> None:
    checked = 0
    for n in (2, 3):
        for chows in itertools.product(CHOW_STARTS, repeat=n):
            for pair in (34, 4, 13):
                assert _chow_instances.__wrapped__(chows, pair) == reference_chow_instances(
                    chows, pair
                ), (chows, pair)
                checked += 1
    rng = random.Random(5)
    for _ in range(30_000):
        chows = tuple(rng.choice(CHOW_STARTS) for _ in range(4))
        pair = rng.choice([34, 4, 13, 22, 0, 30])
        assert _chow_instances.__wrapped__(chows, pair) == reference_chow_instances(
            chows, pair
        ), (chows, pair)
    # every four-chow key with the fives that fans 13 and 29 ask about
    for chows in itertools.product([0, 6, 9, 15, 18, 24], repeat=4):
        for pair in (4, 13, 22, 34):
            assert _chow_instances.__wrapped__(chows, pair) == reference_chow_instances(
                chows, pair
            ), (chows, pair)
    assert checked == 3 * (21**2 + 21**3)


def test_pung_instances_match_the_search() -> None:
    for n in (2, 3):
        for pungs in itertools.permutations(SUITED, n):
            assert _pung_instances.__wrapped__(pungs) == reference_pung_instances(pungs), pungs
    rng = random.Random(6)
    for _ in range(30_000):
        pungs = tuple(rng.sample(SUITED, 4))
        assert _pung_instances.__wrapped__(pungs) == reference_pung_instances(pungs), pungs
    for pungs in itertools.permutations(range(9), 4):  # one suit: fan 15
        assert _pung_instances.__wrapped__(pungs) == reference_pung_instances(pungs), pungs


def test_rank_filter_never_hides_a_fan() -> None:
    """``chow_plan``/``pung_plan`` skip the tables for sets of distinct ranks whose rank
    mask says no fan is possible: every such set indeed makes none."""
    from rulebook.scoring.mcr.combination_fans import (
        CHOW_RANKS_MAY_COMBINE,
        PUNG_RANKS_MAY_COMBINE,
    )

    skipped = 0
    for n in (2, 3, 4):
        # whether sets make a fan does not depend on their order
        for chows in itertools.combinations_with_replacement(CHOW_STARTS, n):
            ranks = {c % 9 for c in chows}
            mask = sum(1 << r for r in ranks)
            if len(ranks) == n and not CHOW_RANKS_MAY_COMBINE[mask]:
                skipped += 1
                for pair in (34, 4, 13, 22):
                    assert reference_chow_instances(chows, pair) == (), (chows, pair)
        for pungs in itertools.combinations(SUITED, n):
            ranks = {p % 9 for p in pungs}
            mask = sum(1 << r for r in ranks)
            if len(ranks) == n and not PUNG_RANKS_MAY_COMBINE[mask]:
                skipped += 1
                assert reference_pung_instances(pungs) == (), pungs
    assert skipped > 1000

"""The fans between chows and between pungs, one definition each, in the book's words.

Each definition below says when two, three or four sets make the fan (Appendix 1).
A set is given as a :class:`SuitSet`: its suit and the rank (1-9) of its lowest tile,
so the chow 4-5-6 of dots is ``SuitSet(DOTS, 4)``. The sets come sorted by rank (then
suit), so "shifted up by one" reads ``b.rank == a.rank + 1``.

The evaluator does not call these functions per hand: at import, every pair and every
triple of chows (of suited pungs) is run through them once, and the fans found fill the
lookup tables that :func:`chow_instances` and :func:`pung_instances` read. The fans of
all four sets (and the pair) are rare and run directly, on each new key of the cached
combination tables (``principles.py``). Which of the instances are counted is the
business of the combination principles of 3.9.1.5, in ``principles.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from itertools import combinations, combinations_with_replacement, pairwise, permutations
from typing import NamedTuple, TypeVar

from ..tiles import NUM_SUITED, Tile
from .fan_ids import (
    DOUBLE_PUNG,
    FOUR_PURE_SHIFTED_CHOWS,
    FOUR_PURE_SHIFTED_PUNGS,
    MIXED_DOUBLE_CHOW,
    MIXED_SHIFTED_CHOWS,
    MIXED_SHIFTED_PUNGS,
    MIXED_STRAIGHT,
    MIXED_TRIPLE_CHOW,
    PURE_DOUBLE_CHOW,
    PURE_SHIFTED_CHOWS,
    PURE_SHIFTED_PUNGS,
    PURE_STRAIGHT,
    PURE_TERMINAL_CHOWS,
    PURE_TRIPLE_CHOW,
    QUADRUPLE_CHOW,
    SHORT_STRAIGHT,
    THREE_SUITED_TERMINAL_CHOWS,
    TRIPLE_PUNG,
    TWO_TERMINAL_CHOWS,
)


class SuitSet(NamedTuple):
    """A chow or a suited pung (kong): its suit (0-2) and the rank (1-9) of its lowest
    tile."""

    suit: int
    rank: int

    @classmethod
    def of(cls, tile: Tile) -> SuitSet:
        return cls(tile // 9, tile % 9 + 1)


# --- the vocabulary of the definitions ---------------------------------------------------------


def one_suit(*sets: SuitSet) -> bool:
    return len({s.suit for s in sets}) == 1


def suits_differ(*sets: SuitSet) -> bool:
    """Each set in another suit (three sets: one in each suit)."""
    return len({s.suit for s in sets}) == len(sets)


def ranks(*sets: SuitSet) -> tuple[int, ...]:
    return tuple(s.rank for s in sets)


def same_rank(*sets: SuitSet) -> bool:
    return len(set(ranks(*sets))) == 1


def shifted(*sets: SuitSet, by: int) -> bool:
    """Each set ``by`` ranks above the one before."""
    return all(b.rank == a.rank + by for a, b in pairwise(sets))


# --- the registries ------------------------------------------------------------------------------

PairFan = Callable[[SuitSet, SuitSet], bool]
TripleFan = Callable[[SuitSet, SuitSet, SuitSet], bool]
FourSets = tuple[SuitSet, SuitSet, SuitSet, SuitSet]
FourChowFan = Callable[[FourSets, SuitSet | None], bool]
FourPungFan = Callable[[FourSets], bool]

F = TypeVar("F", bound=Callable[..., bool])

CHOW_PAIRS: dict[str, PairFan] = {}
CHOW_TRIPLES: dict[str, TripleFan] = {}
FOUR_CHOWS: dict[str, FourChowFan] = {}
PUNG_PAIRS: dict[str, PairFan] = {}
PUNG_TRIPLES: dict[str, TripleFan] = {}
FOUR_PUNGS: dict[str, FourPungFan] = {}


def _register(registry: dict[str, F], fan_id: str) -> Callable[[F], F]:
    def decorate(definition: F) -> F:
        assert fan_id not in registry, f"fan {fan_id} defined twice"
        registry[fan_id] = definition
        return definition

    return decorate


def chow_pair(fan_id: str) -> Callable[[PairFan], PairFan]:
    """The fan of two chows ``a``, ``b`` (sorted by rank) for which the definition holds."""
    return _register(CHOW_PAIRS, fan_id)


def chow_triple(fan_id: str) -> Callable[[TripleFan], TripleFan]:
    return _register(CHOW_TRIPLES, fan_id)


def four_chows(fan_id: str) -> Callable[[FourChowFan], FourChowFan]:
    """The fan of all four chows (sorted by rank) and the pair (``None`` when it is not
    of a suit)."""
    return _register(FOUR_CHOWS, fan_id)


def pung_pair(fan_id: str) -> Callable[[PairFan], PairFan]:
    return _register(PUNG_PAIRS, fan_id)


def pung_triple(fan_id: str) -> Callable[[TripleFan], TripleFan]:
    return _register(PUNG_TRIPLES, fan_id)


def four_pungs(fan_id: str) -> Callable[[FourPungFan], FourPungFan]:
    return _register(FOUR_PUNGS, fan_id)


# --- between chows -----------------------------------------------------------------------------
# Each definition is preceded by the book's words for it.

# Pure Double Chow (69): two identical chows, same suit, same numbers.
@chow_pair(PURE_DOUBLE_CHOW)
def pure_double_chow(a: SuitSet, b: SuitSet) -> bool:
    return one_suit(a, b) and same_rank(a, b)


# Mixed Double Chow (70): two chows of the same numbers in two suits.
@chow_pair(MIXED_DOUBLE_CHOW)
def mixed_double_chow(a: SuitSet, b: SuitSet) -> bool:
    return suits_differ(a, b) and same_rank(a, b)


# Short Straight (71): two chows of one suit that follow on (1-2-3 and 4-5-6, ...).
@chow_pair(SHORT_STRAIGHT)
def short_straight(a: SuitSet, b: SuitSet) -> bool:
    return one_suit(a, b) and shifted(a, b, by=3)


# Two Terminal Chows (72): 1-2-3 and 7-8-9 of one suit.
@chow_pair(TWO_TERMINAL_CHOWS)
def two_terminal_chows(a: SuitSet, b: SuitSet) -> bool:
    return one_suit(a, b) and ranks(a, b) == (1, 7)


# Pure Triple Chow (23): three identical chows.
@chow_triple(PURE_TRIPLE_CHOW)
def pure_triple_chow(a: SuitSet, b: SuitSet, c: SuitSet) -> bool:
    return one_suit(a, b, c) and same_rank(a, b, c)


# Mixed Triple Chow (41): the same chow in each of the three suits.
@chow_triple(MIXED_TRIPLE_CHOW)
def mixed_triple_chow(a: SuitSet, b: SuitSet, c: SuitSet) -> bool:
    return suits_differ(a, b, c) and same_rank(a, b, c)


# Pure Straight (28): 1-2-3, 4-5-6, 7-8-9 of one suit.
@chow_triple(PURE_STRAIGHT)
def pure_straight(a: SuitSet, b: SuitSet, c: SuitSet) -> bool:
    return one_suit(a, b, c) and ranks(a, b, c) == (1, 4, 7)


# Mixed Straight (39): 1-2-3, 4-5-6, 7-8-9, each in another suit.
@chow_triple(MIXED_STRAIGHT)
def mixed_straight(a: SuitSet, b: SuitSet, c: SuitSet) -> bool:
    return suits_differ(a, b, c) and ranks(a, b, c) == (1, 4, 7)


# Pure Shifted Chows (30): three chows of one suit, each shifted up by one or each by two.
@chow_triple(PURE_SHIFTED_CHOWS)
def pure_shifted_chows(a: SuitSet, b: SuitSet, c: SuitSet) -> bool:
    return one_suit(a, b, c) and (shifted(a, b, c, by=1) or shifted(a, b, c, by=2))


# Mixed Shifted Chows (51): three chows in three suits, each shifted up by one.
@chow_triple(MIXED_SHIFTED_CHOWS)
def mixed_shifted_chows(a: SuitSet, b: SuitSet, c: SuitSet) -> bool:
    return suits_differ(a, b, c) and shifted(a, b, c, by=1)


# Quadruple Chow (14): four identical chows.
@four_chows(QUADRUPLE_CHOW)
def quadruple_chow(chows: FourSets, pair: SuitSet | None) -> bool:
    return one_suit(*chows) and same_rank(*chows)


# Four Pure Shifted Chows (16): four chows of one suit, each shifted up by one or each by
# two.
@four_chows(FOUR_PURE_SHIFTED_CHOWS)
def four_pure_shifted_chows(chows: FourSets, pair: SuitSet | None) -> bool:
    return one_suit(*chows) and (shifted(*chows, by=1) or shifted(*chows, by=2))


# Pure Terminal Chows (13): two 1-2-3 and two 7-8-9 of one suit, and a pair of fives of
# the same suit.
@four_chows(PURE_TERMINAL_CHOWS)
def pure_terminal_chows(chows: FourSets, pair: SuitSet | None) -> bool:
    return (
        one_suit(*chows) and ranks(*chows) == (1, 1, 7, 7)
        and pair == SuitSet(chows[0].suit, 5)
    )


# Three-Suited Terminal Chows (29): 1-2-3 and 7-8-9 in one suit, 1-2-3 and 7-8-9 in
# another, a pair of fives in the third.
@four_chows(THREE_SUITED_TERMINAL_CHOWS)
def three_suited_terminal_chows(chows: FourSets, pair: SuitSet | None) -> bool:
    suits = {s.suit for s in chows}
    return (
        len(suits) == 2
        and all(ranks(*(s for s in chows if s.suit == suit)) == (1, 7) for suit in suits)
        and pair is not None and pair.rank == 5 and pair.suit not in suits
    )


# --- between pungs (and kongs) of suit tiles -------------------------------------------------

# Double Pung (65): two pungs of the same number in two suits.
@pung_pair(DOUBLE_PUNG)
def double_pung(a: SuitSet, b: SuitSet) -> bool:
    return suits_differ(a, b) and same_rank(a, b)


# Pure Shifted Pungs (24): three pungs of one suit, each one number up.
@pung_triple(PURE_SHIFTED_PUNGS)
def pure_shifted_pungs(a: SuitSet, b: SuitSet, c: SuitSet) -> bool:
    return one_suit(a, b, c) and shifted(a, b, c, by=1)


# Triple Pung (32): a pung of the same number in each suit.
@pung_triple(TRIPLE_PUNG)
def triple_pung(a: SuitSet, b: SuitSet, c: SuitSet) -> bool:
    return suits_differ(a, b, c) and same_rank(a, b, c)


# Mixed Shifted Pungs (42): three pungs in three suits, each one number up.
@pung_triple(MIXED_SHIFTED_PUNGS)
def mixed_shifted_pungs(a: SuitSet, b: SuitSet, c: SuitSet) -> bool:
    return suits_differ(a, b, c) and shifted(a, b, c, by=1)


# Four Pure Shifted Pungs (15): four pungs of one suit, each one number up.
@four_pungs(FOUR_PURE_SHIFTED_PUNGS)
def four_pure_shifted_pungs(pungs: FourSets) -> bool:
    return one_suit(*pungs) and shifted(*pungs, by=1)


# --- the tables built from the definitions ---------------------------------------------------

CHOW_RANKS = range(1, 8)  # the rank of a chow's lowest tile
PUNG_RANKS = range(1, 10)


def _by_rank(tiles: tuple[Tile, ...]) -> list[SuitSet]:
    return sorted(map(SuitSet.of, tiles), key=lambda s: (s.rank, s.suit))


# The definitions only ask whether suits are equal: they are asked once per pattern of
# suits (named in order of appearance), and the answer holds for every choice of suits.
_SUIT_PATTERNS = {
    2: ((0, 0), (0, 1)),
    3: ((0, 0, 0), (0, 0, 1), (0, 1, 0), (0, 1, 1), (0, 1, 2)),
}


def _set_fans(
    definitions: dict[str, F], n: int, lowest_ranks: range
) -> dict[tuple[Tile, ...], str]:
    """Every ``n`` sets (their lowest tiles, in any order) that make a fan -> the fan."""
    table: dict[tuple[Tile, ...], str] = {}
    for rank_list in combinations_with_replacement(lowest_ranks, n):
        for pattern in _SUIT_PATTERNS[n]:
            sets = [SuitSet(suit, rank) for suit, rank in zip(pattern, rank_list, strict=True)]
            found = [fid for fid, holds in definitions.items() if holds(*sets)]
            assert len(found) <= 1, f"{sets} make {found}: a set combination makes one fan"
            if not found:
                continue
            for suits in permutations(range(3), len(set(pattern))):
                tiles = [9 * suits[s] + r - 1 for s, r in zip(pattern, rank_list, strict=True)]
                table.update(dict.fromkeys(permutations(tiles), found[0]))
    return table


def _pair_table(
    definitions: dict[str, PairFan], lowest_ranks: range
) -> tuple[tuple[str | None, ...], ...]:
    """``table[a][b]``: the fan of the two sets whose lowest tiles are a and b."""
    fans = _set_fans(definitions, 2, lowest_ranks)
    return tuple(
        tuple(fans.get((a, b)) for b in range(NUM_SUITED)) for a in range(NUM_SUITED)
    )


_CHOW_PAIR_FAN = _pair_table(CHOW_PAIRS, CHOW_RANKS)
_CHOW_TRIPLE_FAN = _set_fans(CHOW_TRIPLES, 3, CHOW_RANKS)
_PUNG_PAIR_FAN = _pair_table(PUNG_PAIRS, PUNG_RANKS)
_PUNG_TRIPLE_FAN = _set_fans(PUNG_TRIPLES, 3, PUNG_RANKS)


def _rank_patterns(
    pairs: tuple[tuple[str | None, ...], ...], triples: dict[tuple[Tile, ...], str]
) -> tuple[bool, ...]:
    """Per nine-bit mask of distinct ranks: whether two or three of those ranks make a
    fan in some suits. Sets of distinct ranks whose mask says no make no pair or triple
    fan (nor a four-set fan: each contains one, or repeats a rank), so the combination
    tables need not be asked."""
    patterns = {1 << a % 9 | 1 << b % 9 for a, row in enumerate(pairs)
                for b, fid in enumerate(row) if fid is not None and a % 9 != b % 9}
    patterns |= {1 << a % 9 | 1 << b % 9 | 1 << c % 9 for a, b, c in triples
                 if len({a % 9, b % 9, c % 9}) == 3}
    return tuple(any(p & mask == p for p in patterns) for mask in range(512))


CHOW_RANKS_MAY_COMBINE = _rank_patterns(_CHOW_PAIR_FAN, _CHOW_TRIPLE_FAN)
PUNG_RANKS_MAY_COMBINE = _rank_patterns(_PUNG_PAIR_FAN, _PUNG_TRIPLE_FAN)

# Instances: (fan id, bitmask of the indexes of the sets it uses), pairs first, then
# triples, then the four-set fans, each in index order.
Instances = tuple[tuple[str, int], ...]
_INDEX_PAIRS = tuple(tuple(combinations(range(n), 2)) for n in range(5))
_INDEX_TRIPLES = tuple(tuple(combinations(range(n), 3)) for n in range(5))
_ALL_FOUR = 0b1111


def _table_instances(
    tiles: tuple[Tile, ...],
    pairs: tuple[tuple[str | None, ...], ...],
    triples: dict[tuple[Tile, ...], str],
) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    n = len(tiles)
    for i, j in _INDEX_PAIRS[n]:
        fid = pairs[tiles[i]][tiles[j]]
        if fid is not None:
            out.append((fid, 1 << i | 1 << j))
    for i, j, k in _INDEX_TRIPLES[n]:
        fid3 = triples.get((tiles[i], tiles[j], tiles[k]))
        if fid3 is not None:
            out.append((fid3, 1 << i | 1 << j | 1 << k))
    return out


@cache
def chow_instances(chows: tuple[Tile, ...], pair: Tile) -> Instances:
    """The fans between the chows (their lowest tiles) with the pair's tile ``pair``."""
    out = _table_instances(chows, _CHOW_PAIR_FAN, _CHOW_TRIPLE_FAN)
    if len(chows) == 4:
        a, b, c, d = _by_rank(chows)
        pair_set = SuitSet.of(pair) if pair < NUM_SUITED else None
        out += [(fid, _ALL_FOUR) for fid, holds in FOUR_CHOWS.items() if holds((a, b, c, d), pair_set)]
    return tuple(out)


@cache
def pung_instances(pungs: tuple[Tile, ...]) -> Instances:
    """The fans between the suited pungs and kongs (their tiles)."""
    out = _table_instances(pungs, _PUNG_PAIR_FAN, _PUNG_TRIPLE_FAN)
    if len(pungs) == 4:
        a, b, c, d = _by_rank(pungs)
        out += [(fid, _ALL_FOUR) for fid, holds in FOUR_PUNGS.items() if holds((a, b, c, d))]
    return tuple(out)

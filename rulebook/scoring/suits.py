"""One suit at a time: how nine rank counts split into sets, and which tile completes them.

The arrangements (``arrange.py``) and the waits (``waits.py``) of a hand are built from
its suits: each suit's counts are split into chows, pungs and at most one pair (as set
codes of its ranks, see ``codes.py``), from tables of every complete nine-count vector
built at import and cached per vector. The honours are handled where they are used.
"""

from __future__ import annotations

from functools import cache
from operator import add

from .codes import ORDER_CHOW, ORDER_PAIR, ORDER_PUNG, set_code
from .tiles import EAST, NUM_KINDS, Tile

_CHOW = set_code(ORDER_CHOW, 0)
_PUNG = set_code(ORDER_PUNG, 0)
_PAIR = set_code(ORDER_PAIR, 0)

# Counts of the 34 kinds are a bytearray (``concealed_counts``): "is there a 4", "how many
# zeros" and the like run in C without comparing int objects, and the nine counts of a
# suit, sliced from ``bytes(counts)``, are a bytes key that hashes in one go. The tables
# below are keyed on such bytes; functions that take counts also accept a list.
Counts = bytearray | list[int]


def counts_of(tiles: tuple[Tile, ...] | list[Tile]) -> list[int]:
    c = [0] * NUM_KINDS
    for t in tiles:
        c[t] += 1
    return c


@cache
def _suit_offsets(counts: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], int], ...]:
    """All ways to split nine rank counts into chows, pungs and at most one pair, as set
    codes of the suit's ranks (see ``codes.py``) with the number of
    pairs. Each split is listed once, in the order the search of ``_suit_rec`` first
    finds it; the codes of one split are sorted (their order does not matter:
    ``_standard_codes`` sorts the codes of all suits together).

    The splits of every vector the complete-vector tables cover were found at import
    (``_SPLITS``); they are put in the search's order here. Other vectors (more than 14
    tiles or a count above five) are searched."""
    if sum(counts) <= 14 and max(counts) <= _MAX_RANK_COUNT:
        splits = _SPLITS.get(counts)
        if splits is None:
            return ()
        pairs = 1 if counts in _COMPLETE_WITH_PAIR else 0
        if len(splits) == 1:
            return ((splits[0], pairs),)
        return tuple([(split, pairs) for split in sorted(splits, key=_search_order)])
    unique: dict[tuple[int, ...], int] = {}
    for d in _suit_rec(list(counts), 0, False):
        key = tuple(sorted(d))
        if key not in unique:
            # at most one pair, and pair codes sort last
            unique[key] = 1 if key and key[-1] >= _PAIR else 0
    return tuple(unique.items())


# _suit_rec takes, at the lowest rank left, a pung first, then a chow, then the pair
_SEARCH_RANK: dict[int, int] = {}


def _search_order(split: tuple[int, ...]) -> list[int]:
    """Sort key that lists splits in the order ``_suit_rec`` first finds them.

    The search always covers the lowest rank left, with a pung, then a chow, then the
    pair; the first path to a split takes its sets by rank, and at one rank pungs before
    chows before the pair. Paths are found in lexicographic order of those choices."""
    return sorted([_SEARCH_RANK[c] for c in split])


def _suit_rec(c: list[int], start: int, has_pair: bool) -> list[tuple[int, ...]]:
    i = start
    while i < 9 and c[i] == 0:
        i += 1
    if i == 9:
        return [()]
    out: list[tuple[int, ...]] = []
    if c[i] >= 3:
        c[i] -= 3
        code = _PUNG + i
        for rest in _suit_rec(c, i, has_pair):
            out.append((code, *rest))
        c[i] += 3
    if i <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        code = _CHOW + i
        for rest in _suit_rec(c, i, has_pair):
            out.append((code, *rest))
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1
    if not has_pair and c[i] >= 2:
        c[i] -= 2
        code = _PAIR + i
        for rest in _suit_rec(c, i, True):
            out.append((code, *rest))
        c[i] += 2
    return out


def _complete_splits() -> tuple[dict[tuple[int, ...], tuple[tuple[int, ...], ...]], int]:
    """Every nine-count vector of one suit that splits into at most four sets, or into
    at most four sets and one pair, with no count above five, with its splits (each a
    sorted tuple of set codes), and how many of the vectors have no pair.

    Built at import (some 3,300 and 26,000 vectors, a few tens of milliseconds) by
    adding sets to the empty vector: the queries below hold at most 14 tiles of a suit
    and five of a rank (four held plus the one asked about), so membership answers them
    exactly, without a search, and the splits of a winning suit are looked up.
    """
    shapes = [
        (tuple(1 if i <= r <= i + 2 else 0 for r in range(9)), _CHOW + i) for i in range(7)
    ]
    shapes += [(tuple(3 if r == i else 0 for r in range(9)), _PUNG + i) for i in range(9)]
    zero: tuple[int, ...] = (0,) * 9
    no_pair: dict[tuple[int, ...], set[tuple[int, ...]]] = {zero: {()}}
    frontier: list[tuple[int, ...]] = [zero]
    for _ in range(4):
        grown: dict[tuple[int, ...], set[tuple[int, ...]]] = {}
        for v in frontier:
            splits = no_pair[v]
            for shape, code in shapes:
                w = tuple(map(add, v, shape))
                if max(w) > _MAX_RANK_COUNT:
                    continue
                found = grown.get(w)
                if found is None:
                    found = grown[w] = set()
                for split in splits:
                    found.add(tuple(sorted((*split, code))))
        for w, found in grown.items():
            known = no_pair.get(w)
            if known is None:
                no_pair[w] = found
            else:
                known |= found
        frontier = list(grown)
    with_pair: dict[tuple[int, ...], set[tuple[int, ...]]] = {}
    for v, splits in no_pair.items():
        for r in range(9):
            if v[r] <= _MAX_RANK_COUNT - 2:
                w = (*v[:r], v[r] + 2, *v[r + 1:])
                found = with_pair.get(w)
                if found is None:
                    found = with_pair[w] = set()
                pair = _PAIR + r
                for split in splits:
                    found.add((*split, pair))  # pair codes sort last
    # a vector of 3k tiles has no pair, one of 3k + 2 has one: the two never share a key
    # tuples of ints only: the collector stops tracking them (lists it would keep scanning)
    table = {v: tuple(splits) for v, splits in no_pair.items()}
    table.update((v, tuple(splits)) for v, splits in with_pair.items())
    return table, len(no_pair)


def _fits_vector(c: tuple[int, ...], need_pair: bool) -> bool:
    """``_fits(list(c), 0, need_pair)`` by table when the tables cover ``c``."""
    if sum(c) <= 14 and max(c) <= _MAX_RANK_COUNT:
        return c in (_COMPLETE_WITH_PAIR if need_pair else _COMPLETE_NO_PAIR)
    return _fits(list(c), 0, need_pair)


@cache
def _suit_ok(counts: tuple[int, ...]) -> tuple[bool, bool]:
    """(decomposes without a pair, decomposes with exactly one pair)."""
    # sets only hold 3k tiles, sets and one pair 3k + 2: only one of the two can hold
    n = sum(counts) % 3
    return (n == 0 and _fits_vector(counts, False)), (n == 2 and _fits_vector(counts, True))


def _fits(c: list[int], i: int, need_pair: bool) -> bool:
    """Whether ranks ``i``.. of ``c`` split into sets plus one pair if ``need_pair``."""
    while i < 9 and c[i] == 0:
        i += 1
    if i == 9:
        return not need_pair
    x = c[i]
    if need_pair and x >= 2:
        c[i] = x - 2
        ok = _fits(c, i, False)
        c[i] = x
        if ok:
            return True
    if x >= 3:
        c[i] = x - 3
        ok = _fits(c, i, need_pair)
        c[i] = x
        if ok:
            return True
    if i <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        ok = _fits(c, i, need_pair)
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1
        return ok
    return False


@cache
def _suit_waits(counts: tuple[int, ...]) -> tuple[int, int]:
    """Bitmasks of the ranks r for which ``counts`` plus one tile of rank r splits into
    sets only (first) / sets and exactly one pair (second).

    The per-suit half of the wait computation: a hand waits on a suit tile when its suit
    completes in one of the two ways and the other suits complete in the other.
    Only ranks within two of a held tile can join anything, so the others are skipped.
    """
    near = 0
    for r in range(9):
        if counts[r]:
            near |= 0b11111 << r  # ranks r-2..r+2, shifted by two below
    near >>= 2
    no_pair = with_pair = 0
    n = (sum(counts) + 1) % 3  # tiles after the new one: 3k (sets only) or 3k + 2 (a pair)
    if n == 1:
        return 0, 0
    need_pair = n == 2
    bit = 1
    for r in range(9):
        if near >> r & 1 and _fits_vector(
            (*counts[:r], counts[r] + 1, *counts[r + 1:]), need_pair
        ):
            if need_pair:
                with_pair |= bit
            else:
                no_pair |= bit
        bit <<= 1
    return no_pair, with_pair


# the complete vectors of one suit and their splits (see _complete_splits)
_MAX_RANK_COUNT = 5
_SPLITS, _n_no_pair = _complete_splits()
_COMPLETE_NO_PAIR = frozenset(v for v in _SPLITS if sum(v) % 3 == 0)
_COMPLETE_WITH_PAIR = frozenset(v for v in _SPLITS if sum(v) % 3 == 2)
assert len(_COMPLETE_NO_PAIR) == _n_no_pair
_SEARCH_RANK.update(
    (code + r, 3 * r + order)
    for r in range(9)
    for order, code in enumerate((_PUNG, _CHOW, _PAIR))
)


def _standard_ok(counts: Counts | tuple[int, ...]) -> bool:
    """Whether concealed counts split into sets and exactly one pair."""
    mandatory = 0
    optional = False
    for s in range(3):
        base = 9 * s
        sub = tuple(counts[base : base + 9])
        if not any(sub):
            continue
        no_pair, with_pair = _suit_ok(sub)
        if no_pair and with_pair:
            optional = True
        elif with_pair:
            mandatory += 1
        elif not no_pair:
            return False
    for t in range(EAST, NUM_KINDS):
        c = counts[t]
        if c == 2:
            mandatory += 1
        elif c != 0 and c != 3:
            return False
    return mandatory == 1 or (mandatory == 0 and optional)


@cache
def _suit_info(key: bytes) -> tuple[bool, bool, int, int]:
    """``_suit_ok`` + ``_suit_waits`` of one suit (nine counts as bytes) in one table (one
    lookup per suit)."""
    counts = tuple(key)
    if not any(counts):
        return True, False, 0, 0
    total = sum(counts)
    if total >= 14 or max(counts) >= _MAX_RANK_COUNT:
        return (*_suit_ok(counts), *_suit_waits(counts))
    # Fast path (the table is filled for every new suit seen, so this is in the timed
    # path): with at most 13 tiles and four of a rank, this vector and each vector with
    # one tile more are covered by the complete-vector sets, so both halves are plain
    # membership tests (what _fits_vector would do after its own sum and max).
    n = total % 3
    no_pair = n == 0 and counts in _COMPLETE_NO_PAIR
    with_pair = n == 2 and counts in _COMPLETE_WITH_PAIR
    if n == 0:  # one tile more makes 3k + 1 tiles: completes in neither way
        return no_pair, with_pair, 0, 0
    # 3k + 1 tiles complete with a pair after one more, 3k + 2 tiles without one
    table = _COMPLETE_WITH_PAIR if n == 1 else _COMPLETE_NO_PAIR
    c = list(counts)
    bits = 0
    for r in _NEAR_RANKS_OF[key.translate(_HELD)]:
        c[r] += 1
        if tuple(c) in table:
            bits |= 1 << r
        c[r] -= 1
    return (no_pair, with_pair, 0, bits) if n == 1 else (no_pair, with_pair, bits, 0)


# the ranks within two of a held rank (only those can join a set with the tiles held),
# in order, for each pattern of held ranks: the nine counts with every count above zero
# made 1 (``counts.translate(_HELD)``, one C call) -> ranks
_HELD = bytes([0] + [1] * 255)
_NEAR_RANKS_OF: dict[bytes, tuple[int, ...]] = {
    bytes(held >> r & 1 for r in range(9)): tuple(
        r for r in range(9) if (held << 2) >> r & 0b11111
    )
    for held in range(512)
}

"""Every arrangement of a winning hand, and the waits of a hand of thirteen.

An :class:`Arrangement` splits the 14 tiles (kongs counted as sets) into
:class:`TileSet` s in one of five forms:

- ``standard``: four sets (chow, pung, kong) and a pair;
- ``seven_pairs``: seven pairs (four equal tiles are two pairs);
- ``thirteen_orphans``: the 13 terminal and honour kinds, one of them twice;
- ``honors_knitted``: 14 single tiles, honours plus suit tiles of one knitted pattern
  (1-4-7, 2-5-8, 3-6-9 in three different suits) - Greater/Lesser Honours and Knitted Tiles;
- ``knitted_straight``: the nine tiles of a knitted pattern, plus one set and a pair.

Each arrangement also says which set the winning tile went into (``win_index``): the same
tiles can complete different sets, which changes concealed pungs and wait fans. Ruleset
code (mcr/, hkos/, red/) takes the arrangements and decides what they score.

Everything works on count arrays (index = tile number) and caches per-suit results.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import compress, permutations
from operator import add
from typing import Literal

from .hand import CHOW, KONG, PUNG, Hand, Meld
from .tiles import NUM_KINDS, TERMINALS_AND_HONOURS, Tile

_KINDS = range(NUM_KINDS)  # every playing tile, for compress(_KINDS, counts)

SetKind = Literal["chow", "pung", "kong", "pair", "knitted", "single"]
Form = Literal["standard", "seven_pairs", "thirteen_orphans", "honors_knitted", "knitted_straight"]

STANDARD: Form = "standard"
SEVEN_PAIRS: Form = "seven_pairs"
THIRTEEN_ORPHANS: Form = "thirteen_orphans"
HONORS_KNITTED: Form = "honors_knitted"
KNITTED_STRAIGHT: Form = "knitted_straight"


@dataclass(frozen=True, slots=True)
class TileSet:
    """One group of an arrangement.

    ``kind``: chow, pung, kong, pair, knitted (three tiles t, t+3, t+6) or single.
    ``tile``: the lowest tile. ``concealed``: formed in the hand (a concealed kong is
    concealed too). ``meld``: index into ``Hand.melds`` or -1 for the concealed part.
    """

    kind: SetKind
    tile: Tile
    concealed: bool = True
    meld: int = -1

    @property
    def tiles(self) -> tuple[Tile, ...]:
        t = self.tile
        k = self.kind
        if k == "chow":
            return (t, t + 1, t + 2)
        if k == "pung":
            return (t, t, t)
        if k == "kong":
            return (t, t, t, t)
        if k == "pair":
            return (t, t)
        if k == "knitted":
            return (t, t + 3, t + 6)
        return (t,)

    @property
    def is_pung_like(self) -> bool:
        return self.kind == "pung" or self.kind == "kong"


@dataclass(frozen=True, slots=True)
class Arrangement:
    form: Form
    sets: tuple[TileSet, ...]
    win_index: int  # index in ``sets`` of the set the winning tile completes; -1 if none

    @property
    def win_set(self) -> TileSet | None:
        return self.sets[self.win_index] if self.win_index >= 0 else None


# --- per-suit decomposition ---------------------------------------------------------------

@cache
def _suit_offsets(counts: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], int], ...]:
    """All ways to split nine rank counts into chows, pungs and at most one pair, as set
    codes of the suit's ranks (64 x order + rank, see ``_KIND_CODE``) with the number of
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


# --- set codes ------------------------------------------------------------------------------
# While the concealed sets of an arrangement are combined they are small ints,
# code = 64 * order + tile, where order is the place of the kind in an arrangement
# (knitted, chow, pung, pair, single). Sorting codes sorts the sets the way arrangements
# list them; _CODE_SET and _CODE_TILES turn a code back into a shared TileSet (concealed,
# no meld) and its tiles, so no TileSet is built per hand.

_ORDER_KIND: tuple[SetKind, ...] = ("knitted", "chow", "pung", "pair", "single")
_KIND_CODE: dict[str, int] = {kind: 64 * i for i, kind in enumerate(_ORDER_KIND)}
_CODE_SET: tuple[TileSet, ...] = tuple(
    TileSet(_ORDER_KIND[code >> 6], code & 63) for code in range(64 * len(_ORDER_KIND))
)
_CODE_TILES: tuple[tuple[Tile, ...], ...] = tuple(ts.tiles for ts in _CODE_SET)
_CHOW = _KIND_CODE["chow"]
_PAIR = _KIND_CODE["pair"]
_PUNG = _KIND_CODE["pung"]
_KNITTED = _KIND_CODE["knitted"]
_SINGLE = _KIND_CODE["single"]

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

# Rulesets that work on the codes directly also code the melds: kongs get order 5 (they
# never appear among the concealed codes) and a melded (not concealed) set adds MELDED.
# ``code >> 6 & 7`` is the order (ORDER_*), ``code & 63`` the tile.
ORDER_KNITTED, ORDER_CHOW, ORDER_PUNG, ORDER_PAIR, ORDER_SINGLE, ORDER_KONG = range(6)
MELDED = 512
_MELD_ORDER: dict[str, int] = {"chow": ORDER_CHOW, "pung": ORDER_PUNG, "kong": ORDER_KONG}


def meld_code(m: Meld) -> int:
    return (_MELD_ORDER[m.kind] << 6) + m.tile + (0 if m.concealed else MELDED)


def code_kind(code: int) -> SetKind:
    """The kind of a set code (concealed or meld code)."""
    return "kong" if code >> 6 & 7 == ORDER_KONG else _ORDER_KIND[code >> 6 & 7]

# Counts of the 34 kinds are a bytearray (``concealed_counts``): "is there a 4", "how many
# zeros" and the like run in C without comparing int objects, and the nine counts of a
# suit, sliced from ``bytes(counts)``, are a bytes key that hashes in one go. The tables
# below are keyed on such bytes; functions that take counts also accept a list.
Counts = bytearray | list[int]
_SuitOptions = tuple[tuple[tuple[int, ...], int], ...]
_EMPTY_SUIT = bytes(9)
_NO_HONOURS = bytes(7)
_NO_SETS: _SuitOptions = (((), 0),)
# per suit (0-2): nine counts (bytes) -> _suit_codes
_SUIT_CODES: tuple[dict[bytes, _SuitOptions], ...] = ({}, {}, {})


def _suit_codes(base: Tile, counts: bytes) -> _SuitOptions:
    """``_suit_offsets`` of the suit starting at tile ``base``, in the same order."""
    table = _SUIT_CODES[base // 9]
    found = table.get(counts)
    if found is None:
        ranks = _suit_offsets(tuple(counts))
        found = table[counts] = ranks if base == 0 else tuple([
            (tuple([code + base for code in codes]), pairs) for codes, pairs in ranks
        ])
    return found


@cache
def _honour_sets(counts: bytes) -> tuple[tuple[int, ...], int] | None:
    """The honour counts (7) as pung and pair codes with the number of pairs (at most
    one), or ``None`` when they make no sets."""
    honours: list[int] = []
    pairs = 0
    for k, n in enumerate(counts):
        if n == 2:
            honours.append(_PAIR + 27 + k)
            pairs += 1
        elif n == 3:
            honours.append(_PUNG + 27 + k)
        elif n:
            return None
    return (tuple(honours), pairs) if pairs <= 1 else None


def _standard_codes(counts: Counts) -> list[tuple[int, ...]]:
    """All splits of concealed counts (34) into sets and exactly one pair, as sorted codes.

    Suits are decomposed separately (cached on the nine counts of the suit) and combined.
    """
    key = bytes(counts)
    tables = _SUIT_CODES
    sub = key[0:9]
    o0 = _NO_SETS if sub == _EMPTY_SUIT else tables[0].get(sub) or _suit_codes(0, sub)
    sub = key[9:18]
    o1 = _NO_SETS if sub == _EMPTY_SUIT else tables[1].get(sub) or _suit_codes(9, sub)
    sub = key[18:27]
    o2 = _NO_SETS if sub == _EMPTY_SUIT else tables[2].get(sub) or _suit_codes(18, sub)
    if not (o0 and o1 and o2):
        return []
    h_pairs = 0
    hon: tuple[int, ...] = ()
    honour_counts = key[27:34]
    if honour_counts != _NO_HONOURS:
        h = _honour_sets(honour_counts)
        if h is None:
            return []
        hon, h_pairs = h
    if len(o0) == 1 and len(o1) == 1 and len(o2) == 1:  # one split per suit: one way
        (a, na), (b, nb), (d, nd) = o0[0], o1[0], o2[0]
        return [tuple(sorted(a + b + d + hon))] if h_pairs + na + nb + nd == 1 else []
    per_suit = (o0, o1, o2)
    out: list[tuple[int, ...]] = []
    for a, na in per_suit[0]:
        pa = h_pairs + na
        if pa > 1:
            continue
        for b, nb in per_suit[1]:
            pb = pa + nb
            if pb > 1:
                continue
            for d, nd in per_suit[2]:
                if pb + nd != 1:
                    continue
                out.append(tuple(sorted(a + b + d + hon)))
    return out


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
    for t in range(27, 34):
        c = counts[t]
        if c == 2:
            mandatory += 1
        elif c != 0 and c != 3:
            return False
    return mandatory == 1 or (mandatory == 0 and optional)


# --- knitted patterns ---------------------------------------------------------------------

# Each pattern: the nine suit tiles of 1-4-7 / 2-5-8 / 3-6-9 in three different suits.
KNITTED_PATTERNS: tuple[tuple[Tile, ...], ...] = tuple(
    tuple(sorted(9 * suit + start + 3 * k for suit, start in zip(perm, range(3), strict=True)
                 for k in range(3)))
    for perm in permutations(range(3))
)
_KNITTED_STARTS: tuple[tuple[Tile, ...], ...] = tuple(
    tuple(9 * suit + start for suit, start in zip(perm, range(3), strict=True))
    for perm in permutations(range(3))
)
_ORPHANS = frozenset(TERMINALS_AND_HONOURS)
# bit t set for each tile of a knitted pattern: "holds at least eight of the nine tiles"
# is a popcount of (held tiles & pattern)
_KNITTED_MASKS: tuple[int, ...] = tuple(sum(1 << t for t in p) for p in KNITTED_PATTERNS)


def _kinds_mask(present: list[Tile]) -> int:
    mask = 0
    for t in present:
        mask |= 1 << t
    return mask


@cache
def _meld_set(kind: SetKind, tile: Tile, concealed: bool, index: int) -> TileSet:
    return TileSet(kind, tile, concealed=concealed, meld=index)


def _meld_sets(melds: tuple[Meld, ...]) -> tuple[TileSet, ...]:
    return tuple(_meld_set(m.kind, m.tile, m.concealed, i) for i, m in enumerate(melds))


def _code_sets(codes: tuple[int, ...] | list[int]) -> tuple[TileSet, ...]:
    """The TileSets of sorted codes. A repeated set gets its own TileSet object: rulesets
    tell the set that took the winning tile from its twin by identity (``is win_set``)."""
    out: list[TileSet] = []
    prev = -1
    for c in codes:
        out.append(_CODE_SET[c] if c != prev else TileSet(_ORDER_KIND[c >> 6], c & 63))
        prev = c
    return tuple(out)


# An arrangement before its TileSets are built: (form, the concealed sets as sorted codes,
# index of the set holding the winning tile among melds + concealed sets, or -1).
# Rulesets that score many arrangements and report one (mcr) build only that one.
RawArrangement = tuple[Form, tuple[int, ...], int]


def _placements(
    out: list[RawArrangement], form: Form, n_fixed: int, codes: tuple[int, ...], win: Tile
) -> None:
    """One arrangement per different concealed set (sorted ``codes``) holding ``win``."""
    prev = -1
    for k, c in enumerate(codes):
        if c != prev and win in _CODE_TILES[c]:
            out.append((form, codes, n_fixed + k))
        prev = c


def counts_of(tiles: tuple[Tile, ...] | list[Tile]) -> list[int]:
    c = [0] * NUM_KINDS
    for t in tiles:
        c[t] += 1
    return c


def raw_arrangements(hand: Hand, counts: Counts | None = None) -> list[RawArrangement]:
    """:func:`arrangements` without the TileSet and Arrangement objects. ``counts``: the
    counts (34) of the concealed tiles with the winning tile, when the caller has them."""
    win = hand.win_tile
    concealed = hand.concealed
    if counts is None:
        if win >= NUM_KINDS or (concealed and max(concealed) >= NUM_KINDS):
            return []
        counts = concealed_counts(hand)
    melds = hand.melds
    n_fixed = len(melds)
    out: list[RawArrangement] = []
    for codes in _standard_codes(counts):
        _placements(out, STANDARD, n_fixed, codes, win)
    if n_fixed > 1:
        return out
    n_kinds = NUM_KINDS - counts.count(0)
    if 7 < n_kinds < 9:  # too many kinds for seven pairs, too few for the knitted forms
        return out
    # a knitted straight needs nine different suit tiles
    knitted = 27 - counts[:27].count(0) >= 9
    if not knitted and (melds or 8 < n_kinds < 13):  # no special form possible
        return out
    present = list(compress(_KINDS, counts))  # the tiles held, in order
    if not melds:
        # seven pairs hold at most seven kinds (all counts even); the other two forms 13
        # or 14 kinds
        if n_kinds <= 7 and 1 not in counts and 3 not in counts:
            pairs = tuple([_PAIR + t for t in present for _ in range(counts[t] // 2)])
            _placements(out, SEVEN_PAIRS, 0, pairs, win)
        if n_kinds == 13 and set(present) == _ORPHANS:
            singles = tuple(sorted((_PAIR if counts[t] == 2 else _SINGLE) + t for t in present))
            out.append((THIRTEEN_ORPHANS, singles, -1))
        if n_kinds == 14:
            for pattern in KNITTED_PATTERNS:
                if all(t in pattern or t >= 27 for t in present):
                    out.append((HONORS_KNITTED, tuple([_SINGLE + t for t in present]), -1))
                    break
    if knitted:
        held = _kinds_mask(present)
        for starts, pattern, pmask in zip(
            _KNITTED_STARTS, KNITTED_PATTERNS, _KNITTED_MASKS, strict=True
        ):
            if held & pmask != pmask:
                continue
            rest = counts[:]
            for t in pattern:
                rest[t] -= 1
            knit = tuple(sorted(_KNITTED + t for t in starts))
            for codes in _standard_codes(rest):
                _placements(out, KNITTED_STRAIGHT, n_fixed, knit + codes, win)
    return out


def concealed_counts(hand: Hand) -> bytearray:
    """Counts (34) of the concealed tiles and the winning tile (all below 34)."""
    counts = bytearray(NUM_KINDS)
    for t in hand.concealed:
        counts[t] += 1
    counts[hand.win_tile] += 1
    return counts


def build_arrangement(melds: tuple[Meld, ...], raw: RawArrangement) -> Arrangement:
    """The Arrangement of a raw arrangement of a hand with these melds."""
    form, codes, win_index = raw
    return Arrangement(form, _meld_sets(melds) + _code_sets(codes), win_index)


def arrangements(hand: Hand) -> list[Arrangement]:
    """Every arrangement of a complete hand (empty list when it is not complete).

    Arrangements that differ only in where the winning tile sits are listed separately.
    """
    melds = hand.melds
    return [build_arrangement(melds, raw) for raw in raw_arrangements(hand)]


def is_complete_counts(counts: Counts, n_melds: int) -> bool:
    """Whether concealed counts (34, including the winning tile) plus ``n_melds`` sets win."""
    if _standard_ok(counts):
        return True
    if n_melds == 0:
        if all(c % 2 == 0 for c in counts):
            return True
        present = list(compress(_KINDS, counts))  # the tiles held, in order
        if len(present) == 13 and set(present) == _ORPHANS:
            return True
        if len(present) == 14:
            for pattern in KNITTED_PATTERNS:
                if all(t in pattern or t >= 27 for t in present):
                    return True
    if n_melds <= 1:
        for pattern in KNITTED_PATTERNS:
            if all(counts[t] for t in pattern):
                rest = counts[:]
                for t in pattern:
                    rest[t] -= 1
                if _standard_ok(rest):
                    return True
    return False


def is_complete(hand: Hand) -> bool:
    if any(t >= NUM_KINDS for t in hand.concealed) or hand.win_tile >= NUM_KINDS:
        return False
    return is_complete_counts(counts_of(hand.concealed_with_win), len(hand.melds))


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


# _standard_waits: the parts (suits 0-2, honours 3) whose bit is set, and the tiles of
# suit s whose ranks are the bits of a nine-bit mask
_BAD_PARTS: tuple[tuple[int, ...], ...] = tuple(
    tuple(j for j in range(4) if bits >> j & 1) for bits in range(16)
)
_MASK_TILES: tuple[tuple[tuple[Tile, ...], ...], ...] = tuple(
    tuple(tuple(9 * s + r for r in range(9) if mask >> r & 1) for mask in range(512))
    for s in range(3)
)


def _standard_waits(counts: Counts) -> list[Tile]:
    """Tiles that complete ``counts`` (34) into sets and exactly one pair.

    The hand is split into four parts (three suits, honours); each part can be complete
    without a pair and/or with one pair. A tile completes the hand when the part it joins
    becomes complete in one way (``_suit_waits``) and the three other parts together
    supply the remaining pair or none.
    """
    key = bytes(counts)
    s0 = _suit_info(key[0:9])
    s1 = _suit_info(key[9:18])
    s2 = _suit_info(key[18:27])
    honours = key[27:34]
    h_pairs = honours.count(2)
    h_bad = 7 - h_pairs - honours.count(0) - honours.count(3)
    h_ok = h_bad == 0
    # per part: complete without a pair, complete with one pair
    no_pair = (s0[0], s1[0], s2[0], h_ok and h_pairs == 0)
    one_pair = (s0[1], s1[1], s2[1], h_ok and h_pairs == 1)
    # parts that need a pair (or more), from a table on the four "no pair" bits
    bad = _BAD_PARTS[
        (0 if no_pair[0] else 1) | (0 if no_pair[1] else 2) | (0 if no_pair[2] else 4)
        | (0 if no_pair[3] else 8)
    ]
    if len(bad) > 2:  # the new tile can mend one part only
        return []
    n_one = sum(one_pair)
    out: list[Tile] = []
    # A part complete without a pair holds 3k tiles; one more tile leaves it 3k+1, which
    # completes in neither way, so the tile can only go to a part in ``bad``.
    for part in bad:
        # can0: the other parts all without a pair; can1: exactly one of them with it
        rest_bad = len(bad) - 1
        if rest_bad == 0:
            can0 = True
            can1 = n_one - one_pair[part] > 0
        elif rest_bad == 1:
            can0 = False
            can1 = one_pair[bad[0] if bad[0] != part else bad[1]]
        else:
            continue
        if not (can0 or can1):
            continue
        if part < 3:
            info = (s0, s1, s2)[part]
            mask = (info[2] if can1 else 0) | (info[3] if can0 else 0)
            if mask:
                out.extend(_MASK_TILES[part][mask])
        else:
            for k in range(7):
                c = honours[k]
                if c == 1 or c == 2:  # becomes a pair / a pung; other counts stay bad
                    pairs = h_pairs + (1 if c == 1 else -1)
                    still_bad = h_bad - (c == 1)
                    if still_bad == 0 and ((pairs == 0 and can1) or (pairs == 1 and can0)):
                        out.append(27 + k)
    return out


def _completing_tiles(counts: Counts, n_melds: int) -> set[Tile]:
    """Every tile t such that ``is_complete_counts(counts + t, n_melds)`` (all forms)."""
    found = set(_standard_waits(counts))
    if n_melds > 1:
        return found
    n_kinds = NUM_KINDS - counts.count(0)
    # knitted straight: at least eight of its nine tiles must be held
    knitted = 27 - counts[:27].count(0) >= 8
    if not knitted and (n_melds or 7 < n_kinds < 12):  # no special form can complete
        return found
    present = list(compress(_KINDS, counts))  # the tiles held, in order
    if n_melds == 0:
        if n_kinds <= 7:  # seven pairs: then at most seven kinds
            odd = [t for t in present if counts[t] % 2]
            if len(odd) == 1:
                found.add(odd[0])
        if n_kinds >= 12 and _ORPHANS.issuperset(present):
            if n_kinds == 13:
                found.update(_ORPHANS)
            elif n_kinds == 12:
                found.update(_ORPHANS.difference(present))
        if n_kinds >= 13:  # honours and knitted tiles: 14 different tiles
            for pattern in KNITTED_PATTERNS:
                if all(t in pattern or t >= 27 for t in present):
                    allowed = set(pattern).union(range(27, 34))
                    if n_kinds == 13:
                        found.update(allowed.difference(present))
                    else:
                        found.update(present)
    if knitted:
        held = _kinds_mask(present)
        for pattern, pmask in zip(KNITTED_PATTERNS, _KNITTED_MASKS, strict=True):
            if (held & pmask).bit_count() < 8:
                continue
            missing = [t for t in pattern if not counts[t]]
            if len(missing) > 1:
                continue
            rest = counts[:]
            for t in pattern:
                if rest[t]:
                    rest[t] -= 1
            if not missing:
                found.update(_standard_waits(rest))
            elif _standard_ok(rest):
                found.add(missing[0])
    return found


def waits_of(
    melds: tuple[Meld, ...],
    concealed: tuple[Tile, ...] | list[Tile],
    include_fifth_copy: bool = False,
) -> list[Tile]:
    """The tiles that complete ``melds`` + ``concealed`` (13 tiles, kongs as three).

    A tile of which the hand already holds all four copies is not a wait (unless
    ``include_fifth_copy``, which some calculators do).
    """
    counts = counts_of(list(concealed))
    used = counts[:]
    for m in melds:
        for t in m.tiles:
            used[t] += 1
    found = _completing_tiles(counts, len(melds))
    return [t for t in sorted(found) if include_fifth_copy or used[t] < 4]


def has_other_wait(
    melds: tuple[Meld, ...],
    concealed: tuple[Tile, ...] | list[Tile],
    win_tile: Tile,
    include_fifth_copy: bool = False,
) -> bool:
    """Whether the hand of thirteen also waits on a tile other than ``win_tile``.

    Same rule as :func:`waits_of`.
    """
    counts = [0] * NUM_KINDS
    for t in concealed:
        counts[t] += 1
    return other_wait_counts(melds, counts, win_tile, include_fifth_copy)


def other_wait_counts(
    melds: tuple[Meld, ...],
    counts: Counts,
    win_tile: Tile,
    include_fifth_copy: bool,
    held: Counts | None = None,
) -> bool:
    """:func:`has_other_wait` from the counts (34) of the standing tiles (changes them).

    ``held``: the counts of every tile of the hand (standing tiles, winning tile and
    melds, kongs as four) when the caller has them; they answer "does the hand hold all
    four copies" for every tile but the winning one without going over the melds."""
    found = _completing_tiles(counts, len(melds))
    found.discard(win_tile)
    if not found:
        return False
    if include_fifth_copy:
        return True
    used = held
    if used is None:
        used = counts
        for m in melds:
            for t in m.tiles:
                used[t] += 1
    return any(used[t] < 4 for t in found)


__all__ = [
    "HONORS_KNITTED",
    "KNITTED_PATTERNS",
    "KNITTED_STRAIGHT",
    "MELDED",
    "ORDER_CHOW",
    "ORDER_KNITTED",
    "ORDER_KONG",
    "ORDER_PAIR",
    "ORDER_PUNG",
    "ORDER_SINGLE",
    "SEVEN_PAIRS",
    "STANDARD",
    "THIRTEEN_ORPHANS",
    "Arrangement",
    "Form",
    "RawArrangement",
    "SetKind",
    "TileSet",
    "arrangements",
    "build_arrangement",
    "code_kind",
    "concealed_counts",
    "counts_of",
    "has_other_wait",
    "is_complete",
    "is_complete_counts",
    "meld_code",
    "other_wait_counts",
    "raw_arrangements",
    "waits_of",
]

# Re-exported for the rulesets.
_ = (CHOW, KONG, PUNG)

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
from itertools import compress
from typing import Literal

from .codes import (
    MELDED,
    ORDER_CHOW,
    ORDER_KIND,
    ORDER_KNITTED,
    ORDER_KONG,
    ORDER_OF,
    ORDER_PAIR,
    ORDER_PUNG,
    ORDER_SINGLE,
    TILE_OF,
    SetKind,
    code_kind,
    meld_code,
    set_code,
)
from .hand import CHOW, KONG, PUNG, Hand, Meld
from .suits import Counts, _standard_ok, _suit_offsets, counts_of
from .tiles import (
    EAST,
    KNITTED_MASKS,
    KNITTED_PATTERNS,
    KNITTED_STARTS,
    NUM_KINDS,
    NUM_SUITED,
    ORPHANS,
    Tile,
    tiles_mask,
)
from .waits import has_other_wait, other_wait_counts, waits_of

_KINDS = range(NUM_KINDS)  # every playing tile, for compress(_KINDS, counts)

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

# --- set codes (see codes.py) ------------------------------------------------------------
# _CODE_SET and _CODE_TILES turn a concealed set's code back into a shared TileSet
# (concealed, no meld) and its tiles, so no TileSet is built per hand.

_CODE_SET: tuple[TileSet, ...] = tuple(
    TileSet(ORDER_KIND[ORDER_OF[code]], TILE_OF[code]) for code in range(set_code(ORDER_KONG, 0))
)
_CODE_TILES: tuple[tuple[Tile, ...], ...] = tuple(ts.tiles for ts in _CODE_SET)
_CHOW = set_code(ORDER_CHOW, 0)
_PAIR = set_code(ORDER_PAIR, 0)
_PUNG = set_code(ORDER_PUNG, 0)
_KNITTED = set_code(ORDER_KNITTED, 0)
_SINGLE = set_code(ORDER_SINGLE, 0)

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
            honours.append(_PAIR + EAST + k)
            pairs += 1
        elif n == 3:
            honours.append(_PUNG + EAST + k)
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
    sub = key[18:NUM_SUITED]
    o2 = _NO_SETS if sub == _EMPTY_SUIT else tables[2].get(sub) or _suit_codes(18, sub)
    if not (o0 and o1 and o2):
        return []
    h_pairs = 0
    hon: tuple[int, ...] = ()
    honour_counts = key[EAST:NUM_KINDS]
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
        out.append(_CODE_SET[c] if c != prev else TileSet(ORDER_KIND[ORDER_OF[c]], TILE_OF[c]))
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
    knitted = NUM_SUITED - counts[:NUM_SUITED].count(0) >= 9
    if not knitted and (melds or 8 < n_kinds < 13):  # no special form possible
        return out
    present = list(compress(_KINDS, counts))  # the tiles held, in order
    if not melds:
        # seven pairs hold at most seven kinds (all counts even); the other two forms 13
        # or 14 kinds
        if n_kinds <= 7 and 1 not in counts and 3 not in counts:
            pairs = tuple([_PAIR + t for t in present for _ in range(counts[t] // 2)])
            _placements(out, SEVEN_PAIRS, 0, pairs, win)
        if n_kinds == 13 and set(present) == ORPHANS:
            singles = tuple(sorted((_PAIR if counts[t] == 2 else _SINGLE) + t for t in present))
            out.append((THIRTEEN_ORPHANS, singles, -1))
        if n_kinds == 14:
            for pattern in KNITTED_PATTERNS:
                if all(t in pattern or t >= EAST for t in present):
                    out.append((HONORS_KNITTED, tuple([_SINGLE + t for t in present]), -1))
                    break
    if knitted:
        held = tiles_mask(present)
        for starts, pattern, pmask in zip(
            KNITTED_STARTS, KNITTED_PATTERNS, KNITTED_MASKS, strict=True
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
        if len(present) == 13 and set(present) == ORPHANS:
            return True
        if len(present) == 14:
            for pattern in KNITTED_PATTERNS:
                if all(t in pattern or t >= EAST for t in present):
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

"""The waits of a hand of thirteen: every tile that completes it, in every form.

A hand is cut into its three suits and the honours; the per-suit tables of ``suits.py``
say which ranks complete each suit with or without the pair, and the forms without sets
(seven pairs, thirteen orphans, the knitted forms) are checked directly.
"""

from __future__ import annotations

from itertools import compress

from . import tiles
from .hand import Meld
from .suits import Counts, _standard_ok, _suit_info, counts_of
from .tiles import EAST, NUM_KINDS, NUM_SUITED, Tile

_KINDS = range(NUM_KINDS)  # every playing tile, for compress(_KINDS, counts)


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
    s2 = _suit_info(key[18:NUM_SUITED])
    honours = key[EAST:NUM_KINDS]
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
                        out.append(EAST + k)
    return out


def _completing_tiles(counts: Counts, n_melds: int) -> set[Tile]:
    """Every tile t such that ``is_complete_counts(counts + t, n_melds)`` (all forms)."""
    found = set(_standard_waits(counts))
    if n_melds > 1:
        return found
    n_kinds = NUM_KINDS - counts.count(0)
    # knitted straight: at least eight of its nine tiles must be held
    knitted = NUM_SUITED - counts[:NUM_SUITED].count(0) >= 8
    if not knitted and (n_melds or 7 < n_kinds < 12):  # no special form can complete
        return found
    present = list(compress(_KINDS, counts))  # the tiles held, in order
    if n_melds == 0:
        if n_kinds <= 7:  # seven pairs: then at most seven kinds
            odd = [t for t in present if counts[t] % 2]
            if len(odd) == 1:
                found.add(odd[0])
        if n_kinds >= 12 and tiles.ORPHANS.issuperset(present):
            if n_kinds == 13:
                found.update(tiles.ORPHANS)
            elif n_kinds == 12:
                found.update(tiles.ORPHANS.difference(present))
        if n_kinds >= 13:  # honours and knitted tiles: 14 different tiles
            for pattern in tiles.KNITTED_PATTERNS:
                if all(t in pattern or t >= EAST for t in present):
                    allowed = set(pattern).union(range(EAST, NUM_KINDS))
                    if n_kinds == 13:
                        found.update(allowed.difference(present))
                    else:
                        found.update(present)
    if knitted:
        held = tiles.tiles_mask(present)
        for pattern, pmask in zip(tiles.KNITTED_PATTERNS, tiles.KNITTED_MASKS, strict=True):
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

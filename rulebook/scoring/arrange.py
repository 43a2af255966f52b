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
from itertools import permutations
from typing import Literal

from .hand import CHOW, KONG, PUNG, Hand, Meld
from .tiles import NUM_KINDS, TERMINALS_AND_HONOURS, Tile

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

_SetKey = tuple[str, int]  # ("chow"|"pung"|"pair", rank index 0-8)


@cache
def _suit_decomps(counts: tuple[int, ...]) -> tuple[tuple[_SetKey, ...], ...]:
    """All ways to split nine rank counts into chows, pungs and at most one pair."""
    unique = {tuple(sorted(d)): None for d in _suit_rec(list(counts), 0, False)}
    return tuple(unique)


def _suit_rec(c: list[int], start: int, has_pair: bool) -> list[tuple[_SetKey, ...]]:
    i = start
    while i < 9 and c[i] == 0:
        i += 1
    if i == 9:
        return [()]
    out: list[tuple[_SetKey, ...]] = []
    if c[i] >= 3:
        c[i] -= 3
        for rest in _suit_rec(c, i, has_pair):
            out.append((("pung", i), *rest))
        c[i] += 3
    if i <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        for rest in _suit_rec(c, i, has_pair):
            out.append((("chow", i), *rest))
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1
    if not has_pair and c[i] >= 2:
        c[i] -= 2
        for rest in _suit_rec(c, i, True):
            out.append((("pair", i), *rest))
        c[i] += 2
    return out


@cache
def _suit_ok(counts: tuple[int, ...]) -> tuple[bool, bool]:
    """(decomposes without a pair, decomposes with exactly one pair)."""
    no_pair = with_pair = False
    for d in _suit_decomps(counts):
        if any(k == "pair" for k, _ in d):
            with_pair = True
        else:
            no_pair = True
    return no_pair, with_pair


def _standard_decomps(counts: list[int] | tuple[int, ...]) -> list[tuple[tuple[str, Tile], ...]]:
    """All splits of concealed counts (34) into sets and exactly one pair."""
    per_suit: list[list[tuple[tuple[str, Tile], ...]]] = []
    for s in range(3):
        base = 9 * s
        sub = tuple(counts[base : base + 9])
        if not any(sub):
            per_suit.append([()])
            continue
        opts = _suit_decomps(sub)
        if not opts:
            return []
        per_suit.append([tuple((k, base + r) for k, r in d) for d in opts])
    honours: list[tuple[str, Tile]] = []
    for t in range(27, 34):
        n = counts[t]
        if n == 0:
            continue
        if n == 2:
            honours.append(("pair", t))
        elif n == 3:
            honours.append(("pung", t))
        else:
            return []
    h_pairs = sum(1 for k, _ in honours if k == "pair")
    if h_pairs > 1:
        return []
    out: list[tuple[tuple[str, Tile], ...]] = []
    for a in per_suit[0]:
        pa = h_pairs + sum(1 for k, _ in a if k == "pair")
        if pa > 1:
            continue
        for b in per_suit[1]:
            pb = pa + sum(1 for k, _ in b if k == "pair")
            if pb > 1:
                continue
            for d in per_suit[2]:
                pc = pb + sum(1 for k, _ in d if k == "pair")
                if pc != 1:
                    continue
                out.append(a + b + d + tuple(honours))
    return out


def _standard_ok(counts: list[int] | tuple[int, ...]) -> bool:
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


def _meld_sets(melds: tuple[Meld, ...]) -> list[TileSet]:
    return [
        TileSet(m.kind, m.tile, concealed=m.concealed, meld=i) for i, m in enumerate(melds)
    ]


_KIND_ORDER = {"knitted": 0, "chow": 1, "pung": 2, "kong": 2, "pair": 3, "single": 4}


def _placements(
    form: Form, fixed: list[TileSet], concealed_sets: list[TileSet], win: Tile
) -> list[Arrangement]:
    concealed_sets.sort(key=lambda s: (_KIND_ORDER[s.kind], s.tile))
    sets = tuple(fixed + concealed_sets)
    out: list[Arrangement] = []
    seen: set[tuple[str, Tile]] = set()
    for idx in range(len(fixed), len(sets)):
        s = sets[idx]
        if win in s.tiles and (s.kind, s.tile) not in seen:
            seen.add((s.kind, s.tile))
            out.append(Arrangement(form, sets, idx))
    return out


def counts_of(tiles: tuple[Tile, ...] | list[Tile]) -> list[int]:
    c = [0] * NUM_KINDS
    for t in tiles:
        c[t] += 1
    return c


def arrangements(hand: Hand) -> list[Arrangement]:
    """Every arrangement of a complete hand (empty list when it is not complete).

    Arrangements that differ only in where the winning tile sits are listed separately.
    """
    win = hand.win_tile
    if any(t >= NUM_KINDS for t in hand.concealed) or win >= NUM_KINDS:
        return []
    counts = counts_of(hand.concealed_with_win)
    melds = hand.melds
    fixed = _meld_sets(melds)
    out: list[Arrangement] = []
    for decomp in _standard_decomps(counts):
        csets = [TileSet(k, t) for k, t in decomp]  # type: ignore[arg-type]
        out.extend(_placements(STANDARD, fixed, csets, win))
    if not melds:
        if all(c % 2 == 0 for c in counts):
            pairs = [TileSet("pair", t) for t in range(NUM_KINDS) for _ in range(counts[t] // 2)]
            out.extend(_placements(SEVEN_PAIRS, [], pairs, win))
        present = [t for t in range(NUM_KINDS) if counts[t]]
        if len(present) == 13 and set(present) == _ORPHANS:
            singles = [
                TileSet("pair" if counts[t] == 2 else "single", t) for t in present
            ]
            singles.sort(key=lambda s: (_KIND_ORDER[s.kind], s.tile))
            out.append(Arrangement(THIRTEEN_ORPHANS, tuple(singles), -1))
        if len(present) == 14:
            for pattern in KNITTED_PATTERNS:
                if all(t in pattern or t >= 27 for t in present):
                    sets = tuple(TileSet("single", t) for t in present)
                    out.append(Arrangement(HONORS_KNITTED, sets, -1))
                    break
    if len(melds) <= 1:
        for starts, pattern in zip(_KNITTED_STARTS, KNITTED_PATTERNS, strict=True):
            if not all(counts[t] for t in pattern):
                continue
            rest = counts[:]
            for t in pattern:
                rest[t] -= 1
            knit = [TileSet("knitted", t) for t in sorted(starts)]
            for decomp in _standard_decomps(rest):
                csets = knit + [TileSet(k, t) for k, t in decomp]  # type: ignore[arg-type]
                out.extend(_placements(KNITTED_STRAIGHT, fixed, csets, win))
    return out


def is_complete_counts(counts: list[int], n_melds: int) -> bool:
    """Whether concealed counts (34, including the winning tile) plus ``n_melds`` sets win."""
    if _standard_ok(counts):
        return True
    if n_melds == 0:
        if all(c % 2 == 0 for c in counts):
            return True
        present = [t for t in range(NUM_KINDS) if counts[t]]
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
    out: list[Tile] = []
    n = len(melds)
    for t in range(NUM_KINDS):
        if used[t] >= 4 and not include_fifth_copy:
            continue
        # only tiles next to something held (or honours/terminals for special hands) can win
        counts[t] += 1
        if is_complete_counts(counts, n):
            out.append(t)
        counts[t] -= 1
    return out


def has_other_wait(
    melds: tuple[Meld, ...],
    concealed: tuple[Tile, ...] | list[Tile],
    win_tile: Tile,
    include_fifth_copy: bool = False,
) -> bool:
    """Whether the hand of thirteen also waits on a tile other than ``win_tile``.

    Same rule as :func:`waits_of`, stops at the first other wait, and only tries tiles
    that can complete something (neighbours of held tiles; all tiles for the special
    forms when the hand can still be one).
    """
    counts = counts_of(list(concealed))
    used = counts[:]
    for m in melds:
        for t in m.tiles:
            used[t] += 1
    n = len(melds)
    candidates: set[Tile] = set()
    for t in range(NUM_KINDS):
        if counts[t]:
            if t >= 27:
                candidates.add(t)
            else:
                r = t % 9
                for d in (-2, -1, 0, 1, 2):
                    if 0 <= r + d <= 8:
                        candidates.add(t + d)
    distinct_suited = sum(1 for t in range(27) if counts[t])
    if (n <= 1 and distinct_suited >= 7) or (n == 0 and sum(map(bool, counts)) >= 11):
        candidates.update(range(NUM_KINDS))  # knitted forms
    elif n == 0:
        candidates.update(_ORPHANS)
    candidates.discard(win_tile)
    for t in candidates:
        if used[t] >= 4 and not include_fifth_copy:
            continue
        counts[t] += 1
        if is_complete_counts(counts, n):
            return True
        counts[t] -= 1
    return False


__all__ = [
    "HONORS_KNITTED",
    "KNITTED_PATTERNS",
    "KNITTED_STRAIGHT",
    "SEVEN_PAIRS",
    "STANDARD",
    "THIRTEEN_ORPHANS",
    "Arrangement",
    "Form",
    "SetKind",
    "TileSet",
    "arrangements",
    "counts_of",
    "has_other_wait",
    "is_complete",
    "is_complete_counts",
    "waits_of",
]

# Re-exported for the rulesets.
_ = (CHOW, KONG, PUNG)

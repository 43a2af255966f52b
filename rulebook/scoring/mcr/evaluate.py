"""MCR evaluator: every arrangement of the hand is scored, the best one wins.

Per arrangement:

1. hand-level fans (tiles, kongs, win conditions) and arrangement-level fans (honour sets,
   concealed pungs, special forms, whole-hand shapes) are detected;
2. fans *between* chows and *between* pungs are chosen by :func:`_best_combination`,
   which applies 3.9.1.5 (3) no identical reuse and (5) account once (each fan counted
   must bring in a set not used by the fans counted before it) and (4) takes the
   highest total;
3. the table's implication lists remove implied fans (3.9.1.5 (1)), each removal is
   reported as "excluded by";
4. wait fans come from the real waits of the hand (one waiting tile only);
5. Chicken Hand when nothing else scores (flowers aside).

The no-split principle 3.9.1.5 (2) is the arrangement itself: once the sets are chosen,
fans are only looked for among them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from itertools import compress, permutations

from .._construct import slots_constructor
from ..arrange import (
    HONORS_KNITTED as FORM_HONORS_KNITTED,
)
from ..arrange import (
    KNITTED_STRAIGHT as FORM_KNITTED_STRAIGHT,
)
from ..arrange import (
    MELDED,
    ORDER_CHOW,
    ORDER_KNITTED,
    ORDER_KONG,
    ORDER_PAIR,
    ORDER_PUNG,
    Arrangement,
    RawArrangement,
    TileSet,
    build_arrangement,
    code_kind,
    concealed_counts,
    other_wait_counts,
    raw_arrangements,
)
from ..arrange import (
    SEVEN_PAIRS as FORM_SEVEN_PAIRS,
)
from ..arrange import (
    STANDARD as FORM_STANDARD,
)
from ..arrange import (
    THIRTEEN_ORPHANS as FORM_THIRTEEN_ORPHANS,
)
from ..hand import KONG, Hand, Meld, WinContext
from ..result import ExcludedFan, FanScore
from ..tiles import format_tiles
from .fan_ids import (
    ALL_CHOWS,
    ALL_EVEN_PUNGS,
    ALL_FIVES,
    ALL_GREEN,
    ALL_HONORS,
    ALL_PUNGS,
    ALL_SIMPLES,
    ALL_TERMINALS,
    ALL_TERMINALS_AND_HONORS,
    ALL_TYPES,
    BIG_FOUR_WINDS,
    BIG_THREE_DRAGONS,
    BIG_THREE_WINDS,
    CHICKEN_HAND,
    CLOSED_WAIT,
    CONCEALED_HAND,
    CONCEALED_KONG,
    DOUBLE_PUNG,
    DRAGON_PUNG,
    EDGE_WAIT,
    FLOWER_TILES,
    FOUR_CONCEALED_PUNGS,
    FOUR_KONGS,
    FOUR_PURE_SHIFTED_CHOWS,
    FOUR_PURE_SHIFTED_PUNGS,
    FULL_FLUSH,
    FULLY_CONCEALED_HAND,
    GREATER_HONORS_AND_KNITTED_TILES,
    HALF_FLUSH,
    KNITTED_STRAIGHT,
    LAST_TILE,
    LAST_TILE_CLAIM,
    LAST_TILE_DRAW,
    LESSER_HONORS_AND_KNITTED_TILES,
    LITTLE_FOUR_WINDS,
    LITTLE_THREE_DRAGONS,
    LOWER_FOUR,
    LOWER_TILES,
    MELDED_HAND,
    MELDED_KONG,
    MIDDLE_TILES,
    MIXED_DOUBLE_CHOW,
    MIXED_SHIFTED_CHOWS,
    MIXED_SHIFTED_PUNGS,
    MIXED_STRAIGHT,
    MIXED_TRIPLE_CHOW,
    NINE_GATES,
    NO_HONORS,
    ONE_MELDED_AND_ONE_CONCEALED_KONG,
    ONE_VOIDED_SUIT,
    OUT_WITH_REPLACEMENT_TILE,
    OUTSIDE_HAND,
    PREVALENT_WIND,
    PUNG_OF_TERMINALS_OR_HONORS,
    PURE_DOUBLE_CHOW,
    PURE_SHIFTED_CHOWS,
    PURE_SHIFTED_PUNGS,
    PURE_STRAIGHT,
    PURE_TERMINAL_CHOWS,
    PURE_TRIPLE_CHOW,
    QUADRUPLE_CHOW,
    REVERSIBLE_TILES,
    ROBBING_THE_KONG,
    SEAT_WIND,
    SELF_DRAWN,
    SEVEN_PAIRS,
    SEVEN_SHIFTED_PAIRS,
    SHORT_STRAIGHT,
    SINGLE_WAIT,
    THIRTEEN_ORPHANS,
    THREE_CONCEALED_PUNGS,
    THREE_KONGS,
    THREE_SUITED_TERMINAL_CHOWS,
    TILE_HOG,
    TRIPLE_PUNG,
    TWO_CONCEALED_KONGS,
    TWO_CONCEALED_PUNGS,
    TWO_DRAGON_PUNGS,
    TWO_MELDED_KONGS,
    TWO_TERMINAL_CHOWS,
    UPPER_FOUR,
    UPPER_TILES,
)
from .table import CHOW_COMBINATION_FANS, FAN_ORDER, FANS, PUNG_COMBINATION_FANS


@dataclass(frozen=True, slots=True)
class MCRConfig:
    """Variant switches. Defaults follow the seeds (WMO 2006 text + fan table 004)."""

    fan_57b_points: int = 6  # One Melded and one Concealed Kong (004: 6; Chinese 2006: 5)
    fan_48_points: int = 8  # Two Concealed Kongs (004: 8; Chinese 2006: 6)
    wait_fans_in_knitted_straight: bool = False  # Edge/Closed inside the knitted tiles
    minimum_points: int = 8  # 3.9.1.1, flowers not counted
    all_green_excludes_half_flush: bool = False  # seed 3: may combine; Chinese: excludes
    # seed 4, 6, 7, 12, 19, 20, 34: these fans exclude Concealed Hand but "combine with
    # Fully Concealed when self-drawn"; the Chinese calculator counts Self-Drawn instead
    concealed_fans_exclude_fully_concealed: bool = False
    # a tile of which the hand holds all four copies is no real wait (seed 77-79: "waiting
    # for more than one tile"); the Chinese calculator counts it as a wait
    waits_include_fifth_copy: bool = False
    # seed 8: All Terminals "combines with Double Pung and Triple Pung"; the Chinese
    # calculator does not count Double Pung with it
    all_terminals_excludes_double_pung: bool = False


DEFAULT_CONFIG = MCRConfig()
assert not (
    DEFAULT_CONFIG.all_green_excludes_half_flush
    or DEFAULT_CONFIG.all_terminals_excludes_double_pung
    or DEFAULT_CONFIG.concealed_fans_exclude_fully_concealed
)  # _apply_exclusions skips the switches for the default


# A counted fan: id, points of one occurrence, count, notation of the sets (or tiles)
# that make it. The result's FanScore, so score() passes the evaluation's fans on as they
# are instead of copying each one.
CountedFan = FanScore


@dataclass(frozen=True, slots=True)
class Evaluation:
    total: int  # including flowers
    fans: tuple[CountedFan, ...]
    excluded: tuple[ExcludedFan, ...]  # fan id, excluded by fan id or principle
    total_without_flowers: int
    # the best arrangement, as the hand's melds and the raw arrangement: its TileSet and
    # Arrangement objects are built only when ``arrangement`` is asked for
    melds: tuple[Meld, ...] = field(repr=False)
    raw: RawArrangement | None = field(repr=False)

    @property
    def arrangement(self) -> Arrangement | None:
        """The best arrangement (a new object on each call)."""
        return None if self.raw is None else build_arrangement(self.melds, self.raw)


_new_fan = slots_constructor(FanScore)
# fans without sets (win conditions, flowers) or with one (a pung, a pair, one combination
# of sets) take a bounded number of values: their (frozen) objects are shared, like the
# result's ExcludedFan objects
_shared_fan = cache(_new_fan)
# ExcludedFan is frozen and takes its values from a small set (fan ids, principles)
_excluded_fan = cache(ExcludedFan)
_new_evaluation = slots_constructor(Evaluation)

# Fans about how the hand was won: they use no set.
_CONDITION_FANS = frozenset({CHICKEN_HAND, LAST_TILE_DRAW, LAST_TILE_CLAIM, OUT_WITH_REPLACEMENT_TILE, ROBBING_THE_KONG, FULLY_CONCEALED_HAND, LAST_TILE, CONCEALED_HAND, SELF_DRAWN, FLOWER_TILES})

# --- helpers --------------------------------------------------------------------------------

GREEN = frozenset({19, 20, 21, 23, 25, 32})
REVERSIBLE = frozenset({9, 10, 11, 12, 13, 16, 17, 19, 21, 22, 23, 25, 26, 33})
TERMINALS = frozenset({0, 8, 9, 17, 18, 26})
NINE_GATES_STANDING = (3, 1, 1, 1, 1, 1, 1, 1, 3)


_SET_TEXT: dict[tuple[str, int, bool], str] = {}



def _no_simples_fan(mask: int, has_honours: bool) -> str:
    """A hand without simples: All Terminals and Honors (18), All Honors (11) or All
    Terminals (8)."""
    if not has_honours:
        return ALL_TERMINALS
    return ALL_TERMINALS_AND_HONORS if mask & _TERMINAL_MASK else ALL_HONORS

def set_text(s: TileSet) -> str:
    key = (s.kind, s.tile, s.concealed)
    text = _SET_TEXT.get(key)
    if text is None:
        body = format_tiles(s.tiles)
        text = body if s.concealed or s.kind == "knitted" else f"[{body}]"
        _SET_TEXT[key] = text
    return text


def _code_text(code: int) -> str:
    """``set_text`` of a set code (see ``arrange``: concealed or meld code); "" when the
    code names no possible set."""
    if code >> 6 & 7 > ORDER_KONG:
        return ""
    kind = code_kind(code)
    t = code & 63
    if t >= 34 or (kind == "chow" and (t >= 27 or t % 9 > 6)) or (
        kind == "knitted" and (t >= 27 or t % 9 > 2)
    ):
        return ""
    return set_text(TileSet(kind, t, concealed=not code & MELDED))


# The arrangements are scored on set codes; their texts come from this table.
_CODE_TEXT: tuple[str, ...] = tuple(_code_text(code) for code in range(2 * MELDED))
_CODE_TEXT_LIST = list(_CODE_TEXT)  # for map() (see _TILE_BIT)


def _points(fid: str, config: MCRConfig) -> int:
    if fid == ONE_MELDED_AND_ONE_CONCEALED_KONG:
        return config.fan_57b_points
    if fid == TWO_CONCEALED_KONGS:
        return config.fan_48_points
    return FANS[fid].points


# Fans between two or three chows (pungs), by their tiles in the order of the sets: the
# tables behind _chow_instances and _pung_instances, built from the fan patterns.
_INDEX_PAIRS: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple((i, j, 1 << i | 1 << j) for i in range(n) for j in range(i + 1, n)) for n in range(5)
)
_INDEX_TRIPLES: tuple[tuple[tuple[int, int, int, int], ...], ...] = tuple(
    tuple(
        (i, j, k, 1 << i | 1 << j | 1 << k)
        for i in range(n) for j in range(i + 1, n) for k in range(j + 1, n)
    )
    for n in range(5)
)


def _pair_table(
    fan: Callable[[int, int, int, int], str | None],
) -> tuple[tuple[str | None, ...], ...]:
    """Per two suit tiles a and b: ``fan(suit_a, rank_a, suit_b, rank_b)``."""
    return tuple(
        tuple(fan(a // 9, a % 9, b // 9, b % 9) for b in range(27)) for a in range(27)
    )


def _chow_pair_fan(sa: int, ra: int, sb: int, rb: int) -> str | None:
    if sa == sb:
        return {0: PURE_DOUBLE_CHOW, 3: SHORT_STRAIGHT, 6: TWO_TERMINAL_CHOWS}.get(abs(ra - rb))
    return MIXED_DOUBLE_CHOW if ra == rb else None


def _pung_pair_fan(sa: int, ra: int, sb: int, rb: int) -> str | None:
    return DOUBLE_PUNG if sa != sb and ra == rb else None


def _triple_table(
    same_suit: dict[str, list[tuple[int, int, int]]],
    three_suits: dict[str, list[tuple[int, int, int]]],
) -> dict[tuple[int, int, int], str]:
    """(tile, tile, tile) in any order -> fan, from the rank patterns of each fan with
    one suit for all three sets or three different suits."""
    table: dict[tuple[int, int, int], str] = {}
    for patterns, suit_orders in (
        (same_suit, [(s, s, s) for s in range(3)]),
        (three_suits, list(permutations(range(3)))),
    ):
        for fid, rank_sets in patterns.items():
            for ranks in rank_sets:
                for r1, r2, r3 in set(permutations(ranks)):
                    for s1, s2, s3 in suit_orders:
                        table[(9 * s1 + r1, 9 * s2 + r2, 9 * s3 + r3)] = fid
    return table


_CHOW_PAIR_FAN = _pair_table(_chow_pair_fan)
_PUNG_PAIR_FAN = _pair_table(_pung_pair_fan)
# chows start on ranks 0-6 (tiles 1-7)
_CHOW_TRIPLE_FAN = _triple_table(
    {
        PURE_TRIPLE_CHOW: [(r, r, r) for r in range(7)],
        PURE_STRAIGHT: [(0, 3, 6)],
        PURE_SHIFTED_CHOWS: [(r, r + d, r + 2 * d) for d in (1, 2) for r in range(7 - 2 * d)],
    },
    {
        MIXED_TRIPLE_CHOW: [(r, r, r) for r in range(7)],
        MIXED_STRAIGHT: [(0, 3, 6)],
        MIXED_SHIFTED_CHOWS: [(r, r + 1, r + 2) for r in range(5)],
    },
)
_PUNG_TRIPLE_FAN = _triple_table(
    {PURE_SHIFTED_PUNGS: [(r, r + 1, r + 2) for r in range(7)]},
    {TRIPLE_PUNG: [(r, r, r) for r in range(9)], MIXED_SHIFTED_PUNGS: [(r, r + 1, r + 2) for r in range(7)]},
)


def _table_instances(
    tiles: tuple[int, ...],
    pairs: tuple[tuple[str | None, ...], ...],
    triples: dict[tuple[int, int, int], str],
) -> list[tuple[str, int]]:
    """The fans between two and between three of ``tiles`` (the sets' tiles in order) from
    the pair and triple tables: (fan id, bitmask of set indexes), pairs first."""
    out: list[tuple[str, int]] = []
    n = len(tiles)
    for i, j, m in _INDEX_PAIRS[n]:
        fid = pairs[tiles[i]][tiles[j]]
        if fid is not None:
            out.append((fid, m))
    for i, j, k, m in _INDEX_TRIPLES[n]:
        fid3 = triples.get((tiles[i], tiles[j], tiles[k]))
        if fid3 is not None:
            out.append((fid3, m))
    return out


def _four_chow_instances(chows: tuple[int, ...], pair: int) -> list[tuple[str, int]]:
    """The fans of four chows together (14, 16, 13, 29); ``pair``: the pair's tile."""
    out: list[tuple[str, int]] = []
    suit = [c // 9 for c in chows]
    rank = [c % 9 for c in chows]
    m = 15
    if len(set(suit)) == 1:
        rs = sorted(rank)
        if rs[0] == rs[3]:
            out.append((QUADRUPLE_CHOW, m))
        else:
            d = rs[1] - rs[0]
            if d in (1, 2) and rs[2] - rs[1] == d and rs[3] - rs[2] == d:
                out.append((FOUR_PURE_SHIFTED_CHOWS, m))
        if rs == [0, 0, 6, 6] and pair == suit[0] * 9 + 4:
            out.append((PURE_TERMINAL_CHOWS, m))
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
            out.append((THREE_SUITED_TERMINAL_CHOWS, m))
    return out


def _four_pung_instances(pungs: tuple[int, ...]) -> list[tuple[str, int]]:
    """The fan of four pungs together (15: four shifted pungs)."""
    if pungs[0] // 9 == pungs[1] // 9 == pungs[2] // 9 == pungs[3] // 9:
        rs = sorted(p % 9 for p in pungs)
        if all(rs[i + 1] == rs[i] + 1 for i in range(3)):
            return [(FOUR_PURE_SHIFTED_PUNGS, 15)]
    return []


@cache
def _chow_instances(
    chows: tuple[int, ...], pair: int
) -> tuple[tuple[str, int], ...]:
    """Fan instances between chows: (fan id, bitmask of chow indexes)."""
    out = _table_instances(chows, _CHOW_PAIR_FAN, _CHOW_TRIPLE_FAN)
    if len(chows) == 4:
        out += _four_chow_instances(chows, pair)
    return tuple(out)


@cache
def _pung_instances(pungs: tuple[int, ...]) -> tuple[tuple[str, int], ...]:
    """Fan instances between suited pungs/kongs: (fan id, bitmask)."""
    out = _table_instances(pungs, _PUNG_PAIR_FAN, _PUNG_TRIPLE_FAN)
    if len(pungs) == 4:
        out += _four_pung_instances(pungs)
    return tuple(out)


def _valid_selection(chosen: list[tuple[int, int]]) -> bool:
    """Account-once (3.9.1.5 (5)): taking the fans from the highest down (3.9.1.5: "first
    the main fan, then the lesser ones"), every fan must bring in a set not used before.

    ``chosen`` holds (points, bitmask) pairs; fans of equal points may come in any order.
    """
    used = 0
    for pts in sorted({p for p, _ in chosen}, reverse=True):
        group = [m for p, m in chosen if p == pts]
        group_sets = 0
        for m in group:
            group_sets |= m
        # peel from the end: a fan with a set that neither the earlier fans nor the rest
        # of its group use can come last in the group
        while group:
            for idx, m in enumerate(group):
                others = used
                for jdx, o in enumerate(group):
                    if jdx != idx:
                        others |= o
                if m & ~others:
                    group.pop(idx)
                    break
            else:
                return False
        used |= group_sets
    return True


@cache
def _best_combination(instances: tuple[tuple[str, int], ...]) -> tuple[int, tuple[int, ...]]:
    """Pick instances (indexes) maximising points under 3.9.1.5 (3) and (5)."""
    pts = [FANS[fid].points for fid, _ in instances]
    best_total = 0
    best: tuple[int, ...] = ()
    n = len(instances)

    def rec(start: int, chosen: list[int], total: int) -> None:
        nonlocal best_total, best
        if total > best_total:
            best_total = total
            best = tuple(chosen)
        for i in range(start, n):
            fid, mask = instances[i]
            if any(instances[j][0] == fid and instances[j][1] & mask for j in chosen):
                continue
            masks = [(pts[j], instances[j][1]) for j in chosen]
            masks.append((pts[i], mask))
            if not _valid_selection(masks):
                continue
            chosen.append(i)
            rec(i + 1, chosen, total + pts[i])
            chosen.pop()

    rec(0, [], 0)
    return best_total, best


def _wait_fan_tiles(code: int, knitted: bool) -> int:
    """Bit t set when a win on tile t in the set ``code`` makes a wait fan, the wait
    being unique (see the waits in ``_evaluate_arrangement``): a pair (79), the middle of
    a chow (78), the 3 of a 123 or the 7 of a 789 (77), any tile of a knitted set when
    ``knitted`` (MCRConfig.wait_fans_in_knitted_straight). Otherwise the uniqueness of
    the wait does not matter."""
    order = code >> 6 & 7
    t = code & 63
    if t >= 34:
        return 0
    if order == ORDER_PAIR:
        return 1 << t
    if order == ORDER_CHOW:
        if t >= 27 or t % 9 > 6:
            return 0
        r = t % 9
        return 1 << (t + 1) | (1 << (t + 2) if r == 0 else 0) | (1 << t if r == 6 else 0)
    if order == ORDER_KNITTED and knitted:
        return 1 << t | 1 << (t + 3) | 1 << (t + 6)
    return 0


# per set code (see _wait_fan_tiles), without and with the knitted switch
_WAIT_FAN_TILES: tuple[int, ...] = tuple(_wait_fan_tiles(c, False) for c in range(2 * MELDED))
_WAIT_FAN_TILES_KNITTED: tuple[int, ...] = tuple(
    _wait_fan_tiles(c, True) for c in range(2 * MELDED)
)

# --- the evaluator -----------------------------------------------------------------------------

# Tile sets as bitmasks over the 34 kinds (bit t = tile t): "every tile of the hand is
# green" becomes ``mask & ~GREEN_MASK == 0``.
def _mask(tiles: frozenset[int] | range | tuple[int, ...]) -> int:
    m = 0
    for t in tiles:
        m |= 1 << t
    return m


_GREEN_MASK = _mask(GREEN)
_REVERSIBLE_MASK = _mask(REVERSIBLE)
_TERMINAL_MASK = _mask(TERMINALS)
_SIMPLES_MASK = _mask(tuple(t for t in range(27) if 0 < t % 9 < 8))
_WIND_MASK = _mask(range(27, 31))
_DRAGON_MASK = _mask(range(31, 34))
_SUIT_MASKS = (_mask(range(0, 9)), _mask(range(9, 18)), _mask(range(18, 27)))
_SUIT_MASK_0, _SUIT_MASK_1, _SUIT_MASK_2 = _SUIT_MASKS
_SUITED_MASK = _mask(range(27))
_RANKS_UPPER, _RANKS_MIDDLE, _RANKS_LOWER = 0b111000000, 0b000111000, 0b000000111
_RANKS_UPPER_FOUR, _RANKS_LOWER_FOUR = 0b111100000, 0b000001111

# _apply_exclusions: the order in which fans exclude (highest first) and, per fan, the
# fans it excludes (its implications minus its own family of set combinations, whose
# exclusions are per set).
_EXCLUSION_KEY: dict[str, tuple[int, int]] = {
    fid: (-f.points, FAN_ORDER[fid]) for fid, f in FANS.items()
}
_EXCLUDES: dict[str, tuple[str, ...]] = {
    fid: tuple(
        other for other in f.implies
        if other not in (
            CHOW_COMBINATION_FANS if fid in CHOW_COMBINATION_FANS
            else PUNG_COMBINATION_FANS if fid in PUNG_COMBINATION_FANS
            else frozenset()
        )
    )
    for fid, f in FANS.items()
}


@cache
def _points_table(config: MCRConfig) -> dict[str, int]:
    """Points of every fan under ``config`` (57B and 48 are variant switches)."""
    return {fid: _points(fid, config) for fid in FANS}


@cache
def _result_order(config: MCRConfig) -> dict[str, tuple[int, int]]:
    """Sort key of the counted fans: points (under ``config``) down, then table order."""
    pts = _points_table(config)
    return {fid: (-pts[fid], FAN_ORDER[fid]) for fid in FANS}


@cache
def _kong_text(tile: int, concealed: bool, claimed: int, promoted: bool) -> str:
    """``Meld.notation()`` of a kong."""
    return Meld(KONG, tile, concealed, claimed, promoted).notation()


@cache
def _hog_text(t: int) -> str:
    return format_tiles([t] * 4)


# the (shared, never changed) set list of a fan that names no sets
_NO_SET_TEXTS: list[str] = []


_ONCE: tuple[int, list[str]] = (1, _NO_SET_TEXTS)


@dataclass(slots=True)
class _Acc:
    """Fans found for one arrangement: id -> (count, sets).

    The set lists are never changed in place (``add`` builds a new list), so a copy of an
    accumulator can share them. Made with ``_new_acc(fans, excluded)`` in the hot path.
    """

    fans: dict[str, tuple[int, list[str]]] = field(default_factory=dict)
    excluded: list[tuple[str, str]] = field(default_factory=list)

    def add(self, fid: str, sets: list[str] | None = None, count: int = 1) -> None:
        """Count ``fid``; ``sets`` is a new list that the caller does not change after."""
        old = self.fans.get(fid)
        if old is None:
            self.fans[fid] = (count, sets or _NO_SET_TEXTS)
        elif sets:
            self.fans[fid] = (old[0] + count, old[1] + sets)
        else:
            self.fans[fid] = (old[0] + count, old[1])


_new_acc = slots_constructor(_Acc)

# the suits of the hand from three bits (bit s: the hand holds a tile of suit s)
_SUITS_OF_BITS: tuple[frozenset[int], ...] = tuple(
    frozenset(s for s in (0, 1, 2) if bits >> s & 1) for bits in range(8)
)


# Tables read through ``map(table.__getitem__, ...)`` are lists: a list's bound
# ``__getitem__`` is a fast builtin method, a tuple's a slot wrapper called the slow way.
_TILE_BIT: list[int] = [1 << t for t in range(34)]
_KINDS = range(34)  # every playing tile, for compress(_KINDS, counts)


class _HandFacts:
    """What the whole hand holds, computed once per hand."""

    __slots__ = ("closed", "concealed_kongs", "counts", "exposed_win", "has_honours",
                 "kong_tiles", "kongs_text", "mask", "meld_codes", "melded_kongs",
                 "n_melds_exposed", "suits")

    def __init__(self, hand: Hand, concealed: bytearray) -> None:
        """``concealed``: counts of the concealed tiles and the winning tile."""
        counts = concealed[:]
        # bits of the held kinds: a sum over the distinct concealed tiles, all in C
        win = hand.win_tile
        mask = sum(map(_TILE_BIT.__getitem__, {*hand.concealed, win}))
        exposed = 0
        codes: list[int] = []  # arrange.meld_code of each meld
        # the kongs, and the copies of the winning tile in the winner's melded sets
        # (for the hand-level fans: one pass over the melds for both)
        ck = mk = 0
        kong_tiles: list[int] = []
        kongs_text: list[str] = []
        exposed_win = 0
        for m in hand.melds:
            t = m.tile
            kind = m.kind
            if kind == "chow":
                counts[t] += 1
                counts[t + 1] += 1
                counts[t + 2] += 1
                mask |= 7 << t
                code = (ORDER_CHOW << 6) + t
                if not m.concealed and t <= win <= t + 2:
                    exposed_win += 1
            elif kind == "pung":
                counts[t] += 3
                mask |= 1 << t
                code = (ORDER_PUNG << 6) + t
                if not m.concealed and t == win:
                    exposed_win += 3
            else:
                counts[t] += 4
                mask |= 1 << t
                code = (ORDER_KONG << 6) + t
                if m.concealed:
                    ck += 1
                else:
                    mk += 1
                    if t == win:
                        exposed_win += 4
                kong_tiles.append(t)
                kongs_text.append(_kong_text(t, m.concealed, m.claimed, m.promoted))
            if m.concealed:
                codes.append(code)
            else:
                codes.append(code + MELDED)
                exposed += 1
        self.meld_codes = tuple(codes)
        self.counts = counts  # all playing tiles, kongs as 4
        self.mask = mask  # bit t set when the hand holds tile t
        self.suits = _SUITS_OF_BITS[
            (1 if mask & _SUIT_MASK_0 else 0)
            | (2 if mask & _SUIT_MASK_1 else 0)
            | (4 if mask & _SUIT_MASK_2 else 0)
        ]
        self.has_honours = mask >> 27 != 0
        self.closed = exposed == 0  # no melded set (concealed kongs allowed)
        self.n_melds_exposed = exposed
        self.concealed_kongs = ck
        self.melded_kongs = mk
        self.kong_tiles = kong_tiles
        self.kongs_text = kongs_text
        self.exposed_win = exposed_win

    @property
    def present(self) -> list[int]:
        """The tiles the hand holds, in order."""
        counts = self.counts
        return list(compress(_KINDS, counts))


def _hand_level(hand: Hand, ctx: WinContext, facts: _HandFacts, acc: _Acc) -> None:
    """Fans that do not depend on the arrangement (each found once: written directly)."""
    fans = acc.fans
    counts = facts.counts
    mask = facts.mask
    n_suits = len(facts.suits)
    # tiles
    if mask & ~_GREEN_MASK == 0:
        fans[ALL_GREEN] = _ONCE
    if mask & ~_REVERSIBLE_MASK == 0:
        fans[REVERSIBLE_TILES] = _ONCE
    if not facts.has_honours:
        ranks = (mask | mask >> 9 | mask >> 18) & 0x1FF  # bit r: some tile of rank r + 1
        if ranks & ~_RANKS_UPPER == 0:
            fans[UPPER_TILES] = _ONCE
        elif ranks & ~_RANKS_MIDDLE == 0:
            fans[MIDDLE_TILES] = _ONCE
        elif ranks & ~_RANKS_LOWER == 0:
            fans[LOWER_TILES] = _ONCE
        if ranks & ~_RANKS_UPPER_FOUR == 0:
            fans[UPPER_FOUR] = _ONCE
        elif ranks & ~_RANKS_LOWER_FOUR == 0:
            fans[LOWER_FOUR] = _ONCE
        fans[NO_HONORS] = _ONCE
        if n_suits == 1:
            fans[FULL_FLUSH] = _ONCE
    elif n_suits == 1:
        fans[HALF_FLUSH] = _ONCE
    if mask & ~_SIMPLES_MASK == 0:
        fans[ALL_SIMPLES] = _ONCE
    if n_suits == 2:
        fans[ONE_VOIDED_SUIT] = _ONCE
    # kongs
    ck = facts.concealed_kongs
    mk = facts.melded_kongs
    kongs_text = facts.kongs_text
    kong_tiles = facts.kong_tiles
    win = hand.win_tile
    k = ck + mk
    if k == 4:
        acc.add(FOUR_KONGS, kongs_text)
    elif k == 3:
        acc.add(THREE_KONGS, kongs_text)
    elif k == 2:
        acc.add(TWO_CONCEALED_KONGS if ck == 2 else ONE_MELDED_AND_ONE_CONCEALED_KONG if ck == 1 else TWO_MELDED_KONGS, kongs_text)
    elif k == 1:
        acc.add(CONCEALED_KONG if ck else MELDED_KONG, kongs_text)
    # Tile Hog: all four copies used, not as a kong
    if 4 in counts:
        hogs: list[int] = []
        t = counts.index(4)
        while True:  # each tile held four times (list.index finds them in C)
            if t not in kong_tiles:
                hogs.append(t)
            if t == 33 or 4 not in counts[t + 1:]:
                break
            t = counts.index(4, t + 1)
        if hogs:
            acc.add(TILE_HOG, [_hog_text(t) for t in hogs], len(hogs))
    # Nine Gates: the thirteen standing tiles are 1112345678999 of one suit
    if not hand.melds and n_suits == 1 and not facts.has_honours:
        base = 9 * next(iter(facts.suits))
        standing = [0] * 9
        for t in hand.concealed:
            standing[t - base] += 1
        if tuple(standing) == NINE_GATES_STANDING:
            fans[NINE_GATES] = _ONCE
    # win conditions
    if ctx.self_drawn:
        fans[SELF_DRAWN] = _ONCE
        if facts.closed:
            fans[FULLY_CONCEALED_HAND] = _ONCE
        if ctx.last_tile:
            fans[LAST_TILE_DRAW] = _ONCE
        if ctx.kong_replacement:
            fans[OUT_WITH_REPLACEMENT_TILE] = _ONCE
    else:
        if facts.closed:
            fans[CONCEALED_HAND] = _ONCE
        if ctx.last_tile:
            fans[LAST_TILE_CLAIM] = _ONCE
        if ctx.robbing_kong:
            fans[ROBBING_THE_KONG] = _ONCE
        if facts.n_melds_exposed == 4:
            fans[MELDED_HAND] = _ONCE
    # Last Tile (58): the other three copies must be visible to all (seed 58), so not when
    # the winner holds a copy among the standing tiles; automatic when the winner's own
    # melded sets show the other three.
    if (ctx.last_of_kind or facts.exposed_win == 3) and win not in hand.concealed:
        fans[LAST_TILE] = _ONCE


_WIND_TILE: dict[str, int] = {"E": 27, "S": 28, "W": 29, "N": 30}


def _wind_dragon_sets(
    winds: list[int], dragons: list[int], pair: int, ctx: WinContext, acc: _Acc
) -> None:
    """Honour pung fans; ``winds`` and ``dragons`` are the codes of the wind and dragon
    pungs and kongs in the order of the arrangement's sets, ``pair`` the pair's tile."""
    text = _CODE_TEXT
    used_winds = False
    if winds:
        wind_text = [text[c] for c in winds]
        if len(winds) == 4:
            acc.add(BIG_FOUR_WINDS, wind_text)
            used_winds = True
        elif len(winds) == 3:
            if 27 <= pair <= 30:
                acc.add(LITTLE_FOUR_WINDS, [*wind_text, _CODE_TEXT[(ORDER_PAIR << 6) + pair]])
            else:
                acc.add(BIG_THREE_WINDS, wind_text)
            used_winds = True
    if dragons:
        dragon_text = [text[c] for c in dragons]
        if len(dragons) == 3:
            acc.add(BIG_THREE_DRAGONS, dragon_text)
        elif len(dragons) == 2:
            if pair >= 31:
                acc.add(LITTLE_THREE_DRAGONS, [*dragon_text, _CODE_TEXT[(ORDER_PAIR << 6) + pair]])
            else:
                acc.add(TWO_DRAGON_PUNGS, dragon_text)
        for t_ in dragon_text:
            acc.add(DRAGON_PUNG, [t_])
    if winds:
        prevalent = _WIND_TILE[ctx.prevalent]  # ctx.prevalent_wind, without the property
        seat = _WIND_TILE[ctx.seat]
        for c in winds:
            t = c & 63
            special = used_winds
            if t == prevalent:
                acc.add(PREVALENT_WIND, [text[c]])
                special = True
            if t == seat:
                acc.add(SEAT_WIND, [text[c]])
                special = True
            if not special:
                acc.add(PUNG_OF_TERMINALS_OR_HONORS, [text[c]])
            else:
                acc.excluded.append((PUNG_OF_TERMINALS_OR_HONORS, PREVALENT_WIND if t == prevalent else
                                     SEAT_WIND if t == seat else
                                     BIG_FOUR_WINDS if len(winds) == 4 else LITTLE_FOUR_WINDS if LITTLE_FOUR_WINDS in acc.fans
                                     else BIG_THREE_WINDS))
    if dragons:
        acc.excluded.append((PUNG_OF_TERMINALS_OR_HONORS, DRAGON_PUNG))


# Class of each set code for the pass over an arrangement's sets: a chow, a pair, a pung
# or kong (_C_PUNG and up) of a suited non-terminal, a terminal, a wind or a dragon; other.
_C_OTHER, _C_CHOW, _C_PAIR, _C_PUNG, _C_TERMINAL, _C_WIND, _C_DRAGON = range(7)


def _code_class(code: int) -> int:
    order = code >> 6 & 7
    t = code & 63
    if order == ORDER_CHOW:
        return _C_CHOW
    if order == ORDER_PAIR:
        return _C_PAIR
    if order in (ORDER_PUNG, ORDER_KONG):
        if t >= 31:
            return _C_DRAGON
        if t >= 27:
            return _C_WIND
        return _C_TERMINAL if t in TERMINALS else _C_PUNG
    return _C_OTHER


_CODE_CLASS: tuple[int, ...] = tuple(_code_class(code) for code in range(2 * MELDED))


def _fives_set(code: int) -> bool:
    """Whether a set (code) has a five: All Fives (31) needs this of every set."""
    t = code & 63
    if code >> 6 & 7 == ORDER_CHOW:
        return t < 27 and 2 <= t % 9 <= 4
    return t < 27 and t % 9 == 4


def _outside_set(code: int) -> bool:
    """Whether a set (code) has a terminal or honour: Outside Hand (55) needs this of
    every set."""
    t = code & 63
    if code >> 6 & 7 == ORDER_CHOW:
        return t % 9 in (0, 6)
    return t >= 27 or t in TERMINALS


# per set code, so that "every set" is all(map(table.__getitem__, sets)), a C-level loop
# (lists: see _TILE_BIT)
_FIVES_SET: list[bool] = [_fives_set(code) for code in range(2 * MELDED)]
_OUTSIDE_SET: list[bool] = [_outside_set(code) for code in range(2 * MELDED)]


def _evaluate_arrangement(
    hand: Hand,
    ctx: WinContext,
    facts: _HandFacts,
    form: str,
    sets: tuple[int, ...],
    win_index: int,
    base: _Acc,
    unique_wait: bool,
    config: MCRConfig,
    copy: bool = True,
) -> _Acc:
    """The fans of one arrangement: ``sets`` are its set codes (melds first, see
    ``arrange.meld_code``), ``win_index`` the index of the set holding the winning tile.
    The fans are added to a copy of ``base``, or (``copy`` false) to ``base`` itself."""
    # the set lists are shared, see _Acc
    acc = _new_acc(dict(base.fans), list(base.excluded)) if copy else base
    mask = facts.mask
    if form in (FORM_STANDARD, FORM_KNITTED_STRAIGHT):
        text = _CODE_TEXT
        # one pass over the sets; each list keeps the order of the arrangement
        # concealed pungs: a pung completed by a discarded winning tile is melded (the
        # codes of two pungs always differ, so the code tells the winning set apart)
        win_code = sets[win_index] if win_index >= 0 and not ctx.self_drawn else -1
        pair = -1
        chows: list[int] = []
        pungs: list[int] = []  # pungs and kongs
        winds: list[int] = []
        dragons: list[int] = []
        terminal_pungs: list[int] = []
        suited_pungs: list[int] = []
        concealed_pungs: list[int] = []
        classes = _CODE_CLASS
        for c in sets:
            k = classes[c]
            if k == _C_CHOW:
                chows.append(c)
            elif k >= _C_PUNG:
                pungs.append(c)
                if k == _C_DRAGON:
                    dragons.append(c)
                elif k == _C_WIND:
                    winds.append(c)
                else:
                    suited_pungs.append(c)
                    if k == _C_TERMINAL:
                        terminal_pungs.append(c)
                if not c & MELDED and c != win_code:
                    concealed_pungs.append(c)
            elif k == _C_PAIR and pair < 0:
                pair = c
        assert pair >= 0
        pair_tile = pair & 63
        if winds or dragons:
            _wind_dragon_sets(winds, dragons, pair_tile, ctx, acc)
        for c in terminal_pungs:
            acc.add(PUNG_OF_TERMINALS_OR_HONORS, [text[c]])
        ncp = len(concealed_pungs)
        if ncp >= 2:
            cp_text = [text[c] for c in concealed_pungs]
            if ncp == 4:
                acc.add(FOUR_CONCEALED_PUNGS, cp_text)
            elif ncp == 3:
                acc.add(THREE_CONCEALED_PUNGS, cp_text)
            else:
                acc.add(TWO_CONCEALED_PUNGS, cp_text)
        if form == FORM_KNITTED_STRAIGHT:
            acc.add(KNITTED_STRAIGHT, [text[c] for c in sets if c >> 6 & 7 == ORDER_KNITTED])
        if form == FORM_STANDARD and len(pungs) == 4:
            acc.add(ALL_PUNGS)
        if (
            len(chows) == 4 or (form == FORM_KNITTED_STRAIGHT and len(chows) == 1)
        ) and pair_tile < 27:
            acc.add(ALL_CHOWS)
        if form == FORM_STANDARD:
            if len(pungs) == 4 and pair_tile < 27 and pair_tile % 9 % 2 == 1 and all(
                c & 63 < 27 and (c & 63) % 9 % 2 == 1 for c in pungs
            ):
                acc.add(ALL_EVEN_PUNGS)
            # All Fives needs a suited pair of fives (cheap test first)
            if pair_tile < 27 and pair_tile % 9 == 4 and all(map(_FIVES_SET.__getitem__, sets)):
                acc.add(ALL_FIVES)
            # Outside Hand needs a terminal or honour pair (cheap test first)
            if (pair_tile >= 27 or pair_tile in TERMINALS) and all(
                map(_OUTSIDE_SET.__getitem__, sets)
            ):
                acc.add(OUTSIDE_HAND)
            if mask & _SIMPLES_MASK == 0:  # terminals and honours only
                acc.add(_no_simples_fan(mask, facts.has_honours))
        if len(facts.suits) == 3 and mask & _WIND_MASK and mask & _DRAGON_MASK:
            acc.add(ALL_TYPES)
        # combinations between chows / between pungs
        if len(chows) >= 2:
            plan = _chow_fans(chows, pair_tile)
            if plan is not _NO_PLAN:
                _add_combinations(acc, plan, chows)
        if len(suited_pungs) >= 2:
            plan = _pung_fans(suited_pungs)
            if plan is not _NO_PLAN:
                _add_combinations(acc, plan, suited_pungs)
        # waits
        if unique_wait and win_index >= 0:
            win_set = sets[win_index]
            order = win_set >> 6 & 7
            t = win_set & 63
            if order == ORDER_PAIR:
                acc.add(SINGLE_WAIT, [text[win_set]])
            elif order == ORDER_CHOW:
                pos = hand.win_tile - t
                r = t % 9
                if pos == 1:
                    acc.add(CLOSED_WAIT, [text[win_set]])
                elif (pos == 2 and r == 0) or (pos == 0 and r == 6):
                    acc.add(EDGE_WAIT, [text[win_set]])
            elif order == ORDER_KNITTED and config.wait_fans_in_knitted_straight:
                pos = (hand.win_tile - t) // 3
                acc.add(CLOSED_WAIT if pos == 1 else EDGE_WAIT, [text[win_set]])
    elif form == FORM_SEVEN_PAIRS:
        acc.add(SEVEN_PAIRS)
        present = facts.present
        if len(facts.suits) == 1 and not facts.has_honours:
            ranks = sorted({t % 9 for t in present})
            if len(ranks) == 7 and ranks[-1] - ranks[0] == 6:
                acc.add(SEVEN_SHIFTED_PAIRS)
        if mask & _SIMPLES_MASK == 0:
            acc.add(_no_simples_fan(mask, facts.has_honours))
        if len(facts.suits) == 3 and mask & _WIND_MASK and mask & _DRAGON_MASK:
            acc.add(ALL_TYPES)
        if unique_wait:
            acc.add(SINGLE_WAIT)
    elif form == FORM_THIRTEEN_ORPHANS:
        acc.add(THIRTEEN_ORPHANS)
        acc.add(ALL_TYPES)
        if unique_wait:
            acc.add(SINGLE_WAIT)
    elif form == FORM_HONORS_KNITTED:
        counts = facts.counts
        honours = sum(1 for t in range(27, 34) if counts[t])
        acc.add(GREATER_HONORS_AND_KNITTED_TILES if honours == 7 else LESSER_HONORS_AND_KNITTED_TILES)
        if sum(1 for t in range(27) if counts[t]) == 9:
            acc.add(KNITTED_STRAIGHT)
        acc.add(ALL_TYPES)
        if unique_wait:
            acc.add(SINGLE_WAIT)
    _apply_exclusions(acc, config)
    return acc


# What the fans between chows (or between pungs) of an arrangement add: the chosen fans
# as (fan id, indexes of the sets it uses), in the order they are counted, and the fans
# left out as (fan id, excluded by). Computed once per table key, so per arrangement only
# the set texts are joined.
_Plan = tuple[tuple[tuple[str, tuple[int, ...]], ...], tuple[tuple[str, str], ...]]
_NO_PLAN: _Plan = ((), ())


def _relabel_tables() -> dict[tuple[int, ...], list[int]]:
    """Per order of first appearance of the suits (a tuple of one to three suits): the
    renamed tile of every suit tile. Suits that do not appear get the next name."""
    tables: dict[tuple[int, ...], list[int]] = {}  # lists: see _TILE_BIT
    for n in (1, 2, 3):
        for seen in permutations(range(3), n):
            names = {suit: k for k, suit in enumerate(seen)}
            tables[seen] = [9 * names.get(t // 9, len(seen)) + t % 9 for t in range(27)]
    return tables


_RELABEL = _relabel_tables()
_SUIT_OF: list[int] = [t // 9 for t in range(27)]


def _relabel(tiles: list[int], extra: int = -1) -> tuple[tuple[int, ...], int]:
    """``tiles`` (suit tiles) and ``extra`` (a suit tile or -1) with the suits renamed in
    order of first appearance. The fans between sets only ask whether suits are equal,
    so renamed sets have the same instances, and the tables below get far more hits."""
    table = _RELABEL[tuple(dict.fromkeys(map(_SUIT_OF.__getitem__, tiles)))]
    return tuple(map(table.__getitem__, tiles)), table[extra] if extra >= 0 else extra


@cache
def _plan(instances: tuple[tuple[str, int], ...]) -> _Plan:
    """The best choice among ``instances`` (3.9.1.5 (3)-(5)) as a :data:`_Plan`.

    A table of its own: many sets of chows (or pungs) differ only in sets that make no
    fan, so they share their instances (on 20,000 hands, 2,870 keys of the two tables
    above give 248 different instance lists).

    A fan left out is excluded by the first chosen fan that uses all its sets, else by
    the first that shares a set with it, else by the account-once principle.
    """
    if not instances:
        return _NO_PLAN
    chosen = _best_combination(instances)[1]
    adds = tuple(
        (instances[i][0], tuple(b for b in range(4) if instances[i][1] >> b & 1))
        for i in chosen
    )
    chosen_fids = {instances[i][0] for i in chosen}
    excluded: list[tuple[str, str]] = []
    for i, (fid, mask) in enumerate(instances):
        if i in chosen or fid in chosen_fids:
            continue
        by = "3.9.1.5"
        for j in chosen:
            if instances[j][1] & mask == mask:
                by = instances[j][0]
                break
        else:
            for j in chosen:
                if instances[j][1] & mask:
                    by = instances[j][0]
                    break
        excluded.append((fid, by))
    return adds, tuple(excluded)


@cache
def _chow_combination(chows: tuple[int, ...], pair: int) -> _Plan:
    return _plan(_chow_instances(chows, pair))


@cache
def _pung_combination(pungs: tuple[int, ...]) -> _Plan:
    return _plan(_pung_instances(pungs))


# bit (rank) of a suited tile, for the quick tests below
_RANK_BIT: tuple[int, ...] = tuple(1 << (t % 9) for t in range(27))


def _chow_fans(chows: list[int], pair: int) -> _Plan:
    """Plan for the chows (set codes) with the pair's tile ``pair``."""
    # Every fan between chows needs two chows of equal ranks or ranks 3 or 6 apart, or
    # three with ranks in steps of 1 or 2 (see _chow_instances); without any, no table.
    ranks = 0
    for c in chows:
        ranks |= _RANK_BIT[c & 63]
    if ranks.bit_count() == len(chows) and not (
        ranks & (ranks >> 3 | ranks >> 6)
        or ranks & ranks >> 1 & ranks >> 2
        or ranks & ranks >> 2 & ranks >> 4
    ):
        return _NO_PLAN
    # the pair only matters when it is a suited five (fans 13 and 29)
    key, pair_key = _relabel(
        [c & 63 for c in chows], pair if pair < 27 and pair % 9 == 4 else -1
    )
    return _chow_combination(key, pair_key if pair_key >= 0 else 34)


def _pung_fans(pungs: list[int]) -> _Plan:
    """Plan for the suited pungs and kongs (set codes)."""
    # Every fan between pungs needs two of equal rank (so of different suits) or three of
    # consecutive ranks (see _pung_instances); without either, no table.
    ranks = 0
    for c in pungs:
        ranks |= _RANK_BIT[c & 63]
    if ranks.bit_count() == len(pungs) and not ranks & ranks >> 1 & ranks >> 2:
        return _NO_PLAN
    return _pung_combination(_relabel([c & 63 for c in pungs])[0])


def _add_combinations(acc: _Acc, plan: _Plan, sets: list[int]) -> None:
    adds, excluded = plan
    text = _CODE_TEXT
    for fid, indexes in adds:
        acc.add(fid, ["+".join([text[sets[b]] for b in indexes])])
    if excluded:
        acc.excluded.extend(excluded)


def _apply_exclusions(acc: _Acc, config: MCRConfig) -> None:
    fans = acc.fans
    if config is not DEFAULT_CONFIG:  # the default has none of the switches below on
        _apply_switches(acc, config)
    plan = _exclusion_plan(_EXCLUDERS.intersection(fans))
    if plan:
        excluded = acc.excluded
        for other, by in plan:
            if other in fans:
                del fans[other]
                excluded.append((other, by))


def _apply_switches(acc: _Acc, config: MCRConfig) -> None:
    """The exclusions that configuration switches add."""
    fans = acc.fans
    if config.all_green_excludes_half_flush and ALL_GREEN in fans and HALF_FLUSH in fans:
        del fans[HALF_FLUSH]
        acc.excluded.append((HALF_FLUSH, ALL_GREEN))
    if config.all_terminals_excludes_double_pung and ALL_TERMINALS in fans and DOUBLE_PUNG in fans:
        del fans[DOUBLE_PUNG]
        acc.excluded.append((DOUBLE_PUNG, ALL_TERMINALS))
    if config.concealed_fans_exclude_fully_concealed and FULLY_CONCEALED_HAND in fans:
        by = next((f for f in fans if f != FULLY_CONCEALED_HAND and CONCEALED_HAND in FANS[f].implies), None)
        if by is not None:
            del fans[FULLY_CONCEALED_HAND]
            acc.excluded.append((FULLY_CONCEALED_HAND, by))
            if not any(f in fans for f in (LAST_TILE_DRAW, OUT_WITH_REPLACEMENT_TILE)):
                fans[SELF_DRAWN] = (1, [])


# the fans that exclude some other fan by implication
_EXCLUDERS = frozenset(f for f, others in _EXCLUDES.items() if others)


@cache
def _exclusion_plan(excluders: frozenset[str]) -> tuple[tuple[str, str], ...]:
    """What the excluding fans found (``excluders``) exclude by
    implication: (excluded, by) pairs in the order they are reported, to be applied to
    the fans that are present. Highest fan first; a fan excluded by a higher one
    excludes nothing itself. Keyed on the excluding fans alone (a few hundred
    combinations), not on all the fans found, so that the table fills quickly."""
    removed: set[str] = set()
    plan: list[tuple[str, str]] = []
    for fid in sorted(excluders, key=_EXCLUSION_KEY.__getitem__):
        if fid in removed:
            continue
        for other in _EXCLUDES[fid]:
            if other not in removed:
                removed.add(other)
                plan.append((other, fid))
    return tuple(plan)


_DEFAULT_POINTS = _points_table(DEFAULT_CONFIG)
_DEFAULT_ORDER = _result_order(DEFAULT_CONFIG)


_POSSIBLE_COUNTS = bytes(range(5))


def evaluate(
    hand: Hand,
    ctx: WinContext,
    config: MCRConfig = DEFAULT_CONFIG,
    alternatives: list[dict[str, int]] | None = None,
) -> Evaluation | None:
    """Score a hand; ``None`` when it is not a complete hand (or holds a tile that is
    not a playing tile, or a fifth copy of one).

    ``alternatives``, when given, receives the fans (id -> points) of every arrangement
    (before Chicken Hand and flowers), for explanations and comparisons.
    """
    win = hand.win_tile
    try:
        counts = concealed_counts(hand)
    except IndexError:  # a flower or joker among the tiles (34 and up)
        return None
    facts = _HandFacts(hand, counts)
    # a tile five times or more (melds included): no hand (deleting the counts 0-4 leaves
    # nothing, one C call)
    if facts.counts.translate(None, _POSSIBLE_COUNTS):
        return None
    raws = raw_arrangements(hand, counts)
    if not raws:
        return None
    if config is DEFAULT_CONFIG:  # skips hashing the config (a dataclass) twice per hand
        pts, order = _DEFAULT_POINTS, _DEFAULT_ORDER
    else:
        pts, order = _points_table(config), _result_order(config)
    base = _new_acc({}, [])
    _hand_level(hand, ctx, facts, base)
    melds = hand.melds
    meld_codes = facts.meld_codes
    unique: bool | None = None
    best: _Acc | None = None
    best_total = -1
    best_raw: RawArrangement | None = None
    best_sets: tuple[int, ...] = ()
    single = len(raws) == 1 and alternatives is None
    positive = pts is _DEFAULT_POINTS or min(pts.values()) > 0
    wait_tiles = (
        _WAIT_FAN_TILES_KNITTED if config.wait_fans_in_knitted_straight else _WAIT_FAN_TILES
    )
    for raw in raws:
        form, codes, win_index = raw
        arr_sets = meld_codes + codes if melds else codes
        # the uniqueness of the wait is only worked out when it can make a wait fan
        needs_wait = form in (FORM_SEVEN_PAIRS, FORM_THIRTEEN_ORPHANS, FORM_HONORS_KNITTED) or (
            win_index >= 0 and wait_tiles[arr_sets[win_index]] >> win & 1
        )
        if needs_wait and unique is None:
            standing = counts[:]
            standing[win] -= 1
            unique = not other_wait_counts(
                melds, standing, win, config.waits_include_fifth_copy, facts.counts
            )
        acc = _evaluate_arrangement(
            hand, ctx, facts, form, arr_sets, win_index, base, bool(needs_wait and unique),
            config, not single,
        )
        if single and positive:
            # the only arrangement: its total only matters for Chicken Hand, and with
            # every fan worth points it is zero exactly when no fan was found
            total = 1 if acc.fans else 0
        else:
            total = 0
            for fid, (c, _) in acc.fans.items():
                total += pts[fid] * c
        if alternatives is not None:
            alternatives.append({fid: pts[fid] * c for fid, (c, _) in acc.fans.items()})
        if total > best_total:
            best, best_total, best_raw, best_sets = acc, total, raw, arr_sets
    assert best is not None and best_raw is not None
    if best_total == 0:
        best.add(CHICKEN_HAND)
    flowers = ctx.flowers
    flower_points = 0
    if flowers:
        best.add(FLOWER_TILES, None, flowers)
        flower_points = pts[FLOWER_TILES] * flowers
    # the fans with their sets: a fan that names no sets (and is not about how the hand
    # was won) uses all the sets of the arrangement
    all_sets: tuple[str, ...] | None = None
    fans: list[CountedFan] = []
    total = 0
    best_fans = best.fans
    shared = _shared_fan
    for fid in sorted(best_fans, key=order.__getitem__):
        c, sets = best_fans[fid]
        p = pts[fid]
        total += p * c
        if sets:
            fans.append(shared(fid, p, c, (sets[0],)) if len(sets) == 1
                        else _new_fan(fid, p, c, tuple(sets)))
        elif fid in _CONDITION_FANS:
            fans.append(shared(fid, p, c, ()))
        else:
            if all_sets is None:
                all_sets = tuple(map(_CODE_TEXT_LIST.__getitem__, best_sets))
            fans.append(_new_fan(fid, p, c, all_sets) if len(all_sets) > 1
                        else shared(fid, p, c, all_sets))
    excluded: dict[str, str] = {}
    for fid, by in best.excluded:
        if fid not in best_fans and fid not in excluded:
            excluded[fid] = by
    ex = tuple([
        _excluded_fan(fid, excluded[fid]) for fid in sorted(excluded, key=FAN_ORDER.__getitem__)
    ])
    return _new_evaluation(total, tuple(fans), ex, total - flower_points, melds, best_raw)

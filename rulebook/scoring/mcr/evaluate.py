"""The MCR evaluator: every arrangement of the hand is scored, the best one wins (3.9.1.5).

:func:`evaluate` is the pipeline; each step is a module of its own:

1. the fans of the whole hand, found once (``hand_fans.py``: tiles, kongs, how the hand
   was won);
2. per arrangement of the hand (``arrange.py``; choosing the arrangement is 3.9.1.5 (2),
   the non-separation principle: the sets are fixed before fans are looked for):

   a. the fans its sets make (``arrangement_fans.py``), the fans between chows and
      between pungs chosen by the principles of 3.9.1.5 (3) non-identical, (4) highest
      and (5) account once (``principles.py``, on the definitions of
      ``combination_fans.py``); the wait fans when the wait was the only one;
   b. 3.9.1.5 (1) non-repeat: the fans implied by a higher fan are excluded
      (``exclusions.py``, on the table's implications, ``table.py``);

3. the arrangement with the highest total; Chicken Hand when it scores nothing; the
   flowers.

Fans are named by the constants of ``fan_ids.py`` (``MIXED_TRIPLE_CHOW``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from .._construct import slots_constructor
from ..arrange import (
    HONORS_KNITTED,
    SEVEN_PAIRS,
    THIRTEEN_ORPHANS,
    Arrangement,
    RawArrangement,
    build_arrangement,
    concealed_counts,
    other_wait_counts,
    raw_arrangements,
)
from ..hand import Hand, Meld, WinContext
from ..result import ExcludedFan, FanScore
from .arrangement_fans import WAIT_FAN_TILES, WAIT_FAN_TILES_KNITTED, arrangement_fans
from .config import DEFAULT_CONFIG, MCRConfig
from .exclusions import apply_exclusions, apply_switches
from .fan_ids import (
    CHICKEN_HAND,
    CONCEALED_HAND,
    FLOWER_TILES,
    FULLY_CONCEALED_HAND,
    LAST_TILE,
    LAST_TILE_CLAIM,
    LAST_TILE_DRAW,
    ONE_MELDED_AND_ONE_CONCEALED_KONG,
    OUT_WITH_REPLACEMENT_TILE,
    ROBBING_THE_KONG,
    SELF_DRAWN,
    TWO_CONCEALED_KONGS,
)
from .found import CODE_TEXT, Found
from .hand_fans import HandFacts, hand_fans
from .table import FAN_ORDER, FANS

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
_CONDITION_FANS = frozenset({
    CHICKEN_HAND, LAST_TILE_DRAW, LAST_TILE_CLAIM, OUT_WITH_REPLACEMENT_TILE, ROBBING_THE_KONG,
    FULLY_CONCEALED_HAND, LAST_TILE, CONCEALED_HAND, SELF_DRAWN, FLOWER_TILES,
})
# the forms whose wait is always a single tile
_SINGLE_TILE_FORMS = (SEVEN_PAIRS, THIRTEEN_ORPHANS, HONORS_KNITTED)


def _points(fid: str, config: MCRConfig) -> int:
    if fid == ONE_MELDED_AND_ONE_CONCEALED_KONG:
        return config.fan_57b_points
    if fid == TWO_CONCEALED_KONGS:
        return config.fan_48_points
    return FANS[fid].points


@cache
def _points_table(config: MCRConfig) -> dict[str, int]:
    """Points of every fan under ``config`` (57B and 48 are variant switches)."""
    return {fid: _points(fid, config) for fid in FANS}


@cache
def _result_order(config: MCRConfig) -> dict[str, tuple[int, int]]:
    """Sort key of the counted fans: points (under ``config``) down, then table order."""
    pts = _points_table(config)
    return {fid: (-pts[fid], FAN_ORDER[fid]) for fid in FANS}


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
    facts = HandFacts(hand, counts)
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
    # 1. the fans of the whole hand
    base = Found({}, [])
    hand_fans(hand, ctx, facts, base)
    melds = hand.melds
    meld_codes = facts.meld_codes
    unique: bool | None = None
    best: Found | None = None
    best_total = -1
    best_raw: RawArrangement | None = None
    best_sets: tuple[int, ...] = ()
    single = len(raws) == 1 and alternatives is None
    positive = pts is _DEFAULT_POINTS or min(pts.values()) > 0
    wait_tiles = (
        WAIT_FAN_TILES_KNITTED if config.wait_fans_in_knitted_straight else WAIT_FAN_TILES
    )
    # 2. every arrangement
    for raw in raws:
        form, codes, win_index = raw
        arr_sets = meld_codes + codes if melds else codes
        # the uniqueness of the wait is only worked out when it can make a wait fan
        needs_wait = form in _SINGLE_TILE_FORMS or (
            win_index >= 0 and wait_tiles[arr_sets[win_index]] >> win & 1
        )
        if needs_wait and unique is None:
            standing = counts[:]
            standing[win] -= 1
            unique = not other_wait_counts(
                melds, standing, win, config.waits_include_fifth_copy, facts.counts
            )
        # a. the fans of its sets, b. the fans they imply excluded
        found = base if single else base.copy()
        arrangement_fans(
            hand, ctx, facts, form, arr_sets, win_index, found, bool(needs_wait and unique),
            config,
        )
        if config is not DEFAULT_CONFIG:  # the default has none of the switches on
            apply_switches(found, config)
        apply_exclusions(found)
        if single and positive:
            # the only arrangement: its total only matters for Chicken Hand, and with
            # every fan worth points it is zero exactly when no fan was found
            total = 1 if found.fans else 0
        else:
            total = 0
            for fid, (c, _) in found.fans.items():
                total += pts[fid] * c
        if alternatives is not None:
            alternatives.append({fid: pts[fid] * c for fid, (c, _) in found.fans.items()})
        if total > best_total:
            best, best_total, best_raw, best_sets = found, total, raw, arr_sets
    assert best is not None and best_raw is not None
    # 3. the best arrangement, Chicken Hand, the flowers
    if best_total == 0:
        best.add(CHICKEN_HAND)
    flowers = ctx.flowers
    flower_points = 0
    if flowers:
        best.add(FLOWER_TILES, None, flowers)
        flower_points = pts[FLOWER_TILES] * flowers
    return _evaluation(best, best_sets, best_raw, melds, pts, order, flower_points)


def _evaluation(
    best: Found,
    best_sets: tuple[int, ...],
    best_raw: RawArrangement,
    melds: tuple[Meld, ...],
    pts: dict[str, int],
    order: dict[str, tuple[int, int]],
    flower_points: int,
) -> Evaluation:
    """The result of the best arrangement: its fans with their sets (a fan that names no
    sets and is not about how the hand was won uses all the sets of the arrangement),
    highest first, and the fans excluded."""
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
                all_sets = tuple(map(CODE_TEXT.__getitem__, best_sets))
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

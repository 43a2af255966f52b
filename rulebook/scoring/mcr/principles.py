"""The combination principles of 3.9.1.5, for the fans between chows and between pungs.

Once the arrangement is chosen, the sets are fixed: (2) the non-separation principle is
the arrangement itself. Among the fans that its chows (pungs) make together
(``combination_fans.py``), the ones counted are chosen here:

- (3) non-identical principle: a fan is not counted twice on a set it already used;
- (5) account-once principle: taking the fans from the highest down, every fan counted
  must bring in a set that the fans counted before it did not use;
- (4) the highest total of what (3) and (5) allow.

:func:`chow_plan` and :func:`pung_plan` give the choice as a :data:`Plan`; the choice
depends only on which suits are equal, so the sets are looked up with their suits renamed
in order of appearance, and each plan is computed once.
"""

from __future__ import annotations

from functools import cache
from itertools import permutations

from ..codes import TILE_OF
from ..tiles import NUM_KINDS, NUM_SUITED, Tile
from .combination_fans import (
    CHOW_RANKS_MAY_COMBINE,
    PUNG_RANKS_MAY_COMBINE,
    Instances,
    chow_instances,
    pung_instances,
)
from .table import FANS

# What the fans between chows (or between pungs) add: the chosen fans as (fan id,
# indexes of the sets it uses), in the order they are counted, and the fans left out as
# (fan id, excluded by).
Plan = tuple[tuple[tuple[str, tuple[int, ...]], ...], tuple[tuple[str, str], ...]]
NO_PLAN: Plan = ((), ())
PRINCIPLE = "3.9.1.5"  # "excluded by" a principle rather than by a fan


def accounted_once(chosen: list[tuple[int, int]]) -> bool:
    """(5) Account once: taking the fans from the highest down (3.9.1.5: "first the main
    fan, then the lesser ones"), every fan must bring in a set not used before.

    ``chosen`` holds (points, bitmask of the sets) pairs; fans of equal points may come
    in any order.
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
def best_combination(instances: Instances) -> tuple[int, tuple[int, ...]]:
    """(4) The instances (indexes) with the highest points under (3) and (5)."""
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
            # (3) non-identical: the same fan again on a set it already used
            if any(instances[j][0] == fid and instances[j][1] & mask for j in chosen):
                continue
            masks = [(pts[j], instances[j][1]) for j in chosen]
            masks.append((pts[i], mask))
            if not accounted_once(masks):
                continue
            chosen.append(i)
            rec(i + 1, chosen, total + pts[i])
            chosen.pop()

    rec(0, [], 0)
    return best_total, best


@cache
def _plan(instances: Instances) -> Plan:
    """The best choice among ``instances`` as a :data:`Plan` (many sets of chows share
    their instances: on 20,000 hands, 2,870 keys give 248 different instance lists).

    A fan left out is excluded by the first chosen fan that uses all its sets, else by
    the first that shares a set with it, else by the account-once principle.
    """
    if not instances:
        return NO_PLAN
    chosen = best_combination(instances)[1]
    adds = tuple(
        (instances[i][0], tuple(b for b in range(4) if instances[i][1] >> b & 1))
        for i in chosen
    )
    chosen_fids = {instances[i][0] for i in chosen}
    excluded: list[tuple[str, str]] = []
    for i, (fid, mask) in enumerate(instances):
        if i in chosen or fid in chosen_fids:
            continue
        by = PRINCIPLE
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


def _relabel_tables() -> dict[tuple[int, ...], list[Tile]]:
    """Per order of first appearance of the suits (a tuple of one to three suits): the
    renamed tile of every suit tile. Suits that do not appear get the next name."""
    tables: dict[tuple[int, ...], list[Tile]] = {}  # lists: fast ``__getitem__`` for map
    for n in (1, 2, 3):
        for seen in permutations(range(3), n):
            names = {suit: k for k, suit in enumerate(seen)}
            tables[seen] = [
                9 * names.get(t // 9, len(seen)) + t % 9 for t in range(NUM_SUITED)
            ]
    return tables


_RELABEL = _relabel_tables()
_SUIT_OF: list[int] = [t // 9 for t in range(NUM_SUITED)]
_RANK_BIT: list[int] = [1 << (t % 9) for t in range(NUM_SUITED)]


def _relabel(tiles: list[Tile], extra: Tile = -1) -> tuple[tuple[Tile, ...], Tile]:
    """``tiles`` (suit tiles) and ``extra`` (a suit tile or -1) with the suits renamed in
    order of first appearance: renamed sets make the same fans, and the plan tables get
    far more hits."""
    table = _RELABEL[tuple(dict.fromkeys(map(_SUIT_OF.__getitem__, tiles)))]
    return tuple(map(table.__getitem__, tiles)), table[extra] if extra >= 0 else extra


def _rank_mask(tiles: list[Tile]) -> int:
    ranks = 0
    for t in tiles:
        ranks |= _RANK_BIT[t]
    return ranks


@cache
def _chow_plan(chows: tuple[Tile, ...], pair: Tile) -> Plan:
    return _plan(chow_instances(chows, pair))


@cache
def _pung_plan(pungs: tuple[Tile, ...]) -> Plan:
    return _plan(pung_instances(pungs))


def chow_plan(chows: list[int], pair: Tile) -> Plan:
    """The plan of the chows (set codes) with the pair's tile ``pair``."""
    tiles = list(map(TILE_OF.__getitem__, chows))
    ranks = _rank_mask(tiles)
    if ranks.bit_count() == len(tiles) and not CHOW_RANKS_MAY_COMBINE[ranks]:
        return NO_PLAN
    # the pair only matters when it is a suited five (Pure and Three-Suited Terminal
    # Chows)
    key, pair_key = _relabel(tiles, pair if pair < NUM_SUITED and pair % 9 == 4 else -1)
    return _chow_plan(key, pair_key if pair_key >= 0 else NUM_KINDS)


def pung_plan(pungs: list[int]) -> Plan:
    """The plan of the suited pungs and kongs (set codes)."""
    tiles = list(map(TILE_OF.__getitem__, pungs))
    ranks = _rank_mask(tiles)
    if ranks.bit_count() == len(tiles) and not PUNG_RANKS_MAY_COMBINE[ranks]:
        return NO_PLAN
    return _pung_plan(_relabel(tiles)[0])

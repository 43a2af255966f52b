"""Joker-aware arrangements for Red Mahjong (seed 003, L105-110, L522-540).

A joker stands for any tile, but every set and the pair keep at least one natural
tile (L529-531). Each group is therefore built around the lowest natural tile still
free, jokers filling the missing places; jokers left over at the end can not form a
group alone and the split fails. Red Mahjong has no kongs (L435-437).

Groups are ``(kind, tile)`` with kind ``chow``, ``pung`` or ``pair`` and ``tile`` the
lowest tile of the group as played (a joker takes the identity it stands for).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations, pairwise

from rulebook.scoring.tiles import NUM_KINDS, Tile

Group = tuple[str, Tile]


def standard_splits(counts: tuple[int, ...], jokers: int, sets: int) -> set[tuple[Group, ...]]:
    """Every split of ``counts`` (34 natural tiles) plus ``jokers`` into ``sets`` sets
    and one pair, as sorted tuples of groups."""
    return set(_split(counts, jokers, sets, True))


@lru_cache(maxsize=4096)
def _split(
    counts: tuple[int, ...], jokers: int, sets: int, need_pair: bool
) -> tuple[tuple[Group, ...], ...]:
    t = next((i for i in range(NUM_KINDS) if counts[i]), -1)
    if t < 0:
        if jokers == 0 and sets == 0 and not need_pair:
            return ((),)
        return ()
    out: set[tuple[Group, ...]] = set()
    c = list(counts)

    def emit(group: Group, rest: list[int], used_jokers: int, s: int, p: bool) -> None:
        if used_jokers > jokers:
            return
        for tail in _split(tuple(rest), jokers - used_jokers, s, p):
            out.add(tuple(sorted((group, *tail))))

    # pair: two naturals, or one natural and a joker
    if need_pair:
        for naturals in (2, 1):
            if c[t] >= naturals:
                rest = c[:]
                rest[t] -= naturals
                emit(("pair", t), rest, 2 - naturals, sets, False)
    if sets:
        # pung: 3, 2 or 1 naturals
        for naturals in (3, 2, 1):
            if c[t] >= naturals:
                rest = c[:]
                rest[t] -= naturals
                emit(("pung", t), rest, 3 - naturals, sets - 1, need_pair)
        # chows containing t, where t is the lowest natural: lower places are jokers
        if t < 27:
            rank = t % 9
            for start in (rank - 2, rank - 1, rank):
                if start < 0 or start > 6:
                    continue
                low = t - rank + start
                places = [low + k for k in range(3)]
                below = [p for p in places if p < t]
                above = [p for p in places if p > t]
                # each upper place: a natural if free (or a joker instead), else a joker
                for use_natural in _choices(len(above)):
                    rest = c[:]
                    rest[t] -= 1
                    used = len(below)
                    ok = True
                    for place, natural in zip(above, use_natural, strict=True):
                        if natural:
                            if rest[place] == 0:
                                ok = False
                                break
                            rest[place] -= 1
                        else:
                            used += 1
                    if ok:
                        emit(("chow", low), rest, used, sets - 1, need_pair)
    return tuple(out)


def _choices(n: int) -> list[tuple[bool, ...]]:
    if n == 0:
        return [()]
    return [tuple(bool(b >> k & 1) for k in range(n)) for b in range(1 << n)]


# --- chaotic hand ---------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _spread_sets() -> tuple[frozenset[int], ...]:
    """Every set of ranks 0-8 whose members are at least 3 apart."""
    out: list[frozenset[int]] = []
    for size in range(4):
        for combo in combinations(range(9), size):
            if all(b - a >= 3 for a, b in pairwise(combo)):
                out.append(frozenset(combo))
    return tuple(out)


def chaotic_completion(counts: tuple[int, ...], jokers: int) -> tuple[Tile, ...] | None:
    """The 14 tiles of a chaotic hand (fan 11, L790-796) made from ``counts`` and
    ``jokers``, or ``None``. Single honours; suit tiles of one suit at least 3 ranks
    apart; all 14 tiles different."""
    if any(c > 1 for c in counts):
        return None
    tiles: list[Tile] = [t for t in range(27, 34) if counts[t]]
    missing_honours = [t for t in range(27, 34) if not counts[t]]
    extra_slots: list[list[Tile]] = []
    for suit in range(3):
        held = frozenset(r for r in range(9) if counts[9 * suit + r])
        best: frozenset[int] | None = None
        for spread in _spread_sets():
            if held <= spread and (best is None or len(spread) > len(best)):
                best = spread
        if best is None:
            return None
        tiles.extend(9 * suit + r for r in sorted(held))
        extra_slots.append([9 * suit + r for r in sorted(best - held)])
    free = missing_honours + [t for slot in extra_slots for t in slot]
    if len(tiles) + jokers != 14 or jokers > len(free):
        return None
    return tuple(sorted(tiles + free[:jokers]))

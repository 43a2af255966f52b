"""3.9.1.5 (1), the non-repeat principle: a fan that a higher fan implies is not counted.

What each fan implies is data, in the fan table (``table.py``, with the book's reasons).
:func:`apply_exclusions` removes from the fans of an arrangement every fan implied by a
higher fan found, and reports it as "excluded by" that fan. The fans between chows or
between pungs are excluded per set instead (``principles.py``), so their own family
is left out of these lists. :func:`apply_switches` adds the exclusions that the variant
switches of :class:`~.config.MCRConfig` turn on.
"""

from __future__ import annotations

from functools import cache

from .config import MCRConfig
from .fan_ids import (
    ALL_GREEN,
    ALL_TERMINALS,
    CONCEALED_HAND,
    DOUBLE_PUNG,
    FULLY_CONCEALED_HAND,
    HALF_FLUSH,
    LAST_TILE_DRAW,
    OUT_WITH_REPLACEMENT_TILE,
    SELF_DRAWN,
)
from .found import NO_SETS, Found
from .table import CHOW_COMBINATION_FANS, FAN_ORDER, FANS, PUNG_COMBINATION_FANS

# the order in which fans exclude: highest first, then table order
_EXCLUSION_KEY: dict[str, tuple[int, int]] = {
    fid: (-f.points, FAN_ORDER[fid]) for fid, f in FANS.items()
}


def _family(fid: str) -> frozenset[str]:
    """The fans excluded per set rather than per hand, for ``fid`` of that family."""
    if fid in CHOW_COMBINATION_FANS:
        return CHOW_COMBINATION_FANS
    if fid in PUNG_COMBINATION_FANS:
        return PUNG_COMBINATION_FANS
    return frozenset()


# per fan, the fans it excludes: its implications minus its own family
EXCLUDES: dict[str, tuple[str, ...]] = {
    fid: tuple(other for other in f.implies if other not in _family(fid))
    for fid, f in FANS.items()
}
# the fans that exclude some other fan
_EXCLUDERS = frozenset(f for f, others in EXCLUDES.items() if others)


@cache
def _exclusion_plan(excluders: frozenset[str]) -> tuple[tuple[str, str], ...]:
    """What the excluding fans found (``excluders``) exclude: (excluded, by) pairs in
    the order they are reported, to be applied to the fans that are present. Highest fan
    first; a fan excluded by a higher one excludes nothing itself. Keyed on the excluding
    fans alone (a few hundred combinations), so that the table fills quickly."""
    removed: set[str] = set()
    plan: list[tuple[str, str]] = []
    for fid in sorted(excluders, key=_EXCLUSION_KEY.__getitem__):
        if fid in removed:
            continue
        for other in EXCLUDES[fid]:
            if other not in removed:
                removed.add(other)
                plan.append((other, fid))
    return tuple(plan)


def apply_exclusions(found: Found) -> None:
    """Remove the fans that a higher fan found implies."""
    fans = found.fans
    plan = _exclusion_plan(_EXCLUDERS.intersection(fans))
    if plan:
        excluded = found.excluded
        for other, by in plan:
            if other in fans:
                del fans[other]
                excluded.append((other, by))


def apply_switches(found: Found, config: MCRConfig) -> None:
    """The exclusions that the variant switches turn on (none by default)."""
    fans = found.fans
    if config.all_green_excludes_half_flush and ALL_GREEN in fans and HALF_FLUSH in fans:
        del fans[HALF_FLUSH]
        found.excluded.append((HALF_FLUSH, ALL_GREEN))
    if config.all_terminals_excludes_double_pung and ALL_TERMINALS in fans and DOUBLE_PUNG in fans:
        del fans[DOUBLE_PUNG]
        found.excluded.append((DOUBLE_PUNG, ALL_TERMINALS))
    if config.concealed_fans_exclude_fully_concealed and FULLY_CONCEALED_HAND in fans:
        by = next(
            (f for f in fans if f != FULLY_CONCEALED_HAND and CONCEALED_HAND in FANS[f].implies),
            None,
        )
        if by is not None:
            del fans[FULLY_CONCEALED_HAND]
            found.excluded.append((FULLY_CONCEALED_HAND, by))
            if not any(f in fans for f in (LAST_TILE_DRAW, OUT_WITH_REPLACEMENT_TILE)):
                fans[SELF_DRAWN] = (1, NO_SETS)

"""The MCR fan table as data: id, points, English key, and the fans each one implies.

Fans are written by their names (``fan_ids.py``: ``PURE_STRAIGHT`` is fan 28), so that a
search for a fan finds what it implies and what implies it.

"Implies" is the "Не совмещается с ..." list of Appendix 1 (seed 000/002), completed where
the extraction lost the list (fans 13-81 mostly) by the rule of 3.9.1.5 (1): a fan that
*necessarily* contains another excludes it. Every entry not written in the seed is marked
``# implied`` with the reason; see docs/scoring/mcr.md "Exclusions".

The implication lists are closed transitively at import (A implies B implies C).

The implications are applied by ``exclusions.py``. Two kinds of exclusions are *not*
table entries but set-level rules, because the seed counts them per set, not per hand:

- fans between chows (or between pungs) are limited by the principles of 3.9.1.5 (2)-(5)
  (no split, no identical reuse, account once; ``principles.py``), e.g. Pure Straight and
  a fourth chow may still make a Short Straight;
- Pung of Terminals or Honours (``PUNG_OF_TERMINALS_OR_HONORS``) is not counted for a wind
  pung that already scores a wind fan (``BIG_FOUR_WINDS``, ``LITTLE_FOUR_WINDS``,
  ``BIG_THREE_WINDS``, ``PREVALENT_WIND``, ``SEAT_WIND``) nor for a dragon pung
  (``DRAGON_PUNG`` and its family; ``arrangement_fans.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

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


@dataclass(frozen=True, slots=True)
class FanDef:
    id: str
    points: int
    key: str  # English name (developer-facing; the site names fans from the database)
    implies: tuple[str, ...] = ()
    # Fans the seed lists as "not combined" although they are another *reading* of the
    # same tiles (3.9.1.5 (2), no split): they never meet in one arrangement, so they
    # take no part in the implication closure.
    readings: tuple[str, ...] = ()


_RAW: tuple[FanDef, ...] = (
    # 88
    FanDef(
        BIG_FOUR_WINDS, 88, "Big Four Winds",
        (BIG_THREE_WINDS, ALL_PUNGS, PREVALENT_WIND, SEAT_WIND, PUNG_OF_TERMINALS_OR_HONORS),
    ),
    FanDef(BIG_THREE_DRAGONS, 88, "Big Three Dragons", (TWO_DRAGON_PUNGS, DRAGON_PUNG)),
    FanDef(ALL_GREEN, 88, "All Green", ()),  # seed: may combine with Full Flush and Half Flush
    FanDef(NINE_GATES, 88, "Nine Gates", (FULL_FLUSH, CONCEALED_HAND, PUNG_OF_TERMINALS_OR_HONORS)),
    FanDef(FOUR_KONGS, 88, "Four Kongs", (SINGLE_WAIT, ALL_PUNGS)),  # ALL_PUNGS: implied
    FanDef(  # SEVEN_PAIRS: implied
        SEVEN_SHIFTED_PAIRS, 88, "Seven Shifted Pairs",
        (FULL_FLUSH, CONCEALED_HAND, SINGLE_WAIT, SEVEN_PAIRS),
    ),
    FanDef(THIRTEEN_ORPHANS, 88, "Thirteen Orphans", (ALL_TYPES, CONCEALED_HAND, SINGLE_WAIT)),
    # 64
    FanDef(  # ALL_TERMINALS_AND_HONORS: implied
        ALL_TERMINALS, 64, "All Terminals",
        (ALL_PUNGS, OUTSIDE_HAND, PUNG_OF_TERMINALS_OR_HONORS, NO_HONORS, ALL_TERMINALS_AND_HONORS),
    ),
    FanDef(
        LITTLE_FOUR_WINDS, 64, "Little Four Winds", (BIG_THREE_WINDS, PUNG_OF_TERMINALS_OR_HONORS),
    ),
    FanDef(LITTLE_THREE_DRAGONS, 64, "Little Three Dragons", (DRAGON_PUNG, TWO_DRAGON_PUNGS)),
    FanDef(  # ALL_TERMINALS_AND_HONORS: implied
        ALL_HONORS, 64, "All Honors",
        (ALL_PUNGS, OUTSIDE_HAND, PUNG_OF_TERMINALS_OR_HONORS, ALL_TERMINALS_AND_HONORS),
    ),
    FanDef(  # THREE_CONCEALED_PUNGS, TWO_CONCEALED_PUNGS: implied
        FOUR_CONCEALED_PUNGS, 64, "Four Concealed Pungs",
        (ALL_PUNGS, CONCEALED_HAND, THREE_CONCEALED_PUNGS, TWO_CONCEALED_PUNGS),
    ),
    FanDef(
        PURE_TERMINAL_CHOWS, 64, "Pure Terminal Chows",
        (FULL_FLUSH, ALL_CHOWS, PURE_DOUBLE_CHOW, TWO_TERMINAL_CHOWS, MIXED_DOUBLE_CHOW),
        (SEVEN_PAIRS,),
    ),
    # 48
    FanDef(  # PURE_TRIPLE_CHOW: implied
        QUADRUPLE_CHOW, 48, "Quadruple Chow",
        (TILE_HOG, PURE_DOUBLE_CHOW, PURE_TRIPLE_CHOW),
        (PURE_SHIFTED_PUNGS,),
    ),
    FanDef(  # PURE_SHIFTED_PUNGS: implied
        FOUR_PURE_SHIFTED_PUNGS, 48, "Four Pure Shifted Pungs",
        (ALL_PUNGS, PURE_SHIFTED_PUNGS),
        (PURE_TRIPLE_CHOW,),
    ),
    # 32
    FanDef(  # PURE_SHIFTED_CHOWS, TWO_TERMINAL_CHOWS: implied
        FOUR_PURE_SHIFTED_CHOWS, 32, "Four Pure Shifted Chows",
        (SHORT_STRAIGHT, PURE_SHIFTED_CHOWS, TWO_TERMINAL_CHOWS),
    ),
    FanDef(THREE_KONGS, 32, "Three Kongs", ()),
    FanDef(  # OUTSIDE_HAND: implied
        ALL_TERMINALS_AND_HONORS, 32, "All Terminals and Honors",
        (ALL_PUNGS, PUNG_OF_TERMINALS_OR_HONORS, OUTSIDE_HAND),
    ),
    # 24
    FanDef(SEVEN_PAIRS, 24, "Seven Pairs", (CONCEALED_HAND, SINGLE_WAIT)),
    FanDef(
        GREATER_HONORS_AND_KNITTED_TILES, 24, "Greater Honors and Knitted Tiles",
        (ALL_TYPES, CONCEALED_HAND, LESSER_HONORS_AND_KNITTED_TILES, SINGLE_WAIT),
    ),
    FanDef(ALL_EVEN_PUNGS, 24, "All Even Pungs", (ALL_PUNGS, ALL_SIMPLES)),
    FanDef(FULL_FLUSH, 24, "Full Flush", (NO_HONORS,)),
    FanDef(PURE_TRIPLE_CHOW, 24, "Pure Triple Chow", (PURE_DOUBLE_CHOW,), (PURE_SHIFTED_PUNGS,)),
    FanDef(PURE_SHIFTED_PUNGS, 24, "Pure Shifted Pungs", (), (PURE_TRIPLE_CHOW,)),
    FanDef(UPPER_TILES, 24, "Upper Tiles", (NO_HONORS, UPPER_FOUR)),  # UPPER_FOUR: implied
    FanDef(MIDDLE_TILES, 24, "Middle Tiles", (NO_HONORS, ALL_SIMPLES)),
    FanDef(LOWER_TILES, 24, "Lower Tiles", (NO_HONORS, LOWER_FOUR)),  # LOWER_FOUR: implied
    # 16
    FanDef(  # per set (see evaluator)
        PURE_STRAIGHT, 16, "Pure Straight", (SHORT_STRAIGHT, TWO_TERMINAL_CHOWS),
    ),
    FanDef(
        THREE_SUITED_TERMINAL_CHOWS, 16, "Three-Suited Terminal Chows",
        (PURE_DOUBLE_CHOW, TWO_TERMINAL_CHOWS, NO_HONORS, ALL_CHOWS, MIXED_DOUBLE_CHOW),
    ),
    FanDef(PURE_SHIFTED_CHOWS, 16, "Pure Shifted Chows", ()),
    FanDef(ALL_FIVES, 16, "All Fives", (ALL_SIMPLES,)),
    FanDef(TRIPLE_PUNG, 16, "Triple Pung", (DOUBLE_PUNG,)),  # per set (see evaluator)
    FanDef(THREE_CONCEALED_PUNGS, 16, "Three Concealed Pungs", (TWO_CONCEALED_PUNGS,)),  # implied
    # 12
    FanDef(
        LESSER_HONORS_AND_KNITTED_TILES, 12, "Lesser Honors and Knitted Tiles",
        (ALL_TYPES, CONCEALED_HAND, SINGLE_WAIT),
    ),
    FanDef(KNITTED_STRAIGHT, 12, "Knitted Straight", ()),
    FanDef(UPPER_FOUR, 12, "Upper Four", (NO_HONORS,)),
    FanDef(LOWER_FOUR, 12, "Lower Four", (NO_HONORS,)),
    FanDef(  # PUNG_OF_TERMINALS_OR_HONORS per set (see evaluator)
        BIG_THREE_WINDS, 12, "Big Three Winds", (),
    ),
    # 8
    FanDef(MIXED_STRAIGHT, 8, "Mixed Straight", ()),
    FanDef(REVERSIBLE_TILES, 8, "Reversible Tiles", (ONE_VOIDED_SUIT,)),
    FanDef(  # per set (see evaluator)
        MIXED_TRIPLE_CHOW, 8, "Mixed Triple Chow", (MIXED_DOUBLE_CHOW,),
    ),
    FanDef(MIXED_SHIFTED_PUNGS, 8, "Mixed Shifted Pungs", ()),
    FanDef(CHICKEN_HAND, 8, "Chicken Hand", ()),
    FanDef(LAST_TILE_DRAW, 8, "Last Tile Draw", (SELF_DRAWN,)),
    FanDef(LAST_TILE_CLAIM, 8, "Last Tile Claim", ()),
    FanDef(  # implied: a replacement is drawn
        OUT_WITH_REPLACEMENT_TILE, 8, "Out with Replacement Tile", (SELF_DRAWN,),
    ),
    FanDef(ROBBING_THE_KONG, 8, "Robbing the Kong", (LAST_TILE,)),
    FanDef(  # implied
        TWO_CONCEALED_KONGS, 8, "Two Concealed Kongs", (CONCEALED_KONG, TWO_CONCEALED_PUNGS),
    ),
    # 6
    FanDef(ALL_PUNGS, 6, "All Pungs", ()),
    FanDef(HALF_FLUSH, 6, "Half Flush", ()),
    FanDef(MIXED_SHIFTED_CHOWS, 6, "Mixed Shifted Chows", ()),
    FanDef(ALL_TYPES, 6, "All Types", ()),
    FanDef(MELDED_HAND, 6, "Melded Hand", (SINGLE_WAIT,)),
    FanDef(TWO_DRAGON_PUNGS, 6, "Two Dragon Pungs", (DRAGON_PUNG,)),  # implied
    FanDef(  # implied
        ONE_MELDED_AND_ONE_CONCEALED_KONG, 6, "One Melded and one Concealed Kong",
        (CONCEALED_KONG, MELDED_KONG),
    ),
    # 4
    FanDef(OUTSIDE_HAND, 4, "Outside Hand", ()),
    FanDef(  # implied: self-drawn, no melds
        FULLY_CONCEALED_HAND, 4, "Fully Concealed Hand", (SELF_DRAWN, CONCEALED_HAND),
    ),
    FanDef(TWO_MELDED_KONGS, 4, "Two Melded Kongs", (MELDED_KONG,)),  # implied
    FanDef(LAST_TILE, 4, "Last Tile", ()),
    # 2
    FanDef(DRAGON_PUNG, 2, "Dragon Pung", ()),
    FanDef(PREVALENT_WIND, 2, "Prevalent Wind", ()),
    FanDef(SEAT_WIND, 2, "Seat Wind", ()),
    FanDef(CONCEALED_HAND, 2, "Concealed Hand", ()),
    FanDef(ALL_CHOWS, 2, "All Chows", (NO_HONORS,)),  # seed 63: "No Honors is not counted"
    FanDef(TILE_HOG, 2, "Tile Hog", ()),
    FanDef(DOUBLE_PUNG, 2, "Double Pung", ()),
    FanDef(TWO_CONCEALED_PUNGS, 2, "Two Concealed Pungs", ()),
    FanDef(CONCEALED_KONG, 2, "Concealed Kong", ()),
    FanDef(ALL_SIMPLES, 2, "All Simples", (NO_HONORS,)),  # implied
    # 1
    FanDef(PURE_DOUBLE_CHOW, 1, "Pure Double Chow", ()),
    FanDef(MIXED_DOUBLE_CHOW, 1, "Mixed Double Chow", ()),
    FanDef(SHORT_STRAIGHT, 1, "Short Straight", ()),
    FanDef(TWO_TERMINAL_CHOWS, 1, "Two Terminal Chows", ()),
    FanDef(PUNG_OF_TERMINALS_OR_HONORS, 1, "Pung of Terminals or Honors", ()),
    FanDef(MELDED_KONG, 1, "Melded Kong", ()),
    FanDef(ONE_VOIDED_SUIT, 1, "One Voided Suit", ()),
    FanDef(NO_HONORS, 1, "No Honors", ()),
    FanDef(EDGE_WAIT, 1, "Edge Wait", ()),
    FanDef(CLOSED_WAIT, 1, "Closed Wait", ()),
    FanDef(SINGLE_WAIT, 1, "Single Wait", ()),
    FanDef(SELF_DRAWN, 1, "Self-Drawn", ()),
    FanDef(FLOWER_TILES, 1, "Flower Tiles", ()),
)

# Fans formed between chows / between pungs: exclusions among them are set-level.
CHOW_COMBINATION_FANS = frozenset({
    PURE_TERMINAL_CHOWS, QUADRUPLE_CHOW, FOUR_PURE_SHIFTED_CHOWS, PURE_TRIPLE_CHOW, PURE_STRAIGHT,
    THREE_SUITED_TERMINAL_CHOWS, PURE_SHIFTED_CHOWS, MIXED_STRAIGHT, MIXED_TRIPLE_CHOW,
    MIXED_SHIFTED_CHOWS, PURE_DOUBLE_CHOW, MIXED_DOUBLE_CHOW, SHORT_STRAIGHT, TWO_TERMINAL_CHOWS,
})
PUNG_COMBINATION_FANS = frozenset({
    FOUR_PURE_SHIFTED_PUNGS, PURE_SHIFTED_PUNGS, TRIPLE_PUNG, MIXED_SHIFTED_PUNGS, DOUBLE_PUNG,
})


def _closure(raw: tuple[FanDef, ...]) -> dict[str, FanDef]:
    direct = {f.id: set(f.implies) for f in raw}
    closed: dict[str, set[str]] = {}
    for fid in direct:
        seen: set[str] = set()
        stack = list(direct[fid])
        while stack:
            x = stack.pop()
            if x in seen or x == fid:
                continue
            seen.add(x)
            stack.extend(direct.get(x, ()))
        closed[fid] = seen
    order = {f.id: i for i, f in enumerate(raw)}
    return {
        f.id: FanDef(
            f.id, f.points, f.key, tuple(sorted(closed[f.id], key=order.__getitem__)), f.readings
        )
        for f in raw
    }


FANS: dict[str, FanDef] = _closure(_RAW)
FAN_ORDER: dict[str, int] = {f.id: i for i, f in enumerate(_RAW)}
FAN_IDS: tuple[str, ...] = tuple(f.id for f in _RAW)


def fan(fan_id: str) -> FanDef:
    return FANS[fan_id]

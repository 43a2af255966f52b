"""The MCR fan table as data: id, points, English key, and the fans each one implies.

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
- Pung of Terminals or Honours (73) is not counted for a wind pung that already scores a
  wind fan (1, 9, 38, 60, 61) nor for a dragon pung (59 and its family;
  ``arrangement_fans.py``).
"""

from __future__ import annotations

from dataclasses import dataclass


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
    FanDef("1", 88, "Big Four Winds", ("38", "49", "60", "61", "73")),
    FanDef("2", 88, "Big Three Dragons", ("54", "59")),
    FanDef("3", 88, "All Green", ()),  # seed: may combine with Full Flush and Half Flush
    FanDef("4", 88, "Nine Gates", ("22", "62", "73")),
    FanDef("5", 88, "Four Kongs", ("79", "49")),  # 49: implied
    FanDef("6", 88, "Seven Shifted Pairs", ("22", "62", "79", "19")),  # 19: implied
    FanDef("7", 88, "Thirteen Orphans", ("52", "62", "79")),
    # 64
    FanDef("8", 64, "All Terminals", ("49", "55", "73", "76", "18")),  # 18: implied
    FanDef("9", 64, "Little Four Winds", ("38", "73")),
    FanDef("10", 64, "Little Three Dragons", ("59", "54")),
    FanDef("11", 64, "All Honors", ("49", "55", "73", "18")),  # 18: implied
    FanDef("12", 64, "Four Concealed Pungs", ("49", "62", "33", "66")),  # 33, 66: implied
    FanDef("13", 64, "Pure Terminal Chows", ("22", "63", "69", "72", "70"), ("19",)),
    # 48
    FanDef("14", 48, "Quadruple Chow", ("64", "69", "23"), ("24",)),  # 23: implied
    FanDef("15", 48, "Four Pure Shifted Pungs", ("49", "24"), ("23",)),  # 24: implied
    # 32
    FanDef("16", 32, "Four Pure Shifted Chows", ("71", "30", "72")),  # 30, 72: implied
    FanDef("17", 32, "Three Kongs", ()),
    FanDef("18", 32, "All Terminals and Honors", ("49", "73", "55")),  # 55: implied
    # 24
    FanDef("19", 24, "Seven Pairs", ("62", "79")),
    FanDef("20", 24, "Greater Honors and Knitted Tiles", ("52", "62", "34", "79")),
    FanDef("21", 24, "All Even Pungs", ("49", "68")),
    FanDef("22", 24, "Full Flush", ("76",)),
    FanDef("23", 24, "Pure Triple Chow", ("69",), ("24",)),
    FanDef("24", 24, "Pure Shifted Pungs", (), ("23",)),
    FanDef("25", 24, "Upper Tiles", ("76", "36")),  # 36: implied
    FanDef("26", 24, "Middle Tiles", ("76", "68")),
    FanDef("27", 24, "Lower Tiles", ("76", "37")),  # 37: implied
    # 16
    FanDef("28", 16, "Pure Straight", ("71", "72")),  # per set (see evaluator)
    FanDef("29", 16, "Three-Suited Terminal Chows", ("69", "72", "76", "63", "70")),
    FanDef("30", 16, "Pure Shifted Chows", ()),
    FanDef("31", 16, "All Fives", ("68",)),
    FanDef("32", 16, "Triple Pung", ("65",)),  # per set (see evaluator)
    FanDef("33", 16, "Three Concealed Pungs", ("66",)),  # implied
    # 12
    FanDef("34", 12, "Lesser Honors and Knitted Tiles", ("52", "62", "79")),
    FanDef("35", 12, "Knitted Straight", ()),
    FanDef("36", 12, "Upper Four", ("76",)),
    FanDef("37", 12, "Lower Four", ("76",)),
    FanDef("38", 12, "Big Three Winds", ()),  # 73 per set (see evaluator)
    # 8
    FanDef("39", 8, "Mixed Straight", ()),
    FanDef("40", 8, "Reversible Tiles", ("75",)),
    FanDef("41", 8, "Mixed Triple Chow", ("70",)),  # per set (see evaluator)
    FanDef("42", 8, "Mixed Shifted Pungs", ()),
    FanDef("43", 8, "Chicken Hand", ()),
    FanDef("44", 8, "Last Tile Draw", ("80",)),
    FanDef("45", 8, "Last Tile Claim", ()),
    FanDef("46", 8, "Out with Replacement Tile", ("80",)),  # implied: a replacement is drawn
    FanDef("47", 8, "Robbing the Kong", ("58",)),
    FanDef("48", 8, "Two Concealed Kongs", ("67", "66")),  # implied
    # 6
    FanDef("49", 6, "All Pungs", ()),
    FanDef("50", 6, "Half Flush", ()),
    FanDef("51", 6, "Mixed Shifted Chows", ()),
    FanDef("52", 6, "All Types", ()),
    FanDef("53", 6, "Melded Hand", ("79",)),
    FanDef("54", 6, "Two Dragon Pungs", ("59",)),  # implied
    FanDef("57B", 6, "One Melded and one Concealed Kong", ("67", "74")),  # implied
    # 4
    FanDef("55", 4, "Outside Hand", ()),
    FanDef("56", 4, "Fully Concealed Hand", ("80", "62")),  # implied: self-drawn, no melds
    FanDef("57A", 4, "Two Melded Kongs", ("74",)),  # implied
    FanDef("58", 4, "Last Tile", ()),
    # 2
    FanDef("59", 2, "Dragon Pung", ()),
    FanDef("60", 2, "Prevalent Wind", ()),
    FanDef("61", 2, "Seat Wind", ()),
    FanDef("62", 2, "Concealed Hand", ()),
    FanDef("63", 2, "All Chows", ("76",)),  # seed 63: "No Honors is not counted"
    FanDef("64", 2, "Tile Hog", ()),
    FanDef("65", 2, "Double Pung", ()),
    FanDef("66", 2, "Two Concealed Pungs", ()),
    FanDef("67", 2, "Concealed Kong", ()),
    FanDef("68", 2, "All Simples", ("76",)),  # implied
    # 1
    FanDef("69", 1, "Pure Double Chow", ()),
    FanDef("70", 1, "Mixed Double Chow", ()),
    FanDef("71", 1, "Short Straight", ()),
    FanDef("72", 1, "Two Terminal Chows", ()),
    FanDef("73", 1, "Pung of Terminals or Honors", ()),
    FanDef("74", 1, "Melded Kong", ()),
    FanDef("75", 1, "One Voided Suit", ()),
    FanDef("76", 1, "No Honors", ()),
    FanDef("77", 1, "Edge Wait", ()),
    FanDef("78", 1, "Closed Wait", ()),
    FanDef("79", 1, "Single Wait", ()),
    FanDef("80", 1, "Self-Drawn", ()),
    FanDef("81", 1, "Flower Tiles", ()),
)

# Fans formed between chows / between pungs: exclusions among them are set-level.
CHOW_COMBINATION_FANS = frozenset(
    {"13", "14", "16", "23", "28", "29", "30", "39", "41", "51", "69", "70", "71", "72"}
)
PUNG_COMBINATION_FANS = frozenset({"15", "24", "32", "42", "65"})


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

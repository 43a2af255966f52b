"""Set codes: one set of an arrangement as a small int, and how to read one.

While arrangements are built and scored, a set is ``64 * order + tile``, plus
:data:`MELDED` for a set melded from a discard:

- ``order`` is the kind of the set, numbered in the order arrangements list their sets
  (:data:`ORDER_KNITTED` ... :data:`ORDER_SINGLE`); kongs (:data:`ORDER_KONG`) are only
  ever melds, so they come last;
- ``tile`` is the set's lowest tile (see ``tiles.py``).

Sorting codes sorts the sets the way arrangements list them. Read a code through the
tables :data:`ORDER_OF`, :data:`TILE_OF` and :data:`IS_MELDED` (lists indexed by code:
as fast as the bit operations they name), never through the bits.
"""

from __future__ import annotations

from typing import Literal

from .hand import Meld
from .tiles import Tile

SetKind = Literal["chow", "pung", "kong", "pair", "knitted", "single"]

ORDER_KNITTED, ORDER_CHOW, ORDER_PUNG, ORDER_PAIR, ORDER_SINGLE, ORDER_KONG = range(6)
ORDER_KIND: tuple[SetKind, ...] = ("knitted", "chow", "pung", "pair", "single", "kong")
_ORDER_BITS = 64  # codes of one order: 64 (every tile number fits below 64)
MELDED = 8 * _ORDER_BITS  # added to the code of a set melded from a discard
NUM_CODES = 2 * MELDED  # every code is below this


def set_code(order: int, tile: Tile, *, melded: bool = False) -> int:
    return order * _ORDER_BITS + tile + (MELDED if melded else 0)


# code -> order, tile, melded (lists: a list's bound ``__getitem__`` is a fast builtin,
# for ``map(ORDER_OF.__getitem__, codes)``)
ORDER_OF: list[int] = [code // _ORDER_BITS % 8 for code in range(NUM_CODES)]
TILE_OF: list[Tile] = [code % _ORDER_BITS for code in range(NUM_CODES)]
IS_MELDED: list[bool] = [code >= MELDED for code in range(NUM_CODES)]

_MELD_ORDER: dict[str, int] = {"chow": ORDER_CHOW, "pung": ORDER_PUNG, "kong": ORDER_KONG}


def meld_code(m: Meld) -> int:
    return set_code(_MELD_ORDER[m.kind], m.tile, melded=not m.concealed)


def code_kind(code: int) -> SetKind:
    """The kind of a set code (concealed or meld code)."""
    return ORDER_KIND[ORDER_OF[code]]

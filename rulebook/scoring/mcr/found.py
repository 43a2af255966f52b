"""The fans found for one arrangement, and how a fan names the sets that make it.

Every detector (``hand_fans``, ``arrangement_fans``) writes into a :class:`Found`:
fan id -> (count, the notation of its sets), and the fans it left out with the fan or
principle that excluded them. The sets are named as the result shows them (``123m``,
``[555p]`` for a melded set), from the set codes of ``codes.py`` through
:data:`CODE_TEXT`.
"""

from __future__ import annotations

from .. import codes
from ..arrange import TileSet
from ..tiles import NUM_KINDS, NUM_SUITED, format_tiles

# the (shared, never changed) set list of a fan that names no sets
NO_SETS: list[str] = []
# a fan found once with no sets, the most common entry
ONCE: tuple[int, list[str]] = (1, NO_SETS)


class Found:
    """Fans found for one arrangement: ``fans`` id -> (count, sets); ``excluded`` the
    (fan, excluded by) pairs met on the way.

    The set lists are never changed in place (``add`` builds a new list), so a copy of
    a ``Found`` can share them.
    """

    __slots__ = ("excluded", "fans")

    def __init__(
        self, fans: dict[str, tuple[int, list[str]]], excluded: list[tuple[str, str]]
    ) -> None:
        self.fans = fans
        self.excluded = excluded

    def add(self, fid: str, sets: list[str] | None = None, count: int = 1) -> None:
        """Count ``fid``; ``sets`` is a new list that the caller does not change after."""
        old = self.fans.get(fid)
        if old is None:
            self.fans[fid] = (count, sets or NO_SETS)
        elif sets:
            self.fans[fid] = (old[0] + count, old[1] + sets)
        else:
            self.fans[fid] = (old[0] + count, old[1])

    def copy(self) -> Found:
        return Found(dict(self.fans), list(self.excluded))


def set_text(s: TileSet) -> str:
    """A set as the result names it: its tiles, in brackets when melded."""
    body = format_tiles(s.tiles)
    return body if s.concealed or s.kind == "knitted" else f"[{body}]"


def _code_text(code: int) -> str:
    """``set_text`` of a set code; "" when the code names no possible set."""
    order = codes.ORDER_OF[code]
    tile = codes.TILE_OF[code]
    if order > codes.ORDER_KONG or tile >= NUM_KINDS:
        return ""
    if order in (codes.ORDER_CHOW, codes.ORDER_KNITTED) and (
        tile >= NUM_SUITED or tile % 9 > (6 if order == codes.ORDER_CHOW else 2)
    ):
        return ""
    return set_text(TileSet(codes.code_kind(code), tile, concealed=not codes.IS_MELDED[code]))


# code -> the set's text (a list, for ``map(CODE_TEXT.__getitem__, codes)``)
CODE_TEXT: list[str] = [_code_text(code) for code in range(codes.NUM_CODES)]

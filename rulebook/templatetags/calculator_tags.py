"""Tags of the calculator page: one set of the answer drawn as tiles.

The tiles themselves are drawn by ``{% tile %}`` (``rulebook.templatetags.tiles``); this
only splits a set's notation ("[1111s,1]", "123m", "55s") into its tiles and says
whether the set is melded.
"""

from __future__ import annotations

from dataclasses import dataclass

from django import template

from rulebook.scoring.errors import NotationError
from rulebook.scoring.tiles import tile_name, tokenize_tiles

register = template.Library()


@dataclass(frozen=True)
class DrawnSet:
    tiles: tuple[str, ...]
    melded: bool  # written in brackets: claimed or a kong
    concealed_kong: bool
    notation: str


@register.filter
def drawn_set(notation: str) -> DrawnSet:
    text = notation.strip()
    bracketed = text.startswith("[")
    body = text.strip("[]")
    body, _, digit = body.partition(",")
    try:
        tiles = tuple(tile_name(p.tile) for p in tokenize_tiles(body))
    except NotationError:
        tiles = ()
    concealed_kong = bracketed and not digit and len(tiles) == 4
    return DrawnSet(tiles, bracketed and not concealed_kong, concealed_kong, text)


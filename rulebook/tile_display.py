"""Tiles for people: file names, names in the page's language, and a hand laid out in groups.

The Django-aware edge of the tile set (``static/tiles/<token>.svg``, drawn by
``scripts/draw_tiles.py``); the scoring core stays pure and knows nothing of it. Templates use
it through ``{% load tiles %}`` (``rulebook/templatetags/tiles.py``). Decision 0510.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from django.templatetags.static import static
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import pgettext, pgettext_lazy

from rulebook.scoring.arrange import Arrangement
from rulebook.scoring.errors import E_WRONG_TILE_COUNT, NotationError
from rulebook.scoring.hand import CHOW, KONG, PUNG, Hand, Meld, parse_hand, parse_waiting
from rulebook.scoring.tiles import (
    JOKER,
    NUM_ALL,
    Tile,
    is_bonus,
    parse_tile,
    tile_name,
    tokenize_tiles,
)

BACK_PATH = "tiles/back.svg"

# One translatable name per tile, so each language says it its own way (5条, 5 бамбуков, 2 бамбука).
_TILE_LABELS: tuple[Promise, ...] = (
    pgettext_lazy("tile", "1 Character"),
    pgettext_lazy("tile", "2 Characters"),
    pgettext_lazy("tile", "3 Characters"),
    pgettext_lazy("tile", "4 Characters"),
    pgettext_lazy("tile", "5 Characters"),
    pgettext_lazy("tile", "6 Characters"),
    pgettext_lazy("tile", "7 Characters"),
    pgettext_lazy("tile", "8 Characters"),
    pgettext_lazy("tile", "9 Characters"),
    pgettext_lazy("tile", "1 Dot"),
    pgettext_lazy("tile", "2 Dots"),
    pgettext_lazy("tile", "3 Dots"),
    pgettext_lazy("tile", "4 Dots"),
    pgettext_lazy("tile", "5 Dots"),
    pgettext_lazy("tile", "6 Dots"),
    pgettext_lazy("tile", "7 Dots"),
    pgettext_lazy("tile", "8 Dots"),
    pgettext_lazy("tile", "9 Dots"),
    pgettext_lazy("tile", "1 Bamboo"),
    pgettext_lazy("tile", "2 Bamboo"),
    pgettext_lazy("tile", "3 Bamboo"),
    pgettext_lazy("tile", "4 Bamboo"),
    pgettext_lazy("tile", "5 Bamboo"),
    pgettext_lazy("tile", "6 Bamboo"),
    pgettext_lazy("tile", "7 Bamboo"),
    pgettext_lazy("tile", "8 Bamboo"),
    pgettext_lazy("tile", "9 Bamboo"),
    pgettext_lazy("tile", "East Wind"),
    pgettext_lazy("tile", "South Wind"),
    pgettext_lazy("tile", "West Wind"),
    pgettext_lazy("tile", "North Wind"),
    pgettext_lazy("tile", "Red Dragon"),
    pgettext_lazy("tile", "Green Dragon"),
    pgettext_lazy("tile", "White Dragon"),
    pgettext_lazy("tile", "Plum (Flower 1)"),
    pgettext_lazy("tile", "Orchid (Flower 2)"),
    pgettext_lazy("tile", "Chrysanthemum (Flower 3)"),
    pgettext_lazy("tile", "Bamboo (Flower 4)"),
    pgettext_lazy("tile", "Spring (Season 1)"),
    pgettext_lazy("tile", "Summer (Season 2)"),
    pgettext_lazy("tile", "Autumn (Season 3)"),
    pgettext_lazy("tile", "Winter (Season 4)"),
    pgettext_lazy("tile", "Joker"),
)
assert len(_TILE_LABELS) == NUM_ALL

GroupKind = Literal[
    "concealed_chow",
    "concealed_pung",
    "concealed_kong",
    "melded_chow",
    "melded_pung",
    "melded_kong",
    "pair",
    "knitted",
    "single",
    "standing",
    "winning",
    "flowers",
]

_KIND_LABELS: dict[str, Promise] = {
    "concealed_chow": pgettext_lazy("tile group", "Concealed chow"),
    "concealed_pung": pgettext_lazy("tile group", "Concealed pung"),
    "concealed_kong": pgettext_lazy("tile group", "Concealed kong"),
    "melded_chow": pgettext_lazy("tile group", "Melded chow"),
    "melded_pung": pgettext_lazy("tile group", "Melded pung"),
    "melded_kong": pgettext_lazy("tile group", "Melded kong"),
    "promoted_kong": pgettext_lazy("tile group", "Kong promoted from a melded pung"),
    "pair": pgettext_lazy("tile group", "Pair"),
    "knitted": pgettext_lazy("tile group", "Knitted tiles"),
    "single": pgettext_lazy("tile group", "Single tile"),
    "standing": pgettext_lazy("tile group", "Standing tiles"),
    "winning": pgettext_lazy("tile group", "Winning tile"),
    "flowers": pgettext_lazy("tile group", "Flowers"),
}

_FROM_LABELS: dict[int, Promise] = {
    1: pgettext_lazy("claimed from", "from the player on the left"),
    2: pgettext_lazy("claimed from", "from the player opposite"),
    3: pgettext_lazy("claimed from", "from the player on the right"),
}
_DIRECTIONS = {1: "left", 2: "opposite", 3: "right"}


def _tile_of(tile: Tile | str) -> Tile:
    return parse_tile(tile) if isinstance(tile, str) else tile


def tile_token(tile: Tile | str) -> str:
    """The notation token, which is also the file name: ``5s``, ``E``, ``f1``, ``J``."""
    return tile_name(_tile_of(tile))


def tile_static_path(tile: Tile | str) -> str:
    """The path under the static root: ``tiles/5s.svg``."""
    return f"tiles/{tile_token(tile)}.svg"


def tile_label(tile: Tile | str) -> str:
    """The tile's name in the active language: ``5 Bamboo``, ``East Wind``, ``Joker``."""
    t = _tile_of(tile)
    if not 0 <= t < NUM_ALL:
        raise ValueError(f"not a tile: {t}")
    return str(_TILE_LABELS[t])


@dataclass(frozen=True, slots=True)
class TileView:
    """One tile as drawn. ``face_down``: shows the back (outer tiles of a concealed kong).
    ``rotated``: laid sideways (the claimed tile). ``stands_for``: what a joker replaces.
    ``winning``: the winning tile."""

    tile: Tile
    token: str
    path: str
    label: str
    face_down: bool = False
    rotated: bool = False
    winning: bool = False
    stands_for: Tile | None = None

    @property
    def url(self) -> str:
        return static(BACK_PATH if self.face_down else self.path)

    @property
    def alt(self) -> str:
        return self.label


@dataclass(frozen=True, slots=True)
class GroupView:
    """A group of tiles drawn together. ``claimed_from``: "left", "opposite", "right" or
    ``None``; ``claimed_index``: the position of the claimed (rotated) tile, or ``None``."""

    kind: GroupKind
    tiles: tuple[TileView, ...]
    label: str
    claimed_from: str | None = None
    claimed_index: int | None = None
    promoted: bool = False

    @property
    def melded(self) -> bool:
        return self.kind.startswith("melded_")


@dataclass(frozen=True, slots=True)
class HandDisplay:
    """A hand in the book's order: melds as written, the standing tiles (or, given an
    arrangement, its concealed sets), the winning tile apart, then the flowers.
    ``complete`` is false for a hand of thirteen (no winning tile yet)."""

    groups: tuple[GroupView, ...]
    label: str
    notation: str
    complete: bool


def tile_view(
    tile: Tile | str,
    *,
    face_down: bool = False,
    rotated: bool = False,
    winning: bool = False,
    stands_for: Tile | None = None,
) -> TileView:
    t = _tile_of(tile)
    if stands_for is not None:
        label = pgettext("tile", "Joker (as %(tile)s)") % {"tile": tile_label(stands_for)}
    else:
        label = tile_label(t)
    return TileView(
        tile=t,
        token=tile_token(t),
        path=tile_static_path(t),
        label=label,
        face_down=face_down,
        rotated=rotated,
        winning=winning,
        stands_for=stands_for,
    )


def _group_label(kind: str, tiles: tuple[TileView, ...], detail: str = "") -> str:
    names: list[str] = []
    for tv in tiles:  # a pung of East reads "East Wind", not three times
        if tv.label not in names or kind in ("standing", "flowers", "single"):
            names.append(tv.label)
    head = str(_KIND_LABELS[kind])
    if detail:
        head = pgettext("tile group", "%(kind)s, %(detail)s") % {"kind": head, "detail": detail}
    return pgettext("tile group", "%(kind)s: %(tiles)s") % {
        "kind": head,
        "tiles": ", ".join(names),
    }


def _meld_group(meld: Meld) -> GroupView:
    natural = meld.tiles
    jokers = meld.jokers

    def view(k: int, **kw: bool) -> TileView:
        if jokers >> k & 1:
            return tile_view(JOKER, stands_for=natural[k], **kw)
        return tile_view(natural[k], **kw)

    if meld.kind == KONG and meld.concealed:
        views = tuple(view(k, face_down=k in (0, 3)) for k in range(4))
        return GroupView("concealed_kong", views, _group_label("concealed_kong", views))
    kind: GroupKind = {CHOW: "melded_chow", PUNG: "melded_pung", KONG: "melded_kong"}[
        meld.kind
    ]
    claimed_index: int | None = None
    claimed_from: str | None = None
    detail = ""
    if meld.kind == CHOW:
        if meld.claimed:
            claimed_index = meld.claimed - 1
            claimed_from = "left"
            detail = pgettext("tile group", "%(tile)s claimed") % {
                "tile": tile_label(natural[claimed_index])
            }
    elif meld.claimed:
        claimed_from = _DIRECTIONS[meld.claimed]
        # laid as players do: the claimed tile sideways on the side of the discarder
        claimed_index = {1: 0, 2: 1, 3: len(natural) - 1}[meld.claimed]
        detail = str(_FROM_LABELS[meld.claimed])
    views = tuple(view(k, rotated=k == claimed_index) for k in range(len(natural)))
    label_kind = "promoted_kong" if meld.promoted else kind
    return GroupView(
        kind,
        views,
        _group_label(label_kind, views, detail),
        claimed_from=claimed_from,
        claimed_index=claimed_index,
        promoted=meld.promoted,
    )


_SET_KINDS: dict[str, GroupKind] = {
    "chow": "concealed_chow",
    "pung": "concealed_pung",
    "kong": "concealed_kong",
    "pair": "pair",
    "knitted": "knitted",
    "single": "single",
}


def hand_display(
    hand: Hand | str, *, arrangement: Arrangement | None = None, allow_joker: bool = True
) -> HandDisplay:
    """The display model of a hand (a :class:`Hand` or its notation; a notation of thirteen
    tiles gives a hand without a winning tile). With ``arrangement`` (one of
    ``rulebook.scoring.arrangements(hand)``) the standing tiles are drawn as its concealed
    sets, the winning tile marked in its set; without, as one group with the winning tile
    set apart. Raises :class:`NotationError` for a notation the core does not accept."""
    melds: tuple[Meld, ...]
    standing: tuple[Tile, ...]
    win: Tile | None
    bonus: tuple[Tile, ...]
    if isinstance(hand, str):
        notation = hand
        try:
            parsed = parse_hand(hand, allow_joker=allow_joker)
        except NotationError as err:
            if err.code != E_WRONG_TILE_COUNT:
                raise
            try:
                melds, standing = parse_waiting(hand, allow_joker=allow_joker)
            except NotationError:
                raise err from None
            win = None
            bonus = _bonus_tiles(hand)
        else:
            melds, standing, win, bonus = (
                parsed.melds, parsed.concealed, parsed.win_tile, parsed.bonus
            )
    else:
        notation = hand.notation()
        melds, standing, win, bonus = hand.melds, hand.concealed, hand.win_tile, hand.bonus

    groups: list[GroupView] = [_meld_group(m) for m in melds]
    if arrangement is not None and win is not None:
        win_marked = False
        for k, tile_set in enumerate(arrangement.sets):
            if tile_set.meld >= 0:
                continue
            kind = _SET_KINDS[tile_set.kind]
            views_list: list[TileView] = []
            for t in tile_set.tiles:
                mark = not win_marked and k == arrangement.win_index and t == win
                win_marked = win_marked or mark
                views_list.append(tile_view(t, winning=mark))
            views = tuple(views_list)
            detail = str(_KIND_LABELS["winning"]).lower() if any(v.winning for v in views) else ""
            groups.append(GroupView(kind, views, _group_label(kind, views, detail)))
    else:
        if standing:
            views = tuple(tile_view(t) for t in standing)
            groups.append(GroupView("standing", views, _group_label("standing", views)))
        if win is not None:
            views = (tile_view(win, winning=True),)
            groups.append(GroupView("winning", views, _group_label("winning", views)))
    if bonus:
        views = tuple(tile_view(t) for t in bonus)
        groups.append(GroupView("flowers", views, _group_label("flowers", views)))
    label = _("Hand: %(groups)s") % {"groups": "; ".join(g.label for g in groups)}
    return HandDisplay(tuple(groups), label, notation, win is not None)


def _bonus_tiles(notation: str) -> tuple[Tile, ...]:
    """Flowers and seasons written outside the brackets (read by the core's tokenizer)."""
    outside = re.sub(r"\[[^\]]*\]", lambda m: " " * len(m.group()), notation)
    return tuple(pt.tile for pt in tokenize_tiles(outside, 0) if is_bonus(pt.tile))

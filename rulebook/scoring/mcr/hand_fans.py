"""The fans of the whole hand: they do not depend on how the tiles are arranged in sets.

Tiles (All Green, Reversible Tiles, Upper/Middle/Lower Tiles, Upper/Lower Four, No
Honors, Full Flush, Half Flush, All Simples, One Voided Suit), kongs (Four Kongs ...
Melded Kong), Tile Hog, Nine Gates, and how the hand was won (Self-Drawn, Fully
Concealed, Concealed Hand, Last Tile Draw/Claim, Out with Replacement Tile, Robbing the
Kong, Melded Hand, Last Tile). :func:`hand_fans` finds them once per hand, from the
:class:`HandFacts` gathered in one pass over the tiles and melds.

Tile sets are bitmasks over the 34 tiles (bit t = tile t): "every tile of the hand is
green" is ``mask & ~GREEN_MASK == 0``.
"""

from __future__ import annotations

from functools import cache
from itertools import compress

from ..codes import ORDER_CHOW, ORDER_KONG, ORDER_PUNG, set_code
from ..hand import KONG, Hand, Meld, WinContext
from ..tiles import (
    DRAGONS,
    EAST,
    NUM_KINDS,
    NUM_SUITED,
    PLAYING_TILES,
    TERMINALS,
    WINDS,
    Tile,
    format_tiles,
    parse_tiles,
    tiles_mask,
)
from .fan_ids import (
    ALL_GREEN,
    ALL_SIMPLES,
    CONCEALED_HAND,
    CONCEALED_KONG,
    FOUR_KONGS,
    FULL_FLUSH,
    FULLY_CONCEALED_HAND,
    HALF_FLUSH,
    LAST_TILE,
    LAST_TILE_CLAIM,
    LAST_TILE_DRAW,
    LOWER_FOUR,
    LOWER_TILES,
    MELDED_HAND,
    MELDED_KONG,
    MIDDLE_TILES,
    NINE_GATES,
    NO_HONORS,
    ONE_MELDED_AND_ONE_CONCEALED_KONG,
    ONE_VOIDED_SUIT,
    OUT_WITH_REPLACEMENT_TILE,
    REVERSIBLE_TILES,
    ROBBING_THE_KONG,
    SELF_DRAWN,
    THREE_KONGS,
    TILE_HOG,
    TWO_CONCEALED_KONGS,
    TWO_MELDED_KONGS,
    UPPER_FOUR,
    UPPER_TILES,
)
from .found import ONCE, Found

GREEN_MASK = tiles_mask(parse_tiles("23468sF"))
REVERSIBLE_MASK = tiles_mask(parse_tiles("1234589p245689sP"))
TERMINAL_MASK = tiles_mask(TERMINALS)
SIMPLES_MASK = tiles_mask([t for t in range(NUM_SUITED) if 0 < t % 9 < 8])
WIND_MASK = tiles_mask(WINDS)
DRAGON_MASK = tiles_mask(DRAGONS)
SUIT_MASKS = tuple(tiles_mask(range(9 * s, 9 * s + 9)) for s in range(3))
# ranks as bits (bit r: a tile of rank r + 1)
RANKS_UPPER, RANKS_MIDDLE, RANKS_LOWER = 0b111000000, 0b000111000, 0b000000111
RANKS_UPPER_FOUR, RANKS_LOWER_FOUR = 0b111100000, 0b000001111
# Nine Gates: the thirteen standing tiles, counted by rank
NINE_GATES_STANDING = (3, 1, 1, 1, 1, 1, 1, 1, 3)

# bit of each tile (a list: its bound ``__getitem__`` is a fast builtin for ``map``)
_TILE_BIT: list[int] = [1 << t for t in PLAYING_TILES]
# the suits of the hand from three bits (bit s: the hand holds a tile of suit s)
_SUITS_OF_BITS: tuple[frozenset[int], ...] = tuple(
    frozenset(s for s in (0, 1, 2) if bits >> s & 1) for bits in range(8)
)


@cache
def _kong_text(tile: Tile, concealed: bool, claimed: int, promoted: bool) -> str:
    """``Meld.notation()`` of a kong."""
    return Meld(KONG, tile, concealed, claimed, promoted).notation()


@cache
def _hog_text(t: Tile) -> str:
    return format_tiles([t] * 4)


class HandFacts:
    """What the whole hand holds, gathered once per hand in one pass over the melds."""

    __slots__ = ("closed", "concealed_kongs", "counts", "exposed_win", "has_honours",
                 "kong_tiles", "kongs_text", "mask", "meld_codes", "melded_kongs",
                 "n_melds_exposed", "suits")

    def __init__(self, hand: Hand, concealed: bytearray) -> None:
        """``concealed``: counts of the concealed tiles and the winning tile."""
        counts = concealed[:]
        # bits of the held kinds: a sum over the distinct concealed tiles, all in C
        win = hand.win_tile
        mask = sum(map(_TILE_BIT.__getitem__, {*hand.concealed, win}))
        exposed = 0
        codes: list[int] = []  # codes.meld_code of each meld
        # the kongs, and the copies of the winning tile in the winner's melded sets
        ck = mk = 0
        kong_tiles: list[int] = []
        kongs_text: list[str] = []
        exposed_win = 0
        for m in hand.melds:
            t = m.tile
            kind = m.kind
            if kind == "chow":
                counts[t] += 1
                counts[t + 1] += 1
                counts[t + 2] += 1
                mask |= 7 << t
                code = set_code(ORDER_CHOW, t, melded=not m.concealed)
                if not m.concealed and t <= win <= t + 2:
                    exposed_win += 1
            elif kind == "pung":
                counts[t] += 3
                mask |= 1 << t
                code = set_code(ORDER_PUNG, t, melded=not m.concealed)
                if not m.concealed and t == win:
                    exposed_win += 3
            else:
                counts[t] += 4
                mask |= 1 << t
                code = set_code(ORDER_KONG, t, melded=not m.concealed)
                if m.concealed:
                    ck += 1
                else:
                    mk += 1
                    if t == win:
                        exposed_win += 4
                kong_tiles.append(t)
                kongs_text.append(_kong_text(t, m.concealed, m.claimed, m.promoted))
            codes.append(code)
            if not m.concealed:
                exposed += 1
        self.meld_codes = tuple(codes)
        self.counts = counts  # all playing tiles, kongs as 4
        self.mask = mask  # bit t set when the hand holds tile t
        self.suits = _SUITS_OF_BITS[
            (1 if mask & SUIT_MASKS[0] else 0)
            | (2 if mask & SUIT_MASKS[1] else 0)
            | (4 if mask & SUIT_MASKS[2] else 0)
        ]
        self.has_honours = mask >> EAST != 0
        self.closed = exposed == 0  # no melded set (concealed kongs allowed)
        self.n_melds_exposed = exposed
        self.concealed_kongs = ck
        self.melded_kongs = mk
        self.kong_tiles = kong_tiles
        self.kongs_text = kongs_text
        self.exposed_win = exposed_win

    @property
    def present(self) -> list[Tile]:
        """The tiles the hand holds, in order."""
        return list(compress(PLAYING_TILES, self.counts))


def hand_fans(hand: Hand, ctx: WinContext, facts: HandFacts, found: Found) -> None:
    """The fans that do not depend on the arrangement (each found once)."""
    fans = found.fans
    counts = facts.counts
    mask = facts.mask
    n_suits = len(facts.suits)
    # the tiles
    if mask & ~GREEN_MASK == 0:
        fans[ALL_GREEN] = ONCE
    if mask & ~REVERSIBLE_MASK == 0:
        fans[REVERSIBLE_TILES] = ONCE
    if not facts.has_honours:
        ranks = (mask | mask >> 9 | mask >> 18) & 0x1FF
        if ranks & ~RANKS_UPPER == 0:
            fans[UPPER_TILES] = ONCE
        elif ranks & ~RANKS_MIDDLE == 0:
            fans[MIDDLE_TILES] = ONCE
        elif ranks & ~RANKS_LOWER == 0:
            fans[LOWER_TILES] = ONCE
        if ranks & ~RANKS_UPPER_FOUR == 0:
            fans[UPPER_FOUR] = ONCE
        elif ranks & ~RANKS_LOWER_FOUR == 0:
            fans[LOWER_FOUR] = ONCE
        fans[NO_HONORS] = ONCE
        if n_suits == 1:
            fans[FULL_FLUSH] = ONCE
    elif n_suits == 1:
        fans[HALF_FLUSH] = ONCE
    if mask & ~SIMPLES_MASK == 0:
        fans[ALL_SIMPLES] = ONCE
    if n_suits == 2:
        fans[ONE_VOIDED_SUIT] = ONCE
    # the kongs
    ck = facts.concealed_kongs
    mk = facts.melded_kongs
    kongs_text = facts.kongs_text
    k = ck + mk
    if k == 4:
        found.add(FOUR_KONGS, kongs_text)
    elif k == 3:
        found.add(THREE_KONGS, kongs_text)
    elif k == 2:
        found.add(
            TWO_CONCEALED_KONGS if ck == 2
            else ONE_MELDED_AND_ONE_CONCEALED_KONG if ck == 1
            else TWO_MELDED_KONGS,
            kongs_text,
        )
    elif k == 1:
        found.add(CONCEALED_KONG if ck else MELDED_KONG, kongs_text)
    # Tile Hog: all four copies of a tile used, not as a kong
    if 4 in counts:
        kong_tiles = facts.kong_tiles
        hogs: list[int] = []
        t = counts.index(4)
        while True:  # each tile held four times (list.index finds them in C)
            if t not in kong_tiles:
                hogs.append(t)
            if t == NUM_KINDS - 1 or 4 not in counts[t + 1:]:
                break
            t = counts.index(4, t + 1)
        if hogs:
            found.add(TILE_HOG, [_hog_text(t) for t in hogs], len(hogs))
    # Nine Gates: the thirteen standing tiles are 1112345678999 of one suit
    if not hand.melds and n_suits == 1 and not facts.has_honours:
        base = 9 * next(iter(facts.suits))
        standing = [0] * 9
        for t in hand.concealed:
            standing[t - base] += 1
        if tuple(standing) == NINE_GATES_STANDING:
            fans[NINE_GATES] = ONCE
    # how the hand was won
    drawn = ctx.self_drawn
    if drawn:
        fans[SELF_DRAWN] = ONCE
    if facts.closed:
        fans[FULLY_CONCEALED_HAND if drawn else CONCEALED_HAND] = ONCE
    if ctx.last_tile:
        fans[LAST_TILE_DRAW if drawn else LAST_TILE_CLAIM] = ONCE
    if drawn:
        if ctx.kong_replacement:
            fans[OUT_WITH_REPLACEMENT_TILE] = ONCE
    else:
        if ctx.robbing_kong:
            fans[ROBBING_THE_KONG] = ONCE
        if facts.n_melds_exposed == 4:
            fans[MELDED_HAND] = ONCE
    # Last Tile (58): the other three copies must be visible to all (seed 58), so not when
    # the winner holds a copy among the standing tiles; automatic when the winner's own
    # melded sets show the other three.
    if (ctx.last_of_kind or facts.exposed_win == 3) and hand.win_tile not in hand.concealed:
        fans[LAST_TILE] = ONCE

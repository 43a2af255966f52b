"""Tiles as small integers, the hand notation and the seed's keyboard encoding.

Tile numbers (``int``):

======  =================================================
0-8     Characters 1-9 (``1m``..``9m``)
9-17    Dots 1-9 (``1p``..``9p``)
18-26   Bamboo 1-9 (``1s``..``9s``)
27-30   Winds East, South, West, North (``E S W N``)
31-33   Dragons red, green, white (``C F P``)
34-37   Flowers plum, orchid, chrysanthemum, bamboo (``f1``..``f4``)
38-41   Seasons spring, summer, autumn, winter (``s1``..``s4``)
42      Joker (``J``)
======  =================================================

The playing tiles are 0-33 (34 kinds, four copies each); flowers and seasons are bonus
tiles (one copy each); the joker is only used by rulesets that allow it.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations

from .errors import NotationError

Tile = int

CHARACTERS = 0
DOTS = 1
BAMBOO = 2
HONOURS = 3

SUIT_LETTERS = "mps"
HONOUR_LETTERS = "ESWNCFP"
EAST, SOUTH, WEST, NORTH = 27, 28, 29, 30
RED, GREEN, WHITE = 31, 32, 33
WINDS: tuple[Tile, ...] = (EAST, SOUTH, WEST, NORTH)
DRAGONS: tuple[Tile, ...] = (RED, GREEN, WHITE)
HONOUR_TILES: tuple[Tile, ...] = WINDS + DRAGONS
FLOWERS: tuple[Tile, ...] = (34, 35, 36, 37)
SEASONS: tuple[Tile, ...] = (38, 39, 40, 41)
BONUS_TILES: tuple[Tile, ...] = FLOWERS + SEASONS
JOKER: Tile = 42
NUM_KINDS = 34  # playing tile kinds
NUM_SUITED = 27  # tiles 0-26 are the suits' (9 a suit); EAST and up are honours
SUITED_TILES = range(NUM_SUITED)
PLAYING_TILES = range(NUM_KINDS)
NUM_ALL = 43  # including bonus tiles and the joker

TERMINALS: tuple[Tile, ...] = (0, 8, 9, 17, 18, 26)
TERMINALS_AND_HONOURS: tuple[Tile, ...] = TERMINALS + HONOUR_TILES
WIND_NAMES = "ESWN"  # the seat winds in seat order; every seat order of the site is this one


# The knitted patterns (Knitted Straight, Honors and Knitted Tiles)
# Each pattern: the nine suit tiles of 1-4-7 / 2-5-8 / 3-6-9 in three different suits.
KNITTED_PATTERNS: tuple[tuple[Tile, ...], ...] = tuple(
    tuple(sorted(9 * suit + start + 3 * k for suit, start in zip(perm, range(3), strict=True)
                 for k in range(3)))
    for perm in permutations(range(3))
)
KNITTED_STARTS: tuple[tuple[Tile, ...], ...] = tuple(
    tuple(9 * suit + start for suit, start in zip(perm, range(3), strict=True))
    for perm in permutations(range(3))
)
ORPHANS = frozenset(TERMINALS_AND_HONOURS)
# bit t set for each tile of a knitted pattern: "holds at least eight of the nine tiles"
# is a popcount of (held tiles & pattern)
KNITTED_MASKS: tuple[int, ...] = tuple(sum(1 << t for t in p) for p in KNITTED_PATTERNS)


def tiles_mask(tiles: list[Tile] | tuple[Tile, ...] | frozenset[Tile] | range) -> int:
    """Bit t set for each tile t of ``tiles``."""
    mask = 0
    for t in tiles:
        mask |= 1 << t
    return mask


def suit_of(tile: Tile) -> int:
    """0 characters, 1 dots, 2 bamboo, 3 honours; flowers/seasons/joker give 4."""
    if tile < 27:
        return tile // 9
    if tile < 34:
        return HONOURS
    return 4


def rank_of(tile: Tile) -> int:
    """1-9 for suit tiles, 0 otherwise."""
    return tile % 9 + 1 if tile < 27 else 0


def is_suited(tile: Tile) -> bool:
    return 0 <= tile < 27


def is_honour(tile: Tile) -> bool:
    return 27 <= tile < 34


def is_terminal(tile: Tile) -> bool:
    return tile < 27 and tile % 9 in (0, 8)


def is_bonus(tile: Tile) -> bool:
    return 34 <= tile < 42


def make_tile(suit: int, rank: int) -> Tile:
    return suit * 9 + rank - 1


def tile_name(tile: Tile) -> str:
    """The notation of one tile: ``1m``, ``E``, ``f1``, ``s3``, ``J``."""
    if tile < 27:
        return f"{tile % 9 + 1}{SUIT_LETTERS[tile // 9]}"
    if tile < 34:
        return HONOUR_LETTERS[tile - 27]
    if tile < 38:
        return f"f{tile - 33}"
    if tile < 42:
        return f"s{tile - 37}"
    if tile == JOKER:
        return "J"
    raise ValueError(f"not a tile: {tile}")


_NAME_TO_TILE: dict[str, Tile] = {tile_name(t): t for t in range(NUM_ALL)}
for _i, _letter in enumerate(HONOUR_LETTERS):
    _NAME_TO_TILE[f"{_i + 1}z"] = 27 + _i


def parse_tile(name: str) -> Tile:
    """One tile from its notation (``"5p"``, ``"E"``, ``"7z"``, ``"f2"``)."""
    try:
        return _NAME_TO_TILE[name.strip()]
    except KeyError:
        raise NotationError("unknown_tile_name", 0, name=name) from None


def format_tiles(tiles: list[Tile] | tuple[Tile, ...], *, sort: bool = True) -> str:
    """Compact notation of several tiles: ``[0, 1, 2, 27]`` -> ``"123mE"``."""
    seq = sorted(tiles) if sort else list(tiles)
    out: list[str] = []
    digits: list[str] = []
    suit = -1
    for t in seq:
        if t < 27:
            if t // 9 != suit and digits:
                out.append("".join(digits) + SUIT_LETTERS[suit])
                digits = []
            suit = t // 9
            digits.append(str(t % 9 + 1))
        else:
            if digits:
                out.append("".join(digits) + SUIT_LETTERS[suit])
                digits = []
                suit = -1
            out.append(tile_name(t))
    if digits:
        out.append("".join(digits) + SUIT_LETTERS[suit])
    return "".join(out)


@dataclass(frozen=True, slots=True)
class PositionedTile:
    """A tile read from text, with the offset of the character that named it."""

    tile: Tile
    position: int


def tokenize_tiles(text: str, offset: int = 0) -> list[PositionedTile]:
    """Read a run of tiles (no brackets): ``"123m45pEE f1 s2 J"``.

    Digits wait for their suit letter (``m p s``, or ``z`` for honours 1-7). ``f1``..``f4``
    and ``s1``..``s4`` are flowers and seasons when no digits are waiting (after digits,
    ``s`` is the bamboo suit). Whitespace separates nothing but is allowed anywhere.
    """
    out: list[PositionedTile] = []
    pending: list[tuple[int, int]] = []  # (rank, position)
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        pos = offset + i
        if ch.isspace() or ch == "_":
            i += 1
            continue
        if "1" <= ch <= "9":
            pending.append((int(ch), pos))
            i += 1
            continue
        if ch in "fs" and not pending and i + 1 < n and text[i + 1] in "1234":
            base = 33 if ch == "f" else 37
            out.append(PositionedTile(base + int(text[i + 1]), pos))
            i += 2
            continue
        if ch in "mps":
            if not pending:
                raise NotationError("suit_letter_alone", pos, letter=ch)
            suit = SUIT_LETTERS.index(ch)
            for rank, rpos in pending:
                out.append(PositionedTile(suit * 9 + rank - 1, rpos))
            pending = []
            i += 1
            continue
        if ch == "z":
            if not pending:
                raise NotationError("suit_letter_alone", pos, letter="z")
            for rank, rpos in pending:
                if rank > 7:
                    raise NotationError("no_such_honour", rpos, rank=rank)
                out.append(PositionedTile(26 + rank, rpos))
            pending = []
            i += 1
            continue
        if ch not in HONOUR_LETTERS and ch != "J":
            raise NotationError("unknown_character", pos, char=ch)
        if pending:
            raise NotationError("numbers_without_suit", pending[0][1])
        if ch in HONOUR_LETTERS:
            out.append(PositionedTile(27 + HONOUR_LETTERS.index(ch), pos))
            i += 1
            continue
        out.append(PositionedTile(JOKER, pos))
        i += 1
    if pending:
        raise NotationError("numbers_without_suit", pending[0][1])
    return out


def parse_tiles(text: str) -> list[Tile]:
    """Tiles of a bracket-free string, in the order written."""
    return [pt.tile for pt in tokenize_tiles(text)]


# --- The keyboard encoding of the worked examples in the seed 000 ------------------------

_KEYBOARD_ROWS = {
    "qwertyuio": 0,
    "asdfghjkl": 9,
    "zxcvbnm,.": 18,
}
_KEYBOARD: dict[str, Tile] = {}
for _row, _base in _KEYBOARD_ROWS.items():
    for _k, _c in enumerate(_row):
        _KEYBOARD[_c] = _base + _k
_KEYBOARD.update({"1": EAST, "2": SOUTH, "3": WEST, "4": NORTH, "5": WHITE, "6": GREEN, "7": RED})
# Upper case (shift) marks a tile taken from another player.
_KEYBOARD_SHIFTED: dict[str, str] = {c.upper(): c for c in "qwertyuioasdfghjklzxcvbnm"}
_KEYBOARD_SHIFTED.update({"<": ",", ">": ".", "!": "1", "@": "2", "#": "3", "$": "4"})
_KEYBOARD_SHIFTED.update({"%": "5", "^": "6", "&": "7"})


@dataclass(frozen=True, slots=True)
class KeyboardTile:
    tile: Tile
    claimed: bool
    position: int


def decode_keyboard(text: str) -> list[list[KeyboardTile]]:
    """Decode the seed's keyboard font into groups (split on spaces) of tiles.

    ``"wwWw Fgh"`` -> two groups; ``W`` and ``F`` are marked ``claimed``.
    """
    groups: list[list[KeyboardTile]] = []
    current: list[KeyboardTile] = []
    for pos, ch in enumerate(text):
        if ch.isspace():
            if current:
                groups.append(current)
                current = []
            continue
        claimed = False
        key = ch
        if ch in _KEYBOARD_SHIFTED:
            key = _KEYBOARD_SHIFTED[ch]
            claimed = True
        if key not in _KEYBOARD:
            raise NotationError("unknown_keyboard_tile", pos, char=ch)
        current.append(KeyboardTile(_KEYBOARD[key], claimed, pos))
    if current:
        groups.append(current)
    return groups


def keyboard_to_notation(
    text: str,
    *,
    win_tile_group: int | None = None,
    melded_groups: tuple[int, ...] = (),
    concealed_kongs: bool = True,
) -> str:
    """Best-effort translation of a keyboard example into the hand notation.

    - a group containing an upper-case (claimed) tile is a claimed meld (chow, pung, kong);
      ``melded_groups`` (0-based group indexes) marks further groups as melded;
    - a group of four equal tiles without a claim mark is a concealed kong unless
      ``concealed_kongs`` is false (then it is a melded kong);
    - the winning tile is the group ``win_tile_group`` (its last tile), or else the only
      one-tile group, or else the last tile written;
    - everything else is the concealed part.

    The worked examples do not always state which sets were melded; the caller passes
    what the sentence around the example says.
    """
    groups = decode_keyboard(text)
    if not groups:
        raise NotationError("empty_hand", 0)
    if win_tile_group is None:
        singles = [i for i, g in enumerate(groups) if len(g) == 1]
        win_tile_group = singles[-1] if len(singles) == 1 else len(groups) - 1
    melds: list[str] = []
    concealed: list[Tile] = []
    win: Tile | None = None
    for gi, group in enumerate(groups):
        tiles = [kt.tile for kt in group]
        is_win_group = gi == win_tile_group
        claimed_idx = [k for k, kt in enumerate(group) if kt.claimed]
        melded = bool(claimed_idx) or gi in melded_groups
        if is_win_group:
            win = tiles[-1]
            tiles = tiles[:-1]
            concealed.extend(tiles)
            continue
        if len(tiles) == 4 and len(set(tiles)) == 1:
            if melded:
                melds.append(f"[{format_tiles(tiles)},{2 if not claimed_idx else 1}]")
            elif concealed_kongs:
                melds.append(f"[{format_tiles(tiles)}]")
            else:
                melds.append(f"[{format_tiles(tiles)},2]")
            continue
        if melded and len(tiles) == 3:
            if len(set(tiles)) == 1:
                melds.append(f"[{format_tiles(tiles)},2]")
            else:
                srt = sorted(tiles)
                which = srt.index(tiles[claimed_idx[0]]) + 1 if claimed_idx else 1
                melds.append(f"[{format_tiles(srt)},{which}]")
            continue
        concealed.extend(tiles)
    assert win is not None
    return "".join(melds) + format_tiles(concealed) + tile_name(win)

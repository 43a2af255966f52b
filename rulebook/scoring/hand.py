"""Frozen dataclasses for a hand and the circumstances of the win, and the hand parser.

Notation (the one of ChineseOfficialMahjongHelper)::

    [123m,2][999s,3][EEEE][FFFF,1][PPPP,5] 45p 6p    ->  melds, then the concealed part
                                                       whose LAST tile is the winning tile

- ``[123m,2]`` claimed chow, the digit says which of its tiles was claimed (1-3);
- ``[999s,3]`` claimed pung, the digit says from whom (1 left, 2 opposite, 3 right);
- ``[EEEE]`` concealed kong; ``[EEEE,1]``..``[EEEE,3]`` melded kong (claimed from);
  ``[EEEE,5]``..``[EEEE,7]`` kong promoted from a melded pung claimed from 1..3;
- ``[123m]`` / ``[999s]`` without a digit: melded, the claimed tile/player unknown;
- flowers and seasons ``f1``..``f4`` ``s1``..``s4`` may appear anywhere outside brackets;
- ``J`` is a joker (Red Mahjong with option ``jokers`` only), also inside a meld:
  ``[5J5m,1]`` pung of 5m, ``[4J6m]`` chow 4-5-6m (a chow is written in rank order, the
  ``J`` in the place of the tile it stands for), ``[JJ7p,3]`` pung of 7p. A meld keeps at
  least one natural tile; with one natural tile it is a pung (or a kong); the claimed tile
  of a chow (its digit) is never a joker (``joker_not_claimable``). Decision 0201.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from operator import eq
from typing import Literal, cast

from ._construct import slots_constructor
from .errors import NotationError
from .tiles import (
    JOKER,
    NUM_ALL,
    NUM_KINDS,
    SUIT_LETTERS,
    WIND_NAMES,
    Tile,
    format_tiles,
    is_bonus,
    parse_tile,
    tile_name,
    tokenize_tiles,
)

MeldKind = Literal["chow", "pung", "kong"]
CHOW: MeldKind = "chow"
PUNG: MeldKind = "pung"
KONG: MeldKind = "kong"

Seat = Literal["E", "S", "W", "N"]
Direction = Literal["left", "opposite", "right"]
DIRECTIONS: tuple[Direction, ...] = ("left", "opposite", "right")


@dataclass(frozen=True, slots=True)
class Meld:
    """A set declared during play (or a concealed kong).

    ``tile`` is the lowest tile of the set. ``claimed``: for a chow, which tile (1-3) was
    claimed; for a pung or kong, from whom (1 left, 2 opposite, 3 right); 0 when unknown
    or for a concealed kong. ``promoted``: a kong made by adding a tile to a melded pung.
    ``jokers``: bit ``k`` set when the ``k``-th tile of :attr:`tiles` is a joker standing
    for that tile (Red Mahjong, decision 0201); ``tiles`` gives the tiles as played.
    """

    kind: MeldKind
    tile: Tile
    concealed: bool = False
    claimed: int = 0
    promoted: bool = False
    jokers: int = 0

    @property
    def tiles(self) -> tuple[Tile, ...]:
        if self.kind == CHOW:
            return (self.tile, self.tile + 1, self.tile + 2)
        if self.kind == PUNG:
            return (self.tile,) * 3
        return (self.tile,) * 4

    @property
    def natural_tiles(self) -> tuple[Tile, ...]:
        """The tiles that are not jokers."""
        mask = self.jokers
        if not mask:
            return self.tiles
        return tuple(t for k, t in enumerate(self.tiles) if not mask >> k & 1)

    @property
    def joker_count(self) -> int:
        return self.jokers.bit_count()

    @property
    def is_kong(self) -> bool:
        return self.kind == KONG

    def _body(self) -> str:
        mask = self.jokers
        if not mask:
            return format_tiles(self.tiles)
        tiles = self.tiles
        if tiles[0] < 27:
            ranks = "".join(
                "J" if mask >> k & 1 else str(t % 9 + 1) for k, t in enumerate(tiles)
            )
            return ranks + SUIT_LETTERS[tiles[0] // 9]
        return "".join("J" if mask >> k & 1 else tile_name(t) for k, t in enumerate(tiles))

    def notation(self) -> str:
        body = self._body()
        if self.kind == KONG and self.concealed:
            return f"[{body}]"
        digit = self.claimed + (4 if self.promoted else 0)
        if digit == 0 and not self.promoted:
            return f"[{body}]"
        return f"[{body},{digit}]"


@dataclass(frozen=True, slots=True)
class Hand:
    """A complete hand: declared melds, the standing (concealed) tiles, the winning tile.

    ``concealed`` excludes the winning tile. ``bonus`` holds flower and season tiles
    written in the hand. Kongs count as three tiles for the 14-tile rule.
    """

    melds: tuple[Meld, ...]
    concealed: tuple[Tile, ...]
    win_tile: Tile
    bonus: tuple[Tile, ...] = ()

    @property
    def concealed_with_win(self) -> tuple[Tile, ...]:
        return (*self.concealed, self.win_tile)

    @property
    def all_tiles(self) -> tuple[Tile, ...]:
        """Every playing tile of the hand (kongs give four)."""
        out: list[Tile] = []
        for m in self.melds:
            out.extend(m.tiles)
        out.extend(self.concealed)
        out.append(self.win_tile)
        return tuple(out)

    @property
    def is_closed(self) -> bool:
        """No melded set (concealed kongs allowed)."""
        return all(m.concealed for m in self.melds)

    def notation(self) -> str:
        melds = "".join(m.notation() for m in self.melds)
        bonus = "".join(tile_name(b) for b in self.bonus)
        body = format_tiles(self.concealed) + tile_name(self.win_tile)
        return melds + body + (" " + bonus if bonus else "")


@dataclass(frozen=True, slots=True)
class WinContext:
    """How the hand was won. Names match the command line options."""

    self_drawn: bool = False
    claimed_from: Direction | None = None  # who discarded (None when unknown / self-drawn)
    seat: Seat = "E"
    prevalent: Seat = "E"
    flowers: int = 0  # number of flower/season tiles (MCR only counts them)
    flower_tiles: tuple[Tile, ...] = field(default=())
    last_of_kind: bool = False
    last_tile: bool = False  # last tile of the wall (self-drawn) or last discard (claimed)
    kong_replacement: bool = False
    robbing_kong: bool = False

    @property
    def seat_wind(self) -> Tile:
        return 27 + WIND_NAMES.index(self.seat)

    @property
    def prevalent_wind(self) -> Tile:
        return 27 + WIND_NAMES.index(self.prevalent)


def _parse_meld(body: str, offset: int, allow_joker: bool = True) -> Meld:
    """``body`` is the text between the brackets; ``offset`` that of its first char."""
    if "," in body:
        tiles_text, _, digit_text = body.partition(",")
        digit_pos = offset + len(tiles_text) + 1
        digit_text = digit_text.strip()
        if len(digit_text) != 1 or not digit_text.isdigit():
            raise NotationError("meld_marker_digit", digit_pos)
        digit: int | None = int(digit_text)
    else:
        tiles_text, digit, digit_pos = body, None, offset
    if "J" in tiles_text:
        return _parse_joker_meld(tiles_text, offset, digit, digit_pos, allow_joker)
    tiles = [pt.tile for pt in tokenize_tiles(tiles_text, offset)]
    if any(t >= 34 for t in tiles):
        raise NotationError("meld_of_bonus_tiles", offset)
    return _meld_of(tiles, digit, digit_pos, offset)


def _meld_of(tiles: list[Tile], digit: int | None, digit_pos: int, offset: int) -> Meld:
    """The meld of three or four playing tiles and its marker digit (or ``None``)."""
    if len(tiles) == 3 and tiles[0] == tiles[1] == tiles[2]:
        if digit is None:
            return Meld(PUNG, tiles[0], claimed=0)
        if not 1 <= digit <= 3:
            raise NotationError("pung_marker", digit_pos)
        return Meld(PUNG, tiles[0], claimed=digit)
    if len(tiles) == 3:
        srt = sorted(tiles)
        if not (srt[2] < 27 and srt[0] // 9 == srt[2] // 9 and srt[1] == srt[0] + 1
                and srt[2] == srt[0] + 2):
            raise NotationError("no_chow_or_pung", offset)
        if digit is None:
            return Meld(CHOW, srt[0], claimed=0)
        if not 1 <= digit <= 3:
            raise NotationError("chow_marker", digit_pos)
        return Meld(CHOW, srt[0], claimed=digit)
    if len(tiles) == 4 and len(set(tiles)) == 1:
        if digit is None:
            return Meld(KONG, tiles[0], concealed=True)
        if 1 <= digit <= 3:
            return Meld(KONG, tiles[0], claimed=digit)
        if 5 <= digit <= 7:
            return Meld(KONG, tiles[0], claimed=digit - 4, promoted=True)
        raise NotationError("kong_marker", digit_pos)
    raise NotationError("not_a_meld", offset)


def _parse_joker_meld(
    tiles_text: str, offset: int, digit: int | None, digit_pos: int, allow_joker: bool
) -> Meld:
    """A meld body holding ``J`` (decision 0201).

    The natural tiles fix the meld: all equal -> a pung (a kong with four places); else a
    chow written in rank order, each ``J`` in the place of the tile it stands for. One
    natural tile is read as a pung. A chow's digit names the claimed tile, which can not
    be a joker (a discarded joker is never claimed, L526-528); a pung's digit says from
    whom, and its claimed tile is one of the natural ones.
    """
    joker_positions = [offset + k for k, ch in enumerate(tiles_text) if ch == "J"]
    if not allow_joker:
        raise NotationError("jokers_not_used", joker_positions[0])
    # a joker is read in place (a space keeps the other characters' offsets)
    naturals = tokenize_tiles(tiles_text.replace("J", " "), offset)
    if any(pt.tile >= 34 for pt in naturals):
        raise NotationError("meld_of_bonus_tiles", offset)
    if not naturals:
        raise NotationError("meld_of_jokers", offset)
    places = sorted(
        [(pos, JOKER) for pos in joker_positions] + [(pt.position, pt.tile) for pt in naturals]
    )
    size = len(places)
    if size not in (3, 4):
        raise NotationError("not_a_meld", offset)
    known = [(k, t) for k, (_, t) in enumerate(places) if t != JOKER]
    mask = sum(1 << k for k, (_, t) in enumerate(places) if t == JOKER)
    first_place, first = known[0]
    if all(t == first for _, t in known):
        stand_in = [first] * size
    else:
        low = first - first_place  # the chow's lowest tile, if the places agree
        if (
            size != 3
            or first >= 27
            or not 0 <= first % 9 - first_place <= 6
            or any(t != low + k for k, t in known)
        ):
            raise NotationError("joker_meld_order", offset)
        stand_in = [low, low + 1, low + 2]
    meld = _meld_of(stand_in, digit, digit_pos, offset)
    if meld.kind == CHOW and meld.claimed and mask >> (meld.claimed - 1) & 1:
        raise NotationError("joker_claimed_in_chow", digit_pos)
    return replace(meld, jokers=mask)


new_hand = slots_constructor(Hand)  # Hand(...) without the frozen __setattr__ calls


def parse_hand(text: str, *, allow_joker: bool = True) -> Hand:
    """Parse the notation into a :class:`Hand` (checks counts, not whether it wins)."""
    melds, tiles, bonus = _parse_parts(text, allow_joker=allow_joker, total=14)
    return new_hand(melds, tiles[:-1], tiles[-1], bonus)


def parse_waiting(
    text: str, *, allow_joker: bool = True
) -> tuple[tuple[Meld, ...], tuple[Tile, ...]]:
    """Parse a hand of thirteen (no winning tile yet): its melds and standing tiles."""
    melds, tiles, _ = _parse_parts(text, allow_joker=allow_joker, total=13)
    return melds, tiles


def _parse_parts(
    text: str, *, allow_joker: bool, total: int
) -> tuple[tuple[Meld, ...], tuple[Tile, ...], tuple[Tile, ...]]:
    fast = _fast_parts(text, total)
    if fast is not None:
        return fast
    if not text or not text.strip():
        raise NotationError("empty_hand", 0)
    melds: list[Meld] = []
    loose: list[tuple[Tile, int]] = []
    bonus: list[Tile] = []
    i = 0
    n = len(text)
    meld_positions: list[int] = []
    while i < n:
        ch = text[i]
        if ch == "[":
            close = text.find("]", i + 1)
            if close < 0:
                raise NotationError("unclosed_meld", i)
            if loose:
                raise NotationError("meld_after_tiles", i)
            melds.append(_parse_meld(text[i + 1 : close], i + 1, allow_joker))
            meld_positions.append(i)
            i = close + 1
            continue
        if ch == "]":
            raise NotationError("unopened_meld", i)
        j = i
        while j < n and text[j] not in "[]":
            j += 1
        for pt in tokenize_tiles(text[i:j], i):
            if is_bonus(pt.tile):
                bonus.append(pt.tile)
            else:
                loose.append((pt.tile, pt.position))
        i = j
    if not loose:
        raise NotationError("no_concealed_tiles", n)
    if not allow_joker:
        for t, pos in loose:
            if t == JOKER:
                raise NotationError("jokers_not_used", pos)
    # A fifth copy: report the position where it appears. Natural tiles only: a joker in a
    # meld stands for the meld's tile without being one of its four copies; at most four
    # jokers in the whole hand.
    counts = [0] * NUM_ALL
    for m, pos in zip(melds, meld_positions, strict=True):
        counts[JOKER] += m.joker_count
        if counts[JOKER] > 4:
            raise NotationError("too_many_jokers", pos)
        for t in m.natural_tiles:
            counts[t] += 1
            if counts[t] > 4:
                raise NotationError("fifth_copy", pos, tile=tile_name(t))
    for t, pos in loose:
        counts[t] += 1
        if counts[t] > 4:
            if t == JOKER:
                raise NotationError("fifth_joker", pos)
            raise NotationError("fifth_copy", pos, tile=tile_name(t))
    if len(melds) > 4:
        raise NotationError("too_many_melds", meld_positions[4])
    expected = total - 3 * len(melds)
    if len(loose) != expected:
        raise NotationError(
            "concealed_tile_count", loose[-1][1] if len(loose) > expected else n,
            melds=len(melds), expected=expected, found=len(loose),
        )
    seen: set[Tile] = set()
    for b in bonus:
        if b in seen:
            raise NotationError("bonus_tile_twice", tile=tile_name(b))
        seen.add(b)
    return tuple(melds), tuple(t for t, _ in loose), tuple(bonus)


# --- fast path -----------------------------------------------------------------------------
# Hands as the notation writes them (melds in canonical form first, then digit runs with
# their suit letter and honour letters, flowers after a space) are read with one regular
# expression and a table of meld bodies. Anything else, and every hand that breaks a rule,
# goes through the full parser above, which gives the error with its position; the fast
# path only ever returns what the full parser would return.

# honours are read as runs ("ESWN" is one token); a run maps to tiles character by character
# per suit letter: digit character -> tile
_SUIT_DIGIT: dict[str, dict[str, Tile]] = {
    letter: {str(d): base + d for d in range(1, 10)}
    for letter, base in (("m", -1), ("p", 8), ("s", 17))
}
_HONOUR_TILE = {ch: 27 + i for i, ch in enumerate("ESWNCFP")}
_honour_tile = _HONOUR_TILE.__getitem__
_BONUS_TILE = {f"f{k}": 33 + k for k in range(1, 5)} | {f"s{k}": 37 + k for k in range(1, 5)}
# the tokens of the concealed part, and the tiles of each token seen (a bounded table: a
# token is a digit run with its suit letter, an honour run or one flower)
_FAST_TOKEN_TEXT = re.compile(r"[1-9]+[mps]|[ESWNCFP]+|[fs][1-4]")
_TOKEN_TILES: dict[str, tuple[Tile, ...]] = {
    name: (tile,) for name, tile in _BONUS_TILE.items()
}
_TOKEN_TABLE_SIZE = 50_000
_BONUS_TOKENS = frozenset(_BONUS_TILE)


def _token_tiles(token: str) -> tuple[Tile, ...]:
    """The tiles of one token of ``_FAST_TOKEN_TEXT`` (kept in ``_TOKEN_TILES``)."""
    suit = token[-1]
    if suit in _SUIT_DIGIT:
        tiles = tuple(map(_SUIT_DIGIT[suit].__getitem__, token[:-1]))
    else:
        tiles = tuple(map(_honour_tile, token))
    if len(_TOKEN_TILES) < _TOKEN_TABLE_SIZE:
        _TOKEN_TILES[token] = tiles
    return tiles


def _meld_table() -> dict[str, Meld]:
    """Every meld body in the form ``Meld.notation`` writes it, read by ``_parse_meld``."""
    bodies: list[str] = []
    for t in range(34):
        body3 = format_tiles((t, t, t))
        body4 = format_tiles((t, t, t, t))
        bodies += [body3, body4] + [f"{body3},{d}" for d in (1, 2, 3)]
        bodies += [f"{body4},{d}" for d in (1, 2, 3, 5, 6, 7)]
        if t < 27 and t % 9 <= 6:
            chow = format_tiles((t, t + 1, t + 2))
            bodies += [chow] + [f"{chow},{d}" for d in (1, 2, 3)]
    return {body: _parse_meld(body, 0) for body in bodies}


_MELD_TABLE = _meld_table()


def _fast_parts(
    text: str, total: int, check_copies: bool = True
) -> tuple[tuple[Meld, ...], tuple[Tile, ...], tuple[Tile, ...]] | None:
    """The parts of a well-formed, valid hand, or ``None`` (then the full parser decides).

    ``check_copies`` false skips the fifth-copy test: for a caller that makes it itself
    (the MCR fast path, whose evaluator counts every tile anyway)."""
    melds: list[Meld] = []
    i = 0
    while text.startswith("[", i):
        close = text.find("]", i + 1)
        meld = _MELD_TABLE.get(text[i + 1 : close]) if close > 0 else None
        if meld is None:
            return None
        melds.append(meld)
        i = close + 1
    rest = text[i:] if i else text
    if len(melds) > 4:
        return None
    tokens = _FAST_TOKEN_TEXT.findall(rest)
    # every character is in a token or a space (else the full parser reports it)
    if sum(map(len, tokens)) != len(rest) - rest.count(" "):
        return None
    loose: list[Tile] = []
    token_tiles = _TOKEN_TILES
    for token in tokens:
        found = token_tiles.get(token)
        if found is None:
            found = _token_tiles(token)
        loose += found
    bonus: list[Tile] = []
    if not _BONUS_TOKENS.isdisjoint(tokens):  # flowers and seasons among the tokens
        bonus = [t for t in loose if t >= NUM_KINDS]
        loose = [t for t in loose if t < NUM_KINDS]
        if len(set(bonus)) != len(bonus):  # a flower twice
            return None
    if len(loose) != total - 3 * len(melds):
        return None
    if check_copies and has_fifth_copy(melds, loose):
        return None
    return tuple(melds), tuple(loose), tuple(bonus)


def has_fifth_copy(melds: Sequence[Meld], tiles: Sequence[Tile]) -> bool:
    """Whether the melds and the tiles hold some tile five times or more."""
    # in the sorted tiles, some tile equals the one four places on (C-level map/any
    # instead of a count per tile)
    every = [t for m in melds for t in m.tiles]
    every += tiles
    every.sort()
    return any(map(eq, every, every[4:]))


def parse_seat(value: object, name: str) -> Seat:
    if isinstance(value, int) and 0 <= value <= 3:
        return WIND_NAMES[value]  # type: ignore[return-value]
    if isinstance(value, str) and value.upper() in WIND_NAMES:
        return value.upper()  # type: ignore[return-value,unused-ignore]
    raise NotationError("wind_letter", name=name)


new_context = slots_constructor(WinContext)  # WinContext(...), the same way
_CONTEXT_KEYS = frozenset({
    "self_drawn", "from", "claimed_from", "from_", "seat", "prevalent", "flowers",
    "last_of_kind", "last_tile", "kong_replacement", "robbing_kong",
})
_CONTEXT_FLAGS = ("self_drawn", "last_of_kind", "last_tile", "kong_replacement", "robbing_kong")
_BOOL_ONLY = {bool}
_SEAT_LETTERS: dict[str, Seat] = {"E": "E", "S": "S", "W": "W", "N": "N"}


def make_context(**context: object) -> WinContext:
    """Build a :class:`WinContext` from CLI-style keyword arguments.

    Keys: ``self_drawn``, ``from`` / ``claimed_from`` (left|opposite|right), ``seat``,
    ``prevalent``, ``flowers`` (an int or tile names such as ``("f1", "s2")``),
    ``last_of_kind``, ``last_tile``, ``kong_replacement``, ``robbing_kong``.
    Unknown keys are an error (code ``bad_context``).
    """
    return context_from(context)


def context_from(context: Mapping[str, object]) -> WinContext:
    """:func:`make_context` from a mapping of the keyword arguments (not changed)."""
    if not _CONTEXT_KEYS.issuperset(context):
        for key in context:
            if key not in _CONTEXT_KEYS:
                raise NotationError("unknown_condition", name=key)
    get = context.get
    flags = (
        get("self_drawn", False), get("last_of_kind", False), get("last_tile", False),
        get("kong_replacement", False), get("robbing_kong", False),
    )
    # every flag True or False (the type of a value is bool only for those two)
    if set(map(type, flags)) != _BOOL_ONLY:
        for key, value in zip(_CONTEXT_FLAGS, flags, strict=True):
            if value is not True and value is not False:
                raise NotationError("condition_not_flag", name=key)
    self_drawn, last_of_kind, last_tile, kong_replacement, robbing_kong = cast(
        tuple[bool, bool, bool, bool, bool], flags  # each checked to be True or False
    )
    direction = context.get("claimed_from", context.get("from", context.get("from_")))
    if direction is not None and direction not in DIRECTIONS:
        raise NotationError("discarder_direction")
    if self_drawn and direction is not None:
        raise NotationError("self_drawn_discarder")
    flowers_value = context.get("flowers", 0)
    flower_tiles: tuple[Tile, ...] = ()
    if isinstance(flowers_value, bool):
        raise NotationError("flowers_type")
    if isinstance(flowers_value, int):
        if not 0 <= flowers_value <= 8:
            raise NotationError("flowers_range")
        count = flowers_value
    elif isinstance(flowers_value, (tuple, list)):
        names: list[Tile] = []
        for item in flowers_value:
            if not isinstance(item, str):
                raise NotationError("flower_name_type")
            try:
                tile = parse_tile(item)
            except NotationError:
                raise NotationError("unknown_flower", name=item) from None
            if not is_bonus(tile):
                raise NotationError("not_a_flower", name=item)
            if tile in names:
                raise NotationError("flower_given_twice", tile=item)
            names.append(tile)
        flower_tiles = tuple(names)
        count = len(names)
    else:
        raise NotationError("flowers_type")
    # the seat letters themselves need no parsing
    seat = context.get("seat", "E")
    seat_letter = (
        _SEAT_LETTERS[seat] if isinstance(seat, str) and seat in _SEAT_LETTERS
        else parse_seat(seat, "seat")
    )
    prevalent = context.get("prevalent", "E")
    prevalent_letter = (
        _SEAT_LETTERS[prevalent] if isinstance(prevalent, str) and prevalent in _SEAT_LETTERS
        else parse_seat(prevalent, "prevalent")
    )
    context_object: WinContext = new_context(
        self_drawn, direction, seat_letter, prevalent_letter, count, flower_tiles,
        last_of_kind, last_tile, kong_replacement, robbing_kong,
    )
    return context_object

"""The fans of one arrangement: what its sets make.

:func:`arrangement_fans` reads the sets (as set codes, ``codes.py``) once, sorting them
into chows, pungs, honour pungs and concealed pungs, and finds:

- the honour pungs: Big/Little Four Winds, Big/Little Three Dragons, Big Three Winds,
  Two Dragon Pungs, Dragon Pung, Prevalent and Seat Wind, Pung of Terminals or Honors;
- Four/Three/Two Concealed Pungs, All Pungs, All Chows, All Even Pungs, All Fives,
  Outside Hand, the hands without simples, All Types;
- the special forms: Seven Pairs, Seven Shifted Pairs, Thirteen Orphans, Knitted
  Straight, Greater/Lesser Honors and Knitted Tiles;
- the fans between chows and between pungs, as the principles of 3.9.1.5 choose them
  (``principles.py``, from the definitions of ``combination_fans.py``);
- the wait fans (Edge, Closed, Single Wait) when the wait was the only one.
"""

from __future__ import annotations

from ..arrange import HONORS_KNITTED as FORM_HONORS_KNITTED
from ..arrange import KNITTED_STRAIGHT as FORM_KNITTED_STRAIGHT
from ..arrange import SEVEN_PAIRS as FORM_SEVEN_PAIRS
from ..arrange import STANDARD as FORM_STANDARD
from ..arrange import THIRTEEN_ORPHANS as FORM_THIRTEEN_ORPHANS
from ..codes import (
    IS_MELDED,
    NUM_CODES,
    ORDER_CHOW,
    ORDER_KNITTED,
    ORDER_KONG,
    ORDER_OF,
    ORDER_PAIR,
    ORDER_PUNG,
    TILE_OF,
    set_code,
)
from ..hand import Hand, WinContext
from ..tiles import EAST, NORTH, NUM_KINDS, NUM_SUITED, RED, TERMINALS, Tile
from .config import MCRConfig
from .fan_ids import (
    ALL_CHOWS,
    ALL_EVEN_PUNGS,
    ALL_FIVES,
    ALL_HONORS,
    ALL_PUNGS,
    ALL_TERMINALS,
    ALL_TERMINALS_AND_HONORS,
    ALL_TYPES,
    BIG_FOUR_WINDS,
    BIG_THREE_DRAGONS,
    BIG_THREE_WINDS,
    CLOSED_WAIT,
    DRAGON_PUNG,
    EDGE_WAIT,
    FOUR_CONCEALED_PUNGS,
    GREATER_HONORS_AND_KNITTED_TILES,
    KNITTED_STRAIGHT,
    LESSER_HONORS_AND_KNITTED_TILES,
    LITTLE_FOUR_WINDS,
    LITTLE_THREE_DRAGONS,
    OUTSIDE_HAND,
    PREVALENT_WIND,
    PUNG_OF_TERMINALS_OR_HONORS,
    SEAT_WIND,
    SEVEN_PAIRS,
    SEVEN_SHIFTED_PAIRS,
    SINGLE_WAIT,
    THIRTEEN_ORPHANS,
    THREE_CONCEALED_PUNGS,
    TWO_CONCEALED_PUNGS,
    TWO_DRAGON_PUNGS,
)
from .found import CODE_TEXT, Found
from .hand_fans import DRAGON_MASK, SIMPLES_MASK, TERMINAL_MASK, WIND_MASK, HandFacts
from .principles import NO_PLAN, Plan, chow_plan, pung_plan

_TERMINALS = frozenset(TERMINALS)
_WIND_TILE: dict[str, Tile] = {"E": EAST, "S": EAST + 1, "W": EAST + 2, "N": NORTH}

# The class of each set code for the pass over an arrangement's sets: a chow, a pair, a
# pung or kong (_C_PUNG and up) of a suited non-terminal, a terminal, a wind or a dragon;
# other.
_C_OTHER, _C_CHOW, _C_PAIR, _C_PUNG, _C_TERMINAL, _C_WIND, _C_DRAGON = range(7)


def _code_class(code: int) -> int:
    order = ORDER_OF[code]
    t = TILE_OF[code]
    if order == ORDER_CHOW:
        return _C_CHOW
    if order == ORDER_PAIR:
        return _C_PAIR
    if order in (ORDER_PUNG, ORDER_KONG):
        if t >= RED:
            return _C_DRAGON
        if t >= EAST:
            return _C_WIND
        return _C_TERMINAL if t in _TERMINALS else _C_PUNG
    return _C_OTHER


def _fives_set(code: int) -> bool:
    """All Fives: every set holds a five."""
    t = TILE_OF[code]
    if ORDER_OF[code] == ORDER_CHOW:
        return t < NUM_SUITED and 2 <= t % 9 <= 4
    return t < NUM_SUITED and t % 9 == 4


def _outside_set(code: int) -> bool:
    """Outside Hand: every set holds a terminal or an honour."""
    t = TILE_OF[code]
    if ORDER_OF[code] == ORDER_CHOW:
        return t % 9 in (0, 6)
    return t >= EAST or t in _TERMINALS


def _wait_fan_tiles(code: int, knitted: bool) -> int:
    """Bit t set when a win on tile t in the set ``code`` makes a wait fan, the wait
    being the only one: a pair (Single Wait), the middle of a chow (Closed Wait), the 3
    of a 1-2-3 or the 7 of a 7-8-9 (Edge Wait), any tile of a knitted set when
    ``knitted`` (MCRConfig.wait_fans_in_knitted_straight). For any other win the
    uniqueness of the wait does not matter."""
    order = ORDER_OF[code]
    t = TILE_OF[code]
    if t >= NUM_KINDS:
        return 0
    if order == ORDER_PAIR:
        return 1 << t
    if order == ORDER_CHOW:
        if t >= NUM_SUITED or t % 9 > 6:
            return 0
        r = t % 9
        return 1 << (t + 1) | (1 << (t + 2) if r == 0 else 0) | (1 << t if r == 6 else 0)
    if order == ORDER_KNITTED and knitted:
        return 1 << t | 1 << (t + 3) | 1 << (t + 6)
    return 0


# per set code (lists: ``all(map(_FIVES_SET.__getitem__, sets))`` is a C-level loop)
_CODE_CLASS: list[int] = [_code_class(code) for code in range(NUM_CODES)]
_FIVES_SET: list[bool] = [_fives_set(code) for code in range(NUM_CODES)]
_OUTSIDE_SET: list[bool] = [_outside_set(code) for code in range(NUM_CODES)]
WAIT_FAN_TILES: list[int] = [_wait_fan_tiles(c, False) for c in range(NUM_CODES)]
WAIT_FAN_TILES_KNITTED: list[int] = [_wait_fan_tiles(c, True) for c in range(NUM_CODES)]


def _no_simples_fan(mask: int, has_honours: bool) -> str:
    """A hand without simples: All Terminals and Honors, All Honors or All Terminals."""
    if not has_honours:
        return ALL_TERMINALS
    return ALL_TERMINALS_AND_HONORS if mask & TERMINAL_MASK else ALL_HONORS


def _honour_pungs(
    winds: list[int], dragons: list[int], pair: Tile, ctx: WinContext, found: Found
) -> None:
    """The fans of the wind and dragon pungs and kongs (their codes, in the order of the
    arrangement's sets); ``pair``: the pair's tile."""
    text = CODE_TEXT
    used_winds = False
    if winds:
        wind_text = [text[c] for c in winds]
        if len(winds) == 4:
            found.add(BIG_FOUR_WINDS, wind_text)
            used_winds = True
        elif len(winds) == 3:
            if EAST <= pair <= NORTH:
                found.add(LITTLE_FOUR_WINDS, [*wind_text, text[set_code(ORDER_PAIR, pair)]])
            else:
                found.add(BIG_THREE_WINDS, wind_text)
            used_winds = True
    if dragons:
        dragon_text = [text[c] for c in dragons]
        if len(dragons) == 3:
            found.add(BIG_THREE_DRAGONS, dragon_text)
        elif len(dragons) == 2:
            if pair >= RED:
                found.add(LITTLE_THREE_DRAGONS, [*dragon_text, text[set_code(ORDER_PAIR, pair)]])
            else:
                found.add(TWO_DRAGON_PUNGS, dragon_text)
        for t_ in dragon_text:
            found.add(DRAGON_PUNG, [t_])
    if winds:
        prevalent = _WIND_TILE[ctx.prevalent]
        seat = _WIND_TILE[ctx.seat]
        for c in winds:
            t = TILE_OF[c]
            special = used_winds
            if t == prevalent:
                found.add(PREVALENT_WIND, [text[c]])
                special = True
            if t == seat:
                found.add(SEAT_WIND, [text[c]])
                special = True
            if not special:
                found.add(PUNG_OF_TERMINALS_OR_HONORS, [text[c]])
            else:
                found.excluded.append((
                    PUNG_OF_TERMINALS_OR_HONORS,
                    PREVALENT_WIND if t == prevalent
                    else SEAT_WIND if t == seat
                    else BIG_FOUR_WINDS if len(winds) == 4
                    else LITTLE_FOUR_WINDS if LITTLE_FOUR_WINDS in found.fans
                    else BIG_THREE_WINDS,
                ))
    if dragons:
        found.excluded.append((PUNG_OF_TERMINALS_OR_HONORS, DRAGON_PUNG))


def _add_combinations(found: Found, plan: Plan, sets: list[int]) -> None:
    adds, excluded = plan
    text = CODE_TEXT
    for fid, indexes in adds:
        found.add(fid, ["+".join([text[sets[b]] for b in indexes])])
    if excluded:
        found.excluded.extend(excluded)


def arrangement_fans(
    hand: Hand,
    ctx: WinContext,
    facts: HandFacts,
    form: str,
    sets: tuple[int, ...],
    win_index: int,
    found: Found,
    unique_wait: bool,
    config: MCRConfig,
) -> None:
    """Add the fans of one arrangement to ``found``: ``sets`` are its set codes (melds
    first), ``win_index`` the index of the set holding the winning tile (or -1)."""
    mask = facts.mask
    if form in (FORM_STANDARD, FORM_KNITTED_STRAIGHT):
        text = CODE_TEXT
        # one pass over the sets; each list keeps the order of the arrangement
        # concealed pungs: a pung completed by a discarded winning tile is melded (the
        # codes of two pungs always differ, so the code tells the winning set apart)
        win_code = sets[win_index] if win_index >= 0 and not ctx.self_drawn else -1
        pair = -1
        chows: list[int] = []
        pungs: list[int] = []  # pungs and kongs
        winds: list[int] = []
        dragons: list[int] = []
        terminal_pungs: list[int] = []
        suited_pungs: list[int] = []
        concealed_pungs: list[int] = []
        classes = _CODE_CLASS
        for c in sets:
            k = classes[c]
            if k == _C_CHOW:
                chows.append(c)
            elif k >= _C_PUNG:
                pungs.append(c)
                if k == _C_DRAGON:
                    dragons.append(c)
                elif k == _C_WIND:
                    winds.append(c)
                else:
                    suited_pungs.append(c)
                    if k == _C_TERMINAL:
                        terminal_pungs.append(c)
                if not IS_MELDED[c] and c != win_code:
                    concealed_pungs.append(c)
            elif k == _C_PAIR and pair < 0:
                pair = c
        assert pair >= 0
        pair_tile = TILE_OF[pair]
        if winds or dragons:
            _honour_pungs(winds, dragons, pair_tile, ctx, found)
        for c in terminal_pungs:
            found.add(PUNG_OF_TERMINALS_OR_HONORS, [text[c]])
        ncp = len(concealed_pungs)
        if ncp >= 2:
            cp_text = [text[c] for c in concealed_pungs]
            if ncp == 4:
                found.add(FOUR_CONCEALED_PUNGS, cp_text)
            elif ncp == 3:
                found.add(THREE_CONCEALED_PUNGS, cp_text)
            else:
                found.add(TWO_CONCEALED_PUNGS, cp_text)
        if form == FORM_KNITTED_STRAIGHT:
            found.add(KNITTED_STRAIGHT, [text[c] for c in sets if ORDER_OF[c] == ORDER_KNITTED])
        if form == FORM_STANDARD and len(pungs) == 4:
            found.add(ALL_PUNGS)
        if (
            len(chows) == 4 or (form == FORM_KNITTED_STRAIGHT and len(chows) == 1)
        ) and pair_tile < NUM_SUITED:
            found.add(ALL_CHOWS)
        if form == FORM_STANDARD:
            # All Even Pungs: four pungs and the pair of 2, 4, 6, 8
            if len(pungs) == 4 and pair_tile < NUM_SUITED and pair_tile % 9 % 2 == 1 and all(
                TILE_OF[c] < NUM_SUITED and TILE_OF[c] % 9 % 2 == 1 for c in pungs
            ):
                found.add(ALL_EVEN_PUNGS)
            # All Fives needs a suited pair of fives (cheap test first)
            if pair_tile < NUM_SUITED and pair_tile % 9 == 4 and all(
                map(_FIVES_SET.__getitem__, sets)
            ):
                found.add(ALL_FIVES)
            # Outside Hand needs a terminal or honour pair (cheap test first)
            if (pair_tile >= EAST or pair_tile in _TERMINALS) and all(
                map(_OUTSIDE_SET.__getitem__, sets)
            ):
                found.add(OUTSIDE_HAND)
            if mask & SIMPLES_MASK == 0:  # terminals and honours only
                found.add(_no_simples_fan(mask, facts.has_honours))
        if len(facts.suits) == 3 and mask & WIND_MASK and mask & DRAGON_MASK:
            found.add(ALL_TYPES)
        # the fans between chows / between pungs
        if len(chows) >= 2:
            plan = chow_plan(chows, pair_tile)
            if plan is not NO_PLAN:
                _add_combinations(found, plan, chows)
        if len(suited_pungs) >= 2:
            plan = pung_plan(suited_pungs)
            if plan is not NO_PLAN:
                _add_combinations(found, plan, suited_pungs)
        # the wait fans
        if unique_wait and win_index >= 0:
            win_set = sets[win_index]
            order = ORDER_OF[win_set]
            t = TILE_OF[win_set]
            if order == ORDER_PAIR:
                found.add(SINGLE_WAIT, [text[win_set]])
            elif order == ORDER_CHOW:
                pos = hand.win_tile - t
                r = t % 9
                if pos == 1:
                    found.add(CLOSED_WAIT, [text[win_set]])
                elif (pos == 2 and r == 0) or (pos == 0 and r == 6):
                    found.add(EDGE_WAIT, [text[win_set]])
            elif order == ORDER_KNITTED and config.wait_fans_in_knitted_straight:
                pos = (hand.win_tile - t) // 3
                found.add(CLOSED_WAIT if pos == 1 else EDGE_WAIT, [text[win_set]])
    elif form == FORM_SEVEN_PAIRS:
        found.add(SEVEN_PAIRS)
        present = facts.present
        if len(facts.suits) == 1 and not facts.has_honours:
            ranks = sorted({t % 9 for t in present})
            if len(ranks) == 7 and ranks[-1] - ranks[0] == 6:
                found.add(SEVEN_SHIFTED_PAIRS)
        if mask & SIMPLES_MASK == 0:
            found.add(_no_simples_fan(mask, facts.has_honours))
        if len(facts.suits) == 3 and mask & WIND_MASK and mask & DRAGON_MASK:
            found.add(ALL_TYPES)
        if unique_wait:
            found.add(SINGLE_WAIT)
    elif form == FORM_THIRTEEN_ORPHANS:
        found.add(THIRTEEN_ORPHANS)
        found.add(ALL_TYPES)
        if unique_wait:
            found.add(SINGLE_WAIT)
    elif form == FORM_HONORS_KNITTED:
        counts = facts.counts
        honours = sum(1 for t in range(EAST, NUM_KINDS) if counts[t])
        found.add(GREATER_HONORS_AND_KNITTED_TILES if honours == 7
                  else LESSER_HONORS_AND_KNITTED_TILES)
        if sum(1 for t in range(NUM_SUITED) if counts[t]) == 9:
            found.add(KNITTED_STRAIGHT)
        found.add(ALL_TYPES)
        if unique_wait:
            found.add(SINGLE_WAIT)

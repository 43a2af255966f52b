"""Hong Kong Old Style: the fan detectors and the evaluation of a hand.

Works on the shared :mod:`rulebook.scoring.arrange` arrangements (forms ``standard``,
``seven_pairs``, ``thirteen_orphans``) plus the irregular additional hands 34, 35, 36
and 38, which are found here. Every split is scored on its own and the best one is
kept (seed 001, L671-684). Decisions: ``docs/scoring/hkos.md``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from rulebook.scoring.arrange import (
    SEVEN_PAIRS,
    STANDARD,
    THIRTEEN_ORPHANS,
    Arrangement,
    TileSet,
    arrangements,
    counts_of,
)
from rulebook.scoring.errors import NotationError
from rulebook.scoring.hand import Hand, WinContext, make_context, parse_hand
from rulebook.scoring.hkos import payments as pay
from rulebook.scoring.hkos.table import FANS_BY_ID, LIABILITY_FANS, doublings_to_points
from rulebook.scoring.result import FanHit, ScoreError
from rulebook.scoring.tiles import (
    DRAGONS,
    FLOWERS,
    GREEN,
    NUM_KINDS,
    RED,
    SEASONS,
    WHITE,
    WINDS,
    Tile,
    format_tiles,
    is_honour,
    is_terminal,
    tile_name,
)

RULES = "hkos"

#: Options (house rules) and whether they take a value.
FLAG_OPTIONS = frozenset(
    {
        "additional",
        *(f"fan{n}" for n in range(31, 39)),
        "replacement_no_self_drawn",
        "flower_replacement",
        "big_dragons_all_pungs",
    }
)
VALUE_OPTIONS = frozenset({"min_doublings"})

#: Context keys HKOS adds to the shared ones (``make_context``).
EXTRA_FLAGS = (
    "late_discard",
    "heavenly",
    "earthly",
    "first_round",
    "flower_replacement",
    "double_fortune",
    "false_win",
)

PEKING_GARDEN = "peking_garden"
SNAKE_DRAGON = "snake_dragon"
INTERLACED_PUNGS = "interlaced_pungs"
ROYAL_DRAGON = "royal_interlaced_dragon"


@dataclass(frozen=True, slots=True)
class HkosContext:
    win: WinContext
    flower_tiles: tuple[Tile, ...] = ()
    liable: str | None = None
    late_discard: bool = False
    heavenly: bool = False
    earthly: bool = False
    first_round: bool = False
    flower_replacement: bool = False
    double_fortune: bool = False
    false_win: bool = False
    options: Mapping[str, int | bool] = field(default_factory=dict)

    def option(self, name: str) -> bool:
        return bool(self.options.get(name, False))

    def fan_enabled(self, fan_id: str) -> bool:
        fan = FANS_BY_ID[fan_id]
        if fan.option is None:
            return True
        return self.option("additional") or self.option(fan.option)


@dataclass(frozen=True, slots=True)
class HkosResult:
    hand: Hand
    fans: tuple[FanHit, ...]
    doublings: int
    total: int
    payments: dict[str, int] | None
    form: str
    shortfall: ScoreError | None = None  # why the house minimum is not reached


# --- options and context -------------------------------------------------------------------


def parse_options(raw: object) -> dict[str, int | bool]:
    """``["fan31", "min_doublings=1"]`` -> ``{"fan31": True, "min_doublings": 1}``."""
    return _parse_options(raw, FLAG_OPTIONS, VALUE_OPTIONS)


def _parse_options(
    raw: object,
    flags: frozenset[str],
    values: frozenset[str],
) -> dict[str, int | bool]:
    out: dict[str, int | bool] = {}
    if raw is None:
        return out
    items: list[tuple[str, object]]
    if isinstance(raw, Mapping):
        items = [(str(k), v) for k, v in raw.items()]
    elif isinstance(raw, str) or not isinstance(raw, Iterable):
        raise NotationError("house_options_not_a_list")
    else:
        items = []
        for item in raw:
            if not isinstance(item, str):
                raise NotationError("house_option_not_a_string")
            name, sep, text = item.partition("=")
            items.append((name.strip(), text.strip() if sep else True))
    for name, value in items:
        if name in flags:
            if value is not True and value not in ("1", "true", "yes", 1):
                if value in (False, "0", "false", "no", 0):
                    continue
                raise NotationError("house_option_takes_no_value", name=name)
            out[name] = True
        elif name in values:
            number = -1
            if isinstance(value, int | str) and not isinstance(value, bool):
                try:
                    number = int(value)
                except ValueError:
                    number = -1
            if number < 0:
                raise NotationError("house_option_needs_a_number", name=name, example=1)
            out[name] = number
        else:
            raise NotationError("unknown_house_option", name=name)
    return out


def _flag(context: dict[str, object], key: str) -> bool:
    value = context.pop(key, False)
    if not isinstance(value, bool):
        raise NotationError("condition_not_flag", name=key)
    return value


def build_context(hand: Hand, context: Mapping[str, object]) -> HkosContext:
    """Split HKOS keys from the shared ones and check the win description."""
    ctx = dict(context)
    options = parse_options(ctx.pop("options", None))
    liable = ctx.pop("liable", None)
    if liable is not None and liable not in pay.SEATS:
        raise NotationError("liable_direction")
    flags = {key: _flag(ctx, key) for key in EXTRA_FLAGS}
    players = ctx.pop("players", 4)
    if players != 4:
        raise NotationError("hkos_four_players")
    flowers = ctx.get("flowers", 0)
    if isinstance(flowers, int) and not isinstance(flowers, bool) and flowers > 0:
        raise NotationError("hkos_flower_tiles_needed")
    win = make_context(**ctx)
    bonus = list(win.flower_tiles)
    for b in hand.bonus:
        if b in bonus:
            raise NotationError("flower_given_twice", tile=tile_name(b))
        bonus.append(b)
    hk = HkosContext(
        win=win,
        flower_tiles=tuple(sorted(bonus)),
        liable=liable,
        options=options,
        **flags,
    )
    _check_context(hand, hk)
    return hk


def _check_context(hand: Hand, c: HkosContext) -> None:
    w = c.win
    kongs = sum(1 for m in hand.melds if m.is_kong)
    if w.kong_replacement and (not w.self_drawn or kongs == 0):
        raise NotationError("kong_replacement_needs_kong")
    if c.double_fortune and (not w.self_drawn or kongs < 2):
        raise NotationError("double_fortune_conditions")
    if c.flower_replacement and (not w.self_drawn or not c.flower_tiles):
        raise NotationError("flower_replacement_conditions")
    if w.robbing_kong and w.self_drawn:
        raise NotationError("robbing_kong_self_drawn")
    if c.late_discard and w.self_drawn:
        raise NotationError("late_discard_self_drawn")
    if c.late_discard and c.liable is not None and c.liable != w.claimed_from:
        raise NotationError("late_discard_and_liability")
    if c.heavenly:
        if w.seat != "E" or not w.self_drawn:
            raise NotationError("heavenly_conditions")
        if kongs or any(not m.concealed for m in hand.melds):
            raise NotationError("heavenly_after_claim")
    if c.earthly:
        if w.seat == "E" or w.self_drawn:
            raise NotationError("earthly_conditions")
        east = {"S": "left", "W": "opposite", "N": "right"}[w.seat]
        if w.claimed_from is not None and w.claimed_from != east:
            raise NotationError("earthly_not_from_east", east=east, seat=w.seat)
        if hand.melds:
            raise NotationError("earthly_after_claim")
    if c.first_round and hand.melds and any(not m.concealed for m in hand.melds):
        raise NotationError("first_round_claim")


# --- fans ----------------------------------------------------------------------------------


def _set_name(s: TileSet) -> str:
    return format_tiles(s.tiles)


def _is_exposed(s: TileSet, arr: Arrangement, win: WinContext) -> bool:
    """A set is exposed when melded, or completed by a discard (L649-652)."""
    if not s.concealed:
        return True
    if win.self_drawn or s.kind == "pair" or s.kind == "single":
        return False
    return arr.win_set is s


def _suits_and_honours(tiles: Iterable[Tile]) -> tuple[set[int], bool]:
    suits: set[int] = set()
    honours = False
    for t in tiles:
        if t < 27:
            suits.add(t // 9)
        else:
            honours = True
    return suits, honours


def _flower_fans(c: HkosContext) -> list[FanHit]:
    bonus = set(c.flower_tiles)
    if not bonus:
        return [FanHit("1", 1)]
    out: list[FanHit] = []
    seat = "ESWN".index(c.win.seat)
    own = [t for t in (FLOWERS[seat], SEASONS[seat]) if t in bonus]
    if own:
        out.append(FanHit("2", 1, len(own), tuple(tile_name(t) for t in own)))
    full = [group for group in (FLOWERS, SEASONS) if bonus.issuperset(group)]
    if full:
        out.append(FanHit("3", 1, len(full), tuple("".join(map(tile_name, g)) for g in full)))
    return out


def _win_fans(c: HkosContext) -> list[FanHit]:
    w = c.win
    out: list[FanHit] = []
    replacement = w.kong_replacement or (c.flower_replacement and c.option("flower_replacement"))
    if w.self_drawn and not (replacement and c.option("replacement_no_self_drawn")):
        out.append(FanHit("7", 1))
    if w.last_tile:
        out.append(FanHit("8" if w.self_drawn else "9", 1))
    if replacement:
        out.append(FanHit("10", 1))
    if w.robbing_kong:
        out.append(FanHit("11", 1))
    if c.heavenly:
        out.append(FanHit("29", 10))
    elif c.earthly:
        out.append(FanHit("30", 10))
    elif c.first_round and c.fan_enabled("33"):
        out.append(FanHit("33", 6))
    if c.double_fortune and c.fan_enabled("37"):
        out.append(FanHit("37", 10))
    return out


def _flush_fans(tiles: list[Tile]) -> list[FanHit]:
    suits, honours = _suits_and_honours(tiles)
    if len(suits) == 1 and honours:
        return [FanHit("14", 3)]
    if len(suits) == 1:
        return [FanHit("16", 6)]
    return []


def _all_honours_terminals(tiles: list[Tile]) -> list[FanHit]:
    if all(is_honour(t) for t in tiles):
        return [FanHit("21", 10)]
    if all(is_terminal(t) for t in tiles):
        return [FanHit("22", 10)]
    return []


def _standard_fans(hand: Hand, arr: Arrangement, c: HkosContext) -> list[FanHit]:
    w = c.win
    sets = [s for s in arr.sets if s.kind != "pair"]
    pair = next(s for s in arr.sets if s.kind == "pair")
    tiles = list(hand.all_tiles)
    pungs = [s for s in sets if s.is_pung_like]
    dragon_pungs = [s for s in pungs if s.tile in DRAGONS]
    wind_pungs = [s for s in pungs if s.tile in WINDS]
    out: list[FanHit] = []
    if all(s.kind == "chow" for s in sets):
        out.append(FanHit("4", 1, 1, tuple(map(_set_name, sets))))
    if dragon_pungs:
        out.append(FanHit("5", 1, len(dragon_pungs), tuple(map(_set_name, dragon_pungs))))
    valued = [s for s in wind_pungs if s.tile in (w.seat_wind, w.prevalent_wind)]
    wind_count = sum((s.tile == w.seat_wind) + (s.tile == w.prevalent_wind) for s in valued)
    if wind_count:
        out.append(FanHit("6", 1, wind_count, tuple(map(_set_name, valued))))
    if len(dragon_pungs) == 2 and pair.tile in DRAGONS:
        out.append(FanHit("12", 2, 1, (*map(_set_name, dragon_pungs), _set_name(pair))))
    if len(pungs) == 4:
        out.append(FanHit("13", 3, 1, tuple(map(_set_name, pungs))))
    out.extend(_flush_fans(tiles))
    if len(pungs) == 4 and w.self_drawn and not any(_is_exposed(s, arr, w) for s in pungs):
        out.append(FanHit("17", 10, 1, tuple(map(_set_name, pungs))))
    if len(dragon_pungs) == 3 and (len(pungs) == 4 or not c.option("big_dragons_all_pungs")):
        out.append(FanHit("18", 10, 1, tuple(map(_set_name, dragon_pungs))))
    if len(wind_pungs) == 3 and pair.tile in WINDS:
        out.append(FanHit("19", 10, 1, (*map(_set_name, wind_pungs), _set_name(pair))))
    if len(wind_pungs) == 4:
        out.append(FanHit("20", 10, 1, tuple(map(_set_name, wind_pungs))))
    out.extend(_all_honours_terminals(tiles))
    if _is_nine_gates(hand) and not c.heavenly:
        out.append(FanHit("23", 10))
    if sum(1 for s in sets if s.kind == "kong") == 4:
        out.append(FanHit("25", 10))
    for fan_id, dragon, suit in (("26", GREEN, 2), ("27", RED, 0), ("28", WHITE, 1)):
        if (
            len(pungs) == 4
            and all(t == dragon or (t < 27 and t // 9 == suit) for t in tiles)
            and any(s.tile == dragon for s in pungs)
            and pair.tile != dragon
        ):
            out.append(FanHit(fan_id, 10))
    if c.fan_enabled("31") and not any(_is_exposed(s, arr, w) for s in sets):
        out.append(FanHit("31", 1))
    return out


def _is_nine_gates(hand: Hand) -> bool:
    if hand.melds:
        return False
    suits, honours = _suits_and_honours(hand.all_tiles)
    if honours or len(suits) != 1:
        return False
    base = 9 * suits.pop()
    counts = counts_of(hand.concealed)
    return counts[base : base + 9] == [3, 1, 1, 1, 1, 1, 1, 1, 3]


def _seven_pairs_fans(hand: Hand, c: HkosContext) -> list[FanHit]:
    tiles = list(hand.all_tiles)
    out = [FanHit("15", 4)]
    out.extend(_flush_fans(tiles))
    out.extend(_all_honours_terminals(tiles))
    if c.fan_enabled("31"):
        out.append(FanHit("31", 1))
    return out


def _irregular_fans(fan_id: str, hand: Hand, c: HkosContext) -> list[FanHit]:
    out = [FanHit(fan_id, 10)]
    out.extend(_flush_fans(list(hand.all_tiles)))
    if c.fan_enabled("31"):
        out.append(FanHit("31", 1))
    return out


# --- additional irregular hands --------------------------------------------------------------


def _additional_forms(hand: Hand, c: HkosContext) -> list[str]:
    """Ids of the irregular additional hands (34, 35, 36, 38) the tiles make."""
    if hand.melds:
        return []
    counts = counts_of(hand.concealed_with_win)
    found: list[str] = []
    honours = counts[27:34]
    winds = counts[27:31]
    dragons = counts[31:34]
    suit_rows = [counts[9 * s : 9 * s + 9] for s in range(3)]
    # 34 Peking garden: 1-7 of one suit and the seven honours, all single (L1184-1186).
    if (
        c.fan_enabled("34")
        and honours == [1] * 7
        and any(row[:7] == [1] * 7 and sum(row) == 7 for row in suit_rows)
    ):
        found.append("34")
    # 35 snake-dragon: 1-9 of one suit, the 3 dragons single, a wind pair (L1190-1192).
    wind_pair = dragons == [1, 1, 1] and sorted(winds) == [0, 0, 0, 2]
    if c.fan_enabled("35") and wind_pair and any(row == [1] * 9 for row in suit_rows):
        found.append("35")
    # 36 interlaced pungs: four numbers each in the three suits, an honour pair.
    if (
        c.fan_enabled("36")
        and sorted(honours) == [0] * 6 + [2]
        and suit_rows[0] == suit_rows[1] == suit_rows[2]
        and sum(suit_rows[0]) == 4
    ):
        found.append("36")
    # 38 royal interlaced dragon: 147, 258, 369 in three suits, 3 dragons, a wind pair.
    if c.fan_enabled("38") and dragons == [1, 1, 1] and sorted(winds) == [0, 0, 0, 2]:
        suit_tiles = [t for t in range(27) for _ in range(counts[t])]
        if len(suit_tiles) == 9 and len(set(suit_tiles)) == 9:
            patterns = {tuple(t for t in suit_tiles if t // 9 == s) for s in range(3)}
            starts = sorted(p[0] % 9 for p in patterns if len(p) == 3)
            shapes_ok = all(
                len(p) == 3 and p[1] - p[0] == 3 and p[2] - p[1] == 3 for p in patterns
            )
            if len(patterns) == 3 and shapes_ok and starts == [0, 1, 2]:
                found.append("38")
    return found


# --- waits for fan 32 ------------------------------------------------------------------------


def hkos_waits(hand: Hand) -> list[Tile]:
    """Tile kinds that would complete the hand's 13 tiles in an HKOS form."""
    held = Counter(hand.all_tiles)
    held[hand.win_tile] -= 1
    out: list[Tile] = []
    for t in range(NUM_KINDS):
        if held[t] >= 4:
            continue
        candidate = Hand(hand.melds, hand.concealed, t, hand.bonus)
        if any(a.form in (STANDARD, SEVEN_PAIRS, THIRTEEN_ORPHANS) for a in arrangements(candidate)):
            out.append(t)
    return out


# --- evaluation ------------------------------------------------------------------------------


def _combine(hits: list[FanHit]) -> tuple[FanHit, ...]:
    order = {f: i for i, f in enumerate(FANS_BY_ID)}
    return tuple(sorted(hits, key=lambda h: order[h.id]))


def _candidates(hand: Hand, c: HkosContext) -> list[tuple[str, list[FanHit]]]:
    out: list[tuple[str, list[FanHit]]] = []
    seen_seven = False
    for arr in arrangements(hand):
        if arr.form == STANDARD:
            out.append((STANDARD, _standard_fans(hand, arr, c)))
        elif arr.form == SEVEN_PAIRS and not seen_seven:
            seen_seven = True
            out.append((SEVEN_PAIRS, _seven_pairs_fans(hand, c)))
        elif arr.form == THIRTEEN_ORPHANS:
            hits = [FanHit("24", 10)]
            if c.fan_enabled("31"):
                hits.append(FanHit("31", 1))
            out.append((THIRTEEN_ORPHANS, hits))
    for fan_id in _additional_forms(hand, c):
        out.append((FANS_BY_ID[fan_id].key, _irregular_fans(fan_id, hand, c)))
    return out


def evaluate(hand: Hand, c: HkosContext) -> HkosResult:
    """Score ``hand``; raises :class:`NotationError` for a hand that does not win."""
    candidates = _candidates(hand, c)
    if not candidates:
        raise NotationError("no_hkos_hand")
    common = _flower_fans(c) + _win_fans(c)
    single_wait: list[FanHit] = []
    if c.fan_enabled("32") and len(hkos_waits(hand)) == 1:
        single_wait = [FanHit("32", 1, 1, (tile_name(hand.win_tile),))]
    best: tuple[tuple[int, int], str, tuple[FanHit, ...]] | None = None
    for form, hits in candidates:
        found = hits + common
        if form != SEVEN_PAIRS:
            found = found + single_wait
        doublings = sum(h.value for h in found)
        key = (doublings_to_points(doublings), doublings)
        if best is None or key > best[0]:
            best = (key, form, _combine(found))
    assert best is not None
    (points, doublings), form, fans = best
    shortfall = None
    minimum = c.options.get("min_doublings", 0)
    inner = sum(h.value for h in fans if not FANS_BY_ID[h.id].external)
    if minimum and inner < int(minimum):
        shortfall = ScoreError.of("doublings_below_minimum", doublings=inner, minimum=minimum)
    if c.liable is not None and not LIABILITY_FANS.intersection(h.id for h in fans):
        raise NotationError("liability_fans")
    payments = None if shortfall else _payments(points, c)
    return HkosResult(hand, fans, doublings, points, payments, form, shortfall)


def _payments(points: int, c: HkosContext) -> dict[str, int] | None:
    if c.false_win:
        return pay.false_win_penalty()
    w = c.win
    if not w.self_drawn and w.claimed_from is None:
        if c.earthly:
            east = {"S": "left", "W": "opposite", "N": "right"}[w.seat]
            return pay.payments(points, self_drawn=False, discarder=east, liable=c.liable)
        return None
    return pay.payments(
        points,
        self_drawn=w.self_drawn,
        discarder=w.claimed_from,
        liable=c.liable,
        late_discard=c.late_discard,
    )


def score_hkos(
    hand: str | Hand, *, raise_shortfall: bool = True, **context: object
) -> HkosResult:
    """Parse (if needed) and score one hand under Hong Kong Old Style rules."""
    parsed = parse_hand(hand, allow_joker=False) if isinstance(hand, str) else hand
    if isinstance(hand, Hand) and (
        any(t >= NUM_KINDS for t in hand.all_tiles) or any(m.jokers for m in hand.melds)
    ):
        raise NotationError("jokers_not_used")
    c = build_context(parsed, context)
    result = evaluate(parsed, c)
    if result.shortfall and raise_shortfall:
        raise NotationError(result.shortfall.reason, None, **result.shortfall.params)
    return result


__all__ = [
    "FanHit",
    "HkosContext",
    "HkosResult",
    "build_context",
    "evaluate",
    "hkos_waits",
    "parse_options",
    "score_hkos",
]

"""Red Mahjong: the fan detectors and the evaluation of a hand (seed 003).

Splits come from :mod:`rulebook.scoring.red.arrange` (joker-aware, no kongs); every
split is scored and the best kept (L591-593). A fan naming several sets is scored
once per distinct group of sets (L672-674, footnote 10). Decisions:
``docs/scoring/red.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from rulebook.scoring.errors import NotationError
from rulebook.scoring.hand import Hand, WinContext, make_context, parse_hand
from rulebook.scoring.hkos.evaluate import _parse_options
from rulebook.scoring.red import payments as pay
from rulebook.scoring.red.arrange import Group, chaotic_completion, standard_splits
from rulebook.scoring.red.table import CHAOTIC_HAND_REDUCED, FANS_BY_ID, cap_points
from rulebook.scoring.result import FanHit, ScoreError
from rulebook.scoring.tiles import (
    DRAGONS,
    JOKER,
    NUM_KINDS,
    RED,
    format_tiles,
    tile_name,
)

RULES = "red"

FLAG_OPTIONS = frozenset({"jokers", "chaotic_hand_3"})
VALUE_OPTIONS = frozenset({"min_points"})


@dataclass(frozen=True, slots=True)
class RedContext:
    win: WinContext
    players: int = 4
    bonus_count: int = 0
    false_win: bool = False
    options: Mapping[str, int | bool] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class RedResult:
    hand: Hand
    fans: tuple[FanHit, ...]
    raw_points: int
    total: int
    payments: dict[str, int] | None
    form: str
    groups: tuple[Group, ...] = ()
    shortfall: ScoreError | None = None  # why the house minimum is not reached


def parse_options(raw: object) -> dict[str, int | bool]:
    return _parse_options(raw, FLAG_OPTIONS, VALUE_OPTIONS)


def build_context(hand: Hand, context: Mapping[str, object]) -> RedContext:
    ctx = dict(context)
    options = parse_options(ctx.pop("options", None))
    raw_players = ctx.pop("players", 4)
    if isinstance(raw_players, str) and raw_players.isdigit():
        raw_players = int(raw_players)
    if not isinstance(raw_players, int) or isinstance(raw_players, bool):
        raise NotationError("red_players")
    players = raw_players
    if players not in (2, 3, 4):
        raise NotationError("red_players")
    false_win = ctx.pop("false_win", False)
    if not isinstance(false_win, bool):
        raise NotationError("condition_not_flag", name="false_win")
    for key in ("liable", "late_discard"):
        if ctx.pop(key, None) not in (None, False):
            raise NotationError("hkos_rule", name=key)
    win = make_context(**ctx)
    if win.kong_replacement or win.robbing_kong:
        raise NotationError("red_no_kong_win")
    bonus = set(win.flower_tiles)
    for b in hand.bonus:
        if b in bonus:
            raise NotationError("flower_given_twice", tile=tile_name(b))
        bonus.add(b)
    count = max(win.flowers, len(win.flower_tiles)) + len(hand.bonus)
    if count > 8:
        raise NotationError("too_many_flowers")
    seats = pay.seats_for(players)
    if win.seat not in seats:
        raise NotationError(
            "red_seat_not_at_table", players=players, seats=", ".join(seats), seat=win.seat
        )
    rc = RedContext(win, players, count, false_win, options)
    _check_hand(hand, rc)
    return rc


def _check_hand(hand: Hand, c: RedContext) -> None:
    jokers = sum(1 for t in hand.concealed_with_win if t == JOKER)
    for m in hand.melds:
        if m.is_kong:
            raise NotationError("red_no_kongs")
        if m.jokers:
            # a Hand built in code: the rules the parser checks for a meld with a joker
            if not m.natural_tiles:
                raise NotationError("meld_of_jokers")
            if m.kind == "chow" and m.claimed and m.jokers >> (m.claimed - 1) & 1:
                raise NotationError("joker_discard_claimed")
            jokers += m.joker_count
    if jokers and not c.options.get("jokers"):
        raise NotationError("jokers_need_option")
    if jokers > 4:
        raise NotationError("too_many_jokers")
    if hand.win_tile == JOKER and not c.win.self_drawn:
        raise NotationError("joker_discard_claimed")
    w = c.win
    if (
        not w.self_drawn
        and w.claimed_from is not None
        and w.claimed_from not in pay.opponents(c.players, w.seat)
    ):
        raise NotationError(
            "nobody_sits_there", players=c.players, direction=w.claimed_from, seat=w.seat
        )


# --- fans -------------------------------------------------------------------------------------


def _name(group: Group) -> str:
    kind, t = group
    if kind == "chow":
        return format_tiles([t, t + 1, t + 2])
    if kind == "pung":
        return format_tiles([t] * 3)
    return format_tiles([t] * 2)


def _group_tiles(group: Group) -> list[int]:
    kind, t = group
    if kind == "chow":
        return [t, t + 1, t + 2]
    return [t] * (3 if kind == "pung" else 2)


def _pairs_of(items: Sequence[Group], test: object) -> list[tuple[Group, Group]]:
    return [(a, b) for a, b in combinations(items, 2) if test(a, b)]  # type: ignore[operator]


def standard_fans(groups: tuple[Group, ...]) -> list[FanHit]:
    sets = [g for g in groups if g[0] != "pair"]
    pair = next(g for g in groups if g[0] == "pair")
    chows = [g for g in sets if g[0] == "chow"]
    pungs = [g for g in sets if g[0] == "pung"]
    tiles = [t for g in groups for t in _group_tiles(g)]
    out: list[FanHit] = []

    def add(fan_id: str, found: Sequence[Sequence[Group]]) -> None:
        if found:
            names = tuple("+".join(_name(g) for g in item) for item in found)
            out.append(FanHit(fan_id, FANS_BY_ID[fan_id].points, len(found), names))

    if len(chows) == 4:
        add("2", [chows])
    add("3", _pairs_of(chows, lambda a, b: a[1] % 9 == b[1] % 9 and a[1] // 9 != b[1] // 9))
    suited_pungs = [g for g in pungs if g[1] < 27]
    add("4", _pairs_of(suited_pungs, lambda a, b: a[1] % 9 == b[1] % 9 and a[1] != b[1]))
    add("5", [
        (a, b) for a in chows for b in chows if a[1] % 9 == 0 and b[1] == a[1] + 6
    ])
    add("6", [(g,) for g in pungs if g[1] >= 27])
    if pair[1] < 27 and pair[1] % 9 + 1 in (2, 5, 8):
        add("7", [(pair,)])
    if len(pungs) == 4:
        add("8", [pungs])
    add("9", _pairs_of(chows, lambda a, b: a[1] == b[1]))
    add("10", [
        (a, b, d)
        for a in chows
        for b in chows
        for d in chows
        if a[1] % 9 == 0 and b[1] == a[1] + 3 and d[1] == a[1] + 6
    ])
    suits = {t // 9 for t in tiles if t < 27}
    honours = any(t >= 27 for t in tiles)
    if len(suits) == 1 and honours:
        add("12", [groups])
    types = sorted(_type_of(g[1]) for g in groups)
    if types == [0, 1, 2, 3, 4]:
        add("13", [groups])
    if not honours and all(t % 9 + 1 <= 5 for t in tiles):
        add("14", [groups])
    if not honours and all(t % 9 + 1 >= 5 for t in tiles):
        add("15", [groups])
    character_pungs = [g for g in pungs if g[1] < 9]
    red = [g for g in pungs if g[1] == RED]
    if len(character_pungs) == 3 and red:
        add("16", [(*character_pungs, *red)])
    dragon_pungs = [g for g in pungs if g[1] in DRAGONS]
    if len(dragon_pungs) == 3:
        add("17", [dragon_pungs])
    if len(suits) == 1 and not honours:
        add("18", [groups])
    return out


def _type_of(tile: int) -> int:
    """0-2 suits, 3 winds, 4 dragons."""
    if tile < 27:
        return tile // 9
    return 4 if tile in DRAGONS else 3


# --- evaluation -------------------------------------------------------------------------------


def _order(hits: list[FanHit]) -> tuple[FanHit, ...]:
    order = {f: i for i, f in enumerate(FANS_BY_ID)}
    return tuple(sorted(hits, key=lambda h: order[h.id]))


def evaluate(hand: Hand, c: RedContext) -> RedResult:
    naturals = [0] * NUM_KINDS
    jokers = 0
    for t in hand.concealed_with_win:
        if t == JOKER:
            jokers += 1
        else:
            naturals[t] += 1
    # a joker in a meld takes the meld's tile (L532-535); only its natural tiles are copies
    fixed: list[Group] = [(m.kind, m.tile) for m in hand.melds]
    exposed = [0] * NUM_KINDS
    for m in hand.melds:
        for t in m.natural_tiles:
            exposed[t] += 1
    candidates: list[tuple[str, list[FanHit], tuple[Group, ...]]] = []
    for split in sorted(standard_splits(tuple(naturals), jokers, 4 - len(hand.melds))):
        if _too_many_copies(split, exposed):
            continue
        groups = tuple(sorted((*fixed, *split)))
        candidates.append(("standard", standard_fans(groups), groups))
    if not hand.melds:
        chaotic = chaotic_completion(tuple(naturals), jokers)
        if chaotic is not None:
            value = CHAOTIC_HAND_REDUCED if c.options.get("chaotic_hand_3") else 12
            hit = FanHit("11", value, 1, (format_tiles(list(chaotic)),))
            candidates.append(("chaotic_hand", [hit], ()))
    if not candidates:
        raise NotationError("no_red_hand")
    flowers = [FanHit("1", 3, c.bonus_count)] if c.bonus_count else []
    best: tuple[tuple[int, int], str, tuple[FanHit, ...], tuple[Group, ...]] | None = None
    for form, hits, groups in candidates:
        found = hits + flowers
        raw = sum(h.value for h in found)
        key = (cap_points(raw), raw)
        if best is None or key > best[0]:
            best = (key, form, _order(found), groups)
    assert best is not None
    (total, raw), form, fans, groups = best
    shortfall = None
    minimum = c.options.get("min_points", 0)
    inner = sum(h.value for h in fans if not FANS_BY_ID[h.id].external)
    if minimum and inner < int(minimum):
        shortfall = ScoreError.of("points_below_house_minimum", points=inner, minimum=minimum)
    payments = None if shortfall else _payments(total, c)
    return RedResult(hand, fans, raw, total, payments, form, groups, shortfall)


def _too_many_copies(groups: tuple[Group, ...], exposed: list[int]) -> bool:
    """A joker in the concealed part may not stand for a fifth copy of a tile.

    ``exposed`` counts the natural tiles of the melds (a meld's joker is not a copy)."""
    seen = exposed[:]
    for g in groups:
        for t in _group_tiles(g):
            seen[t] += 1
            if seen[t] > 4:
                return True
    return False


def _payments(points: int, c: RedContext) -> dict[str, int] | None:
    w = c.win
    if c.false_win:
        return pay.false_win_penalty(c.players, w.seat)
    discarder = w.claimed_from
    if not w.self_drawn and discarder is None:
        if c.players != 2:
            return None
        discarder = "opposite"
    return pay.payments(
        points, players=c.players, seat=w.seat, self_drawn=w.self_drawn, discarder=discarder
    )


def score_red(
    hand: str | Hand, *, raise_shortfall: bool = True, **context: object
) -> RedResult:
    """Parse (if needed) and score one hand under Red Mahjong rules."""
    parsed = parse_hand(hand, allow_joker=True) if isinstance(hand, str) else hand
    c = build_context(parsed, context)
    result = evaluate(parsed, c)
    if result.shortfall and raise_shortfall:
        raise NotationError(result.shortfall.reason, None, **result.shortfall.params)
    return result


__all__ = ["FanHit", "RedContext", "RedResult", "build_context", "evaluate", "score_red"]

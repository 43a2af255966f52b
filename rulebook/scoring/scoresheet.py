"""The score sheet of one table in one session (Appendix 5): hands -> game points.

Each line is a win, a draw or a transferred penalty. A win names the winner's seat and the
discarder's (``None``: self-drawn) and gives the hand's value as basic points, as a list of
fan ids, or as tiles in the calculator's notation with the win conditions; several may be
given and must then agree. Hands with tiles are rescored by :func:`rulebook.scoring.score`;
fan lists are summed through the ruleset's fan table; the MCR 8-point minimum (3.9.1.1,
flowers not counted) is checked; the payments are the ruleset's own (MCR 3.9.1.3,
:mod:`rulebook.scoring.payments`; HKOS and Red in their ``payments`` modules).

A transferred penalty (the EMA's practice) takes ``points`` from the offender and gives a
third to each of the three others, so it moves game points like a hand does. Penalties only
deducted (3.11.2) are not lines of the sheet: they are the seat's ``penalty``.

Seats are indices 0-3 in wind order E, S, W, N; the player on a seat's right plays next
(East's right is South), so relative to seat ``w``: right ``w+1``, opposite ``w+2``,
left ``w+3``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .entry import resolve_fan_id, score, score_mcr
from .errors import E_AMBIGUOUS_FAN, E_NOT_ENOUGH_POINTS, NotationError
from .hkos import payments as hkos_payments
from .hkos.table import FANS_BY_ID as HKOS_FANS
from .hkos.table import LIMIT as HKOS_LIMIT
from .hkos.table import doublings_to_points
from .mcr.config import DEFAULT_CONFIG, MCRConfig
from .mcr.table import FANS as MCR_FANS
from .payments import hand_payments
from .red import payments as red_payments
from .red.table import FANS_BY_ID as RED_FANS
from .red.table import cap_points
from .standings import WINDS, Problem

RELATIVE: tuple[str, ...] = ("self", "right", "opposite", "left")  # seat + 0, 1, 2, 3

E_BAD_SEAT = "bad_seat"  # winner / discarder / offender is not a seat of the table
E_SELF_DISCARD = "self_discard"  # the winner cannot be the discarder
E_NO_VALUE = "no_value"  # a win needs points, fans or tiles
E_UNKNOWN_FAN = "unknown_fan"
E_POINTS_DISAGREE = "points_disagree"  # stated points differ from the fans or the tiles
E_CONTEXT_DISAGREE = "context_disagree"  # win conditions contradict winner / discarder
E_PENALTY_POINTS = "penalty_points"  # a transferred penalty: positive, a multiple of 3
E_GAME_POINTS_DISAGREE = "game_points_disagree"  # stated seat totals differ from the hands
E_BAD_RULES = "bad_rules"


@dataclass(frozen=True, slots=True)
class Win:
    winner: int
    discarder: int | None  # None: self-drawn
    points: int | None = None
    fans: tuple[str, ...] | None = None
    tiles: str | None = None
    context: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Draw:
    pass


@dataclass(frozen=True, slots=True)
class PenaltyTransfer:
    offender: int
    points: int


Line = Win | Draw | PenaltyTransfer


@dataclass(frozen=True, slots=True)
class LineResult:
    deltas: tuple[int, int, int, int]
    points: int | None = None  # the hand's value (basic points) when a win
    fans: tuple[str, ...] = ()  # fan ids counted (from the list or the rescored tiles)


@dataclass(frozen=True, slots=True)
class SheetResult:
    game_points: tuple[int, int, int, int]
    lines: tuple[LineResult | None, ...]  # None where the line has a problem
    problems: tuple[Problem, ...]

    @property
    def ok(self) -> bool:
        return not self.problems


def _problem(code: str, message: str, hand: int, fld: str, **params: Any) -> Problem:
    return Problem(code, message, hand=hand, field=fld, params=params)


def _fan_points(
    rules: str, fans: Sequence[str], config: MCRConfig, hand: int
) -> tuple[int, int, tuple[str, ...]] | Problem:
    """(value, value without flowers, normalised ids) of a fan list, or the problem."""
    ids: list[str] = []
    for raw in fans:
        try:
            fid = resolve_fan_id(str(raw)) if rules == "mcr" else str(raw).strip()
        except NotationError as err:
            return _problem(E_AMBIGUOUS_FAN, err.message, hand, "fans", fan=str(raw))
        ids.append(fid)
    if rules == "mcr":
        total = inner = 0
        for fid in ids:
            fan = MCR_FANS.get(fid)
            if fan is None:
                return _problem(E_UNKNOWN_FAN, f"unknown fan {fid!r}", hand, "fans", fan=fid)
            value = fan.points
            if fid == "57B":
                value = config.fan_57b_points
            elif fid == "48":
                value = config.fan_48_points
            total += value
            if fid != "81":
                inner += value
        return total, inner, tuple(ids)
    if rules == "hkos":
        doublings = 0
        for fid in ids:
            hk = HKOS_FANS.get(fid)
            if hk is None:
                return _problem(E_UNKNOWN_FAN, f"unknown fan {fid!r}", hand, "fans", fan=fid)
            doublings += HKOS_LIMIT if hk.limit else hk.doublings
        value = doublings_to_points(doublings)
        return value, value, tuple(ids)
    points = 0
    for fid in ids:
        red = RED_FANS.get(fid)
        if red is None:
            return _problem(E_UNKNOWN_FAN, f"unknown fan {fid!r}", hand, "fans", fan=fid)
        points += red.points
    value = cap_points(points)
    return value, value, tuple(ids)


def _payments(rules: str, points: int, winner: int, discarder: int | None) -> dict[int, int]:
    """Seat index -> points won (+) or paid (-) for a win worth ``points``."""
    relative = None if discarder is None else RELATIVE[(discarder - winner) % 4]
    if rules == "mcr":
        by_name = hand_payments(points, self_drawn=discarder is None, discarder=relative)  # type: ignore[arg-type]
        assert by_name is not None
    elif rules == "hkos":
        by_name = hkos_payments.payments(points, self_drawn=discarder is None, discarder=relative)
    else:
        by_name = red_payments.payments(
            points, players=4, seat=WINDS[winner], self_drawn=discarder is None,
            discarder=relative,
        )
    return {(winner + RELATIVE.index(name)) % 4: value for name, value in by_name.items()}


def _score_win(
    line: Win, rules: str, config: MCRConfig, hand: int
) -> LineResult | Problem:
    for name, seat in (("winner", line.winner), ("from", line.discarder)):
        if seat is not None and seat not in range(4):
            return _problem(E_BAD_SEAT, f"{name} does not sit at this table", hand, name)
    if line.discarder == line.winner:
        return _problem(E_SELF_DISCARD, "the winner cannot be the discarder", hand, "from")
    if line.points is None and line.fans is None and line.tiles is None:
        return _problem(E_NO_VALUE, "a win needs its points, fans or tiles", hand, "points")
    if line.points is not None and line.points < 0:
        return _problem(E_NO_VALUE, "points cannot be negative", hand, "points")
    value: int | None = line.points
    counted: tuple[str, ...] = ()
    if line.fans is not None:
        fan_value = _fan_points(rules, line.fans, config, hand)
        if isinstance(fan_value, Problem):
            return fan_value
        total, inner, counted = fan_value
        if rules == "mcr" and inner < config.minimum_points:
            return _problem(
                E_NOT_ENOUGH_POINTS,
                f"{inner} points without flowers; a win needs {config.minimum_points}",
                hand, "fans", points=inner, minimum=config.minimum_points)
        if value is not None and value != total:
            return _problem(
                E_POINTS_DISAGREE, f"the fans make {total} points, not {value}",
                hand, "points", stated=value, computed=total)
        value = total
    if line.tiles is not None:
        self_drawn = line.discarder is None
        context = dict(line.context)
        given_self = context.get("self_drawn")
        if given_self is not None and bool(given_self) != self_drawn:
            return _problem(
                E_CONTEXT_DISAGREE,
                "self_drawn contradicts the discarder of the line", hand, "context")
        context["self_drawn"] = self_drawn
        relative = None if self_drawn else RELATIVE[(line.discarder - line.winner) % 4]  # type: ignore[operator]
        given_from = context.pop("from", context.pop("claimed_from", None))
        if given_from is not None and given_from != relative:
            return _problem(
                E_CONTEXT_DISAGREE, "from contradicts the discarder of the line", hand,
                "context")
        if relative is not None:
            context["from"] = relative
        if rules == "mcr" and config is not DEFAULT_CONFIG:
            result = score_mcr(line.tiles, config=config, **context)
        else:
            result = score(line.tiles, rules=rules, **context)
        if not result.ok:
            err = result.error
            assert err is not None
            fld = "tiles" if err.code != "bad_context" else "context"
            return _problem(err.code, err.message, hand, fld, position=err.position)
        if value is not None and value != result.total:
            what = "fans" if line.fans is not None and line.points is None else "points"
            return _problem(
                E_POINTS_DISAGREE, f"the tiles score {result.total} points, not {value}",
                hand, what, stated=value, computed=result.total)
        value = result.total
        counted = tuple(f.id for f in result.fans for _ in range(f.count))
    assert value is not None
    if rules == "mcr" and line.fans is None and line.tiles is None \
            and value < config.minimum_points:
        return _problem(
            E_NOT_ENOUGH_POINTS, f"{value} points; a win needs {config.minimum_points}",
            hand, "points", points=value, minimum=config.minimum_points)
    pays = _payments(rules, value, line.winner, line.discarder)
    deltas = (pays.get(0, 0), pays.get(1, 0), pays.get(2, 0), pays.get(3, 0))
    return LineResult(deltas, value, counted)


def score_line(
    line: Line, *, rules: str = "mcr", config: MCRConfig = DEFAULT_CONFIG, hand: int = 1
) -> LineResult | Problem:
    """What one line of the sheet moves, or the problem with it (``hand``: its number)."""
    if isinstance(line, Draw):
        return LineResult((0, 0, 0, 0))
    if isinstance(line, PenaltyTransfer):
        if line.offender not in range(4):
            return _problem(E_BAD_SEAT, "the offender does not sit at this table", hand,
                            "penalty")
        if line.points <= 0 or line.points % 3:
            return _problem(
                E_PENALTY_POINTS,
                "a transferred penalty is a positive number of points divisible by 3",
                hand, "points", points=line.points)
        share = line.points // 3
        deltas = [share] * 4
        deltas[line.offender] = -line.points
        return LineResult((deltas[0], deltas[1], deltas[2], deltas[3]), line.points)
    if rules not in ("mcr", "hkos", "red"):
        return _problem(E_BAD_RULES, f"unknown rules {rules!r}", hand, "rules")
    return _score_win(line, rules, config, hand)


def score_sheet(
    lines: Sequence[Line],
    *,
    rules: str = "mcr",
    config: MCRConfig = DEFAULT_CONFIG,
    stated: Sequence[int | None] | None = None,
) -> SheetResult:
    """Score every line; sum the session's game points per seat; compare with the seats'
    ``stated`` game points where given. Every problem is reported, not only the first."""
    totals = [0, 0, 0, 0]
    results: list[LineResult | None] = []
    problems: list[Problem] = []
    for number, line in enumerate(lines, start=1):
        outcome = score_line(line, rules=rules, config=config, hand=number)
        if isinstance(outcome, Problem):
            problems.append(outcome)
            results.append(None)
            continue
        results.append(outcome)
        for i in range(4):
            totals[i] += outcome.deltas[i]
    if stated is not None and not problems:
        for i, given in enumerate(stated):
            if given is not None and given != totals[i]:
                problems.append(Problem(
                    E_GAME_POINTS_DISAGREE,
                    f"the hands give {totals[i]} game points, not {given}",
                    seat=WINDS[i], field="game_points",
                    params={"stated": given, "computed": totals[i]}))
    return SheetResult((totals[0], totals[1], totals[2], totals[3]), tuple(results),
                       tuple(problems))


__all__ = [
    "Draw", "Line", "LineResult", "PenaltyTransfer", "SheetResult", "Win", "score_line",
    "score_sheet",
]

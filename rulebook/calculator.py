"""The calculator's question and answer: no Django, no translation (the edge does those).

A :class:`Question` is what the page's URL (and the API's JSON) asks: the rules, the hand
in the core's notation, the win context under the core's key names and the options
(``NAME`` or ``NAME=VALUE`` strings, as ``--option`` on the command line). Its
:meth:`Question.query` is the canonical query string, so the same question always has the
same shareable URL. :func:`answer` asks the scoring core (``rulebook.scoring.score``, the
one implementation of the rules) and, for a hand of thirteen tiles, scores each wait.

The rulesets are the registry's (``rulebook.rulesets``), which names them in the reader's
language and so imports Django's translation: this module stays pure and keeps its tables
per ruleset, and ``tests/rulebook/test_rulesets.py`` holds them equal to the registry.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from rulebook.scoring import score
from rulebook.scoring.errors import E_NOT_ENOUGH_POINTS, E_WRONG_TILE_COUNT, NotationError
from rulebook.scoring.hand import parse_hand, parse_waiting
from rulebook.scoring.hkos.evaluate import EXTRA_FLAGS as HKOS_FLAGS
from rulebook.scoring.hkos.evaluate import FLAG_OPTIONS as HKOS_FLAG_OPTIONS
from rulebook.scoring.hkos.evaluate import VALUE_OPTIONS as HKOS_VALUE_OPTIONS
from rulebook.scoring.mcr.options import OPTIONS as MCR_OPTIONS
from rulebook.scoring.red.evaluate import FLAG_OPTIONS as RED_FLAG_OPTIONS
from rulebook.scoring.red.evaluate import VALUE_OPTIONS as RED_VALUE_OPTIONS
from rulebook.scoring.result import ScoreError, ScoreResult
from rulebook.scoring.tiles import NUM_KINDS, tile_name

DEFAULT_RULES = "mcr"  # the registry's DEFAULT_CODE
DIRECTIONS = ("left", "opposite", "right")
MAX_HAND_LENGTH = 120  # the longest sensible notation is about 60 characters

#: Win conditions (yes/no context keys) that each ruleset takes, in the page's order.
SHARED_FLAGS = ("last_of_kind", "last_tile", "kong_replacement", "robbing_kong")
FLAGS: dict[str, tuple[str, ...]] = {
    "mcr": SHARED_FLAGS,
    "hkos": (*SHARED_FLAGS, *HKOS_FLAGS),
    # Red Mahjong has no kongs (so no kong replacement, no robbing)
    "red": ("last_of_kind", "last_tile", "false_win"),
}
#: The rulesets the calculator scores: those it has tables for, in the registry's order.
RULES = tuple(FLAGS)
ALL_FLAGS = tuple(dict.fromkeys(f for flags in FLAGS.values() for f in flags))
PLAYERS: dict[str, tuple[int, ...]] = {"mcr": (4,), "hkos": (4,), "red": (4, 3, 2)}


@dataclass(frozen=True, slots=True)
class OptionChoice:
    """One option as the page offers it: a yes/no switch or a choice of numbers."""

    name: str
    values: tuple[int, ...] | None  # None: yes/no
    default: int | bool


def _choices(flags: Iterable[str], values: Mapping[str, tuple[int, ...]],
             defaults: Mapping[str, int]) -> tuple[OptionChoice, ...]:
    out = [OptionChoice(name, None, False) for name in sorted(flags)]
    out += [OptionChoice(name, vals, defaults.get(name, 0)) for name, vals in values.items()]
    return tuple(out)


def _fan_option_key(choice: OptionChoice) -> tuple[int, str]:
    # HKOS: "additional" first, then fan31..fan38 in order, then the other switches
    name = choice.name
    if name == "additional":
        return (0, name)
    if name.startswith("fan") and name[3:].isdigit():
        return (1, f"{int(name[3:]):03d}")
    return (2, name)


OPTIONS: dict[str, tuple[OptionChoice, ...]] = {
    "mcr": tuple(
        OptionChoice(
            o.name, o.values,
            {"fan_57b_points": 6, "fan_48_points": 8, "minimum_points": 8}.get(o.name, False),
        )
        for o in MCR_OPTIONS
    ),
    "hkos": tuple(sorted(
        _choices(HKOS_FLAG_OPTIONS, {n: tuple(range(11)) for n in HKOS_VALUE_OPTIONS}, {}),
        key=_fan_option_key,
    )),
    "red": _choices(RED_FLAG_OPTIONS, {n: tuple(range(0, 61)) for n in RED_VALUE_OPTIONS}, {}),
}


def _true(value: str | None) -> bool:
    return value is not None and value.strip().lower() in ("1", "true", "yes", "on")


@dataclass(frozen=True, slots=True)
class Question:
    rules: str = DEFAULT_RULES
    hand: str = ""
    context: Mapping[str, Any] = field(default_factory=dict)
    options: tuple[str, ...] = ()

    def score_kwargs(self) -> dict[str, Any]:
        """Keyword arguments of ``score()`` besides the hand."""
        kwargs: dict[str, Any] = {"rules": self.rules, **self.context}
        if self.options:
            kwargs["options"] = list(self.options)
        return kwargs

    def query(self) -> str:
        """The canonical query string (without "?"): defaults left out, fixed order."""
        params: list[tuple[str, str]] = [("rules", self.rules)]
        if self.hand:
            params.append(("hand", self.hand))
        ctx = self.context
        if ctx.get("self_drawn") is True:
            params.append(("self_drawn", "1"))
        if "from" in ctx:
            params.append(("from", str(ctx["from"])))
        for key in ("seat", "prevalent"):
            if key in ctx and ctx[key] != "E":
                params.append((key, str(ctx[key])))
        flowers = ctx.get("flowers")
        if isinstance(flowers, tuple):
            params.append(("flowers", ",".join(flowers)))
        elif flowers:
            params.append(("flowers", str(flowers)))
        if "players" in ctx and ctx["players"] != 4:
            params.append(("players", str(ctx["players"])))
        if "liable" in ctx:
            params.append(("liable", str(ctx["liable"])))
        for key in ALL_FLAGS:
            if ctx.get(key) is True:
                params.append((key, "1"))
        params += [("option", o) for o in self.options]
        return urlencode(params)

    def with_hand(self, hand: str) -> Question:
        return Question(self.rules, hand, self.context, self.options)


def question_from_query(params: Mapping[str, Any]) -> Question:
    """The question a calculator URL asks (a QueryDict or a plain dict of strings).

    Values are taken as given: a bad one (``seat=X``) reaches the core, whose error the
    page then shows. The page's own form writes the win as ``win`` (``self``, ``left``,
    ``opposite``, ``right``) and options as ``option``; both end up as the core's keys.
    """
    getlist = getattr(params, "getlist", None)

    def get(key: str) -> str | None:
        value = params.get(key)
        if isinstance(value, list):
            value = value[-1] if value else None
        return None if value is None else str(value)

    def get_all(key: str) -> list[str]:
        if getlist is not None:
            return [str(v) for v in getlist(key)]
        value = params.get(key)
        if value is None:
            return []
        return [str(v) for v in value] if isinstance(value, list) else [str(value)]

    rules = (get("rules") or DEFAULT_RULES).strip().lower()
    hand = "".join((get("hand") or "").split())[:MAX_HAND_LENGTH]
    ctx: dict[str, Any] = {}
    win = (get("win") or "").strip().lower()
    if _true(get("self_drawn")) or win == "self":
        ctx["self_drawn"] = True
    direction = (get("from") or "").strip().lower() or (win if win in DIRECTIONS else "")
    if direction:
        ctx["from"] = direction
    for key in ("seat", "prevalent"):
        value = (get(key) or "").strip().upper()
        if value and value != "E":  # East is the core's default
            ctx[key] = value
    flowers = (get("flowers") or "").strip()
    if flowers.isdigit():
        if int(flowers):
            ctx["flowers"] = int(flowers)
    elif flowers:
        ctx["flowers"] = tuple(p.strip() for p in flowers.split(",") if p.strip())
    # the keys of other rulesets are left out (a URL switched from HKOS to MCR still works)
    players = (get("players") or "").strip()
    if players and rules not in ("mcr", "hkos"):
        ctx["players"] = int(players) if players.isdigit() else players
    liable = (get("liable") or "").strip().lower()
    if liable and rules not in ("mcr", "red"):
        ctx["liable"] = liable
    for key in FLAGS.get(rules, ALL_FLAGS):
        if _true(get(key)):
            ctx[key] = True
    options = tuple(dict.fromkeys(o.strip() for o in get_all("option") if o.strip()))
    return Question(rules, hand, ctx, options)


@dataclass(frozen=True, slots=True)
class WaitScore:
    tile: str  # the core's tile token, e.g. "5s"
    result: ScoreResult


@dataclass(frozen=True, slots=True)
class Answer:
    question: Question
    result: ScoreResult | None = None  # the scored hand of fourteen (or its error)
    waits: tuple[WaitScore, ...] | None = None  # a hand of thirteen: each wait scored
    error: ScoreError | None = None  # a hand of thirteen that cannot be read

    @property
    def is_waiting(self) -> bool:
        return self.waits is not None


def _is_waiting_hand(q: Question) -> bool:
    """Whether the hand is thirteen tiles waiting for a fourteenth."""
    allow_joker = q.rules == "red"
    try:
        parse_hand(q.hand, allow_joker=allow_joker)
    except NotationError as err:
        if err.code != E_WRONG_TILE_COUNT:
            return False
        try:
            parse_waiting(q.hand, allow_joker=allow_joker)
        except NotationError:
            return False
        return True
    return False


def _wait_tiles(q: Question) -> tuple[list[str], ScoreError | None]:
    if q.rules == "mcr":
        kwargs = q.score_kwargs()
        kwargs.pop("rules")
        # the win context does not change the waits, only the options do
        shape = score(q.hand, rules="mcr", waits=True,
                      **({"options": kwargs["options"]} if "options" in kwargs else {}))
        if shape.error is not None:
            return [], shape.error
        return list(shape.waits or ()), None
    # HKOS and Red: the tiles that make a complete hand under their own forms
    found: list[str] = []
    first_error: ScoreError | None = None
    for tile in range(NUM_KINDS):
        name = tile_name(tile)
        result = score(q.hand + name, **q.score_kwargs())
        if result.ok or (result.error is not None and result.error.code == E_NOT_ENOUGH_POINTS):
            found.append(name)
        elif result.error is not None and result.error.code not in (
            "not_winning", "too_many_copies"
        ) and first_error is None:
            first_error = result.error
    if not found and first_error is not None:
        return [], first_error
    return found, None


def answer(q: Question) -> Answer:
    """Score the question's hand, or each wait of a hand of thirteen."""
    if not q.hand:
        return Answer(q)
    if q.rules in RULES and _is_waiting_hand(q):
        tiles, error = _wait_tiles(q)
        if error is not None:
            return Answer(q, error=error, waits=())
        kwargs = q.score_kwargs()
        return Answer(q, waits=tuple(
            WaitScore(tile, score(q.hand + tile, **kwargs)) for tile in tiles
        ))
    return Answer(q, result=score(q.hand, **q.score_kwargs()))


__all__ = [
    "FLAGS", "OPTIONS", "PLAYERS", "RULES", "Answer", "OptionChoice", "Question", "WaitScore",
    "answer", "question_from_query",
]

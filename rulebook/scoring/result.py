"""The result of scoring a hand: frozen dataclasses whose fields match the JSON output."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Protocol, TypeVar

from .tiles import E_NOT_ENOUGH_POINTS, NotationError


@dataclass(frozen=True, slots=True)
class FanScore:
    id: str
    points: int  # points of one occurrence
    count: int
    sets: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "points": self.points, "count": self.count,
                "sets": list(self.sets)}


@dataclass(frozen=True, slots=True)
class FanHit:
    """A fan found by the HKOS or Red evaluator before the result is assembled."""

    id: str
    points: int  # value of one occurrence (HKOS: doublings, Red: points)
    count: int = 1
    sets: tuple[str, ...] = ()

    @property
    def value(self) -> int:
        return self.points * self.count


@dataclass(frozen=True, slots=True)
class ExcludedFan:
    id: str
    by: str  # the counted fan that excluded it, or the principle ("3.9.1.5")

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "by": self.by}


@dataclass(frozen=True, slots=True)
class ScoreError:
    code: str
    message: str
    position: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "position": self.position}


@dataclass(frozen=True, slots=True)
class ScoreResult:
    hand: str
    rules: str
    ok: bool
    total: int
    fans: tuple[FanScore, ...] = ()
    excluded: tuple[ExcludedFan, ...] = ()
    payments: Mapping[str, int] | None = None
    error: ScoreError | None = None
    waits: tuple[str, ...] | None = None  # only when asked for

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "hand": self.hand,
            "rules": self.rules,
            "ok": self.ok,
            "total": self.total,
            "fans": [f.to_dict() for f in self.fans],
            "excluded": [e.to_dict() for e in self.excluded],
            "payments": dict(self.payments) if self.payments is not None else None,
            "error": self.error.to_dict() if self.error else None,
        }
        if self.waits is not None:
            out["waits"] = list(self.waits)
        return out


@cache
def not_enough_points(points: int, minimum: int) -> ScoreError:
    """The error of a win below the minimum (one shared object per value: it is frozen)."""
    return ScoreError(
        E_NOT_ENOUGH_POINTS, f"{points} points without flowers; a win needs {minimum}", None
    )


class RulesetScore(Protocol):
    """What the HKOS and Red evaluators return (``score_hkos``, ``score_red``)."""

    @property
    def fans(self) -> tuple[FanHit, ...]: ...
    @property
    def total(self) -> int: ...
    @property
    def payments(self) -> dict[str, int] | None: ...
    @property
    def shortfall(self) -> str | None: ...


S = TypeVar("S", bound=RulesetScore)


def ruleset_result(
    text: str,
    rules: str,
    evaluate: Callable[[], S],
    result_class: type[ScoreResult] = ScoreResult,
    extra: Callable[[S], dict[str, Any]] = lambda _: {},
) -> ScoreResult:
    """The shared result of a ruleset's evaluation (``evaluate()``, which may raise a
    :class:`NotationError`): an error result, a hand under the house minimum, or a win;
    ``extra`` adds the ruleset's own result fields."""
    try:
        r = evaluate()
    except NotationError as err:
        return result_class(
            hand=text, rules=rules, ok=False, total=0,
            error=ScoreError(err.code, err.message, err.position),
        )
    fans = tuple(FanScore(f.id, f.points, f.count, f.sets) for f in r.fans)
    error = ScoreError(E_NOT_ENOUGH_POINTS, r.shortfall, None) if r.shortfall else None
    return result_class(
        hand=text, rules=rules, ok=error is None, total=r.total, fans=fans,
        payments=r.payments, error=error, **extra(r),
    )


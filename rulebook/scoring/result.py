"""The result of scoring a hand: frozen dataclasses whose fields match the JSON output."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Protocol, TypeVar

from .errors import NotationError, code_and_message


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
    """The error of a result, as :class:`~.errors.NotationError` describes it: ``code``
    (the kind), ``message`` (English, for developers), ``position`` (a character offset in
    the hand, or ``None``), and the ``reason`` with its ``params`` by which the site words
    it. The JSON (:meth:`to_dict`, the command line's and the API's) has the first three."""

    code: str
    message: str
    position: int | None
    reason: str
    params: Mapping[str, object] = field(hash=False)

    @classmethod
    def of(cls, reason: str, position: int | None = None, **params: object) -> ScoreError:
        """The error of ``reason`` (one of :data:`~.errors.REASONS`) with ``params``."""
        code, message = code_and_message(reason, params)
        return cls(code, message, position, reason, params)

    @classmethod
    def raised(cls, err: NotationError) -> ScoreError:
        """The error of a result that the core raised as ``err``."""
        return cls(err.code, err.message, err.position, err.reason, err.params)

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
    return ScoreError.of("points_below_minimum", points=points, minimum=minimum)


class RulesetScore(Protocol):
    """What the HKOS and Red evaluators return (``score_hkos``, ``score_red``)."""

    @property
    def fans(self) -> tuple[FanHit, ...]: ...
    @property
    def total(self) -> int: ...
    @property
    def payments(self) -> dict[str, int] | None: ...
    @property
    def shortfall(self) -> ScoreError | None: ...


S = TypeVar("S", bound=RulesetScore)


def ruleset_result(
    text: str,
    rules: str,
    evaluate: Callable[[], S],
    result_class: type[ScoreResult] = ScoreResult,
    extra: Callable[[S], dict[str, Any]] = lambda _: {},
) -> ScoreResult:
    """The shared result of a ruleset's evaluation (``evaluate()``, which may raise a
    :class:`NotationError`): an error result, a hand under the house minimum (the
    evaluation's ``shortfall``), or a win;
    ``extra`` adds the ruleset's own result fields."""
    try:
        r = evaluate()
    except NotationError as err:
        return result_class(
            hand=text, rules=rules, ok=False, total=0, error=ScoreError.raised(err),
        )
    fans = tuple(FanScore(f.id, f.points, f.count, f.sets) for f in r.fans)
    error = r.shortfall
    return result_class(
        hand=text, rules=rules, ok=error is None, total=r.total, fans=fans,
        payments=r.payments, error=error, **extra(r),
    )


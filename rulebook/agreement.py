"""PURE: does the scoring core's answer agree with what the book says about a worked example?

The book's fan lists are a lower bound: «Совмещено с …» names the fans worth noting, not
every one-point fan the hand also has. So the core agrees when it counts every fan the book
lists (or the corrected list, where an erratum says the book is wrong), never counts a fan
an erratum struck out, counts a fan at least as often as the book says, and, where the book
gives a total, reaches that total.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Agreement:
    missing: tuple[str, ...] = ()  # fans the book lists that the core did not count
    struck_out: tuple[str, ...] = ()  # fans an erratum removes but the core counted
    too_few: tuple[tuple[str, int, int], ...] = ()  # (fan, counted, at least)
    none_of: tuple[tuple[str, ...], ...] = ()  # groups of which the core counted none
    total: tuple[int, int] | None = None  # (core, book) when they differ
    error: str = ""  # the core refused the hand
    notes: tuple[str, ...] = field(default=())

    @property
    def ok(self) -> bool:
        return not (
            self.missing or self.struck_out or self.too_few or self.none_of or self.total
            or self.error
        )


def compare(
    *,
    counted: Mapping[str, int],
    total: int,
    book_fans: Sequence[str],
    expected_fans: Sequence[str] | None = None,
    conditions: Mapping[str, Any] | None = None,
    context: Mapping[str, Any] | None = None,
    book_total: int | None = None,
    error: str = "",
) -> Agreement:
    """Compare the core's counted fans (id -> count) with the book's expectations."""
    if error:
        return Agreement(error=error)
    conditions = conditions or {}
    context = context or {}
    expected = list(expected_fans) if expected_fans is not None else list(book_fans)
    missing = tuple(fid for fid in expected if fid not in counted)
    struck_out = tuple(fid for fid in book_fans if fid not in expected and fid in counted)
    too_few = tuple(
        (fid, counted.get(fid, 0), int(times))
        for fid, times in (conditions.get("times") or {}).items()
        if fid in expected and counted.get(fid, 0) < int(times)
    )
    none_of = tuple(
        tuple(group)
        for group in conditions.get("one_of") or []
        if not any(fid in counted for fid in group)
    )
    conditional_missing = tuple(
        fid
        for fid, key in (conditions.get("if") or {}).items()
        if context.get(key) and fid not in counted
    )
    total_diff = (total, book_total) if book_total is not None and total != book_total else None
    return Agreement(
        missing=missing + conditional_missing,
        struck_out=struck_out,
        too_few=too_few,
        none_of=none_of,
        total=total_diff,
    )

"""PURE: a table's score sheet as entered at the table (``TableEntry.hands``) -> the
importers' table for :func:`tournaments.rules.results_check.evaluate`, and the running table total after
each line, computed by the scoring core (:func:`rulebook.scoring.scoresheet.score_sheet`).

A line is ``{"kind": "win", "seat": "E", "from": "S" | None, "points": 12}`` (``from``
``None``: self-drawn), ``{"kind": "draw"}`` or ``{"kind": "penalty", "seat": "W",
"points": 30, "reason": "..."}`` (a transferred penalty). Seats are winds. A win entered as
tiles also has ``"tiles"`` (the calculator's notation) and ``"context"`` (the win conditions
under the core's keys: ``seat`` and ``prevalent`` winds, yes/no flags); its ``points`` are
the core's total for them, so the core checks both again each time the sheet is scored.
Every line may carry an ``"id"`` (given by the page that sent it: a retried submit is
recognised and not applied twice).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rulebook.scoring import MCRConfig
from rulebook.scoring.scoresheet import (
    Draw,
    Line,
    LineResult,
    PenaltyTransfer,
    Win,
    score_line,
    score_sheet,
)
from rulebook.scoring.standings import WINDS, Problem

from .rules.results_files import HandEntry, SeatEntry, TableEntry

KINDS = ("win", "draw", "penalty")


@dataclass(frozen=True)
class SheetView:
    """Each line's running totals (E, S, W, N; ``None`` where the line has a problem), the
    table total and the core's problems (``hand`` numbers the lines from 1)."""

    running: tuple[tuple[int, int, int, int] | None, ...]
    totals: tuple[int, int, int, int]
    problems: tuple[Problem, ...]


def _seat(wind: Any) -> int | None:
    return WINDS.index(wind) if wind in WINDS else None


def table_input(table: int, players: Sequence[int], hands: Sequence[Mapping[str, Any]]
                ) -> TableEntry:
    """The importers' table: the four players in wind order and the lines as hands."""
    entries: list[HandEntry] = []
    for hand in hands:
        kind = hand.get("kind")
        winner = _seat(hand.get("seat"))
        discarder = _seat(hand.get("from"))
        if kind == "draw":
            entries.append(HandEntry("draw"))
        else:
            entries.append(HandEntry(
                str(kind), player=players[winner] if winner is not None else None,
                discarder=players[discarder] if discarder is not None else None,
                points=hand.get("points"), tiles=hand.get("tiles") or None,
                context=dict(hand.get("context") or {}),
                reason=str(hand.get("reason") or "")[:300] if kind == "penalty" else "",
            ))
    return TableEntry(table, tuple(SeatEntry(p, None) for p in players), tuple(entries))


def _line(hand: Mapping[str, Any]) -> Line:
    winner = _seat(hand.get("seat"))
    if hand.get("kind") == "penalty":
        return PenaltyTransfer(winner if winner is not None else -1, int(hand.get("points") or 0))
    if hand.get("kind") == "win":
        return Win(winner if winner is not None else -1, _seat(hand.get("from")),
                   points=hand.get("points"), tiles=hand.get("tiles") or None,
                   context=dict(hand.get("context") or {}))
    return Draw()


def sheet_view(hands: Sequence[Mapping[str, Any]], *, rules: str, config: MCRConfig
               ) -> SheetView:
    """The running totals of the lines entered so far, as the core scores them."""
    sheet = score_sheet([_line(h) for h in hands], rules=rules, config=config)
    totals = [0, 0, 0, 0]
    running: list[tuple[int, int, int, int] | None] = []
    for result in sheet.lines:
        if result is None:
            running.append(None)
            continue
        for i in range(4):
            totals[i] += result.deltas[i]
        running.append((totals[0], totals[1], totals[2], totals[3]))
    return SheetView(tuple(running), sheet.game_points, sheet.problems)


def line_score(hand: Mapping[str, Any], *, rules: str, config: MCRConfig, number: int = 1
               ) -> LineResult | Problem:
    """One line as the core scores it (its value, the fans counted, or its problem): what
    the table's page shows while a hand is typed as tiles, and what adding it checks."""
    return score_line(_line(hand), rules=rules, config=config, hand=number)

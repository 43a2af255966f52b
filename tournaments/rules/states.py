"""A tournament's states and the one table of its steps: which step is allowed in which
state, and the state it leads to (docs/decisions/0701-tournament-states.md).

    draft -> submitted -> accredited | rejected -> results submitted -> results confirmed
    (rejected -> submitted again after changes)

Every service checks its step here (``tournaments.services._common.state_require``); a
step refused raises the error ``illegal_transition`` with the state and the step's name,
so the names below are also the ``action`` of that error. The model's choices
(``tournaments.models.Tournament.State``) take their values from the constants below.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

DRAFT = "draft"
SUBMITTED = "submitted"
ACCREDITED = "accredited"
REJECTED = "rejected"
RESULTS_SUBMITTED = "results submitted"
RESULTS_CONFIRMED = "results confirmed"

STATES: tuple[str, ...] = (
    DRAFT, SUBMITTED, ACCREDITED, REJECTED, RESULTS_SUBMITTED, RESULTS_CONFIRMED,
)
"""Every state, in the order of a tournament's life."""

PUBLIC: tuple[str, ...] = (ACCREDITED, RESULTS_SUBMITTED, RESULTS_CONFIRMED)
"""The states in which everybody sees the tournament (the calendar, its pages, the API)."""

RESULTS_OPEN: tuple[str, ...] = (ACCREDITED, RESULTS_SUBMITTED)
"""The states in which results may be posted and the sessions run: the organizer enters
results, the players enter their tables, penalties and late arrivals are given, the clock
runs. Confirming the results closes them."""

BEFORE_CONFIRMATION: tuple[str, ...] = tuple(s for s in STATES if s != RESULTS_CONFIRMED)
"""Every state but results confirmed: organizers plan (players, seating) before they are
accredited, and confirmed results are final."""


@dataclass(frozen=True)
class Step:
    """A step of a tournament: the states it is allowed in, and the state it leads to
    (``None``: the state stays as it is)."""

    allowed_in: tuple[str, ...]
    leads_to: str | None = None


STEPS: Mapping[str, Step] = MappingProxyType({
    # the organizer prepares a draft, or changes a rejected one before submitting it again
    "update": Step((DRAFT, REJECTED)),
    "submit": Step((DRAFT, REJECTED), SUBMITTED),
    # the accreditation officer decides on what was submitted
    "accredit": Step((SUBMITTED,), ACCREDITED),
    "reject": Step((SUBMITTED,), REJECTED),
    # the EMA's certification, recorded at accreditation or later
    "mers": Step((SUBMITTED, *PUBLIC)),
    # players and the seating, planned in every state before confirmation
    "register": Step(BEFORE_CONFIRMATION),
    "seating": Step(BEFORE_CONFIRMATION),
    # players' own entries, while the tournament is accredited (and has not started)
    "enter": Step((ACCREDITED,)),
    # the sessions: results posted (the first one submits the results), the clock,
    # penalties, late arrivals and absences
    "results": Step(RESULTS_OPEN, RESULTS_SUBMITTED),
    "clock": Step(RESULTS_OPEN),
    "penalty": Step(RESULTS_OPEN),
    # the organizer's final word, then only the officer's corrections
    "confirm": Step((RESULTS_SUBMITTED,), RESULTS_CONFIRMED),
    "correct": Step((RESULTS_CONFIRMED,)),
    # the EMA results sheet, of confirmed results only
    "ema-results": Step((RESULTS_CONFIRMED,)),
})
"""The one table of steps: step name -> where it is allowed and where it leads."""


def allows(step: str, state: str) -> bool:
    """Whether ``step`` is allowed in ``state`` (an unknown step is a ``KeyError``: a
    mistake in the code, not in the request)."""
    return state in STEPS[step].allowed_in


def state_after(step: str, state: str) -> str:
    """The state after ``step`` taken in ``state`` (``ValueError`` when not allowed)."""
    rule = STEPS[step]
    if state not in rule.allowed_in:
        raise ValueError(f"{step!r} is not allowed in the state {state!r}")
    return rule.leads_to or state


def accepts_results(state: str) -> bool:
    """Whether results may be posted in ``state`` (accredited or results submitted)."""
    return state in RESULTS_OPEN


def is_public(state: str) -> bool:
    return state in PUBLIC

"""The table of a tournament's steps (tournaments.rules.states): every step is allowed in
its states and in no other, leads where the life of a tournament says, and the model's
choices are the table's states. Pure: no database."""

from __future__ import annotations

import pytest

from tournaments.models import PUBLIC_STATES, Tournament
from tournaments.rules import states
from tournaments.rules.states import (
    ACCREDITED,
    DRAFT,
    REJECTED,
    RESULTS_CONFIRMED,
    RESULTS_SUBMITTED,
    SUBMITTED,
)

# step -> (the states it is allowed in, where it leads; None: the state stays)
EXPECTED = {
    "update": ({DRAFT, REJECTED}, None),
    "submit": ({DRAFT, REJECTED}, SUBMITTED),
    "accredit": ({SUBMITTED}, ACCREDITED),
    "reject": ({SUBMITTED}, REJECTED),
    "mers": ({SUBMITTED, ACCREDITED, RESULTS_SUBMITTED, RESULTS_CONFIRMED}, None),
    "register": ({DRAFT, SUBMITTED, ACCREDITED, REJECTED, RESULTS_SUBMITTED}, None),
    "seating": ({DRAFT, SUBMITTED, ACCREDITED, REJECTED, RESULTS_SUBMITTED}, None),
    "enter": ({ACCREDITED}, None),
    "results": ({ACCREDITED, RESULTS_SUBMITTED}, RESULTS_SUBMITTED),
    "clock": ({ACCREDITED, RESULTS_SUBMITTED}, None),
    "penalty": ({ACCREDITED, RESULTS_SUBMITTED}, None),
    "confirm": ({RESULTS_SUBMITTED}, RESULTS_CONFIRMED),
    "correct": ({RESULTS_CONFIRMED}, None),
    "ema-results": ({RESULTS_CONFIRMED}, None),
    "amend": ({ACCREDITED, RESULTS_SUBMITTED}, None),
    "resubmit": ({ACCREDITED}, SUBMITTED),
    "correct-players": (set(states.STATES), None),
}


def test_the_table_names_every_step_once():
    assert set(states.STEPS) == set(EXPECTED)


@pytest.mark.parametrize("step", sorted(EXPECTED))
@pytest.mark.parametrize("state", states.STATES)
def test_every_step_is_allowed_only_in_its_states(step, state):
    allowed, leads_to = EXPECTED[step]
    assert states.allows(step, state) is (state in allowed)
    if state in allowed:
        assert states.state_after(step, state) == (leads_to or state)
    else:
        with pytest.raises(ValueError, match=step):
            states.state_after(step, state)


def test_a_tournaments_life_through_the_table():
    state = DRAFT
    for step in ("submit", "reject", "update", "submit", "accredit", "results", "results",
                 "confirm", "correct"):
        state = states.state_after(step, state)
    assert state == RESULTS_CONFIRMED


def test_an_unknown_step_is_a_mistake_in_the_code():
    with pytest.raises(KeyError):
        states.allows("publish", DRAFT)


def test_results_are_open_while_accredited_or_submitted():
    assert states.RESULTS_OPEN == (ACCREDITED, RESULTS_SUBMITTED)
    assert [s for s in states.STATES if states.accepts_results(s)] == list(states.RESULTS_OPEN)
    for step in ("results", "clock", "penalty"):
        assert states.STEPS[step].allowed_in == states.RESULTS_OPEN


def test_public_states():
    assert [s for s in states.STATES if states.is_public(s)] == [
        ACCREDITED, RESULTS_SUBMITTED, RESULTS_CONFIRMED]


def test_the_models_choices_are_the_tables_states():
    assert tuple(Tournament.State.values) == states.STATES
    assert PUBLIC_STATES == states.PUBLIC
    assert all(isinstance(s, Tournament.State) for s in PUBLIC_STATES)


def test_after_accreditation_the_details_change_and_the_accredited_facts_go_back():
    """Decision 0721: the cap, fees, entry dates, venue and hidden sessions are amended;
    what the officer accredited (dates, place, rules, sessions) needs a new decision."""
    for field in ("max_players", "fee_member", "fee_other", "venue", "hide_last_sessions",
                  "entries_from", "entries_until", "refund_until"):
        assert states.needs_new_decision([field]) == []
    assert states.needs_new_decision(
        ["venue", "start_date", "ruleset", "sessions", "city", "name"]
    ) == ["start_date", "ruleset", "sessions", "city", "name"]


@pytest.mark.parametrize("state", states.STATES)
def test_players_are_corrected_by_the_organizer_until_the_sheet_and_by_an_officer_always(state):
    assert states.players_correctable(state, sheet_taken=False, officer=False)
    assert not states.players_correctable(state, sheet_taken=True, officer=False)
    assert states.players_correctable(state, sheet_taken=True, officer=True)

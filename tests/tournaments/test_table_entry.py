"""Entry at the table (issue 23): opening a session's tables, adding and removing lines,
the four agreements and the table landing through ``results_record`` with source "table"."""

from __future__ import annotations

import pytest

from rulebook.scoring import DEFAULT_CONFIG
from tournaments import selectors, services
from tournaments.models import HandRecord, Session, TableEntry, TableResult
from tournaments.table_sheet import sheet_view

pytestmark = pytest.mark.django_db

WIN_E = {"kind": "win", "seat": "E", "from": "S", "points": 10}  # E +34, S -18, W -8, N -8
SELF_W = {"kind": "win", "seat": "W", "from": None, "points": 8}  # W +48, others -16


@pytest.fixture
def seated(make_tournament, organizer):
    tournament = make_tournament("accredited", players=8)
    services.seating_draw(tournament=tournament, user=organizer, seed=1)
    return tournament


@pytest.fixture
def entries(seated, organizer):
    return services.table_entries_open(tournament=seated, session=1, user=organizer)


def _agree_all(entry):
    for seat in "ESWN":
        entry = services.table_entry_agree(entry=entry, seat=seat)
    return entry


def test_sheet_view_running_totals_come_from_the_core():
    view = sheet_view([WIN_E, {"kind": "draw"}, SELF_W], rules="mcr", config=DEFAULT_CONFIG)
    assert view.running[0] == (34, -18, -8, -8)
    assert view.running[1] == (34, -18, -8, -8)
    assert view.totals == (18, -34, 40, -24)
    assert view.problems == ()


def test_open_makes_one_token_per_seated_table_and_is_idempotent(seated, organizer, entries):
    assert [e.table for e in entries] == [1, 2]
    assert len({e.token for e in entries}) == 2
    again = services.table_entries_open(tournament=seated, session=1, user=organizer)
    assert [e.token for e in again] == [e.token for e in entries]


def test_open_needs_the_seating(make_tournament, organizer):
    tournament = make_tournament("accredited", players=8)
    with pytest.raises(services.TournamentError) as err:
        services.table_entries_open(tournament=tournament, session=1, user=organizer)
    assert err.value.code == "no_seating"


def test_open_refused_before_accreditation(make_tournament, organizer):
    tournament = make_tournament("draft", players=8)
    with pytest.raises(services.TournamentError):
        services.table_entries_open(tournament=tournament, session=1, user=organizer)


def test_lines_are_added_checked_and_removed(entries):
    entry = services.table_entry_line_add(entry=entries[0], line=WIN_E)
    assert entry.state == "entered"
    entry = services.table_entry_agree(entry=entry, seat="E")
    assert entry.agreed == ["E"]
    entry = services.table_entry_line_add(entry=entry, line={"kind": "draw"})
    assert entry.agreed == []  # the sheet changed: agree again
    with pytest.raises(services.TournamentError) as err:
        services.table_entry_line_add(entry=entry, line={"kind": "penalty", "seat": "N",
                                                         "points": 30})
    assert err.value.params == {"field": "reason"}
    with pytest.raises(services.TournamentError):
        services.table_entry_line_add(entry=entry, line={"kind": "win", "seat": "E",
                                                         "from": "E", "points": 8})
    entry = services.table_entry_line_remove(entry=entry, number=1)
    assert entry.hands == [{"kind": "draw"}]
    entry = services.table_entry_line_remove(entry=entry, number=1)
    assert entry.state == "missing"


def test_a_sheet_with_problems_cannot_be_agreed(entries):
    entry = services.table_entry_line_add(
        entry=entries[0], line={"kind": "win", "seat": "E", "from": "S", "points": 6})
    with pytest.raises(services.ResultsError) as err:
        services.table_entry_agree(entry=entry, seat="E")
    assert err.value.problems[0].code == "not_enough_points"
    assert err.value.problems[0].table == 1
    (row, _other) = selectors.session_tables(entry.tournament, 1)
    assert row.state == "entered" and row.problems[0].code == "not_enough_points"


def test_the_fourth_agreement_records_the_table_with_source_table(seated, entries):
    entry = services.table_entry_line_add(entry=entries[0], line=WIN_E)
    entry = services.table_entry_line_add(
        entry=entry, line={"kind": "penalty", "seat": "N", "points": 30, "reason": "Late"})
    for seat in "ESW":
        entry = services.table_entry_agree(entry=entry, seat=seat)
        assert not TableResult.objects.filter(tournament=seated).exists()
    entry = services.table_entry_agree(entry=entry, seat="N")
    assert entry.state == "agreed"
    players = selectors.table_players(entry)
    stored = {r.player_id: r.game_points
              for r in TableResult.objects.filter(tournament=seated, session=1, table=1)}
    assert stored == dict(zip(players, [44, -8, 2, -38], strict=True))
    assert not TableResult.objects.filter(tournament=seated, session=1, table=2).exists()
    assert HandRecord.objects.filter(tournament=seated, session=1, table=1).count() == 2
    assert Session.objects.get(tournament=seated, number=1).source == Session.Source.TABLE
    seated.refresh_from_db()
    assert seated.state == "results submitted"
    rows = selectors.session_tables(seated, 1)
    assert [(r.table, r.state, r.source) for r in rows] == [
        (1, "agreed", "table"), (2, "missing", None)]
    with pytest.raises(services.TournamentError) as err:
        services.table_entry_line_add(entry=entry, line={"kind": "draw"})
    assert err.value.code == "table_closed"


def test_both_tables_land_and_the_session_is_complete(seated, entries, organizer):
    for entry in entries:
        entry = services.table_entry_line_add(entry=entry, line=SELF_W)
        _agree_all(entry)
    assert TableResult.objects.filter(tournament=seated, session=1).count() == 8
    assert all(r.state == "agreed" for r in selectors.session_tables(seated, 1))


def test_the_token_expires_when_the_results_are_confirmed(seated, entries, organizer):
    token = entries[0].token
    assert selectors.table_entry_for_token(token) == entries[0]
    assert selectors.table_entry_for_token("nope") is None
    seated.state = "results confirmed"
    seated.save(update_fields=["state"])
    assert selectors.table_entry_for_token(token) is None
    with pytest.raises(services.TournamentError):
        services.table_entry_line_add(entry=TableEntry.objects.get(pk=entries[0].pk),
                                      line={"kind": "draw"})

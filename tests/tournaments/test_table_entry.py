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


# --- hands as tiles, and submits that arrive twice -------------------------------------------

TILES_E = {"kind": "win", "seat": "E", "from": "S", "tiles": "[123m,1]456p789s11sEEE",
           "context": {"seat": "E", "prevalent": "E"}, "id": "line-1"}


def test_a_hand_as_tiles_is_scored_by_the_core_and_lands_with_tiles_and_fans(entries):
    entry = services.table_entry_line_add(entry=entries[0], line=TILES_E)
    (line,) = entry.hands
    # the core's total fills the line; the tiles and conditions are kept
    assert line["points"] == 12 and line["tiles"] == "[123m,1]456p789s11sEEE"
    assert line["context"] == {} and line["id"] == "line-1"
    entry = _agree_all(entry)
    assert entry.state == "agreed"
    hand = HandRecord.objects.get(tournament=entry.tournament, session=1, table=1)
    assert hand.tiles == "[123m,1]456p789s11sEEE" and hand.points == 12
    assert sorted(hand.fans) == ["39", "60", "61"]


def test_the_winds_of_a_hand_as_tiles_change_its_fans(entries):
    line = {**TILES_E, "context": {"seat": "S", "prevalent": "W"}}
    entry = services.table_entry_line_add(entry=entries[0], line=line)
    # East is neither the seat nor the prevalent wind: 8 + 1 (pung of honours), not 12
    assert entry.hands[0]["points"] == 9
    assert entry.hands[0]["context"] == {"seat": "S", "prevalent": "W"}


@pytest.mark.parametrize("tiles, code, position", [
    ("123m456p789s123s5s5x", "unknown_tile", 19),
    ("123m456p789s123s5s6s", "not_winning", None),
])
def test_tiles_the_core_refuses_are_not_added(entries, tiles, code, position):
    with pytest.raises(services.ResultsError) as err:
        services.table_entry_line_add(entry=entries[0], line={**TILES_E, "tiles": tiles})
    (problem,) = err.value.problems
    assert problem.code == code and problem.field == "tiles" and problem.table == 1
    assert problem.params.get("position") == position
    assert TableEntry.objects.get(pk=entries[0].pk).hands == []


@pytest.mark.parametrize("line, field", [
    ({**TILES_E, "context": {"seat": "X"}}, "context"),
    ({**TILES_E, "context": {"heavenly": True}}, "context"),  # not an MCR condition
    ({**TILES_E, "context": {"last_tile": "yes"}}, "context"),
    ({**TILES_E, "tiles": "1" * 121}, "tiles"),
    ({**TILES_E, "id": "not an id!"}, "id"),
])
def test_bad_lines_as_tiles_are_refused_by_field(entries, line, field):
    with pytest.raises(services.TournamentError) as err:
        services.table_entry_line_add(entry=entries[0], line=line)
    assert err.value.code == "bad_line" and err.value.params["field"] == field
    assert TableEntry.objects.get(pk=entries[0].pk).hands == []


def test_a_line_sent_twice_is_added_once_and_removed_once(entries):
    entry = services.table_entry_line_add(entry=entries[0], line={**WIN_E, "id": "a1"})
    entry = services.table_entry_line_add(entry=entry, line={**WIN_E, "id": "a1"})
    entry = services.table_entry_line_add(entry=entry, line={**SELF_W, "id": "b2"})
    assert [h["id"] for h in entry.hands] == ["a1", "b2"]
    entry = services.table_entry_line_remove(entry=entry, line_id="a1")
    entry = services.table_entry_line_remove(entry=entry, line_id="a1")
    assert [h["id"] for h in entry.hands] == ["b2"]


def test_an_agreement_names_the_sheet_it_agrees_with(entries):
    entry = services.table_entry_line_add(entry=entries[0], line=WIN_E)
    seen = services.sheet_digest(entry.hands)
    entry = services.table_entry_agree(entry=entry, seat="E", sheet=seen)
    entry = services.table_entry_line_add(entry=entry, line=SELF_W)
    assert entry.agreed == []
    with pytest.raises(services.TournamentError) as err:
        services.table_entry_agree(entry=entry, seat="S", sheet=seen)
    assert err.value.code == "sheet_changed"
    now = services.sheet_digest(entry.hands)
    for seat in "ESWN":
        entry = services.table_entry_agree(entry=entry, seat=seat, sheet=now)
    assert entry.state == "agreed"
    # the last agreement sent again (a retry) changes nothing and is not an error
    again = services.table_entry_agree(entry=entry, seat="N", sheet=now)
    assert again.state == "agreed"
    assert TableResult.objects.filter(tournament=entry.tournament, table=1).count() == 4
    with pytest.raises(services.TournamentError):
        services.table_entry_line_add(entry=entry, line={**WIN_E, "id": "new"})

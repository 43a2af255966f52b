"""Issue 38, item 1: the phones and the organizer never overwrite each other silently. Each
stored table has a source and a version; a save over another version is a 409 with both
versions; the players' agreement after the organizer entered the table is held until the
organizer chooses."""

from __future__ import annotations

import pytest

from tournaments import selectors, services
from tournaments.models import HandRecord, TableEntry, TableRecord, TableResult

pytestmark = pytest.mark.django_db

WIN_E = {"kind": "win", "seat": "E", "from": "S", "points": 10}  # E +34, S -18, W -8, N -8
SELF_N = {"kind": "win", "seat": "N", "from": None, "points": 10}  # N +54, others -18


@pytest.fixture
def seated(make_tournament, organizer):
    tournament = make_tournament("accredited", players=8)
    services.seating_draw(tournament=tournament, user=organizer, seed=1)
    services.table_entries_open(tournament=tournament, session=1, user=organizer)
    return tournament


def _entry(tournament, table=1):
    return TableEntry.objects.get(tournament=tournament, session=1, table=table)


def _seating(tournament, table):
    entry = _entry(tournament, table)
    return selectors.table_players(entry)


def _session_body(tournament, versions=None, points=((30, -10, -10, -10), (8, -8, 8, -8))):
    tables = []
    for table, four in ((1, points[0]), (2, points[1])):
        body = {"table": table, "seats": [
            {"player": p, "game_points": g} for p, g in zip(_seating(tournament, table), four,
                                                            strict=True)]}
        if versions is not None:
            body["version"] = versions[table - 1]
        tables.append(body)
    return {"sessions": [{"session": 1, "tables": tables}]}


def _stored(tournament, table=1):
    rows = TableResult.objects.filter(tournament=tournament, session=1, table=table)
    by_player = {r.player_id: r.game_points for r in rows}
    return [by_player.get(p) for p in _seating(tournament, table)]


def _agree_all(entry):
    for seat in "ESWN":
        entry = services.table_entry_agree(entry=entry, seat=seat)
    return entry


def _table_row(api, tournament, table=1):
    data = api["organizer"].get(f"/api/v1/tournaments/{tournament.pk}/sessions/1").json()
    return next(t for t in data["tables"] if t["table"] == table)


def test_phones_agreeing_after_the_organizer_posted_do_not_replace_the_organizers_results(
        api, seated):
    entry = services.table_entry_line_add(entry=_entry(seated), line=SELF_N)
    # the organizer posts the session (nothing stored yet: version 0 for each table)
    answer = api["organizer"].post(f"/api/v1/tournaments/{seated.pk}/results",
                                   _session_body(seated, versions=[0, 0]), format="json")
    assert answer.status_code == 200, answer.json()
    assert _table_row(api, seated)["source"] == "api"
    # the phones now agree with -18/-18/-18/54: the organizer's 30/-10/-10/-10 stand
    entry = _agree_all(entry)
    assert entry.state == "agreed" and entry.held
    assert _stored(seated) == [30, -10, -10, -10]
    row = _table_row(api, seated)
    assert row["source"] == "api" and row["version"] == 1
    assert [s["game_points"] for s in row["held"]["seats"]] == [-18, -18, -18, 54]
    assert _table_row(api, seated, 2)["held"] is None
    # posting the session again (the same totals) changes nothing and keeps the hold
    again = api["organizer"].post(f"/api/v1/tournaments/{seated.pk}/results",
                                  _session_body(seated, versions=[1, 1]), format="json")
    assert again.status_code == 200
    assert _stored(seated) == [30, -10, -10, -10] and _table_row(api, seated)["held"]
    # until the organizer chooses: the players' sheet
    url = f"/api/v1/tournaments/{seated.pk}/sessions/1/tables/1/choice"
    chosen = api["organizer"].post(url, {"keep": "table"}, format="json")
    assert chosen.status_code == 200, chosen.json()
    assert chosen.json()["source"] == "table" and chosen.json()["version"] == 2
    assert _stored(seated) == [-18, -18, -18, 54]
    assert HandRecord.objects.filter(tournament=seated, session=1, table=1).count() == 1
    assert _stored(seated, 2) == [8, -8, 8, -8]
    assert _table_row(api, seated, 2)["source"] == "api"
    # nothing is waiting any more
    assert api["organizer"].post(url, {"keep": "table"}, format="json").status_code == 400


def test_the_organizer_keeps_their_results(api, seated):
    entry = services.table_entry_line_add(entry=_entry(seated), line=SELF_N)
    api["organizer"].post(f"/api/v1/tournaments/{seated.pk}/results",
                          _session_body(seated, versions=[0, 0]), format="json")
    _agree_all(entry)
    url = f"/api/v1/tournaments/{seated.pk}/sessions/1/tables/1/choice"
    assert api["organizer"].post(url, {"keep": "nobody"}, format="json").status_code == 400
    answer = api["organizer"].post(url, {"keep": "organizer"}, format="json")
    assert answer.status_code == 200
    assert _stored(seated) == [30, -10, -10, -10]
    row = _table_row(api, seated)
    assert row["source"] == "api" and row["held"] is None and row["version"] == 1


def test_phones_agreeing_with_the_organizers_totals_are_recorded(api, seated):
    entry = services.table_entry_line_add(entry=_entry(seated), line=SELF_N)
    api["organizer"].post(f"/api/v1/tournaments/{seated.pk}/results", _session_body(
        seated, versions=[0, 0], points=((-18, -18, -18, 54), (8, -8, 8, -8))), format="json")
    entry = _agree_all(entry)
    assert not entry.held
    assert _table_row(api, seated)["source"] == "table"


@pytest.mark.parametrize(("who", "status"), [
    ("anonymous", 401), ("member", 403), ("other", 403), ("officer", 403)])
def test_only_the_organizer_chooses(api, seated, who, status):
    entry = services.table_entry_line_add(entry=_entry(seated), line=SELF_N)
    api["organizer"].post(f"/api/v1/tournaments/{seated.pk}/results",
                          _session_body(seated, versions=[0, 0]), format="json")
    _agree_all(entry)
    url = f"/api/v1/tournaments/{seated.pk}/sessions/1/tables/1/choice"
    answer = api[who].post(url, {"keep": "table"}, format="json")
    assert answer.status_code in (status, 404)
    assert _entry(seated).held


def test_the_organizer_saving_over_the_players_agreed_table_gets_409_with_both_versions(
        api, seated):
    _agree_all(services.table_entry_line_add(entry=_entry(seated), line=WIN_E))
    assert _table_row(api, seated)["version"] == 1
    url = f"/api/v1/tournaments/{seated.pk}/results"
    for versions in (None, [0, 0]):  # no version, or the one seen before the phones
        answer = api["organizer"].post(url, _session_body(seated, versions=versions),
                                       format="json")
        assert answer.status_code == 409, answer.json()
        body = answer.json()
        assert body["errors"][0]["code"] == "results_conflict"
        (conflict,) = body["conflicts"]
        assert conflict["table"] == 1
        assert conflict["stored"]["source"] == "table" and conflict["stored"]["version"] == 1
        assert [s["game_points"] for s in conflict["stored"]["seats"]] == [34, -18, -8, -8]
        assert [s["game_points"] for s in conflict["yours"]["seats"]] == [30, -10, -10, -10]
        assert _stored(seated) == [34, -18, -8, -8]
        assert not TableResult.objects.filter(tournament=seated, table=2).exists()
    # having seen version 1, the organizer's save replaces it
    answer = api["organizer"].post(url, _session_body(seated, versions=[1, 0]), format="json")
    assert answer.status_code == 200
    assert _stored(seated) == [30, -10, -10, -10]
    row = _table_row(api, seated)
    assert row["source"] == "api" and row["version"] == 2
    # a stale version of the organizer's own save is a conflict too
    answer = api["organizer"].post(url, _session_body(
        seated, versions=[1, 1], points=((20, 0, -10, -10), (8, -8, 8, -8))), format="json")
    assert answer.status_code == 409
    assert [c["table"] for c in answer.json()["conflicts"]] == [1]


def test_a_table_given_again_unchanged_keeps_its_hands_source_and_version(api, seated):
    _agree_all(services.table_entry_line_add(entry=_entry(seated), line=WIN_E))
    body = _session_body(seated, versions=None, points=((34, -18, -8, -8), (8, -8, 8, -8)))
    answer = api["organizer"].post(f"/api/v1/tournaments/{seated.pk}/results", body,
                                   format="json")
    assert answer.status_code == 200, answer.json()
    row = _table_row(api, seated)
    assert row["source"] == "table" and row["version"] == 1
    assert HandRecord.objects.filter(tournament=seated, session=1, table=1).count() == 1
    assert TableRecord.objects.get(tournament=seated, session=1, table=2).source == "api"


def test_a_bad_version_is_a_clear_error(api, seated):
    body = _session_body(seated, versions=["x", 0])
    answer = api["organizer"].post(f"/api/v1/tournaments/{seated.pk}/results", body,
                                   format="json")
    assert answer.status_code == 400
    (error,) = answer.json()["errors"]
    assert error["field"] == "version" and error["table"] == 1

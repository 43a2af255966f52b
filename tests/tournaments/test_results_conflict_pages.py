"""Issue 38, items 1 and 6 through the pages: the score sheet keeps the seating of the
tables not yet in; a table saved meanwhile comes back beside the organizer's with "keep
mine" / "take theirs"; the totals grid saves the rows given through the same versions; the
session view lets the organizer choose for a held table; the table's page tells the
players the organizer has entered the table."""

from __future__ import annotations

import pytest
from django.urls import reverse as django_reverse
from django.utils import translation

from tournaments import selectors, services
from tournaments.models import TableEntry, TableRecord, TableResult

pytestmark = pytest.mark.django_db

WIN_E = {"kind": "win", "seat": "E", "from": "S", "points": 10}  # 34 -18 -8 -8
SELF_N = {"kind": "win", "seat": "N", "from": None, "points": 10}  # -18 -18 -18 54


def reverse(name: str, args: list) -> str:
    with translation.override("en"):
        return django_reverse(name, args=args)


@pytest.fixture
def seated(make_tournament, organizer):
    tournament = make_tournament("accredited", players=8)
    services.seating_draw(tournament=tournament, user=organizer, seed=1)
    services.table_entries_open(tournament=tournament, session=1, user=organizer)
    return tournament


@pytest.fixture
def org_client(client, organizer):
    client.force_login(organizer)
    return client


def _entry(t, table=1):
    return TableEntry.objects.get(tournament=t, session=1, table=table)


def _agree_all(entry):
    for seat in "ESWN":
        entry = services.table_entry_agree(entry=entry, seat=seat)
    return entry


def _stored(t, table=1):
    by_player = {r.player_id: r.game_points
                 for r in TableResult.objects.filter(tournament=t, session=1, table=table)}
    return [by_player.get(p) for p in selectors.table_players(_entry(t, table))]


def _sheet_post(t, points, versions):
    data = {}
    for table in (1, 2):
        players = selectors.table_players(_entry(t, table))
        for wind, player, value in zip("ESWN", players, points[table - 1], strict=True):
            data[f"t{table}_{wind}_player"] = str(player)
            data[f"t{table}_{wind}_game_points"] = str(value)
            data[f"t{table}_{wind}_penalty"] = "0"
        data[f"t{table}_version"] = str(versions[table - 1])
    return data


def test_the_score_sheet_keeps_the_seating_of_the_tables_not_yet_in(org_client, seated):
    _agree_all(services.table_entry_line_add(entry=_entry(seated), line=WIN_E))
    page = org_client.get(reverse("tournaments:sheet", [seated.pk, 1]))
    form = page.context["form"]
    for table in (1, 2):
        players = selectors.table_players(_entry(seated, table))
        shown = [form[f"t{table}_{w}_player"].value() for w in "ESWN"]
        assert shown == [str(p) for p in players]
    assert form["t1_E_game_points"].value() == 34
    assert form["t1_version"].value() == 1 and form["t2_version"].value() == 0


def test_the_score_sheet_shows_a_table_saved_meanwhile_and_the_organizer_chooses(
        org_client, seated):
    url = reverse("tournaments:sheet", [seated.pk, 1])
    org_client.get(url)  # the organizer opens the sheet: nothing stored (versions 0)
    _agree_all(services.table_entry_line_add(entry=_entry(seated), line=WIN_E))
    mine = _sheet_post(seated, [(30, -10, -10, -10), (8, -8, 8, -8)], [0, 0])
    page = org_client.post(url, mine)
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-testid="versions-1"' in html and 'name="t1_keep"' in html
    assert "saved by someone else" in html
    assert _stored(seated) == [34, -18, -8, -8]
    assert not TableResult.objects.filter(tournament=seated, table=2).exists()
    assert page.context["form"]["t1_version"].value() == "1"
    # take theirs: the players' table stays as it is, table 2 is saved
    answer = org_client.post(url, {**mine, "t1_version": "1", "t1_keep": "theirs"})
    assert answer.status_code == 302
    assert _stored(seated) == [34, -18, -8, -8]
    assert TableRecord.objects.get(tournament=seated, session=1, table=1).source == "table"
    assert _stored(seated, 2) == [8, -8, 8, -8]


def test_keep_mine_on_the_score_sheet_replaces_the_players_table(org_client, seated):
    url = reverse("tournaments:sheet", [seated.pk, 1])
    _agree_all(services.table_entry_line_add(entry=_entry(seated), line=WIN_E))
    mine = _sheet_post(seated, [(30, -10, -10, -10), (8, -8, 8, -8)], [0, 0])
    assert org_client.post(url, mine).status_code == 200
    answer = org_client.post(url, {**mine, "t1_version": "1", "t1_keep": "mine"})
    assert answer.status_code == 302
    assert _stored(seated) == [30, -10, -10, -10]
    record = TableRecord.objects.get(tournament=seated, session=1, table=1)
    assert (record.source, record.version) == ("form", 2)


def _grid_post(t, rows):
    data = {}
    for table, (points, version) in rows.items():
        players = selectors.table_players(_entry(t, table))
        for wind, player, value in zip("ESWN", players, points, strict=True):
            data[f"t{table}_{wind}_player"] = str(player)
            data[f"t{table}_{wind}_game_points"] = value
            data[f"t{table}_{wind}_penalty"] = "0"
        data[f"t{table}_version"] = str(version)
    return data


def test_the_totals_grid_saves_the_rows_given(org_client, seated):
    url = reverse("tournaments:totals", [seated.pk, 1])
    page = org_client.get(url)
    assert page.status_code == 200
    assert len(page.context["rows"]) == 2
    data = _grid_post(seated, {1: (("30", "-10", "-10", "-10"), 0),
                               2: (("", "", "", ""), 0)})
    assert org_client.post(url, data).status_code == 302
    assert _stored(seated) == [30, -10, -10, -10]
    assert not TableResult.objects.filter(tournament=seated, table=2).exists()
    assert TableRecord.objects.get(tournament=seated, session=1, table=1).source == "form"
    page = org_client.get(url)
    assert page.context["rows"][0]["sum"] == 0
    assert [c["value"] for c in page.context["rows"][0]["cells"]] == ["30", "-10", "-10", "-10"]


def test_the_totals_grid_refuses_a_row_that_does_not_balance_or_is_incomplete(
        org_client, seated):
    url = reverse("tournaments:totals", [seated.pk, 1])
    data = _grid_post(seated, {1: (("30", "-10", "-10", "-9"), 0),
                               2: (("8", "", "8", "-8"), 0)})
    page = org_client.post(url, data)
    assert page.status_code == 200
    rows = page.context["rows"]
    assert rows[0]["errors"] and rows[1]["errors"]
    assert rows[0]["sum"] == 1 and rows[1]["sum"] is None
    assert not TableResult.objects.filter(tournament=seated).exists()
    assert org_client.post(url, _grid_post(seated, {1: (("", "", "", ""), 0),
                                                    2: (("", "", "", ""), 0)})
                           ).context["problems"]


def test_the_totals_grid_agrees_with_the_phones(org_client, seated):
    url = reverse("tournaments:totals", [seated.pk, 1])
    org_client.get(url)
    _agree_all(services.table_entry_line_add(entry=_entry(seated), line=WIN_E))
    data = _grid_post(seated, {1: (("30", "-10", "-10", "-10"), 0)})
    page = org_client.post(url, data)
    assert page.status_code == 200
    assert page.context["rows"][0]["conflict"]["theirs_version"] == 1
    assert _stored(seated) == [34, -18, -8, -8]
    answer = org_client.post(url, {**data, "t1_version": "1", "t1_keep": "mine"})
    assert answer.status_code == 302
    assert _stored(seated) == [30, -10, -10, -10]


def test_the_session_view_lets_the_organizer_choose_for_a_held_table(
        org_client, seated, client):
    entry = services.table_entry_line_add(entry=_entry(seated), line=SELF_N)
    grid = reverse("tournaments:totals", [seated.pk, 1])
    org_client.post(grid, _grid_post(seated, {1: (("30", "-10", "-10", "-10"), 0)}))
    # the players are told
    table_url = reverse("tournaments:table", [entry.token])
    assert "The organizer has entered this table" in client.get(table_url).content.decode()
    answer = client.post(table_url, {"action": "agree", "seat": "E"},
                         HTTP_X_REQUESTED_WITH="fetch")
    assert answer.json()["organizer_entered"] is True
    for seat in "SWN":
        client.post(table_url, {"action": "agree", "seat": seat})
    assert _entry(seated).held
    assert _stored(seated) == [30, -10, -10, -10]
    org_client.force_login(seated.organizer)
    session_url = reverse("tournaments:session", [seated.pk, 1])
    html = org_client.get(session_url).content.decode()
    assert 'data-testid="held-1"' in html
    answer = org_client.post(session_url, {"action": "keep_table", "table": "1"})
    assert answer.status_code == 302
    assert _stored(seated) == [-18, -18, -18, 54]
    assert not _entry(seated).held


def test_an_officer_cannot_choose_for_a_held_table(client, officer, seated):
    entry = services.table_entry_line_add(entry=_entry(seated), line=SELF_N)
    services.results_record(tournament=seated, user=seated.organizer, sessions=[
        __import__("tournaments.rules.results_files", fromlist=["x"]).parse_results_json(
            {"sessions": [{"session": 1, "tables": [{"table": 1, "version": 0, "seats": [
                {"player": p, "game_points": g} for p, g in zip(
                    selectors.table_players(entry), (30, -10, -10, -10), strict=True)]}]}]}
        )[0][0]], tables_only=True)
    _agree_all(_entry(seated))
    client.force_login(officer)
    answer = client.post(reverse("tournaments:session", [seated.pk, 1]),
                         {"action": "keep_table", "table": "1"})
    assert answer.status_code == 403
    assert _entry(seated).held

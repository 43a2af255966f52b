"""Entry at the table through the pages and the API: the table's page by its token (no
account; a wrong or expired token is 404; a token writes its own table only), the
organizer's session view and ``GET /api/v1/tournaments/{id}/sessions/{n}``, with who may and
may not see them."""

from __future__ import annotations

import pytest
from django.urls import reverse as django_reverse
from django.utils import translation

from tournaments import services
from tournaments.models import TableEntry, TableResult

pytestmark = pytest.mark.django_db


@pytest.fixture
def seated(make_tournament, organizer):
    tournament = make_tournament("accredited", players=8)
    services.seating_draw(tournament=tournament, user=organizer, seed=1)
    return tournament


@pytest.fixture
def entries(seated, organizer):
    return services.table_entries_open(tournament=seated, session=1, user=organizer)


def reverse(name: str, args: list) -> str:
    with translation.override("en"):
        return django_reverse(name, args=args)


def _url(entry) -> str:
    return reverse("tournaments:table", args=[entry.token])


def test_the_table_page_needs_no_account_and_saves_each_submit(client, entries):
    entry = entries[0]
    page = client.get(_url(entry))
    assert page.status_code == 200
    assert "Table 1, session 1" in page.content.decode()
    answer = client.post(_url(entry), {"action": "win", "seat": "E", "from": "S",
                                       "points": "10"})
    assert answer.status_code == 302
    client.post(_url(entry), {"action": "penalty", "seat": "N", "points": "30",
                              "reason": "Late"})
    entry.refresh_from_db()
    assert [h["kind"] for h in entry.hands] == ["win", "penalty"]
    page = client.get(_url(entry)).content.decode()
    assert 'data-total="E">44<' in page and 'data-total="N">-38<' in page
    for seat in "ESWN":
        client.post(_url(entry), {"action": "agree", "seat": seat})
    entry.refresh_from_db()
    assert entry.state == "agreed"
    assert TableResult.objects.filter(tournament=entry.tournament, table=1).count() == 4
    assert "the table is submitted" in client.get(_url(entry)).content.decode()


def test_a_refused_line_is_explained(client, entries):
    entry = entries[0]
    client.post(_url(entry), {"action": "win", "seat": "E", "from": "S", "points": "5"})
    page = client.get(_url(entry)).content.decode()
    assert "at least 8 points" in page
    answer = client.post(_url(entry), {"action": "agree", "seat": "E"}, follow=True)
    assert "at least 8 points" in answer.content.decode()
    entry.refresh_from_db()
    assert entry.agreed == []
    answer = client.post(_url(entry), {"action": "penalty", "seat": "N", "points": "30"},
                         follow=True)
    assert "Check the line" in answer.content.decode()


def test_a_wrong_or_expired_token_is_404(client, seated, entries):
    assert client.get(reverse("tournaments:table", args=["not-a-token"])).status_code == 404
    assert client.post(reverse("tournaments:table", args=["not-a-token"]),
                       {"action": "draw"}).status_code == 404
    seated.state = "results confirmed"
    seated.save(update_fields=["state"])
    assert client.get(_url(entries[0])).status_code == 404
    assert client.post(_url(entries[0]), {"action": "draw"}).status_code == 404


def test_a_token_writes_its_own_table_only(client, entries):
    first, second = entries
    client.post(_url(second), {"action": "draw"})
    assert TableEntry.objects.get(pk=first.pk).hands == []
    assert TableEntry.objects.get(pk=second.pk).hands == [{"kind": "draw"}]


@pytest.mark.parametrize("who, status", [
    ("anonymous", 302), ("member", 403), ("other", 403), ("organizer", 200), ("officer", 200),
])
def test_session_view_permissions(client, seated, entries, who, status, organizer,
                                  other_organizer, officer, member_user):
    users = {"member": member_user, "other": other_organizer, "organizer": organizer,
             "officer": officer}
    if who in users:
        client.force_login(users[who])
    url = reverse("tournaments:session", args=[seated.pk, 1])
    assert client.get(url).status_code == status
    answer = client.post(url)
    assert answer.status_code == (302 if status == 200 else status)


def test_session_view_opens_tables_and_shows_qr_codes_and_states(client, organizer, seated):
    client.force_login(organizer)
    url = reverse("tournaments:session", args=[seated.pk, 1])
    assert "<svg" not in client.get(url).content.decode()
    client.post(url)
    entries = list(TableEntry.objects.filter(tournament=seated, session=1))
    assert len(entries) == 2
    page = client.get(url).content.decode()
    assert page.count("<svg") == 2
    assert entries[0].token in page
    services.table_entry_line_add(entry=entries[0], line={"kind": "win", "seat": "E",
                                                          "from": "S", "points": 6})
    page = client.get(url).content.decode()
    assert 'data-state="entered"' in page and "at least 8 points" in page
    assert client.get(reverse("tournaments:session", args=[seated.pk, 99])).status_code == 404


@pytest.mark.parametrize("who, status", [
    ("anonymous", 401), ("member", 403), ("other", 403), ("organizer", 200), ("officer", 200),
])
def test_session_api_permissions(api, seated, entries, who, status):
    answer = api[who].get(f"/api/v1/tournaments/{seated.pk}/sessions/1")
    assert answer.status_code == status


def test_session_api_tables_and_problems(api, seated, entries):
    first, second = entries
    services.table_entry_line_add(entry=first, line={"kind": "win", "seat": "E",
                                                     "from": "S", "points": 6})
    entry = services.table_entry_line_add(entry=second, line={"kind": "draw"})
    for seat in "ESWN":
        entry = services.table_entry_agree(entry=entry, seat=seat)
    data = api["organizer"].get(f"/api/v1/tournaments/{seated.pk}/sessions/1").json()
    assert data["session"] == 1 and data["source"] == "table"
    assert [(t["table"], t["state"], t["source"]) for t in data["tables"]] == [
        (1, "entered", None), (2, "agreed", "table")]
    (problem,) = data["tables"][0]["problems"]
    assert problem["code"] == "not_enough_points" and problem["table"] == 1
    assert problem["hand"] == 1 and problem["message"]
    assert data["tables"][1]["problems"] == []
    assert api["organizer"].get(
        f"/api/v1/tournaments/{seated.pk}/sessions/7").status_code == 404


@pytest.mark.parametrize("who, status", [
    ("anonymous", 302), ("member", 403), ("other", 403), ("organizer", 200), ("officer", 200),
])
def test_qr_codes_pdf(client, seated, entries, who, status, organizer, other_organizer,
                      officer, member_user):
    users = {"member": member_user, "other": other_organizer, "organizer": organizer,
             "officer": officer}
    if who in users:
        client.force_login(users[who])
    answer = client.get(reverse("tournaments:session_codes_pdf", args=[seated.pk, 1]))
    assert answer.status_code == status
    if status == 200:
        assert answer["Content-Type"] == "application/pdf"
        assert answer.content.startswith(b"%PDF")


def test_qr_codes_pdf_needs_opened_tables(client, organizer, make_tournament):
    tournament = make_tournament("accredited", players=8)
    services.seating_draw(tournament=tournament, user=organizer, seed=1)
    client.force_login(organizer)
    url = reverse("tournaments:session_codes_pdf", args=[tournament.pk, 1])
    assert client.get(url).status_code == 404


# --- hands as tiles without JavaScript, the scoring endpoint, submits sent twice -------------

TILES = "[123m,1]456p789s11sEEE"


def test_a_hand_as_tiles_without_javascript_is_scored_on_submit(client, entries):
    entry = entries[0]
    answer = client.post(_url(entry), {"action": "win", "seat": "E", "from": "S",
                                       "tiles": "[123m,1] 456p 789s 11s EEE",
                                       "seat_wind": "E", "prevalent": "E", "line": "t1"})
    assert answer.status_code == 302
    entry.refresh_from_db()
    assert entry.hands == [{"kind": "win", "seat": "E", "from": "S", "points": 12,
                            "id": "t1", "tiles": TILES, "context": {}}]
    page = client.get(_url(entry)).content.decode()
    assert "East wins 12 points from South" in page and TILES in page


def test_tiles_the_core_refuses_come_back_with_the_tile_at_fault(client, entries):
    entry = entries[0]
    answer = client.post(_url(entry), {"action": "win", "seat": "E", "from": "S",
                                       "tiles": "123m456p789s123s5s5x", "seat_wind": "E",
                                       "prevalent": "E", "last_tile": "1"})
    assert answer.status_code == 200
    page = answer.content.decode()
    assert "This is not a tile of the notation." in page
    assert "Character 20: “x”." in page and "<mark>x</mark>" in page
    # what was typed is kept, to be corrected
    assert 'value="123m456p789s123s5s5x"' in page
    assert 'name="last_tile" value="1" checked' in page
    entry.refresh_from_db()
    assert entry.hands == []


def test_the_score_endpoint_scores_as_the_sheet_will(client, entries):
    url = reverse("tournaments:table-score", args=[entries[0].token])
    data = client.get(url, {"seat": "E", "from": "S", "tiles": TILES, "seat_wind": "E",
                            "prevalent": "E"}).json()
    assert data["ok"] is True and data["points"] == 12
    assert [f["id"] for f in data["fans"]] == ["39", "60", "61"]
    assert all(f["name"] for f in data["fans"])
    data = client.get(url, {"seat": "E", "from": "S", "tiles": "123m456p789s123s5s6s"}).json()
    assert data == {"ok": False, "problem": {
        "field": "tiles", "title": "These tiles do not make a complete hand.",
        "where": None}}
    data = client.get(url, {"seat": "E", "from": "E", "tiles": TILES}).json()
    assert data["ok"] is False and data["problem"]["field"] == "from"
    assert client.get(reverse("tournaments:table-score", args=["nope"]),
                      {"tiles": TILES}).status_code == 404
    # scoring stores nothing
    assert TableEntry.objects.get(pk=entries[0].pk).hands == []


def test_a_script_submit_gets_json_and_a_retry_adds_nothing(client, entries):
    entry = entries[0]
    post = {"action": "win", "seat": "E", "from": "S", "points": "10", "line": "r1"}
    for _ in range(3):
        answer = client.post(_url(entry), post, HTTP_X_REQUESTED_WITH="fetch")
        assert answer.status_code == 200 and answer.json() == {
            "ok": True, "problem": None, "organizer_entered": False}
    entry.refresh_from_db()
    assert len(entry.hands) == 1
    answer = client.post(_url(entry), {"action": "win", "seat": "E", "from": "S",
                                       "tiles": "123m456p789s123s5s6s"},
                         HTTP_X_REQUESTED_WITH="fetch")
    assert answer.status_code == 400 and answer.json()["ok"] is False
    # the problem waits for the page's next load
    assert "These tiles do not make a complete hand." in client.get(_url(entry)).content.decode()
    stale = client.post(_url(entry), {"action": "agree", "seat": "E", "sheet": "0" * 16},
                        HTTP_X_REQUESTED_WITH="fetch")
    assert stale.status_code == 400
    entry.refresh_from_db()
    assert entry.agreed == [] and len(entry.hands) == 1


def test_the_table_page_queries_do_not_grow_with_the_sheet(client, entries):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    entry = entries[0]

    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(_url(entry)).status_code == 200
        return len(queries)

    services.table_entry_line_add(entry=entry, line={
        "kind": "win", "seat": "E", "from": "S", "tiles": TILES, "id": "q0"})
    small = count()
    for n in range(1, 10):
        services.table_entry_line_add(entry=entry, line={
            "kind": "win", "seat": "E", "from": "S", "tiles": TILES, "id": f"q{n}"})
    assert count() == small


def test_issue_38_the_points_of_a_hand_take_the_plural_form_of_their_number(client, entries):
    """Issue 38 (13): the table's page said "29 очки" (the number and a fixed word)."""
    for language, expected in (("ru", "12 очков"), ("en", "12 points"), ("fr", "12 points")):
        url = reverse("tournaments:table-score", args=[entries[0].token]).replace(
            "/en/", f"/{language}/", 1)
        data = client.get(url, {"seat": "E", "from": "S", "tiles": TILES, "seat_wind": "E",
                                "prevalent": "E"}).json()
        assert data["points"] == 12 and data["points_text"] == expected, language


def test_issue_38_the_session_view_shows_each_table_s_names_and_totals(client, organizer,
                                                                       seated):
    """Issue 38 (13): the session view showed neither the players' names nor the totals."""
    import re

    from tests.tournaments.fixtures import record_all_sessions
    from tournaments.models import SeatingAssignment, TableResult

    record_all_sessions(seated, organizer, sessions=1)
    client.force_login(organizer)
    html = client.get(reverse("tournaments:session", args=[seated.pk, 1])).content.decode()
    east = SeatingAssignment.objects.select_related("player").get(
        tournament=seated, session=1, table=1, seat="E")
    number = seated.registrations.get(player=east.player).number
    points = TableResult.objects.get(tournament=seated, session=1, player=east.player).game_points
    block = html.split('data-testid="seats-1"')[1].split("</table>")[0]
    assert re.search(rf"<th scope=\"row\">E</th><td>No\. {number} {re.escape(str(east.player))}"
                     rf"</td><td class=\"num\">{points}</td>", block), block
    html2 = client.get(reverse("tournaments:session", args=[seated.pk, 2])).content.decode()
    assert html2.split('data-testid="seats-1"')[1].split("</table>")[0].count("—") == 4

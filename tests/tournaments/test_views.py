"""Tournament pages: the permission matrix for every page, the score-sheet form, the CSV
upload (atomic), standings as page/CSV/PDF, the printable distribution, the officer's admin."""

from __future__ import annotations

import csv
import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from core.csv_export import csv_text
from tests.tournaments.fixtures import player_ids
from tournaments import services
from tournaments.models import TableResult
from tournaments.rules.results_files import CSV_COLUMNS, CSV_TEMPLATE_ROWS

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "member", "other", "organizer", "officer")


@pytest.fixture
def clients(client, django_user_model, organizer, other_organizer, officer, member_user):
    from django.test import Client

    out = {"anonymous": Client()}
    for role, user in (("member", member_user), ("other", other_organizer),
                       ("organizer", organizer), ("officer", officer)):
        c = Client()
        c.force_login(user)
        out[role] = c
    return out


PUBLIC_PAGES = ["", "standings/", "standings.csv", "standings.pdf"]
OWN_PAGES = ["manage/", "edit/", "sessions/1/sheet/", "upload/"]


def _expected_public(role: str, state: str) -> int:
    if state in ("draft", "submitted", "rejected"):
        return 200 if role in ("organizer", "officer") else 404
    return 200


def _expected_own(role: str, state: str) -> int:
    if role == "organizer":
        return 200
    if role == "anonymous":
        return 302  # to the login page
    if state in ("draft", "submitted", "rejected") and role != "officer":
        return 404
    return 403


@pytest.mark.parametrize("state", ["draft", "accredited"])
@pytest.mark.parametrize("role", ROLES)
def test_page_permission_matrix(clients, make_tournament, role, state):
    t = make_tournament(state, players=16)
    for page in PUBLIC_PAGES:
        response = clients[role].get(f"/en/tournaments/{t.pk}/{page}")
        assert response.status_code == _expected_public(role, state), page
    for page in OWN_PAGES:
        if page == "edit/" and state != "draft":
            continue
        response = clients[role].get(f"/en/tournaments/{t.pk}/{page}")
        assert response.status_code == _expected_own(role, state), (page, response)
    for action in ("submit/", "confirm/", "seating/", "players/"):
        response = clients[role].post(f"/en/tournaments/{t.pk}/{action}")
        expected = _expected_own(role, state)
        assert response.status_code == (302 if expected == 200 else expected), action


@pytest.mark.parametrize(("role", "code"), [
    ("anonymous", 302), ("member", 403), ("other", 200), ("organizer", 200), ("officer", 403)
])
def test_new_tournament_page_is_for_organizers(clients, role, code):
    assert clients[role].get("/en/tournaments/new/").status_code == code


@pytest.mark.parametrize(("role", "code"), [
    ("anonymous", 302), ("member", 403), ("other", 403), ("organizer", 403), ("officer", 200)
])
def test_admin_decision_page_is_for_officers(clients, make_tournament, role, code):
    t = make_tournament("submitted")
    response = clients[role].get(f"/admin/tournaments/{t.pk}/decide/")
    # anonymous: to the login page; signed in without admin access: 403 (AdminAccessMiddleware)
    assert response.status_code == code


def test_calendar_shows_public_tournaments_only(clients, make_tournament):
    make_tournament("draft", name="Secret Draft")
    make_tournament("accredited", name="Open Cup")
    page = clients["anonymous"].get("/en/tournaments/").content.decode()
    assert "Open Cup" in page and "Secret Draft" not in page
    assert "Utrecht, Netherlands · " in page  # the country named, not its code
    assert "Utrecht, Нидерланды · " in clients["anonymous"].get("/ru/tournaments/").content.decode()
    mine = clients["organizer"].get("/en/tournaments/").content.decode()
    assert "Secret Draft" in mine  # in "My tournaments"


@pytest.mark.parametrize("lang", ["ru", "en", "zh-hans", "fr", "nl"])
def test_pages_in_five_languages(clients, make_tournament, lang):
    t = make_tournament("results submitted", players=16)
    services.seating_draw(tournament=t, user=t.organizer, seed=1)
    services.seating_publish(tournament=t, user=t.organizer, through=t.sessions)
    for page in ("", f"{t.pk}/", f"{t.pk}/standings/", f"{t.pk}/sessions/1/tables/",
                 f"{t.pk}/seats/", f"{t.pk}/room/"):
        assert clients["anonymous"].get(f"/{lang}/tournaments/{page}").status_code == 200
    sheet = clients["organizer"].get(f"/{lang}/tournaments/{t.pk}/sessions/1/sheet/")
    assert sheet.status_code == 200


def test_organizer_creates_and_submits_through_pages(clients, organizer):
    response = clients["organizer"].post("/en/tournaments/new/", {
        "name": "Form Cup", "start_date": "2026-09-05", "end_date": "2026-09-06",
        "city": "Leiden", "country": "NL", "ruleset": "mcr", "individual": "on",
        "sessions": "7", "session_minutes": "150", "planned_players": "24",
    })
    assert response.status_code == 302
    manage_url = response["Location"]
    pk = int(manage_url.rstrip("/").split("/")[-2])
    clients["organizer"].post(f"/en/tournaments/{pk}/submit/")
    page = clients["organizer"].get(manage_url).content.decode()
    assert "Submitted" in page


def test_score_sheet_form_saves_a_session(clients, make_tournament):
    t = make_tournament("accredited", players=16)
    services.seating_draw(tournament=t, user=t.organizer, seed=4)
    page = clients["organizer"].get(f"/en/tournaments/{t.pk}/sessions/1/sheet/")
    form = page.context["form"]
    data = {}
    for table in range(1, 5):
        for wind, points in zip("ESWN", (25, 5, -5, -25), strict=True):
            data[f"t{table}_{wind}_player"] = form[f"t{table}_{wind}_player"].value()
            data[f"t{table}_{wind}_game_points"] = points
            data[f"t{table}_{wind}_penalty"] = 0
    data["t2_N_penalty"] = 10
    response = clients["organizer"].post(f"/en/tournaments/{t.pk}/sessions/1/sheet/", data)
    assert response.status_code == 302
    assert TableResult.objects.filter(tournament=t, session=1).count() == 16
    assert TableResult.objects.get(tournament=t, session=1, table=2, seat="N").penalty == 10
    t.refresh_from_db()
    assert t.state == "results submitted"


def test_score_sheet_form_shows_errors_by_table_and_stores_nothing(clients, make_tournament):
    t = make_tournament("accredited", players=16)
    ids = player_ids(t)
    data = {}
    for table in range(1, 5):
        for i, (wind, points) in enumerate(zip("ESWN", (25, 5, -5, -25), strict=True)):
            data[f"t{table}_{wind}_player"] = ids[(table - 1) * 4 + i]
            data[f"t{table}_{wind}_game_points"] = points
            data[f"t{table}_{wind}_penalty"] = 0
    data["t3_E_game_points"] = 26
    data["t4_S_player"] = ids[0]
    response = clients["organizer"].post(f"/en/tournaments/{t.pk}/sessions/1/sheet/", data)
    assert response.status_code == 200
    html = response.content.decode()
    assert "sum to 1 instead of zero" in html
    assert "sits twice" in html
    assert not TableResult.objects.exists()


def test_score_sheet_form_takes_hand_lines(clients, make_tournament):
    t = make_tournament("accredited", players=16)
    ids = player_ids(t)
    data = {}
    for table in range(1, 5):
        for i, (wind, points) in enumerate(zip("ESWN", (25, 5, -5, -25), strict=True)):
            data[f"t{table}_{wind}_player"] = ids[(table - 1) * 4 + i]
            data[f"t{table}_{wind}_game_points"] = "" if table == 1 else points
            data[f"t{table}_{wind}_penalty"] = 0
    # table 1 by its hands: E wins 10 on S's discard, a draw, W self-drawn by tiles,
    # line 5: a transferred penalty of N
    data.update({"t1_h1_kind": "win", "t1_h1_seat": "E", "t1_h1_from": "S", "t1_h1_points": 10,
                 "t1_h2_kind": "draw",
                 "t1_h3_kind": "win", "t1_h3_seat": "W", "t1_h3_from": "",
                 "t1_h3_tiles": "123m456p789s123s5s5s", "t1_h3_context": "seat=W;prevalent=E",
                 "t1_h5_kind": "penalty", "t1_h5_seat": "N", "t1_h5_points": 30})
    response = clients["organizer"].post(f"/en/tournaments/{t.pk}/sessions/1/sheet/", data)
    assert response.status_code == 302, response.context and response.context["form"].errors
    stored = dict(TableResult.objects.filter(tournament=t, session=1, table=1)
                  .values_list("seat", "game_points"))
    assert sum(stored.values()) == 0
    assert stored["E"] == 34 - 24 + 10 and stored["N"] == -8 - 24 - 30
    assert t.hands.filter(session=1, table=1).count() == 4
    # a wrong line is reported with its line number on the sheet, nothing stored
    data["t1_h5_points"] = 31
    TableResult.objects.all().delete()
    response = clients["organizer"].post(f"/en/tournaments/{t.pk}/sessions/1/sheet/", data)
    assert response.status_code == 200
    assert "hand 5" in response.content.decode()
    assert not TableResult.objects.exists()


def _upload(client, t, text):
    return client.post(f"/en/tournaments/{t.pk}/upload/", {
        "file": SimpleUploadedFile("results.csv", text.encode(), content_type="text/csv")})


def _csv_rows(t, session, points=(30, 10, -10, -30)):
    ids = player_ids(t)
    rows = ["session,table,kind,hand,seat,player,game_points,penalty,from,points,fans,"
            "tiles,context"]
    for table in range(len(ids) // 4):
        for i, wind in enumerate("ESWN"):
            rows.append(f"{session},{table + 1},seat,,{wind},{ids[table * 4 + i]},"
                        f"{points[i]},0,,,,,")
    return rows


def test_csv_upload_stores_all_sessions(clients, make_tournament):
    t = make_tournament("accredited", players=16)
    rows = _csv_rows(t, 1) + _csv_rows(t, 2)[1:]
    response = _upload(clients["organizer"], t, "\n".join(rows))
    assert response.status_code == 302
    assert TableResult.objects.filter(tournament=t).count() == 32


def test_broken_csv_lists_every_error_and_stores_nothing(clients, make_tournament):
    t = make_tournament("accredited", players=16)
    rows = _csv_rows(t, 1) + _csv_rows(t, 2)[1:]
    rows[2] = rows[2].replace(",10,0,", ",11,0,")  # session 1 table 1 unbalanced
    rows[7] = rows[7].replace(",seat,,", ",seat,,").replace(",-10,", ",abc,")
    rows.append("2,1,win,1,E,,,,S,,57,,")  # ambiguous fan 57 on a table with totals
    rows.append("2,2,win,1,X,,,,,,,,")  # bad seat
    response = _upload(clients["organizer"], t, "\n".join(rows))
    assert response.status_code == 200
    problems = response.context["problems"]
    text = " | ".join(problems)
    assert "row 8, session 1, table 2, West" in text and "whole number" in text
    assert "row 35" in text and "E, S, W or N" in text
    assert "session 1, table 1" in text and "sum to 1 instead of zero" in text
    assert "session 2, table 1, hand 1" in text and "57A" in text
    assert not TableResult.objects.exists()


def test_csv_hands_with_57_ambiguity_and_bad_tiles(clients, make_tournament):
    t = make_tournament("accredited", players=16)
    rows = _csv_rows(t, 1)
    rows = [r if ",1,seat," not in r else r.rsplit(",", 7)[0] + ",,0,,,,," for r in rows]
    rows += ["1,1,win,1,E,,,,S,,57 48,,", "1,1,win,2,W,,,,E,16,,123m456p789s123s5s5s,"]
    response = _upload(clients["organizer"], t, "\n".join(rows))
    text = " | ".join(response.context["problems"])
    assert "hand 1" in text and "57A" in text
    assert "hand 2" in text and "14 points, not 16" in text
    assert not TableResult.objects.exists()


def test_template_csv_downloads_and_parses(clients):
    response = clients["anonymous"].get("/en/tournaments/results-template.csv")
    assert response.status_code == 200
    assert response["Content-Disposition"].endswith('"results-template.csv"')
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:6] == ["session", "table", "kind", "hand", "seat", "player"]
    assert response.content.decode() == csv_text(CSV_COLUMNS, CSV_TEMPLATE_ROWS, lineterminator="\n")


def test_standings_csv_and_pdf(clients, make_tournament):
    t = make_tournament("results confirmed", players=16)
    response = clients["anonymous"].get(f"/en/tournaments/{t.pk}/standings.csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:9] == ["rank", "number", "player", "name", "country", "team",
                           "table_points", "game_points", "penalties"]
    assert len(rows) == 17 and rows[1][0] == "1"
    assert f"s{t.sessions}_table_points" in rows[0]
    pdf = clients["anonymous"].get(f"/ru/tournaments/{t.pk}/standings.pdf")
    assert pdf["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF")


def test_distribution_shows_appendix_4_rounds(clients, make_tournament):
    t = make_tournament("accredited", players=16)
    services.seating_draw(tournament=t, user=t.organizer, seed=2)
    # not published: only the organizer and the officers see it (decision 0730)
    assert clients["anonymous"].get(f"/en/tournaments/{t.pk}/sessions/3/tables/"
                                    ).status_code == 404
    assert clients["officer"].get(f"/en/tournaments/{t.pk}/sessions/3/tables/"
                                  ).status_code == 200
    services.seating_publish(tournament=t, user=t.organizer, through=3)
    assert clients["anonymous"].get(f"/en/tournaments/{t.pk}/sessions/4/tables/"
                                    ).status_code == 404
    response = clients["anonymous"].get(f"/en/tournaments/{t.pk}/sessions/3/tables/")
    assert response.status_code == 200
    tables = response.context["tables"]
    assert len(tables) == 4
    a, b, c, d = tables[0]["seats"]
    assert [r.number for r in tables[0]["rounds"][1]] == [b.number, a.number, d.number,
                                                          c.number]
    assert clients["anonymous"].get(f"/en/tournaments/{t.pk}/sessions/9/tables/"
                                    ).status_code == 404


def test_officer_accredits_and_rejects_in_the_admin(clients, make_tournament, officer):
    t = make_tournament("submitted")
    from django.utils import translation

    from tournaments.problem_texts import error_message

    page = clients["officer"].get(f"/admin/tournaments/{t.pk}/decide/")
    html = page.content.decode()
    assert html.count('data-level="warning"') >= 2  # no club, organizer not a member
    assert 'data-level="error"' not in html
    response = clients["officer"].post(f"/admin/tournaments/{t.pk}/decide/",
                                       {"decision": "reject", "reason": ""})
    with translation.override(response.wsgi_request.LANGUAGE_CODE):
        assert error_message("reason_required") in response.content.decode()
    clients["officer"].post(f"/admin/tournaments/{t.pk}/decide/",
                            {"decision": "accredit", "reason": ""})
    t.refresh_from_db()
    assert t.state == "accredited"
    assert clients["officer"].get("/admin/tournament_admin/").status_code == 200


def test_officer_corrects_confirmed_results_with_a_reason(clients, make_tournament):
    t = make_tournament("results confirmed", players=16)
    rows = _csv_rows(t, 2, points=(50, 0, -20, -30))
    upload = SimpleUploadedFile("fix.csv", "\n".join(rows).encode(), content_type="text/csv")
    response = clients["officer"].post(f"/admin/tournaments/{t.pk}/decide/", {
        "correction-file": upload, "correction-reason": "Table 1 swapped two scores"})
    assert response.status_code == 302
    assert TableResult.objects.get(tournament=t, session=2, table=1, seat="E").game_points == 50
    assert t.decisions.get(action="correct").reason == "Table 1 swapped two scores"


def test_the_tournament_page_names_its_country_in_the_page_language(client, make_tournament):
    t = make_tournament("accredited")
    assert f"{t.city}, Netherlands" in client.get(f"/en/tournaments/{t.pk}/").content.decode()
    assert f"{t.city}, Нидерланды" in client.get(f"/ru/tournaments/{t.pk}/").content.decode()


def test_tournament_pages_link_each_player_to_their_page(client, make_tournament):
    import re

    from tournaments.models import Registration

    t = make_tournament("results confirmed", players=16)
    registrations = {r.player_id: r for r in Registration.objects.filter(tournament=t)}
    page = client.get(f"/fr/tournaments/{t.pk}/").content.decode()
    players = re.search(r'<section aria-labelledby="players">.*?</section>', page, re.S).group(0)
    linked = {int(pk): name for pk, name in
              re.findall(r'<a href="/fr/ratings/players/(\d+)/">([^<]+)</a>', players)}
    assert linked == {pk: str(r.player) for pk, r in registrations.items()}
    # the players' countries (NL) are named in the page's language
    assert players.count("<td>Pays-Bas</td>") == len(registrations)
    # the top ten and every seat of the session tables link too
    results = page.split('aria-labelledby="results"')[1]
    seats = re.findall(r'<a href="/fr/ratings/players/(\d+)/">', results)
    assert len(seats) == 4 * 4 * t.sessions  # 4 tables of 4 players each session
    leaders = page.split('aria-labelledby="leaders"')[1].split("</section>")[0]
    assert len(re.findall(r'href="/fr/ratings/players/\d+/"', leaders)) == 10
    standings = client.get(f"/fr/tournaments/{t.pk}/standings/").content.decode()
    assert set(map(int, re.findall(r'href="/fr/ratings/players/(\d+)/"', standings))) == set(
        registrations)

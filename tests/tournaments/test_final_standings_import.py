"""Past tournaments imported from their final standings, at home and abroad (issue 35, items
3, 4, 6; decision 0810): the file reading, the matching, the API, the standings, the EMA
ranking and the rating list."""

from __future__ import annotations

import csv
import datetime
import io
import json
import random
from decimal import Decimal
from fractions import Fraction

import pytest
from openpyxl import Workbook

from core.imports import ImportReport as CoreReport
from core.imports import columns_map
from federation.models import ImportRun
from ratings.models import RatingEntry
from ratings.selectors.ema import ema_ranking
from tournaments import selectors
from tournaments.models import Player, Tournament, TournamentResult
from tournaments.rules import standings_files
from tournaments.services.imports import FIELDS as COLUMN_FIELDS
from tournaments.services.imports import (
    ImportRefused,
    ImportReport,
    standings_read,
    tournament_import,
)

URL = "/api/v1/imports/tournaments"
FIELDS = {"name": "Moscow Open 2024", "ruleset": "mcr", "start_date": "2024-03-02",
          "end_date": "2024-03-03", "city": "Moscow", "country": "RU", "mers": "true",
          "mers_weight": "1.5", "abroad": "false"}


# --- the file, pure ---------------------------------------------------------------------------


def read(content: bytes, mapping=None):
    """The lines of a file read as the import reads it (the reader every import shares)."""
    report = ImportReport()
    lines = standings_read(content, mapping, report)
    return lines, report


def test_csv_in_utf8_cp1251_and_cp1252_with_any_delimiter():
    text = "place;first name;last name;score\n1;Иван;Соколов;120\n2;Анна;Петрова;-20\n"
    for encoding in ("utf-8", "cp1251"):
        lines, report = read(text.encode(encoding))
        assert not report.errors and lines[0].last_name == "Соколов"
        assert ("cp1251" in " ".join(report.decisions)) == (encoding == "cp1251")
    lines, report = read("Place,First name,Last name,Score\n1,Amélie,Lefèvre,10\n"
                         .encode("cp1252"))
    assert "cp1252" in " ".join(report.decisions) and lines[0].first_name == "Amélie"


def test_the_standings_file_goes_through_the_shared_reader_and_mapping():
    """One reading path for every import (core.spreadsheets, core.imports): a header the
    import does not know is mapped by the officer, the shared limits apply, and a problem
    names the column as the file writes it."""
    content = b"Rang;Vorname;Nachname;Punkte\n1;Anna;Smit;12\n2;Bob;Berg;x\n"
    _lines, report = read(content)
    assert [(e["column"], e["code"]) for e in report.errors] == [
        ("place", "column_missing"), ("name", "column_missing"), ("score", "column_missing")]
    lines, report = read(content, {"Rang": "place", "Vorname": "first_name",
                                   "Nachname": "last_name", "Punkte": "table_points"})
    assert [(e["row"], e["column"], e["code"]) for e in report.errors] == [
        (3, "Punkte", "bad_number")]
    assert lines[0].table_points == 12
    _lines, report = read(b"\xd0\xcf\x11\xe0 old excel")
    assert [e["code"] for e in report.errors] == ["old_excel"]
    _lines, report = read(content, {"Rang": "nonsense"})
    assert report.errors[0]["code"] == "unknown_field"


def standing_lines(rows):
    """The pure step alone: the first row is the header, mapped by its known names."""
    header, *body = rows
    columns = columns_map(header, COLUMN_FIELDS, None, CoreReport())
    return standings_files.standing_lines(list(enumerate(body, start=2)), columns)


def test_mahjong_portal_upload_columns_last_name_first():
    lines, report = read("place;name;scores\n1;Соколов Иван;45.5\n".encode())
    problems = report.errors
    assert not problems
    assert (lines[0].first_name, lines[0].last_name, lines[0].game_points) == (
        "Иван", "Соколов", 46)
    assert lines[0].score_rounded_from == "45.5"


def test_seven_digit_ema_numbers_get_their_zero_and_problems_name_row_and_column():
    rows = [["Place", "First name", "Last name", "EMA number", "Score"],
            ["1", "A", "B", "1000001", "10"],
            ["x", "C", "D", "", "5"],
            ["3", "E", "F", "12", "5"],
            ["4", "G", "H", "01000001", "abc"],
            ["5", "A", "B", "01000001", "1"]]
    lines, problems = standing_lines(rows)
    assert lines[0].ema_number == "01000001" and lines[0].ema_number_fixed
    assert {(p.row, p.column, p.code) for p in problems} == {
        (3, "place", "bad_place"), (4, "ema_number", "bad_ema_number"),
        (5, "score", "bad_number"), (6, "ema_number", "same_player_twice")}


def test_a_missing_column_is_named():
    _, problems = standing_lines([["Place", "Score"], ["1", "3"]])
    assert [(p.row, p.column, p.code) for p in problems] == [(1, "name", "column_missing")]


# --- a realistic published ranking ------------------------------------------------------------


def published_ranking(players: int = 60, seed: int = 7, every_ema: bool = False
                      ) -> list[dict]:
    """A made-up but realistic final ranking: table points in quarters, ties sharing a
    place, some EMA numbers written without their leading zero, foreign guests."""
    rng = random.Random(seed)
    rows = []
    for i in range(players):
        tp = Fraction(rng.randint(0, 80), 4)
        rows.append({"first": f"Name{i}", "last": f"Family{i}",
                     "ema": (f"{rng.choice([1, 4, 7]):02d}{i:06d}" if i % 3 or every_ema else ""),
                     "country": rng.choice(["Russia", "Russia", "Netherlands", "France"]),
                     "tp": tp, "gp": rng.randint(-300, 300)})
    rows.sort(key=lambda r: (-r["tp"], -r["gp"]))
    rows[5]["tp"], rows[5]["gp"] = rows[4]["tp"], rows[4]["gp"]  # a tie
    place = 0
    for i, row in enumerate(rows):
        same = i and (row["tp"], row["gp"]) == (rows[i - 1]["tp"], rows[i - 1]["gp"])
        place = place if same else i + 1
        row["place"] = place
    return rows


def as_csv(rows: list[dict], *, drop_zero: bool = True) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["Place", "First name", "Last name", "EMA number", "Table points",
                     "Score", "EMA member", "Country"])
    for r in rows:
        ema = r["ema"].lstrip("0") if drop_zero and r["ema"].startswith("01") else r["ema"]
        tp = r["tp"]
        writer.writerow([r["place"], r["first"], r["last"], ema,
                         str(tp.numerator / tp.denominator).replace(".0", "")
                         if tp.denominator != 1 else tp.numerator,
                         r["gp"], "yes" if r["ema"] else "no", r["country"]])
    return out.getvalue().encode()


def post(client, content: bytes, filename: str = "ranking.csv", dry_run: bool = False,
         **extra):
    data = {**FIELDS, **extra, "file": io.BytesIO(content)}
    data["file"].name = filename
    return client.post(URL + ("?dry_run=true" if dry_run else ""), data, format="multipart")


@pytest.mark.django_db
def test_a_published_ranking_gives_the_same_standings_row_by_row_and_twice_nothing(api):
    rows = published_ranking()
    preview = post(api["officer"], as_csv(rows), dry_run=True)
    assert preview.status_code == 200, preview.json()
    assert preview.json()["created"] == 60 and preview.json()["tournament"] is None
    assert not Tournament.objects.exists()
    answer = post(api["officer"], as_csv(rows))
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert (body["created"], body["updated"], body["unchanged"]) == (60, 0, 0)
    t = Tournament.objects.get(pk=body["tournament"])
    assert t.state == "results confirmed" and t.results_kind == "final"
    standings = selectors.tournament_standings(t)
    assert [(s.rank, s.name, s.table_points, s.game_points) for s in standings] == [
        (r["place"], f"{r['first']} {r['last']}", r["tp"], r["gp"]) for r in rows]
    fixed = next(r["ema"] for r in rows if r["ema"].startswith("01"))
    assert any(fixed in d for d in body["decisions"])  # a 7-digit number read with its 0
    again = post(api["officer"], as_csv(rows)).json()
    assert (again["created"], again["updated"], again["unchanged"]) == (0, 0, 60)
    assert Player.objects.count() == 60 and Tournament.objects.count() == 1
    runs = ImportRun.objects.filter(kind="tournaments", report__tournament=t.pk)
    assert runs.count() == 2
    detail = api["anonymous"].get(f"/api/v1/tournaments/{t.pk}").json()
    assert detail["results_kind"] == "final" and detail["abroad"] is False
    report = api["officer"].get(f"/api/v1/imports/{runs.first().pk}/report")
    assert report.status_code == 200 and report.json()["unchanged"] == 60
    assert api["organizer"].get(
        f"/api/v1/imports/{runs.first().pk}/report").status_code == 403


@pytest.mark.django_db
def test_a_changed_row_is_updated(api):
    rows = published_ranking(12)
    post(api["officer"], as_csv(rows))
    rows[-1]["gp"] += 1
    body = post(api["officer"], as_csv(rows)).json()
    assert (body["created"], body["updated"], body["unchanged"]) == (0, 1, 11)


@pytest.mark.django_db
@pytest.mark.parametrize(("role", "code"), [
    ("anonymous", 401), ("member", 403), ("organizer", 403), ("officer", 201)])
def test_only_the_accreditation_officer_imports(api, role, code):
    assert post(api[role], as_csv(published_ranking(8))).status_code == code


@pytest.mark.django_db
def test_every_error_listed_and_nothing_written(api):
    content = b"Place,First name,Last name,Score\n1,A,B,10\nx,C,D,zz\n"
    answer = post(api["officer"], content, ruleset="chess", start_date="2024-13-01")
    assert answer.status_code == 400
    errors = answer.json()["errors"]
    assert {(e["row"], e["column"], e["code"]) for e in errors} >= {
        (None, "ruleset", "bad_field"), (None, "start_date", "bad_field"),
        (3, "Place", "bad_place"), (3, "Score", "bad_number")}  # the file's own headers
    assert all(e["message"] for e in errors)
    assert not Tournament.objects.exists() and not Player.objects.exists()


@pytest.mark.django_db
def test_an_exported_ema_sheet_imports_back_to_the_same_standings(api, make_tournament,
                                                                  client, organizer):
    played = make_tournament("results confirmed", players=16)
    for i, player in enumerate(Player.objects.order_by("pk")[:8]):
        player.ema_number = f"0400{i:04d}"
        player.save()
    before = [(s.rank, s.name, s.table_points_number, s.game_points)
              for s in selectors.tournament_standings(played)]
    for kind in ("csv", "xlsx"):
        client.force_login(organizer)
        sheet = client.get(f"/en/tournaments/{played.pk}/ema-results.{kind}")
        assert sheet.status_code == 200
        extra = {"filename": f"sheet.{kind}", "name": f"Copy {kind}", "country": "NL"}
        preview = post(api["officer"], sheet.content, dry_run=True, **extra).json()
        # the players without an EMA number are namesakes of known players: a person says
        # they are the same
        assert len(preview["review"]) == 8
        choices = {item["row"]: item["candidates"][0]["id"] for item in preview["review"]}
        answer = post(api["officer"], sheet.content, choices=json.dumps(choices), **extra)
        assert answer.status_code == 201, answer.json()
        copy = Tournament.objects.get(pk=answer.json()["tournament"])
        after = [(s.rank, s.name, s.table_points_number, s.game_points)
                 for s in selectors.tournament_standings(copy)]
        assert after == before
        assert Player.objects.count() == 16


# --- review: names without an EMA number ------------------------------------------------------


@pytest.mark.django_db
def test_a_namesake_needs_a_persons_choice(api, officer):
    known = Player.objects.create(name_latin="Li Wei", first_name="Li", last_name="Wei",
                                  country="CN")
    content = b"Place,First name,Last name,Country,Score\n1,Li,Wei,China,10\n2,Bo,Yang,CN,5\n"
    preview = post(api["officer"], content, dry_run=True).json()
    assert preview["review"] == [{"row": 2, "reason": preview["review"][0]["reason"],
                                  "candidates": [{"id": known.pk, "name": "Li Wei",
                                                  "country": "CN", "ema_number": ""}]}]
    refused = post(api["officer"], content)
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["code"] == "review_open"
    assert not Tournament.objects.exists()
    same = post(api["officer"], content, choices=f'{{"2": {known.pk}}}').json()
    assert TournamentResult.objects.get(tournament=same["tournament"], rank=1).player == known
    # Bo Yang is known now too (the import above created him)
    other = post(api["officer"], content, name="Other", choices='{"2": "new", "3": "new"}').json()
    assert TournamentResult.objects.get(tournament=other["tournament"], rank=1).player != known
    with pytest.raises(ImportRefused):
        tournament_import(user=officer, data={**FIELDS, "name": "Third"}, content=content,
                          choices={2: 999999})


# --- the EMA ranking, the rating list, abroad -------------------------------------------------


@pytest.mark.django_db
def test_imports_count_in_the_ema_ranking_abroad_not_in_the_rating_list(officer):
    content = as_csv(published_ranking(8, every_ema=True), drop_zero=False)
    home = tournament_import(user=officer, data=FIELDS, content=content)
    abroad = tournament_import(
        user=officer, content=content,
        data={**FIELDS, "name": "Paris Open", "city": "Paris", "country": "FR",
              "start_date": "2024-06-01", "end_date": "2024-06-02", "abroad": "true"})
    t_abroad = Tournament.objects.get(pk=abroad.tournament)
    assert t_abroad.abroad and not t_abroad.rated and t_abroad.mers_weight == Decimal("1.5")
    ranking = ema_ranking("mcr", datetime.date(2024, 7, 1))
    assert len(ranking) == 8  # two results each: home and abroad
    outcomes = selectors.confirmed_table_results(ruleset="mcr")
    assert {o.tournament_id for o in outcomes} == {home.tournament}
    assert len(outcomes[0].seats) == 8
    rated = RatingEntry.objects.filter(ruleset="mcr")
    assert rated.count() == 8
    assert all(set(e.tournaments) == {home.tournament} for e in rated)


@pytest.mark.django_db
def test_the_standings_page_says_final_standings_only(client, officer):
    report = tournament_import(user=officer, data=FIELDS,
                               content=as_csv(published_ranking(8)))
    page = client.get(f"/en/tournaments/{report.tournament}/standings/")
    assert page.status_code == 200
    assert "Final standings only" in page.content.decode()


def test_xlsx_files_are_read():
    book = Workbook()
    sheet = book.active
    sheet.append(["Place", "First name", "Last name", "EMA number", "Score"])
    sheet.append([1, "Anna", "Smit", 4010001, 12.0])
    out = io.BytesIO()
    book.save(out)
    lines, report = read(out.getvalue())
    assert not report.errors
    assert (lines[0].ema_number, lines[0].game_points) == ("04010001", 12)


@pytest.mark.django_db
def test_pages_mark_abroad_and_the_player_page_states_the_rating_rule(client, officer):
    content = as_csv(published_ranking(8, every_ema=True), drop_zero=False)
    home = tournament_import(user=officer, data=FIELDS, content=content)
    abroad = tournament_import(
        user=officer, content=content,
        data={**FIELDS, "name": "Paris Open", "city": "Paris", "country": "FR",
              "start_date": "2024-06-01", "end_date": "2024-06-02", "abroad": "true"})
    page = client.get(f"/en/tournaments/{abroad.tournament}/").content.decode()
    assert 'data-testid="abroad"' in page and "Final standings only" in page
    home_page = client.get(f"/en/tournaments/{home.tournament}/").content.decode()
    assert 'data-testid="abroad"' not in home_page
    calendar = client.get("/en/tournaments/").content.decode()
    assert calendar.count('data-testid="abroad"') == 1
    player = TournamentResult.objects.filter(tournament=home.tournament).first().player
    profile = client.get(f"/en/ratings/players/{player.pk}/").content.decode()
    assert 'data-testid="final-only-rule"' in profile
    assert 'data-testid="abroad"' in profile


# --- the admin pages --------------------------------------------------------------------------


def _form(**extra):
    return {"name": "Kazan Cup", "ruleset": "mcr", "start_date": "2023-10-07",
            "end_date": "2023-10-08", "city": "Kazan", "country": "RU", "mers": "on",
            "mers_weight": "1", "rated": "on", **extra}


@pytest.mark.django_db
def test_the_officer_previews_chooses_and_commits_in_the_admin(client, officer, organizer):
    known = Player.objects.create(name_latin="Li Wei", first_name="Li", last_name="Wei",
                                  country="CN")
    content = b"Place,First name,Last name,Country,Score\n1,Li,Wei,CN,10\n2,Bo,Yang,CN,5\n"
    client.force_login(organizer)
    assert client.get("/admin/tournaments/import/").status_code in (302, 403)
    client.force_login(officer)
    assert client.get("/admin/tournaments/import/").status_code == 200
    upload = io.BytesIO(content)
    upload.name = "kazan.csv"
    preview = client.post("/admin/tournaments/import/", {**_form(), "file": upload,
                                                          "preview": "1"})
    page = preview.content.decode()
    assert preview.status_code == 200 and 'id="import-review"' in page
    assert not Tournament.objects.exists()
    token = preview.context["form"].initial["upload"]
    committed = client.post("/admin/tournaments/import/", {
        **_form(), "upload": token, "choice-2": str(known.pk), "commit": "1"})
    assert committed.status_code == 200, committed.content.decode()[:2000]
    t = Tournament.objects.get()
    assert TournamentResult.objects.get(tournament=t, rank=1).player == known
    record = ImportRun.objects.get(kind="tournaments")
    report = client.get(f"/api/v1/imports/{record.pk}/report")
    assert report.status_code == 200 and report.json()["created"] == 2
    assert report.json()["file_name"] == "kazan.csv"


@pytest.mark.django_db
def test_admin_errors_are_listed_and_nothing_written(client, officer):
    client.force_login(officer)
    upload = io.BytesIO(b"Place,First name,Last name,Score\nx,A,B,1\n")
    upload.name = "bad.csv"
    page = client.post("/admin/tournaments/import/", {**_form(), "file": upload,
                                                       "commit": "1"}).content.decode()
    assert 'id="import-errors"' in page and not Tournament.objects.exists()


@pytest.mark.django_db
def test_the_import_tournament_command(officer, tmp_path):
    from django.core.management import CommandError, call_command

    path = tmp_path / "ranking.csv"
    path.write_bytes(as_csv(published_ranking(8)))
    args = [str(path), "--user", officer.email, "--name", "Moscow Open 2024",
            "--ruleset", "mcr", "--start-date", "2024-03-02", "--end-date", "2024-03-03",
            "--city", "Moscow", "--country", "RU", "--mers", "--mers-weight", "1.5"]
    out = io.StringIO()
    call_command("import_tournament", *args, "--dry-run", stdout=out)
    assert json.loads(out.getvalue())["created"] == 8 and not Tournament.objects.exists()
    call_command("import_tournament", *args, stdout=io.StringIO())
    again = io.StringIO()
    call_command("import_tournament", *args, stdout=again)
    assert json.loads(again.getvalue())["unchanged"] == 8
    path.write_bytes(b"Place,Name,Score\nx,A B,1\n")
    with pytest.raises(CommandError):
        call_command("import_tournament", *args, stdout=io.StringIO())

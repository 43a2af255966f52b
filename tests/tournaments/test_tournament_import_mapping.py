"""Issue 35 (decision 0815): the tournament import's admin page has the column-mapping step
the members import has, through the shared reader (``core.imports``): a file whose headers
the import does not know is mapped by the officer, previewed and committed; the same file
and mapping imported again changes nothing; a wrong mapping or bad input changes nothing
and names its row and column."""

from __future__ import annotations

import io

import pytest

from federation.models import ImportRun
from tournaments.models import Player, Tournament, TournamentResult

pytestmark = pytest.mark.django_db

URL = "/admin/tournaments/import/"
FILE = ("Pl.;Given;Family;Land;Result;Remark\n"
        "1;Anna;Smit;NL;25;fast\n2;Bob;Berg;BE;-5;\n3;Chen;Li;CN;-20;late\n").encode("cp1252")
MAPPING = {"column-0": "place", "column-1": "first_name", "column-2": "last_name",
           "column-3": "country", "column-4": "score", "column-5": ""}


def _form(**extra):
    return {"name": "Utrecht Open", "ruleset": "mcr", "start_date": "2023-10-07",
            "end_date": "2023-10-08", "city": "Utrecht", "country": "NL", "mers": "on",
            "mers_weight": "1", "rated": "on", **extra}


def _upload(client, content=FILE, name="utrecht.csv"):
    upload = io.BytesIO(content)
    upload.name = name
    return client.post(URL, {**_form(), "file": upload, "preview": "1"})


def test_the_officer_maps_unknown_headers_previews_and_commits(client, officer):
    client.force_login(officer)
    first = _upload(client)
    page = first.content.decode()
    # nothing known by these headers: every column offered, none chosen, the errors say
    # which columns are missing
    assert 'id="import-columns"' in page and "Given" in page and "Remark" in page
    columns = first.context["columns"]
    assert [c["header"] for c in columns] == ["Pl.", "Given", "Family", "Land", "Result",
                                              "Remark"]
    assert all(c["field"] == "" for c in columns)
    assert first.context["report"].errors
    assert {e["column"] for e in first.context["report"].errors} >= {"place", "score"}
    token = first.context["form"].initial["upload"]

    preview = client.post(URL, {**_form(), "upload": token, **MAPPING, "preview": "1"})
    report = preview.context["report"]
    assert report.errors == [] and report.created == 3
    assert [c["field"] for c in preview.context["columns"]] == [
        "place", "first_name", "last_name", "country", "score", ""]
    assert 'name="commit"' in preview.content.decode()
    assert not Tournament.objects.exists() and not Player.objects.exists()

    committed = client.post(URL, {**_form(), "upload": token, **MAPPING, "commit": "1"})
    assert committed.context["committed"] is True
    t = Tournament.objects.get()
    standings = {(r.rank, r.player.name_latin, r.player.country, r.game_points)
                 for r in TournamentResult.objects.filter(tournament=t)
                 .select_related("player")}
    assert standings == {(1, "Anna Smit", "NL", 25), (2, "Bob Berg", "BE", -5),
                         (3, "Chen Li", "CN", -20)}
    run = ImportRun.objects.get(kind="tournaments")
    assert run.mapping == {"Pl.": "place", "Given": "first_name", "Family": "last_name",
                           "Land": "country", "Result": "score", "Remark": ""}
    assert run.file_name == "utrecht.csv" and run.created == 3

    # the same file with the same mapping again: nothing changes
    again = _upload(client)
    token = again.context["form"].initial["upload"]
    second = client.post(URL, {**_form(), "upload": token, **MAPPING, "commit": "1"})
    report = second.context["report"]
    assert (report.created, report.updated, report.unchanged) == (0, 0, 3)
    assert Player.objects.count() == 3 and TournamentResult.objects.count() == 3


def test_a_wrong_mapping_or_bad_cell_changes_nothing_and_names_row_and_column(client,
                                                                             officer):
    client.force_login(officer)
    token = _upload(client).context["form"].initial["upload"]
    twice = client.post(URL, {**_form(), "upload": token, **MAPPING,
                              "column-5": "score", "commit": "1"})
    errors = twice.context["report"].errors
    assert [(e["row"], e["column"], e["code"]) for e in errors] == [
        (None, "Remark", "field_mapped_twice")]
    assert not Tournament.objects.exists()

    bad = FILE.replace(b"2;Bob;Berg;BE;-5;", b"2;Bob;Berg;BE;lots;")
    token = _upload(client, bad).context["form"].initial["upload"]
    refused = client.post(URL, {**_form(), "upload": token, **MAPPING, "commit": "1"})
    errors = refused.context["report"].errors
    assert [(e["row"], e["column"]) for e in errors] == [(3, "Result")]
    assert "lots" in errors[0]["message"]
    listed = refused.content.decode().split('id="import-errors"')[1].split("</ul>")[0]
    assert "3" in listed and "Result" in listed and "lots" in listed
    assert not Tournament.objects.exists() and not Player.objects.exists()
    assert not ImportRun.objects.exists()


def test_only_the_accreditation_officer_maps_and_imports(client, organizer, make_user):
    from federation import services as federation_services

    for user in (organizer, make_user(federation_services.ROLE_MEMBERSHIP_OFFICER)):
        client.force_login(user)
        assert _upload(client).status_code in (302, 403)
    assert not Tournament.objects.exists()

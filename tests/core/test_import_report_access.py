"""Issue 35, item 6 (decision 0815): every import (members, the EMA player register, a
tournament's final standings) keeps one stored report in one format (``ImportRun``),
listed latest first and paginated on the admin page of its import, downloadable as CSV
there and by the API (``GET /api/v1/imports/{id}/report`` and ``.../report.csv``), and
only the roles that own the data see it."""

from __future__ import annotations

import csv
import io

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test.utils import CaptureQueriesContext

from federation import services as federation_services
from federation.models import ImportRun
from federation.services.import_runs import import_run_store
from tests.factories import UserFactory
from tournaments import services as tournament_services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

STORED = {"created": 1, "updated": 0, "unchanged": 2, "review": [], "errors": [],
          "tournament": None, "decisions": ["Row 2: new player Anna Smit."],
          "rows": [{"row": 2, "outcome": "created", "label": "Anna Smit", "notes": []}]}


@pytest.fixture
def people(make_user):
    return {
        "membership": make_user(federation_services.ROLE_MEMBERSHIP_OFFICER),
        "accreditation": make_user(tournament_services.ROLE_OFFICER),
        "treasurer": make_user(federation_services.ROLE_TREASURER),
        "organizer": make_user(tournament_services.ROLE_ORGANIZER),
        "superuser": UserFactory(is_superuser=True, is_staff=True),
    }


def _run(kind: str, by, **stored) -> ImportRun:
    return import_run_store(run=None, kind=kind, file_name=f"{kind}.csv", imported_by=by,
                            mapping={}, stored={**STORED, **stored})


def _csv(response) -> list[list[str]]:
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))


SEES = {
    "members": {"membership", "superuser"},
    "players": {"membership", "accreditation", "superuser"},
    "tournaments": {"accreditation", "superuser"},
}


@pytest.mark.parametrize("kind", sorted(SEES))
def test_only_the_roles_that_own_the_data_read_the_report(client, people, kind):
    run = _run(kind, people["superuser"])
    for who, user in people.items():
        client.force_login(user)
        allowed = who in SEES[kind]
        api = client.get(f"/api/v1/imports/{run.pk}/report")
        api_csv = client.get(f"/api/v1/imports/{run.pk}/report.csv")
        admin_csv = client.get(f"/admin/imports/run/{run.pk}/report.csv")
        assert api.status_code == (200 if allowed else 403), (kind, who)
        assert api_csv.status_code == (200 if allowed else 403), (kind, who)
        if allowed:
            assert admin_csv.status_code == 200, (kind, who)
            body = api.json()
            assert (body["id"], body["kind"], body["file_name"]) == (run.pk, kind,
                                                                       f"{kind}.csv")
            assert body["imported_by"]["id"] == people["superuser"].pk
            assert (body["created"], body["unchanged"]) == (1, 2)
            assert _csv(api_csv) == _csv(admin_csv)
        else:  # the admin sends who may not see it back to the dashboard
            assert admin_csv.status_code in (302, 403), (kind, who)
            assert "Anna Smit" not in admin_csv.content.decode()
    client.logout()
    assert client.get(f"/api/v1/imports/{run.pk}/report").status_code in (401, 403)
    assert client.get(f"/api/v1/imports/{run.pk}/report.csv").status_code in (401, 403)


def test_the_report_in_one_format_whatever_the_import(client, people):
    """Every kind's report answers the same keys; its CSV lists the rows, the decisions in
    words, the review and the errors."""
    client.force_login(people["superuser"])
    review = [{"row": 3, "reason": "name_match",
               "candidates": [{"id": 9, "name": "Li Wei", "country": "CN"}]}]
    keys = None
    for kind in SEES:
        run = _run(kind, people["superuser"], review=review)
        body = client.get(f"/api/v1/imports/{run.pk}/report").json()
        keys = keys or set(body)
        assert set(body) == keys == {
            "id", "kind", "file_name", "imported_by", "imported_at", "created", "updated",
            "unchanged", "review", "errors", "tournament", "rows", "decisions"}
        rows = _csv(client.get(f"/api/v1/imports/{run.pk}/report.csv"))
        assert rows[0] == ["row", "outcome", "what", "column", "code", "message"]
        assert ["2", "created", "Anna Smit", "", "", ""] in rows
        assert ["", "decision", "", "", "", "Row 2: new player Anna Smit."] in rows
        assert ["3", "review", "name_match", "", "", "Li Wei"] in rows
    # a run not committed (an upload waiting for its preview) has no report
    waiting = ImportRun.objects.create(kind="members", file_name="x.csv", data=b"a",
                                       created_by=people["superuser"])
    assert client.get(f"/api/v1/imports/{waiting.pk}/report").status_code == 404


def test_the_old_tournament_report_address_answers_tournament_imports_only(client, people):
    client.force_login(people["superuser"])
    tournaments = _run("tournaments", people["superuser"])
    members = _run("members", people["superuser"])
    url = "/api/v1/imports/tournaments/{}/report"
    assert client.get(url.format(tournaments.pk)).json()["kind"] == "tournaments"
    assert client.get(url.format(members.pk)).status_code == 404


@pytest.mark.parametrize(("kind", "page"), [("members", "/admin/imports/members/"),
                                            ("players", "/admin/imports/players/"),
                                            ("tournaments", "/admin/tournaments/import/")])
def test_each_import_page_lists_its_reports_latest_first_paginated(client, people, kind,
                                                                   page):
    """25 a page, the latest first, each with its CSV link; the same number of queries
    for 3 and for 30 imports."""
    client.force_login(people["superuser"])

    def queries(count: int) -> tuple[int, str]:
        ImportRun.objects.filter(kind=kind).delete()
        for n in range(count):
            tournament = None
            if kind == "tournaments":
                tournament = Tournament.objects.create(
                    name=f"Past {n}", start_date="2020-01-04", end_date="2020-01-05",
                    ruleset="mcr", country="NL", city="Utrecht", sessions=1, planned_players=2,
                    organizer=people["accreditation"]).pk
            run = _run(kind, people["membership"], tournament=tournament)
            ImportRun.objects.filter(pk=run.pk).update(file_name=f"file-{n:02}.csv")
        with CaptureQueriesContext(connection) as captured:
            response = client.get(page)
        assert response.status_code == 200
        return len(captured), response.content.decode()

    small, _html = queries(3)
    large, html = queries(30)
    assert small == large, (small, large)
    assert html.index("file-29.csv") < html.index("file-28.csv")  # latest first
    assert "file-04.csv" not in html and 'id="import-runs-pages"' in html
    assert html.count("/report.csv") == 25
    if kind == "tournaments":
        assert "Past 29" in html
    second = client.get(page, {"page": 2}).content.decode()
    assert "file-04.csv" in second and "file-29.csv" not in second
    latest = ImportRun.objects.filter(kind=kind).order_by("-pk").first()
    assert f"/admin/imports/run/{latest.pk}/" in html
    shown = client.get(f"/admin/imports/run/{latest.pk}/").content.decode()
    assert 'id="import-committed"' in shown and f"/{latest.pk}/report.csv" in shown


def test_the_generic_page_of_the_tournament_import_is_its_own_page(client, people):
    client.force_login(people["accreditation"])
    response = client.get("/admin/imports/tournaments/")
    assert response.status_code == 302 and response["Location"] == "/admin/tournaments/import/"
    client.force_login(people["membership"])
    assert client.get("/admin/imports/tournaments/").status_code == 302
    assert client.get("/admin/tournaments/import/")["Location"] == "/admin/"


@pytest.mark.django_db(transaction=True)
def test_tournament_imports_move_into_import_runs(people):
    """The data migration: a ``TournamentImport`` row becomes an ``ImportRun`` of kind
    "tournaments" with its who, when, file, counts and decisions; undone, it moves back."""
    import importlib

    migration = importlib.import_module(
        "tournaments.migrations.0027_tournament_imports_into_import_runs")
    before = MigrationExecutor(connection).loader.project_state(
        [("tournaments", "0026_player_name_keys"),
         ("federation", "0018_member_paid_coverage")]).apps
    model = before.get_model("tournaments", "TournamentImport")
    tournament = Tournament.objects.create(name="Old Open", start_date="2019-05-04",
                                           end_date="2019-05-05", ruleset="mcr",
                                           country="NL", city="Utrecht", sessions=1, planned_players=2,
                                           organizer=people["accreditation"])
    with connection.schema_editor() as editor:
        editor.create_model(model)
    try:
        record = model.objects.create(
            tournament_id=tournament.pk, filename="old.csv",
            imported_by_id=people["accreditation"].pk,
            report={"created": 5, "updated": 1, "unchanged": 0, "review": [], "errors": [],
                    "tournament": tournament.pk, "decisions": ["Row 2: new player A B."]})
        model.objects.filter(pk=record.pk).update(imported_at="2024-01-02T03:04:05Z")
        migration.forwards(before, None)
        run = ImportRun.objects.get(kind="tournaments")
        assert (run.file_name, run.created_by_id, run.created, run.updated) == (
            "old.csv", people["accreditation"].pk, 5, 1)
        assert run.committed_at.isoformat().startswith("2024-01-02T03:04:05")
        assert run.created_at == run.committed_at
        assert run.report["decisions"] == ["Row 2: new player A B."]
        assert run.report["rows"] == [] and run.report["tournament"] == tournament.pk
        model.objects.all().delete()
        migration.backwards(before, None)
        back = model.objects.get()
        assert (back.filename, back.tournament_id) == ("old.csv", tournament.pk)
        assert back.report["created"] == 5 and not ImportRun.objects.exists()
    finally:
        with connection.schema_editor() as editor:
            editor.delete_model(model)

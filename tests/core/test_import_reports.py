"""Issue 35, item 6: after any import (members, the EMA player register, a tournament's
final standings), through any door (here the commands), its report stays downloadable in
the admin by the officer who owns the data, with every row and decision."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.core.management import call_command

from federation import services as federation_services
from federation.models import ImportRun, MembershipType

pytestmark = pytest.mark.django_db


@pytest.fixture
def membership_officer(make_user):
    return make_user(federation_services.ROLE_MEMBERSHIP_OFFICER,
                     email="membership@example.org")


def _csv(response) -> list[list[str]]:
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))


def test_every_import_leaves_its_report_to_download(client, tmp_path, membership_officer,
                                                    officer):
    MembershipType.objects.get_or_create(kind="regular")
    members = tmp_path / "members.csv"
    members.write_text("Name;E-mail;Member number\nAnna Smit;anna@example.org;7\n")
    register = tmp_path / "register.csv"
    register.write_text("EMA number;Last name;First name;Country\n4010001;Smit;Anna;NL\n")
    standings = tmp_path / "standings.csv"
    standings.write_text("Place,First name,Last name,EMA number,Country,Score\n"
                         "1,Anna,Smit,04010001,NL,10\n2,Bob,Berg,,NL,-10\n")
    call_command("import_members", str(members), "--user", membership_officer.email,
                 stdout=io.StringIO())
    call_command("import_players", str(register), "--user", membership_officer.email,
                 stdout=io.StringIO())
    call_command("import_tournament", str(standings), "--user", officer.email,
                 "--name", "Utrecht Open", "--ruleset", "mcr", "--start-date", "2024-05-04",
                 "--end-date", "2024-05-05", "--city", "Utrecht", "--country", "NL",
                 stdout=io.StringIO())

    client.force_login(membership_officer)
    for kind, what in (("members", "Anna Smit"), ("players", "Anna Smit")):
        run = ImportRun.objects.get(kind=kind)
        listing = client.get(f"/admin/imports/{kind}/").content.decode()
        assert f"/admin/imports/run/{run.pk}/report.csv" in listing, kind
        rows = _csv(client.get(f"/admin/imports/run/{run.pk}/report.csv"))
        assert rows[0][:3] == ["row", "outcome", "what"]
        assert [r[1:3] for r in rows[1:]] == [["created", what]], kind
    record = ImportRun.objects.get(kind="tournaments")
    refused = client.get(f"/admin/imports/run/{record.pk}/report.csv")
    assert refused.status_code == 302 and refused["Location"] == "/admin/"  # the officer's

    client.force_login(officer)
    assert f"/admin/imports/run/{record.pk}/report.csv" in client.get(
        "/admin/tournaments/import/").content.decode()
    rows = _csv(client.get(f"/admin/imports/run/{record.pk}/report.csv"))
    assert rows[0][:3] == ["row", "outcome", "what"]
    assert any(r[1] == "decision" and "Bob Berg" in r[5] for r in rows[1:])
    report = json.loads(client.get(f"/api/v1/imports/{record.pk}/report").content)
    assert report["created"] == 2 and any("Bob Berg" in d for d in report["decisions"])

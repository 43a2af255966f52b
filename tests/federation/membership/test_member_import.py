"""Members and clubs imported from a spreadsheet (issue 35, item 1): the service, the API,
the command and the admin's pages."""

from __future__ import annotations

import io
import json
from datetime import date
from decimal import Decimal

import pytest
from django.contrib.auth.models import Group
from django.core import mail
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone
from openpyxl import Workbook
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from core.imports import ImportFailed
from federation import selectors, services
from federation.models import (
    Club,
    ClubMembership,
    DuesInvoice,
    ImportRun,
    Member,
    MembershipFee,
    MembershipType,
    MembershipYear,
    Payment,
)
from federation.rules.dues import Status
from tournaments.permissions import ROLE_OFFICER, ROLE_ORGANIZER

pytestmark = pytest.mark.django_db

TODAY = date(2025, 6, 1)

SHEET = (
    "Name;E-mail;Date of birth;Club;Member number;Country;Phone;Joined;Paid years\n"
    "Иван Петров;ivan@example.org;1980-04-02;East Wind;101;RU;+7 900 000;2020-01-15;2024, 2025\n"
    "Anna Smit;anna@example.org;02.03.1990;West Wind;102;NL;;2021-05-01;2025\n"
    "Li Wei;;;East Wind;;CN;;;\n"
)


@pytest.fixture
def years(db):
    made = []
    for year, amount in ((2024, "100.00"), (2025, "120.00")):
        y = MembershipYear.objects.create(year=year, starts_on=date(year, 1, 1),
                                          ends_on=date(year, 12, 31), currency="EUR")
        MembershipFee.objects.create(membership_year=y, amount=Decimal(amount),
                                     membership_type=MembershipType.objects.get(kind="regular"))
        made.append(y)
    return made


def run(data, **kw):
    kw.setdefault("today", TODAY)
    return services.members_import(data=data if isinstance(data, bytes) else data.encode(),
                                   file_name="members.csv", imported_by=None, **kw)


def test_members_clubs_and_paid_dues_are_created_and_status_is_right_on_day_one(years):
    report = run(SHEET)
    assert (report.created, report.updated, report.unchanged) == (3, 0, 0)
    assert report.errors == [] and report.review == []
    ivan = Member.objects.get(membership_number=101)
    assert (ivan.name_native, ivan.email, ivan.date_of_birth, ivan.country, ivan.phone) == (
        "Иван Петров", "ivan@example.org", date(1980, 4, 2), "RU", "+7 900 000")
    assert ivan.application == Member.Application.APPROVED and ivan.club.name == "East Wind"
    assert ivan.joined_on == date(2020, 1, 15)
    assert set(Club.objects.values_list("name", flat=True)) == {"East Wind", "West Wind"}
    assert ClubMembership.objects.filter(member=ivan, club__name="East Wind").exists()
    li = Member.objects.get(name_native="Li Wei")
    assert li.membership_number == 103  # the sequence goes on after the numbers given
    invoices = DuesInvoice.objects.filter(member=ivan).order_by("membership_year__year")
    assert [(i.membership_year.year, i.amount) for i in invoices] == [
        (2024, Decimal("100.00")), (2025, Decimal("120.00"))]
    payments = Payment.objects.filter(invoice__member=ivan)
    assert {p.method for p in payments} == {Payment.Method.IMPORTED}
    assert all(isinstance(p.amount, Decimal) and p.amount == p.invoice.amount for p in payments)
    assert selectors.member_status(ivan, TODAY) == Status.ACTIVE
    assert selectors.member_status(li, TODAY) != Status.ACTIVE
    run_row = ImportRun.objects.get()
    assert (run_row.kind, run_row.created, run_row.file_name) == ("members", 3, "members.csv")
    assert run_row.report["created"] == 3 and len(run_row.report["rows"]) == 3


def test_no_email_is_sent_by_an_import(years, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        run(SHEET)
    assert mail.outbox == []


def test_the_same_file_twice_changes_nothing_the_second_time(years):
    run(SHEET)
    counts = (Member.objects.count(), DuesInvoice.objects.count(), Payment.objects.count(),
              Club.objects.count(), ClubMembership.objects.count())
    again = run(SHEET)
    # Li Wei has neither number nor e-mail: the second time is a question, not a duplicate
    assert (again.created, again.updated, again.unchanged) == (0, 0, 2)
    assert [(r.row, r.reason) for r in again.review] == [(4, "same_name")]
    assert counts == (Member.objects.count(), DuesInvoice.objects.count(),
                      Payment.objects.count(), Club.objects.count(),
                      ClubMembership.objects.count())


def test_matched_by_number_then_email_and_empty_cells_change_nothing(years, make_member):
    by_number = make_member(name_native="Old Name", name_latin="Old Name", email="x@example.org")
    by_email = make_member(name_native="Anna Smit", name_latin="Anna Smit",
                           email="ANNA@example.org")
    Member.objects.filter(pk=by_email.pk).update(membership_number=None)
    sheet = ("name,email,member number,phone\n"
             f"New Name,,{by_number.membership_number},\n"
             "Anna Smit,anna@example.org,555,+31 6\n")
    report = run(sheet)
    assert (report.created, report.updated) == (0, 2)
    by_number.refresh_from_db()
    by_email.refresh_from_db()
    assert by_number.name_native == "New Name" and by_number.email == "x@example.org"
    assert by_email.phone == "+31 6" and by_email.membership_number == 555


def test_rows_with_errors_write_nothing_and_name_row_and_column(years):
    sheet = ("Name;E-mail;Date of birth;Member number;Paid years\n"
             ";a@example.org;;;\n"
             "Bob;not-an-email;31.02.1990;abc;2019\n"
             "Eve;eve@example.org;;7;2025\n"
             "Eve Twin;eve@example.org;;7;\n")
    with pytest.raises(ImportFailed) as failed:
        run(sheet)
    errors = {(e["row"], e["column"], e["code"]) for e in failed.value.body()["errors"]}
    assert errors == {
        (2, "Name", "required"), (3, "E-mail", "bad_email"),
        (3, "Date of birth", "bad_date"), (3, "Member number", "bad_number"),
        (5, "Member number", "number_twice"), (5, "E-mail", "email_twice"),
    }
    assert failed.value.status == 400
    assert Member.objects.count() == 0 and Club.objects.count() == 0
    with pytest.raises(ImportFailed) as unknown_year:
        run("name,paid years\nBob,2019\n")
    [error] = unknown_year.value.body()["errors"]
    assert (error["row"], error["column"], error["code"]) == (2, "paid years", "unknown_year")
    assert "2019" in error["message"]


def test_a_name_only_match_waits_for_a_decision(years, make_member):
    existing = make_member(name_native="Li Wei", name_latin="Li Wei", email="li@example.org")
    report = run("name,club\nLi Wei,East Wind\n", dry_run=True)
    [item] = report.review
    assert item.row == 2 and [c["id"] for c in item.candidates] == [existing.pk]
    assert run("name\nLi Wei\n", decisions={2: "new"}).created == 1
    assert Member.objects.filter(name_native="Li Wei").count() == 2
    same = run("name,phone\nLi Wei,+86 1\n", decisions={2: str(existing.pk)})
    assert (same.created, same.updated) == (0, 1)
    existing.refresh_from_db()
    assert existing.phone == "+86 1"


def test_dry_run_writes_nothing(years):
    report = run(SHEET, dry_run=True)
    assert report.created == 3
    assert Member.objects.count() == 0 and ImportRun.objects.count() == 0


def test_a_mapping_names_the_columns_of_another_spreadsheet(years):
    sheet = "Who;Mail;Nr\nAnna;anna@example.org;77\n"
    with pytest.raises(ImportFailed):
        run(sheet)  # no column is known as the name
    report = run(sheet, mapping={"Who": "name", "Mail": "email", "Nr": "member_number"})
    assert report.created == 1
    assert Member.objects.get(membership_number=77).email == "anna@example.org"


def test_headers_in_russian_and_a_cp1251_file(years):
    sheet = ("ФИО;Почта;Дата рождения;Клуб;Номер;Страна;Телефон;Дата вступления;Оплачено\n"
             "Иван Петров;ivan@example.org;02.04.1980;Восток;5;Россия;;;2025\n")
    report = run(sheet.encode("cp1251"))
    assert report.created == 1
    ivan = Member.objects.get(membership_number=5)
    assert (ivan.name_native, ivan.club.name, ivan.country) == ("Иван Петров", "Восток", "Россия")
    assert selectors.member_status(ivan, TODAY) == Status.ACTIVE


def test_an_xlsx_file(years):
    book = Workbook()
    book.active.append(["Nom", "Courriel", "Date de naissance", "Numéro de membre", "Pays"])
    book.active.append(["Hélène Lefèvre", "helene@example.org", date(1985, 7, 14), 9, "FR"])
    buffer = io.BytesIO()
    book.save(buffer)
    assert run(buffer.getvalue()).created == 1
    helene = Member.objects.get(membership_number=9)
    assert (helene.name_native, helene.date_of_birth) == ("Hélène Lefèvre", date(1985, 7, 14))


def test_a_partly_paid_invoice_is_paid_up_and_a_paid_one_left_alone(years, make_member, pay_cash):
    member = make_member(email="m@example.org", joined_on=date(2025, 1, 1))
    invoice = DuesInvoice.objects.filter(member=member, membership_year=years[1]).first()
    invoice = invoice or services.dues_invoice_issue(
        member=member, membership_year=years[1], issued_by=None, today=date(2025, 1, 2))
    pay_cash(invoice, "20", date(2025, 1, 3))
    sheet = f"name,member number,paid years\nIvan Petrov,{member.membership_number},2025\n"
    assert run(sheet).updated == 1
    assert selectors.invoice_balance(invoice).outstanding == Decimal("0.00")
    assert DuesInvoice.objects.filter(member=member).count() == 1
    assert run(sheet).unchanged == 1


# --- the API -------------------------------------------------------------------------------


def client_for(user):
    client = APIClient()
    if user is not None:
        token, _created = Token.objects.get_or_create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture
def callers(make_user, membership_officer, make_member):
    organizer = make_user()
    organizer.groups.add(Group.objects.get(name=ROLE_ORGANIZER))
    accreditation = make_user()
    accreditation.groups.add(Group.objects.get(name=ROLE_OFFICER))
    member = make_member()
    return {"anonymous": None, "member": member.user, "organizer": organizer,
            "accreditation officer": accreditation, "membership officer": membership_officer}


def post(user, data, query="", **fields):
    upload = io.BytesIO(data.encode() if isinstance(data, str) else data)
    upload.name = "members.csv"
    return client_for(user).post(f"/api/v1/imports/members{query}",
                                 {"file": upload, **fields}, format="multipart")


@pytest.mark.parametrize(("role", "status"), [
    ("anonymous", 401), ("member", 403), ("organizer", 403),
    ("accreditation officer", 403), ("membership officer", 200),
])
def test_who_may_import_members(years, callers, role, status):
    before = Member.objects.count()
    response = post(callers[role], SHEET, "?dry_run=true")
    assert response.status_code == status
    assert Member.objects.count() == before


def test_api_preview_commit_and_errors(years, callers):
    officer = callers["membership officer"]
    preview = post(officer, SHEET, "?dry_run=true")
    assert preview.json() == {"created": 3, "updated": 0, "unchanged": 0, "review": [],
                              "errors": [], "tournament": None}
    assert not Member.objects.filter(email="ivan@example.org").exists()
    assert post(officer, SHEET).json()["created"] == 3
    assert post(officer, SHEET).json()["unchanged"] == 2
    bad = post(officer, "Name;E-mail\n;x\nBob;y@\n")
    assert bad.status_code == 400
    body = bad.json()
    assert set(body) == {"created", "updated", "unchanged", "review", "errors", "tournament"}
    assert [(e["row"], e["column"], e["code"]) for e in body["errors"]] == [
        (2, "Name", "required"), (2, "E-mail", "bad_email"), (3, "E-mail", "bad_email")]
    assert all(e["message"] for e in body["errors"])
    mapped = post(officer, "Who\nZoe\n", mapping=json.dumps({"Who": "name"}))
    assert mapped.status_code == 200 and mapped.json()["created"] == 1
    missing = client_for(officer).post("/api/v1/imports/members", {}, format="multipart")
    assert missing.status_code == 400
    assert missing.json()["errors"][0]["column"] == "file"
    bad_mapping = post(officer, "Who\nZoe\n", mapping="[1]")
    assert bad_mapping.json()["errors"][0]["code"] == "bad_json_object"


def test_api_errors_in_the_users_language(years, callers):
    response = post(callers["membership officer"], "Name\n\n,\nAnna\n", "?dry_run=true",
                    HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 200
    bad = client_for(callers["membership officer"]).post(
        "/api/v1/imports/members?dry_run=true",
        {"file": io.BytesIO(b"Name;E-mail\nBob;y@\n")}, format="multipart",
        HTTP_ACCEPT_LANGUAGE="ru")
    assert bad.status_code == 400
    assert "e-mail" not in bad.json()["errors"][0]["message"]  # said in Russian


# --- the command -----------------------------------------------------------------------------


def test_the_command_previews_and_imports(years, tmp_path):
    path = tmp_path / "members.csv"
    path.write_text("Who;Mail\nAnna;anna@example.org\n", encoding="utf-8")
    out = io.StringIO()
    call_command("import_members", str(path), "--dry-run", "--mapping",
                 '{"Who": "name", "Mail": "email"}', stdout=out)
    assert json.loads(out.getvalue())["created"] == 1 and Member.objects.count() == 0
    call_command("import_members", str(path), "--mapping",
                 '{"Who": "name", "Mail": "email"}', stdout=io.StringIO())
    assert Member.objects.get().email == "anna@example.org"
    with pytest.raises(CommandError):
        call_command("import_members", str(path), stdout=io.StringIO())


# --- the admin's pages -----------------------------------------------------------------------


def test_admin_pages_upload_map_preview_commit_and_report(client, years, membership_officer):
    client.force_login(membership_officer)
    page = client.get("/admin/imports/members/")
    assert page.status_code == 200
    upload = io.BytesIO(b"Who;E-mail;Paid years\nAnna;anna@example.org;2025\n")
    upload.name = "club list.csv"
    response = client.post("/admin/imports/members/", {"file": upload})
    run_row = ImportRun.objects.get()
    assert response.status_code == 302 and response.url == f"/admin/imports/run/{run_row.pk}/"
    preview = client.get(response.url).content.decode()
    assert "Who" in preview and 'id="import-errors"' in preview  # the name is not mapped yet
    mapped = client.post(response.url, {"column-0": "name", "column-1": "email",
                                        "column-2": "paid_years", "action": "preview"})
    assert 'id="import-commit"' in mapped.content.decode()
    assert Member.objects.count() == 0
    committed = client.post(response.url, {"column-0": "name", "column-1": "email",
                                           "column-2": "paid_years", "action": "commit"})
    assert committed.status_code == 302
    assert Member.objects.get().email == "anna@example.org"
    run_row.refresh_from_db()
    assert run_row.committed_at is not None and run_row.data == b"" and run_row.created == 1
    report = client.get(f"/admin/imports/run/{run_row.pk}/report.csv")
    assert report.status_code == 200 and "Anna" in report.content.decode()
    assert "club list.csv" in client.get("/admin/imports/members/").content.decode()


@pytest.mark.parametrize("role", ["anonymous", "member", "organizer", "accreditation officer"])
def test_admin_pages_are_the_membership_officers(client, years, callers, role):
    run_row = ImportRun.objects.create(kind="members", file_name="x.csv", data=b"name\nA\n",
                                       committed_at=timezone.now(), report={"rows": []})
    if callers[role] is not None:
        client.force_login(callers[role])
    for url in ("/admin/imports/members/", f"/admin/imports/run/{run_row.pk}/",
                f"/admin/imports/run/{run_row.pk}/report.csv"):
        assert client.get(url).status_code in (302, 403), url


def test_a_number_and_an_email_of_two_members_is_an_error(years, make_member):
    one = make_member(email="one@example.org")
    make_member(email="two@example.org")
    with pytest.raises(ImportFailed) as failed:
        run(f"name,member number,email\nX,{one.membership_number},two@example.org\n")
    [error] = failed.value.body()["errors"]
    assert (error["row"], error["column"], error["code"]) == (2, "email",
                                                              "number_email_conflict")


def test_a_free_membership_type_ignores_paid_years_with_a_note(years, make_member):
    honorary = make_member(kind="honorary", email="h@example.org")
    report = run(f"name,member number,paid years\nH,{honorary.membership_number},2024\n")
    assert [n.code for r in report.rows for n in r.notes] == ["free_type_no_dues"]
    assert not DuesInvoice.objects.filter(member=honorary, membership_year=years[0]).exists()


def test_the_admin_page_takes_the_decision_on_a_row_for_review(client, years, make_member,
                                                               membership_officer):
    existing = make_member(name_native="Li Wei", name_latin="Li Wei", email="li@example.org")
    client.force_login(membership_officer)
    upload = io.BytesIO(b"name;phone\nLi Wei;+86 1\n")
    upload.name = "li.csv"
    url = client.post("/admin/imports/members/", {"file": upload}).url
    page = client.get(url).content.decode()
    assert 'name="decision-2"' in page and f'value="{existing.pk}"' in page
    client.post(url, {"column-0": "name", "column-1": "phone", "decision-2": str(existing.pk),
                      "action": "commit"})
    existing.refresh_from_db()
    assert existing.phone == "+86 1" and Member.objects.filter(name_native="Li Wei").count() == 1


def test_the_number_of_an_erased_member_is_not_given_again(years, make_member):
    erased = make_member(email="gone@example.org")
    services.member_erase(member=erased, requested_by=None)
    with pytest.raises(ImportFailed) as failed:
        run(f"name,member number\nNew Person,{erased.membership_number}\n")
    assert failed.value.body()["errors"][0]["code"] == "number_erased"

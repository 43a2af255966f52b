"""The EMA player register imported (issue 35, item 2), and the one EMA number rule
everywhere a number is typed: entries, the players endpoint, the player admin."""

from __future__ import annotations

import io
import random
from datetime import timedelta
from decimal import Decimal

import pytest
from django.contrib.auth.models import Group
from django.forms import modelform_factory

from core.imports import ImportFailed
from federation import selectors as federation_selectors
from federation.models import ImportRun
from federation.services import ROLE_MEMBERSHIP_OFFICER
from tests.tournaments.fixtures import token_client
from tournaments import services
from tournaments.errors import TournamentError
from tournaments.models import Entry, Player

pytestmark = pytest.mark.django_db

COUNTRIES = ["Austria", "NL", "FR", "Denmark", "DE", "RU", "HU", "CH"]


def register_csv(count: int, seed: int = 35) -> tuple[str, int]:
    """A register of ``count`` players as the EMA publishes it, read through a spreadsheet
    that dropped the leading zero of every number starting with 0: the CSV and how many
    numbers lost their zero."""
    rng = random.Random(seed)
    lines = ["EMA number;Last name;First name;Country"]
    padded = 0
    for index in range(count):
        number = f"{rng.choice(['01', '02', '04', '10', '13', '21'])}{index:06d}"
        written = number.lstrip("0") if number.startswith("0") else number
        padded += written != number
        lines.append(f"{written};Lastname{index};Firstname{index};{rng.choice(COUNTRIES)}")
    return "\n".join(lines) + "\n", padded


def run(data, **kw):
    return services.players_import(data=data.encode() if isinstance(data, str) else data,
                                   file_name="register.csv", imported_by=None, **kw)


def test_a_register_of_several_hundred_imports_once_and_changes_nothing_the_second_time():
    data, padded = register_csv(600)
    assert padded > 200  # many 7-digit numbers
    preview = run(data, dry_run=True)
    assert (preview.created, preview.errors) == (600, []) and Player.objects.count() == 0
    notes = [n for r in preview.rows for n in r.notes if n.code == "ema_number_padded"]
    assert len(notes) == padded
    first = run(data)
    assert (first.created, first.updated, first.unchanged) == (600, 0, 0)
    assert Player.objects.count() == 600
    assert all(len(n) == 8 for n in Player.objects.values_list("ema_number", flat=True))
    austrian = Player.objects.filter(country="AT").first()
    assert austrian is not None and austrian.name_search
    state = list(Player.objects.order_by("pk").values_list(
        "ema_number", "name_latin", "first_name", "last_name", "country"))
    second = run(data)
    assert (second.created, second.updated, second.unchanged) == (0, 0, 600)
    assert state == list(Player.objects.order_by("pk").values_list(
        "ema_number", "name_latin", "first_name", "last_name", "country"))
    assert ImportRun.objects.filter(kind="players").count() == 2


def test_a_changed_name_or_country_updates_the_player():
    run("EMA;Last name;First name;Country\n04010001;Smit;Anna;NL\n")
    report = run("EMA;Last name;First name;Country\n4010001;Smit-Jansen;Anna;BE\n")
    assert report.updated == 1
    anna = Player.objects.get(ema_number="04010001")
    assert (anna.name_latin, anna.last_name, anna.country) == ("Anna Smit-Jansen",
                                                              "Smit-Jansen", "BE")
    assert Player.objects.filter(name_search__contains="smit-jansen").exists()


def test_errors_name_row_and_column_and_write_nothing():
    data = ("EMA number;Last name;First name;Country\n"
            "xxxxxxxxxxxxxxxxxxxx;Smit;Anna;NL\n"
            "123456789;Bakker;Piet;NL\n"
            "04010003;;Mia;NL\n"
            "04010004;Visser;Jan;Atlantis\n"
            "4010005;Jong;Eva;NL\n"
            "04010005;Jong;Eva;NL\n")
    with pytest.raises(ImportFailed) as failed:
        run(data)
    errors = [(e["row"], e["column"], e["code"]) for e in failed.value.body()["errors"]]
    assert errors == [(2, "EMA number", "bad_ema_number"), (3, "EMA number", "bad_ema_number"),
                      (4, "Last name", "required"), (5, "Country", "bad_country"),
                      (7, "EMA number", "ema_number_twice")]
    assert "xxxxxxxxxxxxxxxxxxxx" in failed.value.body()["errors"][0]["message"]
    assert Player.objects.count() == 0


def test_a_player_of_the_same_name_without_a_number_waits_for_a_decision():
    known = Player.objects.create(name_latin="Anna Smit", country="NL")
    data = "EMA;Last name;First name;Country\n04010001;Smit;Anna;NL\n"
    report = run(data)
    assert [(r.row, [c["id"] for c in r.candidates]) for r in report.review] == [
        (2, [known.pk])]
    assert Player.objects.count() == 1 and not Player.objects.get().ema_number
    same = run(data, decisions={2: str(known.pk)})
    assert same.updated == 1
    known.refresh_from_db()
    assert known.ema_number == "04010001"


# --- the API ---------------------------------------------------------------------------------


@pytest.fixture
def callers(organizer, officer, member_user, make_user):
    return {"anonymous": None, "member": member_user, "organizer": organizer,
            "accreditation officer": officer,
            "membership officer": make_user(ROLE_MEMBERSHIP_OFFICER)}


def post(user, data, query=""):
    upload = io.BytesIO(data.encode())
    upload.name = "register.csv"
    return token_client(user).post(f"/api/v1/imports/players{query}", {"file": upload},
                                   format="multipart")


@pytest.mark.parametrize(("role", "status"), [
    ("anonymous", 401), ("member", 403), ("organizer", 403),
    ("accreditation officer", 200), ("membership officer", 200),
])
def test_who_may_import_the_register(callers, role, status):
    response = post(callers[role], "EMA;Last name;First name\n04010001;Smit;Anna\n")
    assert response.status_code == status
    assert Player.objects.count() == (1 if status == 200 else 0)


def test_api_answers_the_report(callers):
    officer = callers["accreditation officer"]
    data = "EMA;Last name;First name\n1000001;Smit;Anna\n"
    assert post(officer, data, "?dry_run=true").json() == {
        "created": 1, "updated": 0, "unchanged": 0, "review": [], "errors": [],
        "tournament": None}
    assert Player.objects.count() == 0
    assert post(officer, data).json()["created"] == 1
    assert post(officer, data).json()["unchanged"] == 1
    bad = post(officer, "EMA;Last name;First name\nabc;Smit;Anna\n")
    assert bad.status_code == 400
    assert bad.json()["errors"][0] | {"message": ""} == {
        "row": 2, "column": "EMA", "code": "bad_ema_number", "message": ""}


# --- the same rule everywhere an EMA number is typed -----------------------------------------


def test_players_endpoint_pads_seven_digits_and_refuses_the_rest(api, make_tournament):
    t = make_tournament("accredited", players=0)
    ok = api["organizer"].post(f"/api/v1/tournaments/{t.pk}/players", [
        {"name": "Anna Smit", "country": "AT", "ema_number": "1000001"}], format="json")
    assert ok.status_code in (200, 201)
    assert Player.objects.get(name_latin="Anna Smit").ema_number == "01000001"
    for bad_number in ("xxxxxxxxxxxxxxxxxxxx", "123456", "123456789", "0100000A"):
        bad = api["organizer"].post(f"/api/v1/tournaments/{t.pk}/players", [
            {"name": "Ok Name", "country": "NL"},
            {"name": "Bad Number", "country": "NL", "ema_number": bad_number}], format="json")
        assert bad.status_code == 400
        [error] = bad.json()["errors"]
        assert (error["row"], error["field"], error["code"]) == (2, "ema_number",
                                                                 "bad_ema_number")


def test_an_entry_pads_seven_digits_and_refuses_the_rest(make_tournament, make_user):
    today = federation_selectors.today()
    t = make_tournament("accredited", start_date=today + timedelta(days=60),
                        end_date=today + timedelta(days=61), max_players=4,
                        fee_member=Decimal("20.00"), fee_other=Decimal("30.00"), currency="EUR")
    data = {"first_name": "Anna", "last_name": "Smit", "country": "AT"}
    with pytest.raises(TournamentError) as refused:
        services.entry_create(tournament=t, user=make_user(), ema_number="xxxxxxxxxxxxxxxxxxxx",
                              **data)
    assert refused.value.code == "bad_ema_number" and refused.value.field == "ema_number"
    assert not Entry.objects.exists()
    entry = services.entry_create(tournament=t, user=make_user(), ema_number="1000001", **data)
    assert entry.ema_number == "01000001"


def test_the_player_admin_form_pads_seven_digits_and_refuses_the_rest():
    form_class = modelform_factory(Player, fields=["name_latin", "country", "ema_number"])
    good = form_class({"name_latin": "Anna Smit", "country": "AT", "ema_number": "1000001"})
    assert good.is_valid(), good.errors
    assert good.save().ema_number == "01000001"
    bad = form_class({"name_latin": "Bad", "country": "AT", "ema_number": "xxxxxxxxxxxxxxxxxxxx"})
    assert not bad.is_valid() and "ema_number" in bad.errors


def test_the_register_admin_page_is_for_both_officers(client, callers):
    for role in ("accreditation officer", "membership officer"):
        client.force_login(callers[role])
        assert client.get("/admin/imports/players/").status_code == 200
    for role in ("member", "organizer"):
        client.force_login(callers[role])
        assert client.get("/admin/imports/players/").status_code in (302, 403)
    assert Group.objects.get(name=ROLE_MEMBERSHIP_OFFICER).permissions.filter(
        codename="import_players").exists()

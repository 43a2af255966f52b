"""The second probe's wrong answers, 500s and stalls from input (issue 37, items 7, 9, 11-17;
docs/reliability.md): each test failed before its fix."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from ratings.services import ratings_recompute
from tournaments.models import Player

pytestmark = pytest.mark.django_db

SEMICOLON_FORMULA = "Anna;=cmd|' /C calc'!A0;x"


def _login(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


# --- 9. formulas after a separator other than ours ---------------------------------------------


def _formula_cells(content: bytes) -> list[str]:
    """The cells a spreadsheet that splits lines on `;` (or tab) would read as formulas."""
    found = []
    for line in content.decode().splitlines():
        for cell in re.split(r"[;\t]", line):
            cell = cell.strip().strip('"').strip()
            if cell[:1] in ("=", "+", "@", "|", "%") or re.match(r"-[^\d.]", cell):
                found.append(cell)
    return found


def test_no_export_hands_a_formula_to_a_semicolon_spreadsheet(organizer, make_tournament):
    t = make_tournament("results confirmed", players=16)
    player = Player.objects.get(pk=t.registrations.order_by("number")[0].player_id)
    player.name_latin = SEMICOLON_FORMULA
    player.save()
    ratings_recompute()
    client = _login(organizer)
    period = f"{t.end_date:%Y-%m}"
    answers = {
        "standings": client.get(f"/en/tournaments/{t.pk}/standings.csv"),
        "ema results": client.get(f"/en/tournaments/{t.pk}/ema-results.csv"),
        "ratings": client.get(f"/en/ratings/csv/?period={period}"),
        "history": client.get("/en/ratings/history.csv"),
    }
    for name, response in answers.items():
        assert response.status_code == 200, name
        content = (b"".join(response.streaming_content) if response.streaming
                   else response.content)
        assert b"Anna;" in content, name
        assert _formula_cells(content) == [], name


# --- 14. a NUL byte in a parameter ---------------------------------------------------------------


@pytest.mark.parametrize(("url", "name"), [
    ("/en/search/?q=a%00b", "q"),
    ("/api/v1/search?q=a%00b", "q"),
    ("/en/ratings/?country=%00", "country"),
    ("/en/ratings/csv/?country=%00", "country"),
    ("/api/v1/fans?x%00=1", "x"),
])
def test_a_nul_in_a_parameter_is_refused_naming_it(client, url, name):
    response = client.get(url)
    assert response.status_code == 400
    if url.startswith("/api/"):
        error = response.json()["errors"][0]
        assert (error["field"], error["code"]) == (name, "bad_character")
    else:
        assert f"“{name}”" in response.content.decode()


def test_a_nul_in_a_posted_form_field_is_refused(client):
    response = client.post("/en/accounts/login/", "login=a%00b&password=x",
                           content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400
    assert "“login”" in response.content.decode()


# --- 16. a year-1 tournament and history.csv; a large POST; the token page ---------------------


def test_history_csv_stays_in_the_plausible_window():
    from datetime import date, timedelta

    from tests.tournaments.confirmed_results import confirmed_tournament, players

    people = players(8)
    confirmed_tournament(people, date(1, 1, 2), sessions=1, seed=1)
    confirmed_tournament(people, date.today() - timedelta(days=40), sessions=1, seed=2)
    ratings_recompute()
    response = Client().get("/en/ratings/history.csv")
    assert response.status_code == 200
    lines = b"".join(response.streaming_content).decode().splitlines()
    periods = {line.split(",")[3] for line in lines[1:]}
    assert min(periods) >= "1990-01"
    # 8 players, each month from 1990 to last month at most
    assert len(lines) <= 1 + 8 * 12 * (date.today().year - 1989)


def test_a_page_body_over_the_limit_is_413_before_it_is_read(settings):
    settings.PAGE_MAX_BODY_BYTES = 1000
    client = Client(enforce_csrf_checks=True)
    response = client.post("/en/accounts/login/", {"login": "x" * 2000, "password": "y"})
    assert response.status_code == 413
    assert "MB" in response.content.decode()
    assert client.post("/en/accounts/login/", {"login": "x"}).status_code == 403  # CSRF still


def test_the_api_token_page_is_never_cached(member_user):
    response = _login(member_user).get("/en/accounts/api-token/")
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]


# --- 13. numbers and dates out of range ----------------------------------------------------------


def test_a_seed_of_two_to_the_fortieth_is_refused(api, organizer, make_tournament):
    t = make_tournament("accredited", players=8)
    response = api["organizer"].post(f"/api/v1/tournaments/{t.pk}/seating", {"seed": 2**40},
                                     format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "seed"
    page = _login(organizer).post(f"/en/tournaments/{t.pk}/seating/", {"seed": 2**40},
                                  follow=True)
    assert page.status_code == 200
    assert "Seed:" in page.content.decode()
    t.refresh_from_db()
    assert t.seating_seed is None


@pytest.mark.parametrize("url", ["/api/v1/ratings", "/api/v1/search?q=mahjong",
                                 "/api/v1/tournaments"])
def test_a_page_number_of_35_digits_is_refused(client, url):
    joiner = "&" if "?" in url else "?"
    response = client.get(f"{url}{joiner}page={'9' * 35}")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "page"


def test_a_ranking_date_of_year_one_is_refused_naming_it(client):
    page = client.get("/en/ratings/ema/?date=0001-01-01")
    assert page.status_code == 400
    assert "“date”" in page.content.decode()
    assert client.get("/en/ratings/ema/csv/?date=0001-01-01").status_code == 400
    api = client.get("/api/v1/rankings/ema?date=0002-12-31")
    assert api.status_code == 400
    assert api.json()["errors"][0]["field"] == "date"


# --- 15. a CSV field over the csv module's 131,072 characters -----------------------------------


def test_a_huge_field_in_the_results_upload_names_the_line(organizer, make_tournament):
    from django.core.files.uploadedfile import SimpleUploadedFile

    t = make_tournament("accredited", players=8)
    text = "session,table,kind,seat,player\n1,1,seat,E," + "1" * 140_000 + "\n"
    response = _login(organizer).post(f"/en/tournaments/{t.pk}/upload/", {
        "file": SimpleUploadedFile("r.csv", text.encode(), content_type="text/csv")})
    assert response.status_code == 200
    problems = " ".join(response.context["problems"])
    assert "131072" in problems and "2" in problems
    from tournaments.models import TableResult
    assert not TableResult.objects.exists()


def test_a_huge_field_in_the_bank_import_names_the_line(django_user_model):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from federation.models import Payment
    from federation.rules import bank_statement

    text = "date,amount,reference,transaction_id\n2026-02-03,60.00," + "x" * 140_000 + ",T1\n"
    statement = bank_statement.parse_statement(text.encode())
    assert [(e.line, e.code) for e in statement.errors] == [(2, bank_statement.E_TOO_LONG)]
    admin = django_user_model.objects.create_superuser("root", email="root@example.org",
                                                       password="x" * 12)
    response = _login(admin).post("/admin/membership/bank-import/", {
        "statement": SimpleUploadedFile("s.csv", text.encode(), content_type="text/csv")})
    assert response.status_code == 200
    assert re.search(r"131\D{0,8}072", response.content.decode())  # the admin's language
    assert not Payment.objects.exists()


# --- 12. one limit on a line's points and a sheet's lines -------------------------------------


@pytest.fixture
def table_entry(make_tournament, organizer):
    from tournaments import services

    tournament = make_tournament("accredited", players=8)
    services.seating_draw(tournament=tournament, user=organizer, seed=1)
    return services.table_entries_open(tournament=tournament, session=1, user=organizer)[0]


def test_a_line_of_ten_to_the_thirtieth_points_is_refused(table_entry):
    from tournaments import services
    from tournaments.rules.results_files import MAX_HAND_POINTS

    for points in (10**30, MAX_HAND_POINTS + 1):
        with pytest.raises(services.TournamentError) as err:
            services.table_entry_line_add(
                entry=table_entry, line={"kind": "win", "seat": "E", "from": "S",
                                         "points": points})
        assert err.value.field == "points"
        with pytest.raises(services.TournamentError):
            services.table_entry_line_add(
                entry=table_entry, line={"kind": "penalty", "seat": "N", "points": points,
                                         "reason": "Late"})
    table_entry.refresh_from_db()
    assert table_entry.hands == []


def test_a_sheet_holds_the_hands_every_import_holds(table_entry):
    from tournaments import services
    from tournaments.rules.results_files import MAX_HANDS_PER_TABLE

    table_entry.hands = [{"kind": "draw"}] * MAX_HANDS_PER_TABLE
    table_entry.save()
    with pytest.raises(services.TournamentError) as err:
        services.table_entry_line_add(entry=table_entry, line={"kind": "draw"})
    assert err.value.code == "too_many_lines"
    assert str(MAX_HANDS_PER_TABLE) in err.value.message


def test_a_sheet_stored_before_the_limits_is_refused_not_a_500(table_entry):
    from tournaments import services
    from tournaments.models import TableResult

    table_entry.hands = [{"kind": "win", "seat": "E", "from": "S", "points": 10**30}]
    table_entry.state = "entered"
    table_entry.save()
    with pytest.raises(services.TournamentError) as err:
        services.table_entry_agree(entry=table_entry, seat="N")
    assert err.value.field == "points"
    table_entry.hands = [{"kind": "draw"}] * 403
    table_entry.save()
    with pytest.raises(services.TournamentError) as err:
        services.table_entry_agree(entry=table_entry, seat="N")
    assert err.value.code == "too_many_lines"
    assert not TableResult.objects.exists()


# --- 7. a transferred penalty to a player at another table ------------------------------------


def test_a_penalty_transferred_to_another_drawn_table_is_refused(make_tournament, organizer):
    from tournaments import services
    from tournaments.models import Penalty, SeatingAssignment

    t = make_tournament("accredited", players=12)
    services.seating_draw(tournament=t, user=organizer, seed=1)
    seats = dict(SeatingAssignment.objects.filter(tournament=t, session=1)
                 .values_list("player_id", "table"))
    offender = next(iter(seats))
    elsewhere = next(p for p, table in seats.items() if table != seats[offender])
    together = next(p for p, table in seats.items()
                    if table == seats[offender] and p != offender)
    with pytest.raises(services.TournamentError) as err:
        services.penalty_give(tournament=t, user=organizer, session=1, player=offender,
                              kind="transferred", points=30, reason="x", to_player=elsewhere)
    assert (err.value.code, err.value.field) == ("penalty_receiver", "to_player")
    assert not Penalty.objects.exists()
    services.penalty_give(tournament=t, user=organizer, session=1, player=offender,
                          kind="transferred", points=30, reason="x", to_player=together)
    assert Penalty.objects.count() == 1


# --- 8. "Register the confirmed entries" names the entry that blocks it ------------------------


def test_registering_entries_names_the_entry_whose_ema_number_is_wrong(
        make_tournament, make_user, organizer):
    from datetime import date, timedelta
    from decimal import Decimal

    from tournaments import services
    from tournaments.models import Entry, Registration

    start = date.today() + timedelta(days=60)
    t = make_tournament("accredited", start_date=start, end_date=start + timedelta(days=1),
                        max_players=4, fee_member=Decimal("20.00"),
                        fee_other=Decimal("30.00"), currency="EUR")
    for first, last in (("Anna", "Kowalska"), ("Jan", "Jansen")):
        entry = services.entry_create(tournament=t, user=make_user(), first_name=first,
                                      last_name=last, country="NL")
        services.entry_decide(entry=entry, user=organizer, decision="confirm")
    Entry.objects.filter(last_name="Jansen").update(ema_number="x" * 20)  # stored before checks
    response = _login(organizer).post(f"/en/tournaments/{t.pk}/entries/register/",
                                      follow=True)
    text = " ".join(str(m) for m in response.context["messages"])
    assert "Jan Jansen" in text and "Anna Kowalska" not in text
    assert not Registration.objects.filter(tournament=t).exists()


# --- 11. control characters (Word's line break) -------------------------------------------------


def test_every_form_and_serializer_text_field_cleans_control_characters():
    from django import forms
    from rest_framework import serializers

    assert forms.CharField().clean("Anna\x0bSmit\x01") == "Anna Smit"
    assert forms.CharField(widget=forms.Textarea).clean("line\x0bnext") == "line\nnext"
    assert forms.EmailField().clean("anna\x07@example.org") == "anna@example.org"
    field = serializers.CharField()
    assert field.run_validation("Anna\x0bSmit\x1f") == "Anna Smit"
    with pytest.raises(forms.ValidationError):  # a NUL stays refused, with its message
        forms.CharField().clean("a\x00b")


def test_a_name_typed_with_a_control_character_is_stored_clean(api, make_tournament):
    t = make_tournament("accredited")
    response = api["organizer"].post(f"/api/v1/tournaments/{t.pk}/players", [
        {"name": "Anna\x0bSmit", "country": "NL"}], format="json")
    assert response.status_code in (200, 201), response.content
    assert Player.objects.filter(name_latin="Anna Smit").exists()


def test_old_names_and_titles_with_control_characters_do_not_break_the_downloads(
        organizer, make_tournament, make_user, site_content):
    import datetime
    from datetime import date, timedelta
    from decimal import Decimal

    from wagtail.models import Locale

    from content.models import NewsIndexPage, NewsPage
    from tournaments import services

    confirmed = make_tournament("results confirmed", players=16)
    player = Player.objects.get(pk=confirmed.registrations.order_by("number")[0].player_id)
    Player.objects.filter(pk=player.pk).update(name_latin="Anna\x0bSmit\x01",
                                               first_name="Anna\x0b", last_name="Smit\x0c")
    start = date.today() + timedelta(days=60)
    open_one = make_tournament("accredited", start_date=start,
                               end_date=start + timedelta(days=1), max_players=4,
                               fee_member=Decimal("20.00"), fee_other=Decimal("30.00"),
                               currency="EUR")
    services.entry_create(tournament=open_one, user=make_user(), first_name="Anna\x0b",
                          last_name="Smit\x01", country="NL")
    client = _login(organizer)
    ema = client.get(f"/en/tournaments/{confirmed.pk}/ema-results.xlsx")
    assert ema.status_code == 200 and ema["Content-Type"].startswith("application/vnd")
    entries = client.get(f"/en/tournaments/{open_one.pk}/entries.xlsx")
    assert entries.status_code == 200 and entries["Content-Type"].startswith("application/vnd")

    page = NewsPage(title="Dues\x0bpaid", summary="Line\x0bbreak\x01", tag="federation",
                    date=datetime.date(2026, 1, 1), body=[])
    NewsIndexPage.objects.get(locale=Locale.objects.get(language_code="en")).add_child(
        instance=page)
    page.save_revision().publish()
    feed = Client().get("/en/news/feed/")
    assert feed.status_code == 200
    assert b"Dues paid" in feed.content

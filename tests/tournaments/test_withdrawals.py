"""Drop-outs and substitutes: a player withdraws from session k on, a substitute fills the
table, the results of the later sessions leave the player out, the standings follow the
tournament's rule, substitutes are neither ranked nor rated; through the services, the API
and the pages, with who may and who may not."""

from __future__ import annotations

import csv
import io

import pytest

from ratings.models import RatingEntry
from tournaments import services
from tournaments.models import SeatingAssignment, Tournament, TournamentResult
from tournaments.rules.results_files import parse_results_json
from tournaments.rules.seating_draw import meetings
from tournaments.selectors import confirmed_table_results, tournament_standings

pytestmark = pytest.mark.django_db

POINTS = {"E": 30, "S": 10, "W": -10, "N": -30}


def _with_substitute(make_tournament, organizer, **data):
    """12 players and 1 substitute (a guest), accredited, seated, sessions 1-3 played."""
    t = make_tournament("accredited", players=12, **data)
    (sub,) = services.players_register(tournament=t, user=organizer, entries=[
        services.PlayerEntry(name="Sam Stand-in", country="BE", substitute=True)])
    services.seating_draw(tournament=t, user=organizer, seed=5)
    _post(t, organizer, 1, 2, 3)
    return t, sub


def _payload(t, session: int) -> dict:
    tables: dict[int, list[dict]] = {}
    for a in SeatingAssignment.objects.filter(tournament=t, session=session).order_by(
            "table", "seat"):
        tables.setdefault(a.table, []).append(
            {"player": a.player_id, "game_points": POINTS[a.seat], "penalty": 0, "seat": a.seat})
    order = {"E": 0, "S": 1, "W": 2, "N": 3}
    return {"session": session, "tables": [
        {"table": n, "seats": [{k: v for k, v in s.items() if k != "seat"}
                               for s in sorted(seats, key=lambda s: order[s["seat"]])]}
        for n, seats in sorted(tables.items())
    ]}


def _post(t, user, *sessions: int) -> None:
    parsed, problems = parse_results_json({"sessions": [_payload(t, s) for s in sessions]})
    assert not problems
    services.results_record(tournament=t, user=user, sessions=parsed)


def _first(t):
    return t.registrations.order_by("number").first()


# --- services ---------------------------------------------------------------------------


def test_substitutes_are_seated_only_where_a_table_needs_a_fourth(make_tournament, organizer):
    t, sub = _with_substitute(make_tournament, organizer)
    assert not SeatingAssignment.objects.filter(tournament=t, player=sub.player).exists()
    assert SeatingAssignment.objects.filter(tournament=t, session=1).count() == 12


def test_withdrawal_redraw_results_and_confirmation(make_tournament, organizer):
    t, sub = _with_substitute(make_tournament, organizer)
    gone = _first(t)
    before = list(SeatingAssignment.objects.filter(tournament=t, session__lt=4)
                  .values_list("session", "table", "seat", "player_id"))
    services.registration_withdraw(registration=gone, user=organizer, from_session=4,
                                   reason="illness")
    gone.refresh_from_db()
    assert (gone.withdrawn_from, gone.withdrawal_reason) == (4, "illness")

    services.seating_draw(tournament=t, user=organizer, seed=9, from_session=4)
    kept = list(SeatingAssignment.objects.filter(tournament=t, session__lt=4)
                .values_list("session", "table", "seat", "player_id"))
    assert kept == before
    for session in (4, 5, 6):
        seated = set(SeatingAssignment.objects.filter(tournament=t, session=session)
                     .values_list("player_id", flat=True))
        assert gone.player_id not in seated and sub.player_id in seated and len(seated) == 12

    _post(t, organizer, 4, 5, 6)
    confirmed = services.tournament_confirm(tournament=t, user=organizer)
    assert confirmed.state == "results confirmed"

    rows = {r.player: r for r in tournament_standings(t)}
    assert rows[sub.player_id].rank is None and rows[sub.player_id].substitute
    assert rows[gone.player_id].withdrawn_from == 4 and rows[gone.player_id].sessions == 3
    ranks = sorted(r.rank for r in rows.values() if r.rank is not None)
    assert rows[gone.player_id].rank == max(ranks) == 12  # below the 11 who finished
    assert all(rows[p].rank < 12 for p in rows if p not in (gone.player_id, sub.player_id))
    stored = dict(TournamentResult.objects.filter(tournament=t).values_list("player_id", "rank"))
    assert sub.player_id not in stored and stored[gone.player_id] == 12
    assert set(TournamentResult.objects.filter(tournament=t).values_list("players", flat=True)) \
        == {12}

    # ratings: the substitute's seats are marked and never rated; their opponents are
    outcomes = [o for o in confirmed_table_results() if o.tournament_id == t.pk]
    assert any(sub.player_id in o.unrated for o in outcomes)
    assert not RatingEntry.objects.filter(player=sub.player).exists()
    rated = set(RatingEntry.objects.values_list("player_id", flat=True))
    assert gone.player_id in rated and len(rated) == 12


def test_unranked_rule_leaves_withdrawn_players_out(make_tournament, organizer):
    t, _sub = _with_substitute(make_tournament, organizer, withdrawn_ranking="unranked")
    gone = _first(t)
    services.registration_withdraw(registration=gone, user=organizer, from_session=4)
    services.seating_draw(tournament=t, user=organizer, seed=2, from_session=4)
    _post(t, organizer, 4, 5, 6)
    services.tournament_confirm(tournament=t, user=organizer)
    rows = {r.player: r for r in tournament_standings(t)}
    assert rows[gone.player_id].rank is None
    assert sorted(r.rank for r in rows.values() if r.rank is not None)[-1] <= 11
    assert not TournamentResult.objects.filter(tournament=t, player=gone.player).exists()


def test_a_withdrawn_player_seated_later_is_refused_by_name(make_tournament, organizer):
    t, _sub = _with_substitute(make_tournament, organizer)
    gone = _first(t)
    services.registration_withdraw(registration=gone, user=organizer, from_session=4)
    parsed, _ = parse_results_json({"sessions": [_payload(t, 4)]})  # old seating: still there
    with pytest.raises(services.ResultsError) as err:
        services.results_record(tournament=t, user=organizer, sessions=parsed)
    codes = {p.code for p in err.value.problems}
    assert "player_withdrawn" in codes and "player_unknown" not in codes


def test_confirmation_still_needs_every_remaining_session(make_tournament, organizer):
    t, _sub = _with_substitute(make_tournament, organizer)
    services.registration_withdraw(registration=_first(t), user=organizer, from_session=4)
    services.seating_draw(tournament=t, user=organizer, seed=2, from_session=4)
    _post(t, organizer, 4, 5)
    with pytest.raises(services.ResultsError) as err:
        services.tournament_confirm(tournament=t, user=organizer)
    assert [p.session for p in err.value.problems] == [6]


def test_withdrawal_is_refused_where_the_player_has_results(make_tournament, organizer):
    t, _sub = _with_substitute(make_tournament, organizer)
    with pytest.raises(services.TournamentError) as err:
        services.registration_withdraw(registration=_first(t), user=organizer, from_session=2)
    assert err.value.code == "withdraw_after_results" and err.value.params == {"session": 2}
    with pytest.raises(services.TournamentError) as err:
        services.registration_withdraw(registration=_first(t), user=organizer, from_session=7)
    assert err.value.code == "withdraw_session"


def test_redraw_counts_the_meetings_kept(make_tournament, organizer):
    t = make_tournament("accredited", players=16, sessions=7)
    services.seating_draw(tournament=t, user=organizer, seed=1)
    whole = services.seating_draw(tournament=t, user=organizer, seed=1, from_session=4)
    sessions = []
    for s in range(1, 8):
        tables: dict[int, list[int]] = {}
        for a in SeatingAssignment.objects.filter(tournament=t, session=s).order_by("table"):
            tables.setdefault(a.table, []).append(a.player_id)
        sessions.append(list(tables.values()))
    assert whole.repeat_pairs == sum(1 for n in meetings(sessions).values() if n > 1)


# --- API --------------------------------------------------------------------------------


def _url(t, player):
    return f"/api/v1/tournaments/{t.pk}/players/{player}/withdraw"


def test_api_withdraw_seat_standings(make_tournament, organizer, api):
    t = make_tournament("accredited", players=12)
    sub = api["organizer"].post(f"/api/v1/tournaments/{t.pk}/players", [
        {"name": "Guest Stand-in", "country": "FR", "substitute": True}], format="json").json()
    assert sub[0]["substitute"] is True
    services.seating_draw(tournament=t, user=organizer, seed=5)
    _post(t, organizer, 1, 2, 3)
    gone = _first(t).player_id

    response = api["organizer"].post(_url(t, gone), {"from_session": 4, "reason": "train"},
                                     format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["withdrawn_from"] == 4 and body["withdrawal_reason"] == "train"
    assert body["id"] == gone

    seating = api["organizer"].post(f"/api/v1/tournaments/{t.pk}/seating",
                                    {"seed": 4, "from_session": 4}, format="json")
    assert seating.status_code == 200
    later = [s for s in seating.json()["sessions"] if s["session"] >= 4]
    assert all(gone not in table["seats"].values() for s in later for table in s["tables"])

    posted = api["organizer"].post(f"/api/v1/tournaments/{t.pk}/results",
                                   {"sessions": [_payload(t, s) for s in (4, 5, 6)]},
                                   format="json")
    assert posted.status_code == 200, posted.json()
    assert api["organizer"].post(f"/api/v1/tournaments/{t.pk}/confirm").status_code == 200

    rows = {r["player"]: r for r in api["anonymous"].get(
        f"/api/v1/tournaments/{t.pk}/standings").json()}
    assert rows[sub[0]["id"]]["rank"] is None and rows[sub[0]["id"]]["substitute"] is True
    assert rows[gone]["withdrawn_from"] == 4 and rows[gone]["rank"] == 12
    assert all(r["withdrawn_from"] is None for p, r in rows.items() if p != gone)

    # the public players list has no reason
    public = api["anonymous"].get(f"/api/v1/tournaments/{t.pk}/players").json()
    assert all("withdrawal_reason" not in p for p in public)


def test_api_withdraw_errors_name_the_field_and_change_nothing(make_tournament, organizer, api):
    t = make_tournament("accredited", players=8)
    gone = _first(t)
    response = api["organizer"].post(_url(t, gone.player_id), {"from_session": 9},
                                     format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "from_session"
    assert response.json()["errors"][0]["code"] == "withdraw_session"
    response = api["organizer"].post(_url(t, gone.player_id), {"reason": "x"}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "from_session"
    gone.refresh_from_db()
    assert gone.withdrawn_from is None
    assert api["organizer"].post(_url(t, 999999), {"from_session": 2},
                                 format="json").status_code == 404


@pytest.mark.parametrize(("who", "status"), [
    ("anonymous", 401), ("member", 403), ("other", 403), ("officer", 403)])
def test_api_only_its_organizer_withdraws(make_tournament, api, who, status):
    t = make_tournament("accredited", players=8)
    gone = _first(t)
    response = api[who].post(_url(t, gone.player_id), {"from_session": 2}, format="json")
    assert response.status_code == status
    gone.refresh_from_db()
    assert gone.withdrawn_from is None


# --- pages ------------------------------------------------------------------------------


def test_manage_page_withdraw_form_and_cancel(client, make_tournament, organizer):
    t = make_tournament("accredited", players=8)
    gone = _first(t)
    client.force_login(organizer)
    manage = client.get(f"/en/tournaments/{t.pk}/manage/").content.decode()
    assert f'/en/tournaments/{t.pk}/players/{gone.player_id}/withdraw/' in manage
    form = client.get(f"/en/tournaments/{t.pk}/players/{gone.player_id}/withdraw/")
    html = form.content.decode()
    assert form.status_code == 200 and "Cancel" in html and 'name="reason"' in html
    assert f'href="/en/tournaments/{t.pk}/manage/#players"' in html
    bad = client.post(f"/en/tournaments/{t.pk}/players/{gone.player_id}/withdraw/",
                      {"from_session": "9"})
    assert bad.status_code == 200
    done = client.post(f"/en/tournaments/{t.pk}/players/{gone.player_id}/withdraw/",
                       {"from_session": "3", "reason": "flight"})
    assert done.status_code == 302
    gone.refresh_from_db()
    assert (gone.withdrawn_from, gone.withdrawal_reason) == (3, "flight")
    manage = client.get(f"/en/tournaments/{t.pk}/manage/").content.decode()
    assert "from session 3" in manage and "flight" in manage


@pytest.mark.parametrize("who", ["anonymous", "other"])
def test_only_its_organizer_opens_or_posts_the_withdraw_page(
        client, make_tournament, other_organizer, who):
    t = make_tournament("accredited", players=8)
    gone = _first(t)
    if who == "other":
        client.force_login(other_organizer)
    url = f"/en/tournaments/{t.pk}/players/{gone.player_id}/withdraw/"
    get, post = client.get(url), client.post(url, {"from_session": "2"})
    if who == "anonymous":
        assert get.status_code == post.status_code == 302
        assert "/accounts/login/" in get["Location"]
    else:
        assert get.status_code == post.status_code == 403
    gone.refresh_from_db()
    assert gone.withdrawn_from is None


def test_standings_page_marks_and_states_the_rules(client, make_tournament, organizer):
    t, _sub = _with_substitute(make_tournament, organizer)
    gone = _first(t)
    services.registration_withdraw(registration=gone, user=organizer, from_session=4,
                                   reason="private matter")
    html = client.get(f"/en/tournaments/{t.pk}/standings/").content.decode()
    assert "withdrawn from session 4" in html and "substitute" in html
    assert "ranked below every player who finished" in html
    assert "neither ranked nor rated" in html
    assert "private matter" not in html
    rows = list(csv.reader(io.StringIO(client.get(
        f"/en/tournaments/{t.pk}/standings.csv").content.decode())))
    assert rows[0][9:11] == ["substitute", "withdrawn_from"]
    by_player = {r[2]: r for r in rows[1:]}
    assert by_player[str(gone.player_id)][10] == "4"
    assert by_player[str(_sub.player_id)][0] == "" and by_player[str(_sub.player_id)][9] == "1"
    t.withdrawn_ranking = "unranked"
    t.save()
    html = client.get(f"/en/tournaments/{t.pk}/standings/").content.decode()
    assert "is not ranked" in html


def test_the_rule_is_a_tournament_setting_on_the_form_and_the_api(client, organizer, api):
    client.force_login(organizer)
    data = {"name": "Rule Cup", "start_date": "2026-09-05", "end_date": "2026-09-06",
            "city": "Leiden", "country": "NL", "ruleset": "mcr", "individual": "on",
            "sessions": "7", "session_minutes": "150", "planned_players": "24"}
    assert client.post("/en/tournaments/new/", {**data, "withdrawn_ranking": "unranked"}
                       ).status_code == 302
    assert client.post("/en/tournaments/new/", {**data, "name": "Default Cup"}
                       ).status_code == 302
    rules = dict(Tournament.objects.values_list("name", "withdrawn_ranking"))
    assert rules["Rule Cup"] == "unranked" and rules["Default Cup"] == "below"
    created = api["organizer"].post("/api/v1/tournaments", {
        **data, "individual": True, "withdrawn_ranking": "unranked", "name": "API Cup"},
        format="json")
    assert created.status_code in (200, 201), created.json()
    assert created.json()["withdrawn_ranking"] == "unranked"


def test_the_fewest_possible_repeats_follow_the_field_as_drawn(make_tournament, organizer):
    """After a withdrawal and a substitute the manage page's "fewest possible" is the bound of
    the seating as drawn (18 tables, 13 players seated: 6 x 18 - 13 x 12 / 2 = 30), never
    more than the draw's own repeat pairs (it said 42 against 39 before)."""
    from django.test import Client

    t, _substitute = _with_substitute(make_tournament, organizer)
    services.registration_withdraw(registration=_first(t), user=organizer, from_session=4)
    services.seating_draw(tournament=t, user=organizer, seed=5, from_session=4)
    t.refresh_from_db()
    client = Client()
    client.force_login(organizer)
    page = client.get(f"/en/tournaments/{t.pk}/manage/").content.decode()
    assert f"(the fewest possible: {t.seating_repeat_minimum})" in page
    assert t.seating_repeat_minimum >= 30
    assert t.seating_repeat_pairs >= 30


def test_issue_38_the_withdraw_form_offers_the_session_after_the_player_s_results(
        client, make_tournament, organizer):
    """Issue 38 (13): the form defaulted to session 1 for a player with results."""
    import re

    from tests.tournaments.fixtures import record_all_sessions

    t = make_tournament("accredited", players=8)
    record_all_sessions(t, organizer, sessions=3)
    gone = _first(t)
    client.force_login(organizer)
    html = client.get(f"/en/tournaments/{t.pk}/players/{gone.player_id}/withdraw/"
                      ).content.decode()
    assert re.findall(r'<option value="(\d+)" selected>', html) == ["4"]


def test_issue_38_the_standings_pdf_keeps_the_marks_and_the_rules(client, make_tournament,
                                                                  organizer):
    """Issue 38 (13): the PDF dropped the withdrawn and substitute marks and the rules."""
    import io

    from pypdf import PdfReader

    t, _substitute = _with_substitute(make_tournament, organizer)
    gone = _first(t)
    services.registration_withdraw(registration=gone, user=organizer, from_session=4)
    pdf = client.get(f"/en/tournaments/{t.pk}/standings.pdf")
    assert pdf.status_code == 200
    text = " ".join(" ".join(page.extract_text().split())
                    for page in PdfReader(io.BytesIO(pdf.content)).pages)
    assert "(substitute)" in text and "(withdrawn from session 4)" in text
    assert "Substitutes fill a table so that the others can play" in text
    assert "ranked below every player who finished" in text

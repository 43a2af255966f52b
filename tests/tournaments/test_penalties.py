"""Penalties as records (who gave them, when, why; transferred or deducted), late arrivals
and absences for one session (3.11.2), the hidden standings of the last sessions, and
imported tables of totals that do not sum to zero: through the services, the API (who may
and who may not) and the pages."""

from __future__ import annotations

import csv
import io
from fractions import Fraction

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from tests.tournaments.fixtures import player_ids, session_payload
from tournaments import services
from tournaments.models import Absence, Penalty, TableResult, Tournament, UnbalancedTable
from tournaments.rules.results_files import parse_results_csv, parse_results_json
from tournaments.selectors import (
    confirmed_table_results,
    tournament_penalties,
    tournament_ranking,
    tournament_standings,
)

pytestmark = pytest.mark.django_db


def _record(t, user, *sessions, payloads=None, **kwargs):
    payload = {"sessions": payloads or [session_payload(t, s) for s in sessions]}
    parsed, problems = parse_results_json(payload)
    assert not problems
    return services.results_record(tournament=t, user=user, sessions=parsed, **kwargs)


def _row(t, player):
    return next(r for r in tournament_standings(t) if r.player == player)


@pytest.fixture
def t12(make_tournament):
    """12 players, 6 sessions, accredited, no results yet."""
    return make_tournament("accredited", players=12)


# --- penalties: services -------------------------------------------------------------------


def test_results_entered_with_penalties_produce_records(t12, organizer):
    ids = player_ids(t12)
    payload = session_payload(t12, 1)
    payload["tables"][0]["seats"][2]["penalty"] = 10
    payload["tables"][1] = {"table": 2, "seats": [{"player": p} for p in ids[4:8]], "hands": [
        {"winner": ids[4], "from": ids[5], "points": 8}, {"penalty": ids[6], "points": 30}]}
    _record(t12, organizer, payloads=[payload])
    records = {(p.player_id, p.kind): p for p in Penalty.objects.filter(tournament=t12)}
    deducted = records[(ids[2], "deducted")]
    assert (deducted.points, deducted.source, deducted.reason, deducted.given_by) == (
        10, "results", "", organizer)
    transferred = records[(ids[6], "transferred")]
    assert (transferred.points, transferred.hand, transferred.table) == (30, 2, 2)
    with translation.override("en"):
        assert tournament_penalties(t12)[0].reason == "entered with the results"
    # posted again without the penalties: their records go with them
    _record(t12, organizer, 1)
    assert not Penalty.objects.filter(tournament=t12).exists()


def test_deducted_penalty_counts_after_table_points_and_survives_a_repost(t12, organizer):
    _record(t12, organizer, 1)
    ids = player_ids(t12)
    east = ids[0]  # 30 game points at table 1: first place, 4 table points
    before = _row(t12, east)
    penalty = services.penalty_give(tournament=t12, user=organizer, session=1, player=east,
                                    kind="deducted", points=40, reason="Slow play")
    assert (penalty.table, penalty.source, penalty.given_by) == (1, "organizer", organizer)
    after = _row(t12, east)
    assert after.table_points == before.table_points == 4  # 3.11.2: after table points
    assert (after.game_points, after.penalties) == (before.game_points - 40, 40)
    assert TableResult.objects.get(tournament=t12, session=1, player_id=east).penalty == 0
    _record(t12, organizer, 1)  # the sheet posted again keeps the organizer's penalty
    assert _row(t12, east).penalties == 40


def test_transferred_penalty_moves_game_points_and_table_points(t12, organizer):
    _record(t12, organizer, 1)
    ids = player_ids(t12)
    # table 1: 30, 10, -10, -30; the leader gives 30 to the last: 0, 10, -10, 0
    services.penalty_give(tournament=t12, user=organizer, session=1, player=ids[0],
                          kind="transferred", points=30, reason="Wrong discard",
                          to_player=ids[3])
    rows = {p: _row(t12, p) for p in ids[:4]}
    assert [rows[p].game_points for p in ids[:4]] == [0, 10, -10, 0]
    assert rows[ids[1]].table_points == 4
    assert rows[ids[0]].table_points == rows[ids[3]].table_points == Fraction(3, 2)
    # shared by the three others when no receiver is given (as on the score sheet)
    services.penalty_give(tournament=t12, user=organizer, session=1, player=ids[1],
                          kind="transferred", points=30, reason="Dead hand")
    assert [_row(t12, p).game_points for p in ids[:4]] == [10, -20, 0, 10]


def test_confirmed_transferred_penalties_reach_the_ratings(make_tournament, organizer):
    t = make_tournament("results submitted", players=12)
    ids = player_ids(t)
    services.penalty_give(tournament=t, user=organizer, session=1, player=ids[0],
                          kind="transferred", points=30, reason="x", to_player=ids[3])
    _record(t, organizer, *range(2, 7))
    services.tournament_confirm(tournament=t, user=organizer)
    table = next(o for o in confirmed_table_results()
                 if o.tournament_id == t.pk and o.session == 1 and o.table == 1)
    assert dict(table.seats)[ids[0]] == 0 and dict(table.seats)[ids[3]] == 0


@pytest.mark.parametrize(("data", "code", "field"), [
    ({"session": 9}, "penalty_session", "session"),
    ({"points": 0}, "penalty_points_range", "points"),
    ({"kind": "fine"}, "penalty_kind", "kind"),
    ({"reason": "  "}, "reason_required", "reason"),
    ({"player": 999999}, "penalty_player", "player"),
    ({"kind": "transferred", "points": 10}, "penalty_points", "points"),
    ({"kind": "transferred", "to_player": "self"}, "penalty_receiver", "to_player"),
    ({"kind": "transferred", "to_player": "other_table"}, "penalty_receiver", "to_player"),
])
def test_bad_penalties_are_refused_by_field_and_change_nothing(t12, organizer, data, code,
                                                               field):
    _record(t12, organizer, 1)
    ids = player_ids(t12)
    values = {"session": 1, "player": ids[0], "kind": "deducted", "points": 30,
              "reason": "Slow play", **data}
    values["to_player"] = {"self": ids[0], "other_table": ids[4]}.get(
        values.get("to_player"), values.get("to_player"))
    with pytest.raises(services.TournamentError) as err:
        services.penalty_give(tournament=t12, user=organizer, **values)
    assert (err.value.code, err.value.params["field"]) == (code, field)
    assert not Penalty.objects.exists()


def test_a_penalty_before_the_results_counts_once_they_are_posted(t12, organizer):
    ids = player_ids(t12)
    penalty = services.penalty_give(tournament=t12, user=organizer, session=1,
                                    player=ids[0], kind="deducted", points=10, reason="x")
    assert penalty.table is None
    _record(t12, organizer, 1)
    assert _row(t12, ids[0]).penalties == 10


def test_no_penalty_after_confirmation(make_tournament, organizer):
    t = make_tournament("results confirmed", players=12)
    with pytest.raises(services.TournamentError) as err:
        services.penalty_give(tournament=t, user=organizer, session=1,
                              player=player_ids(t)[0], kind="deducted", points=10,
                              reason="x")
    assert err.value.code == "illegal_transition"


# --- late and absent ---------------------------------------------------------------------


@pytest.mark.parametrize(("minutes", "points"), [(1, 10), (10, 10), (11, 20), (15, 20)])
def test_late_arrival_deducts_by_the_rule(t12, organizer, minutes, points):
    ids = player_ids(t12)
    penalty = services.player_late(tournament=t12, user=organizer, session=2,
                                   player=ids[0], minutes=minutes)
    assert (penalty.kind, penalty.points, penalty.late_minutes) == ("deducted", points,
                                                                    minutes)
    row = tournament_penalties(t12)[0]
    with translation.override("en"):
        assert row.reason == f"late {minutes} minute" + ("s" if minutes > 1 else "")


def test_late_arrival_reason_is_translated(t12, organizer):
    services.player_late(tournament=t12, user=organizer, session=2,
                         player=player_ids(t12)[0], minutes=5)
    with translation.override("ru"):
        assert tournament_penalties(t12)[0].reason == "опоздание на 5 минут"


@pytest.mark.parametrize("minutes", [0, -3, 601])
def test_late_minutes_out_of_range_are_refused(t12, organizer, minutes):
    with pytest.raises(services.TournamentError) as err:
        services.player_late(tournament=t12, user=organizer, session=2,
                             player=player_ids(t12)[0], minutes=minutes)
    assert (err.value.code, err.value.params["field"]) == ("late_minutes", "minutes")
    assert not Penalty.objects.exists() and not Absence.objects.exists()


def _with_substitute(t, organizer):
    (sub,) = services.players_register(tournament=t, user=organizer, entries=[
        services.PlayerEntry(name="Sam Stand-in", country="BE", substitute=True)])
    return sub.player_id


def _regular(t, session):
    """Session ``session`` of the 12 regular players (start numbers 1-12), rotated."""
    ids = player_ids(t)[:12]
    shift = (session - 1) % 12
    ids = ids[shift:] + ids[:shift]
    return {"session": session, "tables": [
        {"table": n + 1, "seats": [{"player": p, "game_points": g}
                                   for p, g in zip(ids[4 * n:4 * n + 4], (30, 10, -10, -30),
                                                   strict=True)]}
        for n in range(3)]}


def _session_without(t, session, absent, substitute):
    payload = _regular(t, session)
    for table in payload["tables"]:
        for seat in table["seats"]:
            if seat["player"] == absent:
                seat["player"] = substitute
    return payload


def test_more_than_15_minutes_late_misses_the_session_and_a_substitute_sits(t12, organizer):
    ids = player_ids(t12)
    sub = _with_substitute(t12, organizer)
    absence = services.player_late(tournament=t12, user=organizer, session=2,
                                   player=ids[0], minutes=20)
    assert isinstance(absence, Absence) and absence.late_minutes == 20
    # the session with the absent player in it is refused, by name
    payload = _regular(t12, 2)
    parsed, _ = parse_results_json({"sessions": [payload]})
    with pytest.raises(services.ResultsError) as err:
        services.results_record(tournament=t12, user=organizer, sessions=parsed)
    assert "player_absent" in {p.code for p in err.value.problems}
    # without them (the substitute in the seat) it is accepted; they play session 3
    _record(t12, organizer, payloads=[_regular(t12, 1),
                                      _session_without(t12, 2, ids[0], sub),
                                      _regular(t12, 3)])
    row = _row(t12, ids[0])
    assert row.sessions == 2  # sessions 1 and 3; nothing for session 2 (the default)
    assert not TableResult.objects.filter(tournament=t12, session=2, player_id=ids[0]).exists()


def test_absent_gets_the_fixed_score_when_the_tournament_says_so(t12, organizer):
    Tournament.objects.filter(pk=t12.pk).update(absent_score="fixed", absent_table_points=1,
                                                absent_game_points=-20)
    t12.refresh_from_db()
    ids = player_ids(t12)
    sub = _with_substitute(t12, organizer)
    services.player_absent(tournament=t12, user=organizer, session=1, player=ids[0],
                           reason="Train late")
    _record(t12, organizer, payloads=[_session_without(t12, 1, ids[0], sub)])
    row = _row(t12, ids[0])
    assert (row.table_points, row.game_points, row.sessions) == (1, -20, 0)


def test_absence_is_refused_where_the_player_has_results_or_twice(t12, organizer):
    ids = player_ids(t12)
    _record(t12, organizer, 1)
    with pytest.raises(services.TournamentError) as err:
        services.player_absent(tournament=t12, user=organizer, session=1, player=ids[0])
    assert err.value.code == "absent_after_results"
    services.player_absent(tournament=t12, user=organizer, session=2, player=ids[0])
    with pytest.raises(services.TournamentError) as err:
        services.player_absent(tournament=t12, user=organizer, session=2, player=ids[0])
    assert err.value.code == "already_absent"
    assert Absence.objects.count() == 1


def test_confirmation_wants_the_absent_players_seat_no_more(t12, organizer):
    ids = player_ids(t12)
    sub = _with_substitute(t12, organizer)
    services.player_absent(tournament=t12, user=organizer, session=6, player=ids[0])
    _record(t12, organizer, payloads=[*(_regular(t12, s) for s in range(1, 6)),
                                      _session_without(t12, 6, ids[0], sub)])
    t = services.tournament_confirm(tournament=t12, user=organizer)
    assert t.state == "results confirmed"


def test_a_penalty_of_a_player_without_a_seat_blocks_confirmation(t12, organizer):
    ids = player_ids(t12)
    sub = _with_substitute(t12, organizer)
    services.penalty_give(tournament=t12, user=organizer, session=6, player=ids[0],
                          kind="deducted", points=10, reason="x")
    services.player_absent(tournament=t12, user=organizer, session=6, player=ids[0])
    _record(t12, organizer, payloads=[*(_regular(t12, s) for s in range(1, 6)),
                                      _session_without(t12, 6, ids[0], sub)])
    with pytest.raises(services.ResultsError) as err:
        services.tournament_confirm(tournament=t12, user=organizer)
    assert [p.code for p in err.value.problems] == ["penalty_without_seat"]


# --- hidden standings ----------------------------------------------------------------------


def test_hidden_last_sessions_until_revealed(client, make_tournament, organizer, officer,
                                             member_user):
    t = make_tournament("accredited", players=12, hide_last_sessions=2)
    _record(t, organizer, 1, 2, 3, 4, 5)
    url = f"/api/v1/tournaments/{t.pk}/standings"
    from tests.tournaments.fixtures import token_client

    public = token_client(member_user).get(url)
    assert public["X-Standings-After-Session"] == "4"
    full = token_client(organizer).get(url)
    assert "X-Standings-After-Session" not in full
    assert token_client(officer).get(url).json() == full.json()
    assert public.json() == _api_rows(t, up_to=4)
    page = client.get(f"/en/tournaments/{t.pk}/standings/")
    assert b"standings after session 4" in page.content
    assert b'S5</abbr>' not in page.content
    csv_rows = list(csv.reader(io.StringIO(
        client.get(f"/en/tournaments/{t.pk}/standings.csv").content.decode())))
    assert "s5_table_points" not in csv_rows[0] and csv_rows[1][-1] == "4"
    tournament_page = client.get(f"/en/tournaments/{t.pk}/")
    assert b"standings after session 4" in tournament_page.content
    # revealed by the organizer: the public sees everything
    services.standings_reveal(tournament=t, user=organizer)
    t.refresh_from_db()
    assert t.standings_revealed_at is not None
    assert "X-Standings-After-Session" not in token_client(member_user).get(url)


def _api_rows(t, up_to):
    from tournaments.api.results import standings_json

    return standings_json(t, up_to=up_to, manager=False)


def test_confirmation_reveals_and_the_ratings_use_every_session(make_tournament, organizer):
    t = make_tournament("accredited", players=12, hide_last_sessions=1)
    _record(t, organizer, *range(1, 7))
    t = services.tournament_confirm(tournament=t, user=organizer)
    assert t.standings_revealed_at == t.confirmed_at
    sessions = {o.session for o in confirmed_table_results() if o.tournament_id == t.pk}
    assert sessions == set(range(1, 7))


@pytest.mark.parametrize(("who", "status"), [("anonymous", 401), ("member", 403),
                                             ("other", 403), ("officer", 403),
                                             ("organizer", 200)])
def test_api_only_its_organizer_reveals(make_tournament, api, who, status):
    t = make_tournament("accredited", players=12, hide_last_sessions=1)
    response = api[who].post(f"/api/v1/tournaments/{t.pk}/standings/reveal")
    assert response.status_code == status
    t.refresh_from_db()
    assert (t.standings_revealed_at is not None) == (status == 200)


def test_reveal_page_button(client, make_tournament, organizer, member_user):
    t = make_tournament("accredited", players=12, hide_last_sessions=1)
    client.force_login(member_user)
    assert client.post(f"/en/tournaments/{t.pk}/reveal/").status_code == 403
    client.force_login(organizer)
    page = client.get(f"/en/tournaments/{t.pk}/manage/")
    assert b'data-testid="reveal"' in page.content
    response = client.post(f"/en/tournaments/{t.pk}/reveal/")
    assert response.status_code == 302
    t.refresh_from_db()
    assert t.standings_revealed_at is not None
    assert b'data-testid="revealed"' in client.get(f"/en/tournaments/{t.pk}/manage/").content


# --- unbalanced imported tables -----------------------------------------------------------


def _unbalanced_payload(t, session):
    payload = session_payload(t, session)
    payload["tables"][1]["seats"][0]["game_points"] = 40  # sums to 10
    return payload


def test_unbalanced_totals_are_imported_flagged_and_block_confirmation(t12, organizer):
    _record(t12, organizer, payloads=[_unbalanced_payload(t12, 1),
                                      *(session_payload(t12, s) for s in range(2, 7))],
            allow_unbalanced=True)
    flag = UnbalancedTable.objects.get(tournament=t12)
    assert (flag.session, flag.table, flag.total, flag.confirmed_at) == (1, 2, 10, None)
    with pytest.raises(services.ResultsError) as err:
        services.tournament_confirm(tournament=t12, user=organizer)
    assert [p.code for p in err.value.problems] == ["table_unbalanced"]
    # kept as recorded: table points by the recorded game points, game points as recorded
    first = player_ids(t12)[4:8]
    session_1 = {s.player_id: s for s in TableResult.objects.filter(tournament=t12, session=1)}
    assert session_1[first[0]].game_points == 40
    services.unbalanced_table_confirm(tournament=t12, user=organizer, session=1, table=2)
    t = services.tournament_confirm(tournament=t12, user=organizer)
    assert t.state == "results confirmed"
    assert len(tournament_ranking(t)) == 12


def test_a_flagged_table_posted_again_balanced_loses_its_flag(t12, organizer):
    _record(t12, organizer, payloads=[_unbalanced_payload(t12, 1)], allow_unbalanced=True)
    _record(t12, organizer, 1)
    assert not UnbalancedTable.objects.exists()


def test_unbalanced_stays_refused_for_the_form_and_for_tables_with_hands(t12, organizer):
    parsed, _ = parse_results_json({"sessions": [_unbalanced_payload(t12, 1)]})
    with pytest.raises(services.ResultsError) as err:
        services.results_record(tournament=t12, user=organizer, sessions=parsed)
    assert "unbalanced" in {p.code for p in err.value.problems}
    ids = player_ids(t12)
    payload = session_payload(t12, 1)
    payload["tables"][0] = {"table": 1, "seats": [
        {"player": p, "game_points": g} for p, g in zip(ids[:4], (40, 0, 0, 0), strict=True)],
        "hands": [{"winner": ids[0], "from": ids[1], "points": 8}]}
    parsed, _ = parse_results_json({"sessions": [payload]})
    with pytest.raises(services.ResultsError):
        services.results_record(tournament=t12, user=organizer, sessions=parsed,
                                allow_unbalanced=True)
    assert not TableResult.objects.exists()


def test_csv_upload_page_flags_unbalanced_tables(client, t12, organizer):
    ids = player_ids(t12)
    lines = ["session,table,kind,hand,seat,player,game_points,penalty"]
    for table, four in ((1, ids[:4]), (2, ids[4:8]), (3, ids[8:12])):
        points = (30, 10, -10, -20) if table == 3 else (30, 10, -10, -30)
        for wind, p, g in zip("ESWN", four, points, strict=True):
            lines.append(f"1,{table},seat,,{wind},{p},{g},0")
    text = "\n".join(lines) + "\n"
    assert not parse_results_csv(text)[1]
    client.force_login(organizer)
    from django.core.files.uploadedfile import SimpleUploadedFile

    response = client.post(f"/en/tournaments/{t12.pk}/upload/",
                           {"file": SimpleUploadedFile("r.csv", text.encode())}, follow=True)
    assert b"sum to 10 instead of zero" in response.content
    assert UnbalancedTable.objects.get(tournament=t12).table == 3
    session_page = client.get(f"/en/tournaments/{t12.pk}/sessions/1/")
    assert b'data-testid="flag-3"' in session_page.content
    response = client.post(f"/en/tournaments/{t12.pk}/sessions/1/",
                           {"action": "confirm_recorded", "table": "3"})
    assert response.status_code == 302
    assert UnbalancedTable.objects.get(tournament=t12).confirmed_by == organizer


@pytest.mark.parametrize(("who", "status"), [("anonymous", 401), ("member", 403),
                                             ("other", 403), ("organizer", 200)])
def test_api_results_flag_and_only_the_organizer_confirms_as_recorded(t12, organizer, api,
                                                                      who, status):
    response = api["organizer"].post(f"/api/v1/tournaments/{t12.pk}/results",
                                     {"sessions": [_unbalanced_payload(t12, 1)]},
                                     format="json")
    assert response.status_code == 200
    view = api["organizer"].get(f"/api/v1/tournaments/{t12.pk}/sessions/1").json()
    assert view["tables"][1]["unbalanced"] == {"total": 10, "confirmed": False}
    url = f"/api/v1/tournaments/{t12.pk}/sessions/1/tables/2/confirm-as-recorded"
    assert api[who].post(url).status_code == status
    assert UnbalancedTable.objects.get().confirmed_at is not None if status == 200 else \
        UnbalancedTable.objects.get().confirmed_at is None
    if who == "organizer":
        missing = f"/api/v1/tournaments/{t12.pk}/sessions/1/tables/1/confirm-as-recorded"
        assert api[who].post(missing).status_code == 404


# --- API: penalties, late, absent ----------------------------------------------------------


@pytest.mark.parametrize(("who", "status"), [("anonymous", 401), ("member", 403),
                                             ("other", 403), ("officer", 403),
                                             ("organizer", 201)])
def test_api_only_its_organizer_gives_penalties(t12, api, organizer, who, status):
    _record(t12, organizer, 1)
    ids = player_ids(t12)
    response = api[who].post(f"/api/v1/tournaments/{t12.pk}/penalties", {
        "session": 1, "player": ids[0], "kind": "deducted", "points": 20,
        "reason": "Slow play"}, format="json")
    assert response.status_code == status
    assert Penalty.objects.count() == (1 if status == 201 else 0)
    if status == 201:
        body = response.json()
        assert {k: body[k] for k in ("session", "table", "player", "kind", "points",
                                     "reason", "source")} == {
            "session": 1, "table": 1, "player": ids[0], "kind": "deducted", "points": 20,
            "reason": "Slow play", "source": "organizer"}
        assert "given_by" in body


def test_api_penalty_errors_name_the_field(t12, api, organizer):
    _record(t12, organizer, 1)
    ids = player_ids(t12)
    url = f"/api/v1/tournaments/{t12.pk}/penalties"
    bad = api["organizer"].post(url, {"session": 1, "player": ids[0], "kind": "deducted",
                                      "points": "many"}, format="json")
    assert bad.status_code == 400
    assert bad.json()["errors"][0]["field"] == "points"
    bad = api["organizer"].post(url, {"session": 1, "player": ids[0], "kind": "transferred",
                                      "points": 20, "reason": "x", "to_player": ids[5]},
                                format="json")
    assert bad.status_code == 400
    assert bad.json()["errors"] == [{"code": "penalty_receiver", "field": "to_player",
                                     "message": bad.json()["errors"][0]["message"]}]
    assert not Penalty.objects.exists()


def test_api_standings_list_penalties_and_who_gave_them_to_the_organizer_only(
        make_tournament, api, organizer):
    t = make_tournament("results submitted", players=12)
    ids = player_ids(t)
    services.penalty_give(tournament=t, user=organizer, session=1, player=ids[0],
                          kind="deducted", points=20, reason="Slow play")
    url = f"/api/v1/tournaments/{t.pk}/standings"
    public = {r["player"]: r for r in api["anonymous"].get(url).json()}
    (detail,) = public[ids[0]]["penalty_details"]
    assert (detail["points"], detail["reason"], detail["session"]) == (20, "Slow play", 1)
    assert "given_by" not in detail
    own = {r["player"]: r for r in api["organizer"].get(url).json()}
    assert own[ids[0]]["penalty_details"][0]["given_by"] == organizer.get_username()
    listing = api["anonymous"].get(f"/api/v1/tournaments/{t.pk}/penalties").json()
    assert [p["points"] for p in listing] == [20]


@pytest.mark.parametrize(("who", "status"), [("anonymous", 401), ("member", 403),
                                             ("other", 403), ("organizer", 201)])
def test_api_late_and_absent(t12, api, who, status):
    ids = player_ids(t12)
    base = f"/api/v1/tournaments/{t12.pk}/players/{ids[0]}"
    late = api[who].post(f"{base}/late", {"session": 2, "minutes": 12}, format="json",
                         HTTP_ACCEPT_LANGUAGE="en")
    assert late.status_code == status
    absent = api[who].post(f"/api/v1/tournaments/{t12.pk}/players/{ids[1]}/absent",
                           {"session": 2, "reason": "Ill"}, format="json")
    assert absent.status_code == status
    if status == 201:
        assert late.json()["penalty"]["points"] == 20
        assert late.json()["penalty"]["reason"] == "late 12 minutes"
        assert absent.json()["absence"]["session"] == 2
        very_late = api[who].post(f"{base}/late", {"session": 3, "minutes": 16},
                                  format="json")
        assert very_late.json()["absence"]["late_minutes"] == 16
        bad = api[who].post(f"{base}/late", {"session": 3, "minutes": 0}, format="json")
        assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "minutes"
    else:
        assert not Penalty.objects.exists() and not Absence.objects.exists()


# --- pages ---------------------------------------------------------------------------------


def test_session_page_forms_give_penalties_and_record_late_and_absent(client, t12, organizer,
                                                                      member_user):
    ids = player_ids(t12)
    url = f"/en/tournaments/{t12.pk}/sessions/2/"
    client.force_login(member_user)
    assert client.post(url, {"action": "penalty"}).status_code == 403
    client.force_login(organizer)
    page = client.get(url)
    assert b'data-testid="penalty-form"' in page.content
    client.post(url, {"action": "penalty", "player": ids[0], "kind": "deducted",
                      "points": "30", "reason": "Slow play"})
    client.post(url, {"action": "late", "player": ids[1], "minutes": "7"})
    client.post(url, {"action": "absent", "player": ids[2], "reason": "Ill"})
    response = client.post(url, {"action": "penalty", "player": ids[3], "kind": "deducted",
                                 "points": "-5", "reason": "x"}, follow=True)
    assert b"The points are a whole number from 1 to 10000." in response.content
    assert Penalty.objects.count() == 2 and Absence.objects.count() == 1
    page = client.get(url)
    assert b"Slow play" in page.content and b"late 7 minutes" in page.content


def test_officer_sees_the_session_page_but_gives_no_penalty(client, t12, officer):
    client.force_login(officer)
    url = f"/en/tournaments/{t12.pk}/sessions/1/"
    assert client.get(url).status_code == 200
    assert client.post(url, {"action": "penalty"}).status_code == 403


def test_standings_page_csv_and_pdf_list_penalties(client, make_tournament, organizer):
    t = make_tournament("results submitted", players=12)
    ids = player_ids(t)
    services.penalty_give(tournament=t, user=organizer, session=1, player=ids[0],
                          kind="deducted", points=20, reason="Slow play")
    page = client.get(f"/en/tournaments/{t.pk}/standings/")
    assert b'data-testid="penalties"' in page.content and b"Slow play" in page.content
    assert organizer.get_username().encode() not in page.content  # who gave it: not public
    assert b"a player gets nothing" in page.content
    client.force_login(organizer)
    own = client.get(f"/en/tournaments/{t.pk}/standings/")
    assert organizer.get_username().encode() in own.content
    rows = list(csv.DictReader(io.StringIO(
        client.get(f"/en/tournaments/{t.pk}/standings.csv").content.decode())))
    mine = next(r for r in rows if r["player"] == str(ids[0]))
    assert "Slow play" in mine["penalty_details"] and mine["penalties"] == "20"
    pdf = client.get(f"/en/tournaments/{t.pk}/standings.pdf")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


def _standings_queries(client, url):
    client.get(url)
    with CaptureQueriesContext(connection) as context:
        assert client.get(url).status_code == 200
    return len(context.captured_queries)


@pytest.mark.parametrize("url", ["/en/tournaments/{pk}/standings/",
                                 "/api/v1/tournaments/{pk}/standings"])
def test_standings_cost_the_same_with_ten_times_the_penalties(client, make_tournament,
                                                             organizer, url):
    t = make_tournament("results submitted", players=12)
    ids = player_ids(t)
    url = url.format(pk=t.pk)

    def give(count):
        for i in range(count):
            services.penalty_give(tournament=t, user=organizer, session=1,
                                  player=ids[i % 12], kind="deducted", points=5,
                                  reason=f"r{i}")

    give(2)
    small = _standings_queries(client, url)
    give(18)
    large = _standings_queries(client, url)
    assert large == small, (small, large)


def test_settings_on_the_form_and_the_api(client, organizer, api):
    client.force_login(organizer)
    data = {"name": "Clock Cup", "start_date": "2026-09-05", "end_date": "2026-09-06",
            "city": "Leiden", "country": "NL", "ruleset": "mcr", "individual": "on",
            "sessions": "7", "session_minutes": "150", "planned_players": "24"}
    assert client.post("/en/tournaments/new/", {
        **data, "hide_last_sessions": "2", "absent_score": "fixed",
        "absent_table_points": "1", "absent_game_points": "-10"}).status_code == 302
    assert client.post("/en/tournaments/new/", {**data, "name": "Plain Cup"}
                       ).status_code == 302
    page = client.post("/en/tournaments/new/", {**data, "name": "Bad Cup",
                                                "absent_table_points": "5"})
    assert page.status_code == 200 and not Tournament.objects.filter(name="Bad Cup").exists()
    values = {t.name: t for t in Tournament.objects.all()}
    clock = values["Clock Cup"]
    assert (clock.hide_last_sessions, clock.absent_score, clock.absent_table_points,
            clock.absent_game_points) == (2, "fixed", 1, -10)
    plain = values["Plain Cup"]
    assert (plain.hide_last_sessions, plain.absent_score) == (0, "nothing")
    created = api["organizer"].post("/api/v1/tournaments", {
        **data, "individual": True, "name": "API Cup", "hide_last_sessions": 1},
        format="json")
    assert created.status_code == 201, created.json()
    assert created.json()["hide_last_sessions"] == 1
    assert created.json()["standings_revealed_at"] is None


def test_a_free_substitute_takes_the_seat_of_an_absent_player(t12, organizer):
    from tournaments.models import SeatingAssignment

    sub = _with_substitute(t12, organizer)
    services.seating_draw(tournament=t12, user=organizer, seed=3)
    ids = player_ids(t12)
    seat = SeatingAssignment.objects.get(tournament=t12, session=2, player_id=ids[0])
    services.player_absent(tournament=t12, user=organizer, session=2, player=ids[0])
    moved = SeatingAssignment.objects.get(tournament=t12, session=2, table=seat.table,
                                          seat=seat.seat)
    assert moved.player_id == sub
    # a redraw keeps them out of that session and seats them in the others
    services.seating_draw(tournament=t12, user=organizer, seed=4)
    seated = {(a.session, a.player_id) for a in SeatingAssignment.objects.filter(
        tournament=t12)}
    assert (2, ids[0]) not in seated and (2, sub) in seated and (3, ids[0]) in seated


def test_a_penalty_while_the_players_table_is_still_being_entered(t12, organizer):
    from tournaments.models import SeatingAssignment

    services.seating_draw(tournament=t12, user=organizer, seed=2)
    seats = {}
    for a in SeatingAssignment.objects.filter(tournament=t12, session=1):
        seats.setdefault(a.table, {})[a.seat] = a.player_id
    table_1 = {"table": 1, "seats": [{"player": seats[1][w], "game_points": g}
                                     for w, g in zip("ESWN", (30, 10, -10, -30),
                                                     strict=True)]}
    _record(t12, organizer, payloads=[{"session": 1, "tables": [table_1]}], tables_only=True)
    waiting = seats[2]["E"]
    penalty = services.penalty_give(tournament=t12, user=organizer, session=1,
                                    player=waiting, kind="deducted", points=10, reason="x")
    assert penalty.table is None
    # transferred to a player of another table: refused
    with pytest.raises(services.TournamentError):
        services.penalty_give(tournament=t12, user=organizer, session=1,
                              player=seats[1]["E"], kind="transferred", points=10,
                              reason="x", to_player=waiting)


@pytest.mark.parametrize(("who", "status"), [("anonymous", 401), ("member", 403),
                                             ("other", 403), ("officer", 403),
                                             ("organizer", 204)])
def test_api_only_its_organizer_takes_back_a_penalty(t12, api, organizer, who, status):
    ids = player_ids(t12)
    given = services.penalty_give(tournament=t12, user=organizer, session=1, player=ids[0],
                                  kind="deducted", points=10, reason="x")
    response = api[who].delete(f"/api/v1/tournaments/{t12.pk}/penalties/{given.pk}")
    assert response.status_code == status
    assert Penalty.objects.filter(pk=given.pk).exists() == (status != 204)


def test_a_penalty_entered_with_the_results_is_not_taken_back_alone(t12, organizer, api,
                                                                    client):
    payload = session_payload(t12, 1)
    payload["tables"][0]["seats"][0]["penalty"] = 10
    _record(t12, organizer, payloads=[payload])
    sheet = Penalty.objects.get(tournament=t12)
    assert api["organizer"].delete(
        f"/api/v1/tournaments/{t12.pk}/penalties/{sheet.pk}").status_code == 404
    given = services.penalty_give(tournament=t12, user=organizer, session=1,
                                  player=player_ids(t12)[1], kind="deducted", points=5,
                                  reason="x")
    client.force_login(organizer)
    url = f"/en/tournaments/{t12.pk}/sessions/1/"
    page = client.get(url).content.decode()
    assert f'remove-penalty-{given.pk}"' in page and f'remove-penalty-{sheet.pk}"' not in page
    client.post(url, {"action": "penalty_remove", "penalty": given.pk})
    assert list(Penalty.objects.values_list("pk", flat=True)) == [sheet.pk]


def test_calendar_writes_the_reveal_time_as_the_tournament_does(make_tournament, organizer,
                                                                api):
    t = make_tournament("accredited", players=12, hide_last_sessions=1)
    services.standings_reveal(tournament=t, user=organizer)
    one = api["anonymous"].get(f"/api/v1/tournaments/{t.pk}").json()
    listed = next(r for r in api["anonymous"].get("/api/v1/tournaments").json()
                  if r["id"] == t.pk)
    assert listed["standings_revealed_at"] == one["standings_revealed_at"] is not None

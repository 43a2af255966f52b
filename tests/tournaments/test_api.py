"""The tournament API: the contract of issue 11, the permission matrix, every transition."""

from __future__ import annotations

import pytest

from tests.tournaments.fixtures import session_payload
from tournaments import services
from tournaments.models import Accreditation, HandRecord, Player, TableResult, Tournament

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "member", "other", "organizer", "officer")
NEW = {
    "name": "Dutch Open", "start_date": "2026-06-06", "end_date": "2026-06-07",
    "city": "Utrecht", "country": "nl", "ruleset": "mcr", "sessions": 7,
    "planned_players": 20,
}


def test_create_returns_id_and_state(api, organizer):
    response = api["organizer"].post("/api/v1/tournaments", {**NEW, "venue": "Hall"},
                                     format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["state"] == "draft" and body["country"] == "NL"
    tournament = Tournament.objects.get(pk=body["id"])
    assert tournament.organizer == organizer and tournament.venue == "Hall"


@pytest.mark.parametrize(("role", "code"), [
    ("anonymous", 401), ("member", 403), ("officer", 403), ("other", 201), ("organizer", 201)
])
def test_create_permission(api, role, code):
    assert api[role].post("/api/v1/tournaments", NEW, format="json").status_code == code


def test_mcr_variant_switches_are_checked_and_used(api, make_tournament):
    bad = api["organizer"].post("/api/v1/tournaments", {**NEW, "variant": {"fan_99": 1}},
                                format="json")
    assert bad.status_code == 400 and bad.json()["errors"][0]["code"] == "bad_variant"
    t = make_tournament("accredited", players=16, variant={"fan_57b_points": 5})
    payload = session_payload(t, 1)
    table = payload["tables"][0]
    e = table["seats"][0]["player"]
    table["hands"] = [{"winner": e, "from": None, "fans": ["57B", "48"]}]  # 5 + 8 = 13
    for seat in table["seats"]:
        del seat["game_points"]
    assert api["organizer"].post(f"/api/v1/tournaments/{t.pk}/results",
                                 {"sessions": [payload]}, format="json").status_code == 200
    assert TableResult.objects.get(tournament=t, table=1, seat="E").game_points == 3 * 21


def test_create_lists_every_invalid_field(api):
    response = api["organizer"].post(
        "/api/v1/tournaments", {**NEW, "country": "Holland", "ruleset": "riichi",
                                "sessions": None}, format="json")
    assert response.status_code == 400
    fields = {e["field"] for e in response.json()["errors"]}
    assert {"country", "ruleset", "sessions"} <= fields
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(("role", "code"), [
    ("anonymous", 404), ("member", 404), ("other", 404), ("organizer", 200), ("officer", 200)
])
def test_a_draft_is_seen_by_its_organizer_and_officers_only(api, make_tournament, role, code):
    draft = make_tournament("draft")
    for tail in ("", "/standings", "/players", "/seating"):
        assert api[role].get(f"/api/v1/tournaments/{draft.pk}{tail}").status_code == code


@pytest.mark.parametrize("role", ROLES)
def test_an_accredited_tournament_is_public(api, make_tournament, role):
    t = make_tournament("accredited", players=16)
    response = api[role].get(f"/api/v1/tournaments/{t.pk}")
    assert response.status_code == 200 and response.json()["state"] == "accredited"
    standings = api[role].get(f"/api/v1/tournaments/{t.pk}/standings").json()
    assert len(standings) == 16
    assert {(s["rank"], s["table_points"], s["game_points"], s["penalties"])
            for s in standings} == {(1, 0, 0, 0)}


def test_calendar_lists_public_tournaments_by_state(api, make_tournament):
    make_tournament("draft")
    make_tournament("submitted")
    accredited = make_tournament("accredited", players=16)
    confirmed = make_tournament("results confirmed", players=16)
    both = api["anonymous"].get("/api/v1/tournaments").json()
    assert {t["id"] for t in both} == {accredited.pk, confirmed.pk}
    only = api["anonymous"].get("/api/v1/tournaments?state=accredited").json()
    assert [t["id"] for t in only] == [accredited.pk]
    assert api["anonymous"].get("/api/v1/tournaments?state=draft").json() == []


def test_calendar_rows_are_the_serializers_fields(api, make_tournament):
    from tournaments.api.lifecycle import TournamentSerializer

    make_tournament("accredited", fee="12.5", currency="EUR", variant={"fan_57b_points": 5})
    make_tournament("accredited")
    rows = api["anonymous"].get("/api/v1/tournaments").json()
    expected = [TournamentSerializer(t).data
                for t in Tournament.objects.order_by("start_date", "name", "pk")]
    assert rows == [dict(item) for item in expected]
    assert rows[0]["fee"] == "12.50" and rows[0]["variant"] == {"fan_57b_points": 5}


def test_calendar_pages_keep_the_list_and_link_the_next_page(api, make_tournament,
                                                             monkeypatch):
    monkeypatch.setattr("tournaments.api.lifecycle.CALENDAR_PAGE_SIZE", 2)
    made = [make_tournament("accredited", name=f"Cup {i}").pk for i in range(5)]
    first = api["anonymous"].get("/api/v1/tournaments?state=accredited")
    assert [t["id"] for t in first.json()] == made[:2]
    assert first["X-Total-Count"] == "5"
    assert first["Link"] == ('<http://testserver/api/v1/tournaments?state=accredited&page=2>; '
                             'rel="next"')
    second = api["anonymous"].get("/api/v1/tournaments?state=accredited&page=2")
    assert [t["id"] for t in second.json()] == made[2:4]
    assert 'page=3>; rel="next"' in second["Link"] and 'page=1>; rel="prev"' in second["Link"]
    last = api["anonymous"].get("/api/v1/tournaments?state=accredited&page=3")
    assert [t["id"] for t in last.json()] == made[4:]
    assert "next" not in last["Link"]
    assert api["anonymous"].get("/api/v1/tournaments?page=9").json() == []
    bad = api["anonymous"].get("/api/v1/tournaments?page=0")
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "page"


# Transitions -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("role", "code"), [
    ("anonymous", 401), ("member", 404), ("other", 404), ("officer", 403), ("organizer", 200)
])
def test_submit_permission(api, make_tournament, role, code):
    t = make_tournament("draft")
    response = api[role].post(f"/api/v1/tournaments/{t.pk}/submit")
    assert response.status_code == code
    t.refresh_from_db()
    assert t.state == ("submitted" if code == 200 else "draft")


def test_submit_returns_state_and_checks(api, make_tournament):
    t = make_tournament("draft")
    body = api["organizer"].post(f"/api/v1/tournaments/{t.pk}/submit").json()
    assert body["state"] == "submitted"
    codes = {c["code"]: c["level"] for c in body["checks"]}
    assert codes["too_few_sessions"] == "ok" and codes["too_few_players"] == "ok"
    assert codes["organizer_not_member"] == "warning"
    assert codes["no_club"] == "warning"
    assert all(c["message"] for c in body["checks"])
    log = Accreditation.objects.get(tournament=t)
    assert log.action == "submit" and log.checks


def test_fewer_than_six_sessions_is_refused(api, make_tournament):
    t = make_tournament("draft", sessions=5)
    response = api["organizer"].post(f"/api/v1/tournaments/{t.pk}/submit")
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "too_few_sessions"
    t.refresh_from_db()
    assert t.state == "draft"


def test_fewer_than_twelve_planned_players_is_refused(api, make_tournament, settings):
    t = make_tournament("draft", planned_players=8)
    response = api["organizer"].post(f"/api/v1/tournaments/{t.pk}/submit")
    assert response.json()["errors"][0]["code"] == "too_few_players"
    settings.TOURNAMENT_MIN_PLAYERS = 8
    assert api["organizer"].post(f"/api/v1/tournaments/{t.pk}/submit").status_code == 200


def test_clash_with_an_accredited_tournament_is_a_warning(api, make_tournament):
    make_tournament("accredited", name="Spring Cup")
    t = make_tournament("draft")
    body = api["organizer"].post(f"/api/v1/tournaments/{t.pk}/submit").json()
    clash = next(c for c in body["checks"] if c["code"] == "clash")
    assert clash["level"] == "warning" and "Spring Cup" in clash["message"]


@pytest.mark.parametrize(("role", "code"), [
    ("anonymous", 401), ("member", 404), ("other", 404), ("organizer", 403), ("officer", 200)
])
def test_decision_permission(api, make_tournament, role, code):
    t = make_tournament("submitted")
    response = api[role].post(f"/api/v1/tournaments/{t.pk}/decision",
                              {"decision": "accredit"}, format="json")
    assert response.status_code == code


def test_officer_accredits_or_rejects_with_reasons(api, make_tournament, officer):
    t = make_tournament("submitted")
    body = api["officer"].post(f"/api/v1/tournaments/{t.pk}/decision",
                               {"decision": "accredit"}, format="json").json()
    assert body["state"] == "accredited"
    u = make_tournament("submitted")
    no_reason = api["officer"].post(f"/api/v1/tournaments/{u.pk}/decision",
                                    {"decision": "reject", "reason": " "}, format="json")
    assert no_reason.status_code == 400
    assert no_reason.json()["errors"][0]["code"] == "reason_required"
    body = api["officer"].post(f"/api/v1/tournaments/{u.pk}/decision",
                               {"decision": "reject", "reason": "Dates clash"},
                               format="json").json()
    assert body["state"] == "rejected"
    decision = Accreditation.objects.get(tournament=u, action="reject")
    assert decision.reason == "Dates clash" and decision.decided_by == officer
    assert decision.decided_at is not None


ILLEGAL = [
    # (state, endpoint, body, role)
    ("draft", "decision", {"decision": "accredit"}, "officer"),
    ("draft", "confirm", None, "organizer"),
    ("draft", "results", {"sessions": []}, "organizer"),
    ("submitted", "submit", None, "organizer"),
    ("submitted", "confirm", None, "organizer"),
    ("submitted", "results", {"sessions": []}, "organizer"),
    ("accredited", "submit", None, "organizer"),
    ("accredited", "decision", {"decision": "reject", "reason": "x"}, "officer"),
    ("accredited", "confirm", None, "organizer"),
    ("rejected", "decision", {"decision": "accredit"}, "officer"),
    ("rejected", "confirm", None, "organizer"),
    ("results submitted", "submit", None, "organizer"),
    ("results submitted", "decision", {"decision": "accredit"}, "officer"),
    ("results confirmed", "submit", None, "organizer"),
    ("results confirmed", "confirm", None, "organizer"),
    ("results confirmed", "results", {"sessions": []}, "organizer"),
    ("results confirmed", "decision", {"decision": "reject", "reason": "x"}, "officer"),
    ("accredited", "correction", {"sessions": [], "reason": "typo"}, "officer"),
]


@pytest.mark.parametrize(("state", "endpoint", "body", "role"), ILLEGAL)
def test_illegal_transitions_are_refused(api, make_tournament, state, endpoint, body, role):
    t = make_tournament(state, players=16)
    response = api[role].post(f"/api/v1/tournaments/{t.pk}/{endpoint}", body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["errors"][0]["code"] == "illegal_transition"
    message = response.json()["errors"][0]["message"]
    assert message and "illegal_transition" not in message
    t.refresh_from_db()
    assert t.state == state


def test_rejected_tournament_can_be_changed_and_submitted_again(api, make_tournament):
    t = make_tournament("rejected")
    assert api["organizer"].post(f"/api/v1/tournaments/{t.pk}/submit").json()["state"] == (
        "submitted")


def test_whole_life_of_a_tournament(api, organizer):
    t = api["organizer"].post("/api/v1/tournaments", NEW, format="json").json()
    base = f"/api/v1/tournaments/{t['id']}"
    assert api["organizer"].post(f"{base}/submit").json()["state"] == "submitted"
    assert api["officer"].post(f"{base}/decision", {"decision": "accredit", "reason": "ok"},
                               format="json").json()["state"] == "accredited"
    players = [{"name": f"P{i}", "country": "NL"} for i in range(20)]
    registered = api["organizer"].post(f"{base}/players", players, format="json").json()
    assert [p["name"] for p in registered] == [f"P{i}" for i in range(20)]
    seating = api["organizer"].post(f"{base}/seating", {"seed": 1}, format="json").json()
    assert len(seating["sessions"]) == 7 and seating["repeat_pairs"] >= 0
    assert set(seating["sessions"][0]["tables"][0]["seats"]) == {"E", "S", "W", "N"}
    sessions = []
    for s in seating["sessions"]:
        sessions.append({"session": s["session"], "tables": [
            {"table": tb["table"], "seats": [
                {"player": tb["seats"][w], "game_points": g, "penalty": 0}
                for w, g in zip("ESWN", (24, 8, -8, -24), strict=True)
            ]} for tb in s["tables"]
        ]})
    standings = api["organizer"].post(f"{base}/results", {"sessions": sessions[:3]},
                                      format="json")
    assert standings.status_code == 200
    assert api["anonymous"].get(base).json()["state"] == "results submitted"
    incomplete = api["organizer"].post(f"{base}/confirm")
    assert incomplete.status_code == 400
    assert [e["session"] for e in incomplete.json()["errors"]] == [4, 5, 6, 7]
    api["organizer"].post(f"{base}/results", {"sessions": sessions[3:]}, format="json")
    assert api["organizer"].post(f"{base}/confirm").json()["state"] == "results confirmed"
    table = api["anonymous"].get(f"{base}/standings").json()
    assert sum(row["table_points"] for row in table) == 7 * 5 * 7
    assert table[0]["rank"] == 1


# Players -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("role", "code"), [
    ("anonymous", 401), ("member", 403), ("other", 403), ("officer", 403), ("organizer", 200)
])
def test_players_permission_on_a_public_tournament(api, make_tournament, role, code):
    t = make_tournament("accredited")
    response = api[role].post(f"/api/v1/tournaments/{t.pk}/players",
                              [{"name": "Anna", "country": "NL"}], format="json")
    assert response.status_code == code


def test_registration_matches_members_ema_numbers_and_names(api, make_tournament):
    from federation.models import Member, MembershipType

    regular, _ = MembershipType.objects.get_or_create(kind="regular")
    member = Member.objects.create(name_native="Анна Ли", name_latin="Anna Lee",
                                   membership_number=77, country="RU",
                                   membership_type=regular)
    known = Player.objects.create(name_latin="Jan de Vries", country="NL",
                                  ema_number="10990001")
    same_name = Player.objects.create(name_latin="Piet Bakker", country="NL")
    t = make_tournament("draft")
    body = api["organizer"].post(f"/api/v1/tournaments/{t.pk}/players", [
        {"name": "A. Lee", "country": "RU", "member_number": 77},
        {"name": "J. de Vries", "country": "NL", "ema_number": "10990001"},
        {"name": "piet bakker", "country": "nl", "confirm": True},
        {"name": "Guest Gast", "country": "DE"},
    ], format="json").json()
    # the member's row waits for the organizer's confirmation (issue 37, item 2)
    assert body[0]["status"] == "pending" and body[0]["name"] == "A. Lee"
    confirm = f"/api/v1/tournaments/{t.pk}/players/pending/confirm"
    body[0] = api["organizer"].post(confirm, {}, format="json").json()[0]
    assert [p["id"] for p in body[:3]] == [member.player.pk, known.pk, same_name.pk]
    guest = Player.objects.get(pk=body[3]["id"])
    assert guest.member is None and guest.country == "DE"
    # posting again never duplicates
    again = api["organizer"].post(f"/api/v1/tournaments/{t.pk}/players", [
        {"name": "Guest Gast", "country": "DE"}, {"name": "Anna Lee", "country": "RU",
                                                  "member_number": 77}], format="json").json()
    again[1] = api["organizer"].post(confirm, {}, format="json").json()[0]
    assert [p["id"] for p in again] == [body[3]["id"], body[0]["id"]]
    assert t.registrations.count() == 4 and Player.objects.count() == 4
    # the public list has no member or EMA numbers; the organizer's has
    t.state = "accredited"
    t.save()
    public = api["anonymous"].get(f"/api/v1/tournaments/{t.pk}/players").json()
    assert "member_number" not in public[0] and "ema_number" not in public[0]
    own = api["organizer"].get(f"/api/v1/tournaments/{t.pk}/players").json()
    assert [p["member_number"] for p in own if p["id"] == member.player.pk] == [77]


def test_registration_errors_are_listed_and_nothing_is_stored(api, make_tournament):
    t = make_tournament("draft")
    response = api["organizer"].post(f"/api/v1/tournaments/{t.pk}/players", [
        {"name": "Fine", "country": "NL"},
        {"name": "Nobody", "country": "NL", "member_number": 999},
        {"name": "Bad", "country": "Netherlands"},
    ], format="json")
    assert response.status_code == 400
    errors = response.json()["errors"]
    # a member number is not looked up here: the row would wait for the organizer's
    # confirmation (issue 37, item 2); nothing is kept, that row included
    assert {(e["row"], e["field"]) for e in errors} == {(3, "country")}
    assert t.registrations.count() == 0 and Player.objects.count() == 0
    assert not t.pending_registrations.exists()


def test_teams_of_four(api, make_tournament):
    t = make_tournament("draft", team=True)
    five = [{"name": f"T{i}", "country": "NL", "team": "Dragons"} for i in range(5)]
    response = api["organizer"].post(f"/api/v1/tournaments/{t.pk}/players", five,
                                     format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["row"] == 5
    assert response.json()["errors"][0]["code"] == "team_full"
    solo = make_tournament("draft")
    response = api["organizer"].post(f"/api/v1/tournaments/{solo.pk}/players", five[:1],
                                     format="json")
    assert response.json()["errors"][0]["code"] == "no_team_competition"


def test_registration_closes_when_results_are_confirmed(api, make_tournament):
    t = make_tournament("results confirmed", players=16)
    response = api["organizer"].post(f"/api/v1/tournaments/{t.pk}/players",
                                     [{"name": "Late", "country": "NL"}], format="json")
    assert response.json()["errors"][0]["code"] == "registration_closed"


# Seating -------------------------------------------------------------------------------------


def test_seating_needs_a_multiple_of_four(api, make_tournament):
    t = make_tournament("accredited", players=18)
    response = api["organizer"].post(f"/api/v1/tournaments/{t.pk}/seating", {"seed": 3},
                                     format="json")
    assert response.status_code == 400
    assert "18" in response.json()["errors"][0]["message"]


@pytest.mark.parametrize(("role", "code"), [
    ("anonymous", 401), ("member", 403), ("other", 403), ("officer", 403), ("organizer", 200)
])
def test_seating_permission(api, make_tournament, role, code):
    t = make_tournament("accredited", players=16)
    response = api[role].post(f"/api/v1/tournaments/{t.pk}/seating", {"seed": 3},
                              format="json")
    assert response.status_code == code


def test_same_seed_same_seating(api, make_tournament):
    t = make_tournament("accredited", players=16)
    url = f"/api/v1/tournaments/{t.pk}/seating"
    first = api["organizer"].post(url, {"seed": 9}, format="json").json()
    second = api["organizer"].post(url, {"seed": 9}, format="json").json()
    assert first["sessions"] == second["sessions"]
    # the public reads the published sessions only (decision 0730)
    assert api["anonymous"].get(url).json()["sessions"] == []
    services.seating_publish(tournament=t, user=t.organizer, through=2)
    public = api["anonymous"].get(url).json()
    assert public["sessions"] == first["sessions"][:2] and public["published"] == 2
    assert api["officer"].get(url).json()["sessions"] == first["sessions"]


# Results -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("role", "code"), [
    ("anonymous", 401), ("member", 403), ("other", 403), ("officer", 403), ("organizer", 200)
])
def test_results_permission(api, make_tournament, role, code):
    t = make_tournament("accredited", players=16)
    response = api[role].post(f"/api/v1/tournaments/{t.pk}/results",
                              {"sessions": [session_payload(t, 1)]}, format="json")
    assert response.status_code == code


def test_results_return_standings_with_shared_ties(api, make_tournament):
    t = make_tournament("accredited", players=16)
    payload = session_payload(t, 1, points=(0, 0, 0, 0))
    payload["tables"][0]["seats"] = [
        {**s, "game_points": g, "penalty": p}
        for s, g, p in zip(payload["tables"][0]["seats"], (20, 20, -10, -30), (0, 5, 0, 0),
                           strict=True)
    ]
    body = api["organizer"].post(f"/api/v1/tournaments/{t.pk}/results",
                                 {"sessions": [payload]}, format="json").json()
    first = payload["tables"][0]["seats"]
    top = {row["player"]: row for row in body}
    assert (top[first[0]["player"]]["table_points"], top[first[0]["player"]]["rank"]) == (3, 1)
    assert top[first[1]["player"]]["table_points"] == 3
    assert top[first[1]["player"]]["game_points"] == 15
    assert top[first[1]["player"]]["penalties"] == 5
    assert top[first[1]["player"]]["rank"] == 2
    others = payload["tables"][1]["seats"][0]["player"]
    assert top[others]["table_points"] == 1.75


def test_posting_a_session_again_replaces_it(api, make_tournament):
    t = make_tournament("accredited", players=16)
    url = f"/api/v1/tournaments/{t.pk}/results"
    api["organizer"].post(url, {"sessions": [session_payload(t, 1)]}, format="json")
    api["organizer"].post(url, {"sessions": [session_payload(t, 1, points=(5, 0, 0, -5))]},
                          format="json")
    assert TableResult.objects.filter(tournament=t).count() == 16
    assert set(TableResult.objects.filter(tournament=t).values_list(
        "game_points", flat=True)) == {5, 0, -5}


def test_broken_json_lists_every_error_and_stores_nothing(api, make_tournament):
    t = make_tournament("accredited", players=16)
    good = session_payload(t, 1)
    broken = session_payload(t, 2)
    broken["tables"][0]["seats"][0]["game_points"] = 31  # sum 1
    # the player of table 1 South again at table 2 South: twice, and someone missing
    broken["tables"][1]["seats"][1]["player"] = broken["tables"][0]["seats"][1]["player"]
    broken["tables"][2]["hands"] = [
        {"winner": broken["tables"][2]["seats"][0]["player"], "from": None, "fans": ["57"]},
        {"winner": broken["tables"][2]["seats"][1]["player"],
         "from": broken["tables"][2]["seats"][0]["player"],
         "tiles": "123m456p789s123s5s5s", "points": 16},
        {"draw": True},
        {"penalty": broken["tables"][2]["seats"][3]["player"], "points": 30},
    ]
    for seat in broken["tables"][2]["seats"]:
        del seat["game_points"]
    response = api["organizer"].post(f"/api/v1/tournaments/{t.pk}/results",
                                     {"sessions": [good, broken]}, format="json")
    assert response.status_code == 400
    errors = response.json()["errors"]
    found = {(e.get("session"), e.get("table"), e.get("seat"), e.get("hand"), e.get("field"))
             for e in errors}
    assert (2, 1, None, None, "game_points") in found  # unbalanced
    assert (2, 2, "S", None, "player") in found  # sits twice
    assert (2, None, None, None, "player") in found  # someone missing
    assert (2, 3, None, 1, "fans") in found  # "57" ambiguous
    assert (2, 3, None, 2, "points") in found  # tiles score 14, not 16
    assert all(e["message"] for e in errors)
    assert not TableResult.objects.filter(tournament=t).exists()
    assert not HandRecord.objects.exists()
    t.refresh_from_db()
    assert t.state == "accredited"


def test_hands_compute_the_session_and_are_stored(api, make_tournament):
    t = make_tournament("accredited", players=16)
    payload = session_payload(t, 1)
    table = payload["tables"][0]
    e, s, w, n = (seat["player"] for seat in table["seats"])
    table["hands"] = [
        {"winner": e, "from": s, "points": 10},
        {"winner": w, "from": None, "fans": ["48", "57A", "81", "81"]},
        {"draw": True},
        {"winner": n, "from": e, "tiles": "123m456p789s123s5s5s"},
        {"penalty": s, "points": 30},
    ]
    for seat in table["seats"]:
        del seat["game_points"]
    response = api["organizer"].post(f"/api/v1/tournaments/{t.pk}/results",
                                     {"sessions": [payload]}, format="json")
    assert response.status_code == 200, response.content
    stored = dict(TableResult.objects.filter(tournament=t, table=1).values_list("seat",
                                                                                 "game_points"))
    assert stored == {"E": 34 - 22 - 22 + 10, "S": -18 - 22 - 8 - 30,
                      "W": -8 + 66 - 8 + 10, "N": -8 - 22 + 38 + 10}
    hands = list(HandRecord.objects.filter(tournament=t).order_by("number"))
    assert [h.kind for h in hands] == ["win", "win", "draw", "win", "penalty"]
    assert hands[3].points == 14 and "39" in hands[3].fans


def test_hkos_tournament_uses_hkos_payments(api, make_tournament):
    t = make_tournament("accredited", players=16, ruleset="hkos")
    payload = session_payload(t, 1)
    table = payload["tables"][0]
    e, s, _w, _n = (seat["player"] for seat in table["seats"])
    table["hands"] = [{"winner": e, "from": s, "points": 8}]
    for seat in table["seats"]:
        del seat["game_points"]
    assert api["organizer"].post(f"/api/v1/tournaments/{t.pk}/results",
                                 {"sessions": [payload]}, format="json").status_code == 200
    stored = dict(TableResult.objects.filter(tournament=t, table=1).values_list("seat",
                                                                                 "game_points"))
    assert stored == {"E": 32, "S": -16, "W": -8, "N": -8}


# Corrections ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("role", "code"), [
    ("anonymous", 401), ("member", 403), ("other", 403), ("organizer", 403), ("officer", 200)
])
def test_correction_only_by_officers_with_a_reason(api, make_tournament, role, code):
    t = make_tournament("results confirmed", players=16)
    body = {"sessions": [session_payload(t, 2, points=(40, 0, -10, -30))], "reason": "typo"}
    response = api[role].post(f"/api/v1/tournaments/{t.pk}/correction", body, format="json")
    assert response.status_code == code
    if code == 200:
        assert response.json()["state"] == "results confirmed"
        log = Accreditation.objects.get(tournament=t, action="correct")
        assert log.reason == "typo"
        assert set(TableResult.objects.filter(tournament=t, session=2).values_list(
            "game_points", flat=True)) == {40, 0, -10, -30}


def test_correction_without_reason_is_refused(api, make_tournament):
    t = make_tournament("results confirmed", players=16)
    response = api["officer"].post(f"/api/v1/tournaments/{t.pk}/correction",
                                   {"sessions": [session_payload(t, 2)]}, format="json")
    assert response.json()["errors"][0]["code"] == "reason_required"


def test_problem_items_are_the_cores_dict_with_the_message_translated():
    """An error item of the results endpoints is ``Problem.to_dict`` (the places that apply,
    in this order, then the code) with the message in the caller's language."""
    from django.utils import translation

    from core.api_errors import exception_handler
    from rulebook.scoring.standings import Problem
    from tournaments.errors import ResultsError

    def _problems(problems):
        return exception_handler(ResultsError(problems), {})

    problem = Problem(code="unbalanced", message="unbalanced", session=2, table=3, seat="W",
                      params={"total": 4})
    with translation.override("en"):
        items = _problems([problem]).data["errors"]
    assert items == [{"session": 2, "table": 3, "seat": "W", "code": "unbalanced",
                      "message": "The four seats' game points sum to 4 instead of zero."}]
    assert list(items[0]) == ["session", "table", "seat", "code", "message"]
    only_row = Problem(code="bad_value", message="bad", row=7, field="seat")
    with translation.override("en"):
        assert _problems([only_row]).data["errors"] == [
            {"row": 7, "field": "seat", "code": "bad_value", "message": "This value is not valid."}
        ]

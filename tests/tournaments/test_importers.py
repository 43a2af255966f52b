"""Pure parsing of results (JSON and CSV): shapes, every problem with its place."""

from __future__ import annotations

from core.csv_export import csv_text
from tournaments.rules.results_files import (
    CSV_COLUMNS,
    CSV_TEMPLATE_ROWS,
    parse_results_csv,
    parse_results_json,
)


def test_json_table_with_totals_and_hands():
    sessions, problems = parse_results_json({"sessions": [{"session": 2, "tables": [
        {"table": 1, "seats": [{"player": i, "game_points": g} for i, g in
                               zip((1, 2, 3, 4), (10, 0, 0, -10), strict=True)]},
        {"table": 2, "seats": [{"player": i} for i in (5, 6, 7, 8)], "hands": [
            {"winner": 5, "from": None, "fans": ["48", 81]}, {"draw": True},
            {"penalty": 6, "points": 30}]},
    ]}]})
    assert problems == []
    (session,) = sessions
    assert session.session == 2
    assert [s.game_points for s in session.tables[0].seats] == [10, 0, 0, -10]
    hands = session.tables[1].hands
    assert [h.kind for h in hands] == ["win", "draw", "penalty"]
    assert hands[0].fans == ("48", "81") and hands[0].discarder is None
    assert hands[2].player == 6 and hands[2].points == 30


def test_json_problems_are_all_listed_with_their_place():
    _, problems = parse_results_json({"sessions": [
        {"session": 1, "tables": [{"table": 1, "seats": [
            {"player": "x", "game_points": 1}, {"player": 2}, {"player": 3, "game_points": 1.5},
            {"player": 4, "game_points": 0}]}]},
        {"session": 1, "tables": "none"},
    ]})
    found = {(p.session, p.table, p.seat, p.field, p.code) for p in problems}
    assert (1, 1, "E", "player", "not_integer") in found
    assert (1, 1, "S", "game_points", "required") in found
    assert (1, 1, "W", "game_points", "not_integer") in found
    assert (1, None, None, "session", "session_twice") in found
    assert (1, None, None, "tables", "not_list") in found
    assert parse_results_json([])[1][0].field == "sessions"


def test_csv_template_parses_into_two_tables():
    sessions, problems = parse_results_csv(csv_text(CSV_COLUMNS, CSV_TEMPLATE_ROWS, lineterminator="\n"))
    assert problems == []
    (session,) = sessions
    first, second = session.tables
    assert first.hands is None and [s.penalty for s in first.seats] == [0, 0, 10, 0]
    assert [h.kind for h in second.hands] == ["win", "win", "draw", "win", "penalty"]
    win = second.hands[3]
    assert win.player == 8 and win.discarder == 5  # start numbers (decision 0718)
    assert win.context == {"seat": "N", "prevalent": "E"}


def test_csv_problems_name_their_rows():
    text = "\n".join([
        "session,table,kind,hand,seat,player,game_points,penalty,from,points,fans,tiles,context",
        "1,1,seat,,E,1,10,0,,,,,",
        "1,1,seat,,E,2,0,0,,,,,",
        "1,1,seat,,Q,3,0,0,,,,,",
        "1,x,seat,,N,4,0,0,,,,,",
        "1,1,dance,,N,4,0,0,,,,,",
    ])
    _, problems = parse_results_csv(text)
    assert {(p.row, p.code) for p in problems} >= {
        (3, "seat_twice"), (4, "bad_wind"), (5, "not_integer"), (6, "bad_kind")}


def test_csv_without_required_columns():
    _, problems = parse_results_csv("session,table\n1,1\n")
    assert problems[0].code == "bad_header" and "kind" in problems[0].params["columns"]


def test_empty_results_are_refused():
    assert parse_results_json({"sessions": []})[1][0].code == "required"
    header = "session,table,kind,hand,seat,player,game_points,penalty,from,points,fans,tiles,context"
    assert parse_results_csv(header + "\n")[1][0].code == "required"

"""The hand archive (issue 40): each player's figures are what the stored hands say, kept
when results are confirmed, corrected and when players are merged; head-to-head equals a
count by hand; the reads do not grow with history."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.tournaments.fixtures import player_ids, session_payload
from tournaments import services
from tournaments.models import HandRecord, HandStats, TableResult
from tournaments.rules.hand_stats import HandLine, tally
from tournaments.rules.results_files import parse_results_json
from tournaments.selectors.hand_stats import (
    fan_almanac,
    fan_share,
    frequent_opponents,
    head_to_head,
    player_game,
    records,
    tournament_hands,
    tournament_prizes,
)

pytestmark = pytest.mark.django_db


def _hands_session(tournament, session: int) -> dict:
    """Session ``session`` with table 1 played hand by hand (fans given) and the other
    tables as totals."""
    payload = session_payload(tournament, session)
    four = [seat["player"] for seat in payload["tables"][0]["seats"]]
    east, south, west, north = four
    payload["tables"][0] = {"table": 1, "seats": [{"player": p} for p in four], "hands": [
        {"winner": east, "from": south, "fans": ["49", "60"], "points": 8},
        {"winner": east, "fans": ["44", "80"], "points": 9},  # self-drawn
        {"winner": east, "from": west, "fans": ["49", "60", "76", "76"], "points": 10},
        {"draw": True},
        {"winner": north, "from": south, "fans": ["24"], "points": 24},
    ]}
    return payload


@pytest.fixture
def played(make_tournament, organizer):
    """A confirmed 12-player tournament: session 1's table 1 hand by hand."""
    t = make_tournament("results submitted", players=12)
    payloads = [_hands_session(t, 1)] + [session_payload(t, s) for s in range(2, t.sessions + 1)]
    parsed, problems = parse_results_json({"sessions": payloads})
    assert not problems
    services.results_record(tournament=t, user=organizer, sessions=parsed)
    return services.tournament_confirm(tournament=t, user=organizer)


def _by_hand(tournament):
    """The raw data counted by hand: wins, self-drawn, deal-ins per player."""
    out: dict[int, list[int]] = {}
    for hand in HandRecord.objects.filter(tournament=tournament, kind="win"):
        out.setdefault(hand.winner_id, [0, 0, 0])[0] += 1
        if hand.discarder_id is None:
            out[hand.winner_id][1] += 1
        else:
            out.setdefault(hand.discarder_id, [0, 0, 0])[2] += 1
    return out


def test_each_players_figures_are_what_the_hands_say(played):
    stats = {row.player_id: row for row in HandStats.objects.filter(tournament=played)}
    raw = _by_hand(played)
    assert raw  # the fixture did store hands
    for player, (won, self_drawn, dealt_in) in raw.items():
        row = stats[player]
        assert (row.hands_won, row.self_drawn, row.dealt_in) == (won, self_drawn, dealt_in)
    seat = dict(TableResult.objects.filter(tournament=played, session=1, table=1)
                .values_list("seat", "player_id"))
    east, south, west, north = seat["E"], seat["S"], seat["W"], seat["N"]
    e = stats[east]
    assert (e.hands_played, e.hands_won, e.self_drawn, e.points_won) == (5, 3, 1, 27)
    assert (e.best_session_wins, e.longest_streak, e.largest_points) == (3, 3, 10)
    assert e.largest_hand.number == 3
    assert e.fans == {"44": 1, "49": 2, "60": 2, "76": 2, "80": 1}
    assert stats[south].dealt_in == 2 and stats[west].dealt_in == 1
    assert stats[north].largest_points == 24 and stats[north].longest_streak == 1
    # players of the other tables played no hand-by-hand table: no row
    assert set(stats) == {east, south, west, north}


def test_a_correction_counts_again(played, organizer):
    payload = session_payload(played, 1)
    parsed, _ = parse_results_json({"sessions": [payload]})
    services.tournament_correct(tournament=played, user=organizer, sessions=parsed,
                                reason="table 1 was typed from the wrong sheet")
    assert not HandStats.objects.filter(tournament=played).exists()


def test_player_game_and_field(played):
    seat = dict(TableResult.objects.filter(tournament=played, session=1, table=1)
                .values_list("seat", "player_id"))
    east = played.registrations.get(player_id=seat["E"]).player
    game = player_game(east, ruleset="mcr")
    assert game.figures.hands_won == 3 and game.figures.average_points == 9
    assert game.field.hands_won == 4 and game.field.players == 4
    assert game.field.per_player("hands_won") == 1
    assert game.largest.largest_points == 10
    assert game.fans[0] == ("49", 2)
    assert game.years == [played.end_date.year]
    assert player_game(east, ruleset="mcr", year=1999).figures.hands_won == 0


def test_head_to_head_equals_a_count_by_hand(played):
    ids = player_ids(played)
    a, b = ids[0], ids[1]
    from tournaments.models import Player

    pa, pb = Player.objects.get(pk=a), Player.objects.get(pk=b)
    rows = list(TableResult.objects.filter(tournament=played).values_list(
        "session", "table", "player_id", "game_points", "penalty"))
    tables: dict[tuple[int, int], dict[int, int]] = {}
    for s, t, p, g, pen in rows:
        tables.setdefault((s, t), {})[p] = g - pen
    together = [k for k, seats in tables.items() if a in seats and b in seats]
    h2h = head_to_head(pa, pb)
    assert h2h.together == len(together) > 0
    assert h2h.game_points[0] == sum(tables[k][a] for k in together)
    assert h2h.ahead + h2h.behind <= h2h.together
    assert sum(x.table_points[0] + x.table_points[1] for x in h2h.sessions) <= 6 * h2h.together
    assert all(isinstance(x.table_points[0], Fraction) for x in h2h.sessions)
    opponents = dict((p.pk, n) for p, n in frequent_opponents(pa))
    assert opponents[b] == h2h.together


def test_tournament_hands_prizes_almanac_records(played):
    hands = tournament_hands(played)
    assert [h.points for h in hands.top] == [24, 10, 9, 8]
    assert [h.points for h in hands.by_session] == [24]
    assert hands.winning_hands == 4
    assert hands.rarest[0][1] == 1
    prizes = {p.code: p for p in tournament_prizes(hands)}
    assert prizes["best_hand"].value == 24
    assert prizes["most_wins"].value == 3
    year = fan_almanac("mcr")[0]
    assert year.winning_hands == 4 and dict(year.fans)["76"] == 2
    assert fan_share("mcr", "76") == (played.end_date.year, 2, 4)
    assert fan_share("hkos", "1") is None
    found = {r.code: r.value for r in records("mcr")}
    assert found == {"largest_hand": 24, "most_wins_in_a_session": 3, "longest_streak": 3,
                     "most_wins_in_a_tournament": 3}


def test_merge_moves_the_figures(played, make_tournament, officer):
    from tournaments.models import Player

    seat = dict(TableResult.objects.filter(tournament=played, session=1, table=1)
                .values_list("seat", "player_id"))
    east = Player.objects.get(pk=seat["E"])
    twin = Player.objects.create(name_latin="East Twin", country="NL")
    services.player_merge(player=east, into=twin, user=officer)
    assert HandStats.objects.get(tournament=played, player=twin).hands_won == 3
    assert not HandStats.objects.filter(player=east).exists()


def test_pure_tally_skips_penalties_and_counts_streaks():
    lines = [
        HandLine(1, 1, 1, 1, "win", 10, 11, 8, ("49",)),
        HandLine(2, 1, 1, 2, "penalty", 12, None, 30),
        HandLine(3, 1, 1, 3, "win", 10, None, 16),
        HandLine(4, 1, 1, 4, "win", 12, 10, 8),
        HandLine(5, 1, 1, 5, "win", 10, 13, 8),
    ]
    out = tally(lines, {(1, 1): [10, 11, 12, 13]})
    assert out[10].hands_played == 4 and out[10].longest_streak == 2
    assert out[10].dealt_in == 1 and out[12].hands_won == 1 and out[13].dealt_in == 1


@pytest.mark.parametrize("size", [1, 10])
def test_reads_do_not_grow_with_history(make_tournament, organizer, size, django_assert_max_num_queries):
    from tests.tournaments.confirmed_results import confirmed_tournament, players

    people = players(8)
    from datetime import date

    for i in range(size):
        confirmed_tournament(people, date(2020 + i % 5, 1 + i % 12, 1), seed=i, sessions=2)
    rows = [HandStats(tournament_id=t, player=p, ruleset="mcr", year=2020 + n % 5,
                      hands_played=10, hands_won=2, fans={"49": 1})
            for n, t in enumerate(set(TableResult.objects.values_list("tournament_id", flat=True)))
            for p in people]
    HandStats.objects.bulk_create(rows)
    with CaptureQueriesContext(connection) as ctx:
        player_game(people[0], ruleset="mcr")
        head_to_head(people[0], people[1])
        frequent_opponents(people[0])
        fan_almanac("mcr")
        records("mcr")
    assert len(ctx.captured_queries) == 5 + 2 + 2 + 1 + 4

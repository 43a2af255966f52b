"""Benchmark: the site search (page and API) on the database backend, with the full rulebook
in five languages and 10,000 players (issue 27: p95 under 100 ms).

    python benchmarks/bench_search.py [--players 10000] [--rounds 20] [--skip-setup]

Sets up a database (SQLite in /tmp unless DATABASE_URL is set): migrations, `load_content`
(every rule page and translation, fans, examples), 10,000 players entered in one public
tournament (so search may show them). Then asks each query of QUERIES, on the search page
and on /api/v1/search, in the queries' languages, `--rounds` times, in process through
Django's test client (no network), after one warm-up round; prints p50/p95/max per URL kind.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

QUERIES = [
    ("en", "pure straight"), ("en", "57a"), ("ru", "чистый ряд"), ("fr", "derniere"),
    ("zh-hans", "清龙"), ("nl", "kong"), ("en", "sokolov"), ("ru", "соколов"),
    ("en", "dragon"), ("en", "self-drawn"), ("fr", "main"), ("en", "a"),
    # issue 41: another form of the word, an accent meant, a transliterated name
    ("nl", "dobbelsteen"), ("fr", "dés"), ("en", "fyodorov"),
]
FIRST = ["Ivan", "Anna", "Pieter", "Marie", "Wei", "Zoë", "Éric", "Oleg", "Jan", "Li"]
LAST = ["Sokolov", "de Vries", "Dubois", "Müller", "Zhang", "Petrov", "Janssen", "Martin"]
NATIVE = ["Иван Соколов", "李伟", "", "", "Анна Петрова", ""]


def setup(players: int) -> None:
    from datetime import date

    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from tournaments.models import Player, Registration, Tournament, player_search_text

    call_command("migrate", verbosity=0)
    call_command("load_content", verbosity=0)
    Player.objects.all().delete()
    rows = []
    for i in range(players):
        latin = f"{FIRST[i % len(FIRST)]} {LAST[(i // 10) % len(LAST)]} {i}"
        native = NATIVE[i % len(NATIVE)]
        rows.append(Player(name_latin=latin, name_native=native, country="NL",
                           name_search=player_search_text(latin, native)))
    Player.objects.bulk_create(rows, batch_size=1000)
    organizer, _ = get_user_model().objects.get_or_create(
        email="bench@example.org", defaults={"username": "bench"})
    cup = Tournament.objects.create(
        name="Benchmark Open", start_date=date(2025, 5, 1), end_date=date(2025, 5, 2),
        city="Utrecht", country="NL", organizer=organizer, ruleset=Tournament.Ruleset.MCR,
        sessions=4, planned_players=players, state=Tournament.State.ACCREDITED,
    )
    Registration.objects.bulk_create(
        [Registration(tournament=cup, player=p, number=n)
         for n, p in enumerate(Player.objects.all(), start=1)], batch_size=1000)


def measure(rounds: int) -> dict[str, list[float]]:
    from django.test import Client

    client = Client()
    timings: dict[str, list[float]] = {"page": [], "api": []}
    for round_number in range(rounds + 1):
        for language, query in QUERIES:
            for kind, url, params in (
                ("page", f"/{language}/search/", {"q": query}),
                ("api", "/api/v1/search", {"q": query, "lang": language}),
            ):
                started = time.perf_counter()
                response = client.get(url, params, REMOTE_ADDR=f"10.0.{round_number}.1")
                elapsed = (time.perf_counter() - started) * 1000
                assert response.status_code == 200, (url, params, response.status_code)
                if round_number:  # round 0 warms the caches up
                    timings[kind].append(elapsed)
    return timings


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--skip-setup", action="store_true", help="database already loaded")
    options = parser.parse_args()
    os.environ.setdefault("DATABASE_URL", "sqlite:////tmp/bench_search.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")
    os.environ.setdefault("API_ANON_RATE", "100000/min")
    import django

    django.setup()
    from django.conf import settings

    settings.ALLOWED_HOSTS = ["*"]
    settings.DEBUG = False  # no query log
    if not options.skip_setup:
        started = time.perf_counter()
        setup(options.players)
        print(f"setup: {time.perf_counter() - started:.1f} s")
    from tournaments.models import Player

    print(f"players: {Player.objects.count()}, database: {settings.DATABASES['default']['ENGINE']}")
    timings = measure(options.rounds)
    worst = 0.0
    for kind, values in timings.items():
        values.sort()
        p95 = values[int(len(values) * 0.95) - 1]
        worst = max(worst, p95)
        print(f"{kind}: n={len(values)} p50={statistics.median(values):.1f} ms "
              f"p95={p95:.1f} ms max={values[-1]:.1f} ms")
    print(f"load average: {os.getloadavg()[0]:.1f}")
    return 0 if worst < 100 else 1


if __name__ == "__main__":
    raise SystemExit(main())

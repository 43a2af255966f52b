"""Ratings at federation scale: a full recompute and the rating list page under load.

    DATABASE_URL=postgres://... .venv/bin/python benchmarks/bench_ratings.py [--port 8190]
        [--players 10000] [--tournaments 600] [--sessions 8] [--size 40] [--years 10]
        [--requests 400] [--concurrency 4] [--keep]

Generates synthetic data (issue 12): PLAYERS players, TOURNAMENTS confirmed tournaments of
SIZE players with SESSIONS sessions each, spread evenly over YEARS years (five a month for the
defaults); game points follow a hidden strength, so the ratings have something to find.
It then times `ratings_recompute()` (one full recompute, as `manage.py ratings_recompute`),
checks that a recompute from the middle gives identical rows, starts gunicorn (2 workers) on
127.0.0.1:PORT, warms the list page up, and measures it with ApacheBench (`ab`, Debian's
apache2-utils): p50 / p95 / p99 of the first list page of the latest period.

The data go into the database of DATABASE_URL: use a database of its own (everything the
script made before is removed first; other tournaments are left alone). Without --keep the
synthetic data are removed at the end.
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import re
import signal
import subprocess
import sys
import time
import urllib.request
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402

from federation.models import User  # noqa: E402
from ratings.models import RatingEntry, RatingPeriod  # noqa: E402
from ratings.services import ratings_recompute  # noqa: E402
from tournaments.models import Player, Registration, TableResult, Tournament  # noqa: E402
from tournaments.services import tournament_results_store  # noqa: E402

PREFIX = "Synthetic"
SEATS = "ESWN"


def wipe() -> None:
    with transaction.atomic():
        tournaments = Tournament.objects.filter(name__startswith=PREFIX)
        TableResult.objects.filter(tournament__in=tournaments).delete()
        Registration.objects.filter(tournament__in=tournaments).delete()
        tournaments.delete()
        RatingEntry.objects.filter(player__name_latin__startswith=PREFIX).delete()
        Player.objects.filter(name_latin__startswith=PREFIX).delete()
        RatingPeriod.objects.filter(published=False).delete()


def generate(args: argparse.Namespace) -> None:
    rng = random.Random(2026)
    organizer, _ = User.objects.get_or_create(
        email="bench-organizer@example.org", defaults={"username": "bench-organizer"}
    )
    countries = ["RU", "RU", "RU", "NL", "FR", "CN", "DE", "DK", "JP", "UA"]
    Player.objects.bulk_create(
        [
            Player(name_latin=f"{PREFIX} Player {i:05d}", country=rng.choice(countries))
            for i in range(args.players)
        ],
        batch_size=5000,
    )
    people = list(Player.objects.filter(name_latin__startswith=PREFIX).values_list("pk", flat=True))
    strength = {p: rng.gauss(0, 1) for p in people}
    # A few regulars play often, most players now and then.
    weights = [rng.paretovariate(1.5) for _ in people]
    cumulative = list(itertools.accumulate(weights))  # the same draws, read once (100k players)
    months = args.years * 12
    start = date(2026 - args.years, 1, 1)
    # spread evenly over the months (five a month for the defaults; one every other month
    # for 60 tournaments, so that the last years have some too)
    by_month: dict[int, int] = {}
    for index in range(args.tournaments):
        month = index * months // args.tournaments
        k = by_month[month] = by_month.get(month, -1) + 1
        year, mon = start.year + (start.month - 1 + month) // 12, (month % 12) + 1
        end = date(year, mon, min(28, 3 + 6 * k))
        tournament = Tournament.objects.create(
            name=f"{PREFIX} Open {year}-{mon:02d} #{k + 1}",
            start_date=end - timedelta(days=1),
            end_date=end,
            city="Moscow",
            country="RU",
            organizer=organizer,
            ruleset=Tournament.Ruleset.MCR,
            sessions=args.sessions,
            planned_players=args.size,
            state=Tournament.State.RESULTS_CONFIRMED,
        )
        field: set[int] = set()
        while len(field) < args.size:
            field.update(rng.choices(people, cum_weights=cumulative,
                                     k=args.size - len(field)))
        entrants = sorted(field)
        Registration.objects.bulk_create(
            [
                Registration(tournament=tournament, player_id=p, number=n)
                for n, p in enumerate(entrants, start=1)
            ]
        )
        rows = []
        for session in range(1, args.sessions + 1):
            rng.shuffle(entrants)
            for t in range(args.size // 4):
                four = entrants[4 * t : 4 * t + 4]
                raw = [int(40 * strength[p] + rng.gauss(0, 60)) for p in four]
                mean = sum(raw) // 4
                points = [r - mean for r in raw[:3]]
                points.append(-sum(points))
                rows += [
                    TableResult(
                        tournament=tournament,
                        session=session,
                        table=t + 1,
                        seat=seat,
                        player_id=p,
                        game_points=gp,
                    )
                    for seat, p, gp in zip(SEATS, four, points, strict=True)
                ]
        TableResult.objects.bulk_create(rows, batch_size=5000)
        tournament_results_store(tournament)  # as the confirmation does


def snapshot() -> list[tuple]:
    return list(
        RatingEntry.objects.order_by("player_id", "period").values_list(
            "player_id", "period", "rating", "rd", "vol", "games"
        )
    )


def measure_page(args: argparse.Namespace, period: str) -> str:
    # Production settings, as served: DEBUG off, whitenoise's manifest of collected statics.
    env = dict(
        os.environ,
        DJANGO_SETTINGS_MODULE="config.settings.production",
        DJANGO_SECRET_KEY="benchmark-only-secret-key-0123456789abcdef",
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
        SITE_URL="http://127.0.0.1",
        DJANGO_SECURE_SSL_REDIRECT="false",
    )
    subprocess.run(
        [str(ROOT / ".venv/bin/python"), "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    server = subprocess.Popen(
        [
            str(ROOT / ".venv/bin/gunicorn"),
            "config.wsgi:application",
            "--bind",
            f"127.0.0.1:{args.port}",
            "--workers",
            "2",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    url = f"http://127.0.0.1:{args.port}/en/ratings/"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(url, timeout=30).read()
                break
            except OSError:
                time.sleep(0.3)
        for _ in range(10):  # both workers fill their cache
            urllib.request.urlopen(url, timeout=30).read()
        out = subprocess.run(
            ["ab", "-n", str(args.requests), "-c", str(args.concurrency), url],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
    wanted = {}
    for line in out.splitlines():
        m = re.match(r"\s+(50|95|99|100)%\s+(\d+)", line)
        if m:
            wanted[m.group(1)] = int(m.group(2))
        if line.startswith(("Requests per second", "Failed requests", "Non-2xx")):
            wanted[line.split(":")[0]] = line.split(":")[1].strip()
    return (
        f"list page {url} (period {period}), {args.requests} requests, concurrency "
        f"{args.concurrency}: p50 {wanted.get('50')} ms, p95 {wanted.get('95')} ms, "
        f"p99 {wanted.get('99')} ms, max {wanted.get('100')} ms; "
        f"{wanted.get('Requests per second')}; failed {wanted.get('Failed requests')}"
        + (f"; non-2xx {wanted['Non-2xx responses']}" if "Non-2xx responses" in wanted else "")
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--tournaments", type=int, default=600)
    parser.add_argument("--size", type=int, default=40)
    parser.add_argument("--sessions", type=int, default=8)
    parser.add_argument("--years", type=int, default=10)
    parser.add_argument("--port", type=int, default=8190)
    parser.add_argument("--requests", type=int, default=400)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--keep", action="store_true", help="keep the synthetic data")
    parser.add_argument(
        "--reuse", action="store_true", help="reuse synthetic data a --keep run left behind"
    )
    args = parser.parse_args()

    call_command("migrate", verbosity=0)
    print(f"database: {connection.vendor} {connection.settings_dict['NAME']}")
    t0 = time.perf_counter()
    if not (args.reuse and Tournament.objects.filter(name__startswith=PREFIX).exists()):
        wipe()
        generate(args)
    results = TableResult.objects.filter(tournament__name__startswith=PREFIX).count()
    print(
        f"generated {args.players} players, {args.tournaments} tournaments x {args.size} "
        f"players x {args.sessions} sessions ({results} seat results) in "
        f"{time.perf_counter() - t0:.1f} s"
    )

    t0 = time.perf_counter()
    full = ratings_recompute()
    elapsed = time.perf_counter() - t0
    print(
        f"full recompute: {elapsed:.1f} s ({full.periods} periods with results, "
        f"{full.entries} history rows)"
    )
    reference = snapshot()
    middle = sorted({row[1] for row in reference})[len({row[1] for row in reference}) // 2]
    t0 = time.perf_counter()
    ratings_recompute(from_period=middle)
    print(
        f"recompute from {middle}: {time.perf_counter() - t0:.1f} s; identical rows: "
        f"{snapshot() == reference}"
    )
    latest = RatingPeriod.objects.filter(has_results=True).order_by("-period").first()
    print(measure_page(args, latest.period if latest else "-"))
    if not args.keep:
        wipe()


if __name__ == "__main__":
    main()

"""Every public page and API endpoint at a federation's tenth year (issue 26), beside /healthz.

    DATABASE_URL=postgres://... .venv/bin/python -u benchmarks/bench_pages.py [--port 8191]
        [--requests 200] [--busiest-requests 40] [--concurrency 4] [--reuse] [--keep]
        [--conn-max-age 0]
        [--players 10000] [--tournaments 600] [--size 40] [--sessions 8] [--years 10]

Builds the federation of `benchmarks/bench_ratings.py` (its builder: 10,000 players, 600
confirmed tournaments of 40 players with 8 sessions, ten years) in the database of
DATABASE_URL, loads the site's content (home page, search page) when it is missing, runs one
full rating recompute and ANALYZE (on PostgreSQL: the statistics autovacuum would gather soon
after such a load; the planner's choices depend on them), then serves the site with gunicorn (2 workers, production settings)
on 127.0.0.1:PORT and measures each URL with ApacheBench (`ab -n REQUESTS -c CONCURRENCY`,
Debian's apache2-utils) after a warm-up: p50 and p95 of /healthz, a typical player's page
(the median number of tournaments), the busiest player's page and its tenth pages of
tournaments and explained months (fewer requests), a tournament page, the rating list, the
calendar, a broad player search and its last page, the home page,
/api/v1/tournaments, /api/v1/ratings and the busiest player's /api/v1/players/{id}.
Anonymous requests, as a visitor sees the site. Targets: p95 under 150 ms each, the busiest
player's page under 1 s.

Use a database of its own: the synthetic data the script made before are removed first
(with --reuse they are kept when present); without --keep they are removed at the end.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")

import bench_ratings  # noqa: E402  (sets Django up)
import loadrun  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.db.models import Count  # noqa: E402
from wagtail.models import Page  # noqa: E402

from ratings.services import ratings_recompute  # noqa: E402
from tournaments.models import Player, TableResult, Tournament  # noqa: E402

PREFIX = bench_ratings.PREFIX
TARGET_MS = 150
BUSIEST_TARGET_MS = 1000


def environment(conn_max_age: int = 0) -> dict[str, str]:
    return loadrun.production_env(
        DJANGO_SECRET_KEY="benchmark-only-secret-key-0123456789abcdef-pages",
        # the API limits would cut the run: the anonymous one (60/min), and the user one,
        # which DRF applies to anonymous clients as well (per address)
        API_ANON_RATE="1000000/s", API_USER_RATE="1000000/s",
        DATABASE_CONN_MAX_AGE=str(conn_max_age),  # 0, as shipped: a connection a request
    )


def targets() -> list[tuple[str, str, bool]]:
    """(label, path, busiest) of every URL measured."""
    played = list(
        Player.objects.filter(name_latin__startswith=PREFIX)
        .annotate(n=Count("tournament_results"))
        .order_by("n", "pk")
        .values_list("pk", "n")
    )
    typical, typical_n = played[len(played) // 2]
    busiest, busiest_n = played[-1]
    tournament = (
        Tournament.objects.filter(name__startswith=PREFIX).order_by("-end_date", "pk").first()
    )
    return [
        ("/healthz", "/healthz", False),
        (f"player page ({typical_n} tournaments)", f"/en/ratings/players/{typical}/", False),
        (f"busiest player's page ({busiest_n} tournaments)",
         f"/en/ratings/players/{busiest}/", True),
        ("busiest player's page, page 10 of both lists",
         f"/en/ratings/players/{busiest}/?page=10&periods=10", True),
        ("tournament page", f"/en/tournaments/{tournament.pk}/", False),
        ("rating list", "/en/ratings/", False),
        ("calendar", "/en/tournaments/", False),
        ("search (matches every player)", "/en/search/?q=synthetic+player", False),
        # the players' part stops at 50 (content.site_search.MAX_PLAYERS): page 3 is the last
        ("search, last page", "/en/search/?q=synthetic+player&page=3", False),
        ("home page", "/en/", False),
        ("/api/v1/tournaments", "/api/v1/tournaments", False),
        ("/api/v1/ratings", "/api/v1/ratings", False),
        ("/api/v1/players/{id} (busiest)", f"/api/v1/players/{busiest}", True),
    ]


def measure(args: argparse.Namespace, urls: list[tuple[str, str, bool]]) -> None:
    with loadrun.gunicorn(environment(args.conn_max_age), args.port) as base:
        print(f"gunicorn, 2 workers, production settings, {connection.vendor}, "
              f"DATABASE_CONN_MAX_AGE={args.conn_max_age}; ab -c {args.concurrency}; "
              f"load average {os.getloadavg()[0]:.1f}")
        print(f"{'url':<48} {'n':>5} {'bytes':>8} {'p50 ms':>7} {'p95 ms':>7} {'failed':>6}")
        worst = 0
        for label, path, busiest in urls:
            url = base + path
            for _ in range(4 if busiest else 10):  # both workers warm
                urllib.request.urlopen(url, timeout=60).read()
            n = args.busiest_requests if busiest else args.requests
            row = loadrun.ab(url, n, min(args.concurrency, n))
            p95 = int(row.get("95", 0))
            if not busiest and path != "/healthz":
                worst = max(worst, p95)
            print(f"{label:<48} {n:>5} {row.get('Document Length', '-'):>8} "
                  f"{row.get('50', '-'):>7} {row.get('95', '-'):>7} "
                  f"{loadrun.failures(row):>6}", flush=True)
        print(f"worst p95 (busiest player left out): {worst} ms (target < {TARGET_MS} ms); "
              f"load average {os.getloadavg()[0]:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--tournaments", type=int, default=600)
    parser.add_argument("--size", type=int, default=40)
    parser.add_argument("--sessions", type=int, default=8)
    parser.add_argument("--years", type=int, default=10)
    parser.add_argument("--port", type=int, default=8191)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--busiest-requests", type=int, default=40)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--conn-max-age", type=int, default=0,
                        help="DATABASE_CONN_MAX_AGE of the workers (0, as shipped)")
    parser.add_argument("--keep", action="store_true", help="keep the synthetic data")
    parser.add_argument("--reuse", action="store_true",
                        help="reuse synthetic data a --keep run left behind")
    args = parser.parse_args()

    call_command("migrate", verbosity=0)
    print(f"database: {connection.vendor} {connection.settings_dict['NAME']}", flush=True)
    if Page.objects.filter(depth=2).count() < 1 or not Page.objects.filter(depth__gt=2).exists():
        call_command("load_content", verbosity=0)
    t0 = time.perf_counter()
    if not (args.reuse and Tournament.objects.filter(name__startswith=PREFIX).exists()):
        bench_ratings.wipe()
        bench_ratings.generate(args)
        ratings_recompute()
    if connection.vendor == "postgresql":  # what autovacuum does soon after such a load
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    results = TableResult.objects.filter(tournament__name__startswith=PREFIX).count()
    print(f"federation: {args.players} players, {args.tournaments} tournaments, {results} "
          f"seat results, rated ({time.perf_counter() - t0:.1f} s)", flush=True)
    measure(args, targets())
    if not args.keep:
        bench_ratings.wipe()


if __name__ == "__main__":
    main()

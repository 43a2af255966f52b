"""A bounded load run (issue 22): requests/s and p95 of the site's busiest kinds of request.

    DATABASE_URL=postgres://... REDIS_URL=redis://127.0.0.1:6379/12 \\
        .venv/bin/python -u benchmarks/bench_load.py [--port 8192] [--requests 400]
        [--batch-requests 100] [--concurrency 4] [--players 2000] [--tournaments 60]
        [--reuse] [--keep]

Loads the rulebook (`load_content`) when it is missing and a small rated federation
(`benchmarks/bench_ratings.py`'s builder: PLAYERS players, TOURNAMENTS confirmed tournaments
of 40 players, 8 sessions, over two years), then serves the site with gunicorn (2 workers,
production settings, the cache and the rate limits in Redis when REDIS_URL is set) and
runs ApacheBench (`ab -n REQUESTS -c CONCURRENCY`) against, in turn: GET /healthz, the MCR
fan table page, the rating list, POST /api/v1/score (one hand) and POST
/api/v1/score/batch (100 hands, BATCH_REQUESTS requests). Anonymous, as a visitor or a
program without a token; the API limits are raised for the run (API_ANON_RATE, and
API_USER_RATE, which DRF applies to anonymous clients as well) so that throttling does not
cut it, while the throttle itself still runs on every request.
Prints requests/s, p50, p95 and p99 (ms), failed answers and the load average before and
after. The machine is shared: read the figures with the load average beside them.
"""

from __future__ import annotations

import argparse
import json
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
from bench_score_api import questions  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from wagtail.models import Page  # noqa: E402

from ratings.services import ratings_recompute  # noqa: E402
from tournaments.models import Tournament  # noqa: E402

HAND = {"rules": "mcr", "hand": "123m456p789s123s5s5s", "context": {}}


def targets(args: argparse.Namespace) -> list[tuple[str, str, bytes | None, int]]:
    """(label, path, POST body or None, requests) of each measured request."""
    batch = {"questions": questions(100, seed=11, mix=False)}
    return [
        ("GET /healthz", "/healthz", None, args.requests),
        ("GET fan table page (MCR)", "/en/rules/mcr/fans/", None, args.requests),
        ("GET rating list", "/en/ratings/", None, args.requests),
        ("POST /api/v1/score (1 hand)", "/api/v1/score", json.dumps(HAND).encode(),
         args.requests),
        ("POST /api/v1/score/batch (100 hands)", "/api/v1/score/batch",
         json.dumps(batch).encode(), args.batch_requests),
    ]


def warm(url: str, body: bytes | None) -> None:
    """Both workers answer once or twice before the run (caches, imports, tables)."""
    for _ in range(6):
        request = urllib.request.Request(url, data=body, headers={
            "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as response:
            response.read()
            assert response.status == 200, (url, response.status)


def measure(args: argparse.Namespace) -> None:
    # the limits would cut the run; DRF's user throttle counts anonymous clients too (per
    # address, at API_USER_RATE), so both are lifted
    env = loadrun.production_env(API_ANON_RATE="1000000/s", API_USER_RATE="1000000/s")
    redis = "Redis" if env.get("REDIS_URL") else "local memory"
    with loadrun.gunicorn(env, args.port) as base:
        before = os.getloadavg()
        print(f"gunicorn, 2 workers, production settings, {connection.vendor}, cache in "
              f"{redis}; ab -c {args.concurrency}; {os.cpu_count()} cores; load average "
              f"{before[0]:.1f} {before[1]:.1f} {before[2]:.1f}")
        print(f"{'request':<38} {'n':>5} {'req/s':>8} {'p50 ms':>7} {'p95 ms':>7} "
              f"{'p99 ms':>7} {'failed':>6}")
        for label, path, body, n in targets(args):
            warm(base + path, body)
            row = loadrun.ab(base + path, n, args.concurrency, body=body)
            print(f"{label:<38} {n:>5} {float(row['Requests per second']):>8.1f} "
                  f"{row.get('50', '-'):>7} {row.get('95', '-'):>7} {row.get('99', '-'):>7} "
                  f"{loadrun.failures(row):>6}", flush=True)
        after = os.getloadavg()
        print(f"load average after: {after[0]:.1f} {after[1]:.1f} {after[2]:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=8192)
    parser.add_argument("--requests", type=int, default=400)
    parser.add_argument("--batch-requests", type=int, default=100)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--tournaments", type=int, default=60)
    parser.add_argument("--keep", action="store_true", help="keep the synthetic data")
    parser.add_argument("--reuse", action="store_true",
                        help="reuse synthetic data a --keep run left behind")
    args = parser.parse_args()
    args.size, args.sessions, args.years = 40, 8, 2

    call_command("migrate", verbosity=0)
    print(f"database: {connection.vendor} {connection.settings_dict['NAME']}", flush=True)
    if not Page.objects.filter(depth__gt=2).exists():
        call_command("load_content", verbosity=0)
    t0 = time.perf_counter()
    if not (args.reuse and Tournament.objects.filter(name__startswith=bench_ratings.PREFIX)
            .exists()):
        bench_ratings.wipe()
        bench_ratings.generate(args)
        ratings_recompute()
    print(f"federation: {args.players} players, {args.tournaments} tournaments, rated "
          f"({time.perf_counter() - t0:.1f} s)", flush=True)
    measure(args)
    if not args.keep:
        bench_ratings.wipe()


if __name__ == "__main__":
    main()

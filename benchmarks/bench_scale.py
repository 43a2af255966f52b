"""The pages of issue 43 on a federation of 1k, 10k or 100k players: time and queries.

    DATABASE_URL=postgres://... .venv/bin/python -u benchmarks/bench_scale.py \
        [--players 10000] [--tournaments 600] [--reuse] [--runs 3] [--requests 20]

Builds the federation with `federation_builder.build` (or, with --reuse, uses the one a
previous build left in that database), loads the site's content (rulebook, home page) when
it is missing, runs ANALYZE on PostgreSQL, then requests each page of the issue's table
in-process through Django's test client (no web server: the time of the view, its
templates and its queries), anonymously and signed in (a member; the organizer for their
own tournaments list): 2 requests to warm the caches, then RUNS runs of REQUESTS requests
each. Printed: the number of queries of one warm request, the size of the answer, p50 and
p95 over all the runs' requests, and the worst run's p95. Target (issue 43): p95 <= 150 ms
at 10k, no page more than 1.5x slower at 10k than at 1k unless it shows more, none over
500 ms at 100k.

The settings are the production settings (``loadrun.production_env``: cached templates,
DEBUG off, the database cache unless REDIS_URL is set; collectstatic is run for the
manifest), or with --dev the dev settings; use a database of its own.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
os.environ.setdefault("CELERY_TASK_ALWAYS_EAGER", "true")
if "--dev" not in sys.argv:  # production settings, as served (cached templates, no DEBUG)
    import loadrun

    os.environ.update(loadrun.production_env(
        DJANGO_ALLOWED_HOSTS="testserver,127.0.0.1",
        # the API limits would cut the run (60 a minute anonymously)
        API_ANON_RATE="1000000/s", API_USER_RATE="1000000/s"))

import federation_builder  # noqa: E402  (sets Django up)
from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.db.models import Count  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402
from wagtail.models import Page  # noqa: E402

from federation.models import Club, User  # noqa: E402
from tournaments.models import Player, Tournament  # noqa: E402

PREFIX = federation_builder.PREFIX
TARGET_MS = 150


def targets() -> list[tuple[str, str, tuple[str, ...]]]:
    """(label, path, who) of every page measured; who: anonymous, member, organizer."""
    busiest = (Player.objects.filter(name_latin__startswith=PREFIX)
               .annotate(n=Count("tournament_results")).order_by("-n", "pk")
               .values_list("pk", "n").first())
    assert busiest is not None, "no federation: build one first"
    club = (Club.objects.filter(name__startswith=PREFIX).annotate(n=Count("members"))
            .order_by("-n", "pk").first())
    assert club is not None
    both = ("anonymous", "member")
    return [
        ("club ranking", "/en/clubs/", both),
        ("club page (largest club)", f"/en/clubs/{club.pk}/", both),
        ("public member list", "/en/members/", both),
        ("public member list, search", "/en/members/?q=player+00", both),
        ("EMA ranking page", "/en/ratings/ema/", both),
        ("EMA ranking API", "/api/v1/rankings/ema", ("anonymous",)),
        (f"busiest player's page ({busiest[1]} t.)", f"/en/ratings/players/{busiest[0]}/",
         both),
        ("sitemap.xml", "/sitemap.xml", ("anonymous",)),
        ("fan table", "/en/rules/mcr/fans/", both),
        ("fan page", "/en/rules/mcr/fans/57a/", both),
        ("rule chapter", "/en/rules/mcr/3/", both),
        ("rating list", "/en/ratings/", both),
        ("organizer's own tournaments", "/en/tournaments/", ("organizer",)),
    ]


def _client(who: str) -> Client:
    client = Client()
    if who == "member":
        client.force_login(User.objects.get(email=federation_builder.MEMBER_USER))
    elif who == "organizer":
        client.force_login(User.objects.get(email=federation_builder.ORGANIZER))
    return client


def _get(client: Client, path: str) -> tuple[float, int, int]:
    start = time.perf_counter()
    response = client.get(path)
    elapsed = (time.perf_counter() - start) * 1000
    content = b"".join(response.streaming_content) if response.streaming else response.content
    return elapsed, response.status_code, len(content)


def measure(runs: int, requests: int) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    print(f"{'page':<40} {'who':<10} {'q':>4} {'KB':>6} {'p50':>6} {'p95':>6} "
          f"{'worst run p95':>13}", flush=True)
    for label, path, people in targets():
        for who in people:
            client = _client(who)
            for _ in range(2):
                _elapsed, status, _size = _get(client, path)
                if status >= 400:
                    raise SystemExit(f"{path} ({who}): {status}")
            with CaptureQueriesContext(connection) as captured:
                _elapsed, _status, size = _get(client, path)
            queries = len(captured.captured_queries)
            times: list[float] = []
            run_p95s = []
            for _ in range(runs):
                run = [_get(client, path)[0] for _ in range(requests)]
                times += run
                run_p95s.append(_p95(run))
            row = {"page": label, "who": who, "queries": queries, "kb": size / 1024,
                   "p50": statistics.median(times), "p95": _p95(times),
                   "worst": max(run_p95s)}
            rows.append(row)
            print(f"{label:<40} {who:<10} {queries:>4} {size / 1024:>6.0f} "
                  f"{row['p50']:>6.0f} {row['p95']:>6.0f} {row['worst']:>13.0f}", flush=True)
    return rows


def _p95(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--tournaments", type=int, default=None,
                        help="default: 60 per 1,000 players")
    parser.add_argument("--reuse", action="store_true",
                        help="use the federation a previous build left in the database")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--requests", type=int, default=20)
    parser.add_argument("--dev", action="store_true", help="the dev settings")
    args = parser.parse_args()

    call_command("migrate", verbosity=0)
    if not args.dev:
        call_command("collectstatic", interactive=False, verbosity=0)
    print(f"database: {connection.vendor} {connection.settings_dict['NAME']}", flush=True)
    if not Page.objects.filter(depth__gt=2).exists():
        call_command("load_content", verbosity=0)
    tournaments = args.tournaments or federation_builder.SIZES.get(
        args.players, args.players * 60 // 1000)
    built = Tournament.objects.filter(name__startswith=PREFIX).count()
    if not (args.reuse and built):
        t0 = time.perf_counter()
        federation_builder.build(args.players, tournaments)
        print(f"built {args.players} players, {tournaments} tournaments in "
              f"{time.perf_counter() - t0:.1f} s", flush=True)
    if connection.vendor == "postgresql":  # what autovacuum does soon after such a load
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
    players = Player.objects.filter(name_latin__startswith=PREFIX).count()
    settings.DEBUG = False
    setup_test_environment()  # the test client's host; mail kept in memory
    print(f"federation: {players} players, "
          f"{Tournament.objects.filter(name__startswith=PREFIX).count()} tournaments; "
          f"{args.runs} runs x {args.requests} requests a page; "
          f"load average {os.getloadavg()[0]:.1f}", flush=True)
    rows = measure(args.runs, args.requests)
    over = [f"{r['page']} ({r['who']})" for r in rows if float(r["p95"]) > TARGET_MS]  # type: ignore[arg-type]
    print(f"over {TARGET_MS} ms at p95: {', '.join(over) or 'none'}; "
          f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()

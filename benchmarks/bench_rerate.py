"""Re-rating at scale: what the queued re-rate (decision 0822) costs after a confirmation
and after corrections one, five and nine years back, against the task's time limit.

    DATABASE_URL=postgres://.../scale_100k .venv/bin/python -u benchmarks/bench_rerate.py \
        [--ruleset mcr] [--years-back 0,1,5,9]

Runs on a federation that `benchmarks/bench_scale.py` (or `federation_builder.py`) built in
that database. Each case runs in a fresh process, as a worker's job does: the MCR ratings
re-rated from the month of the newest tournament (a confirmation), or from the month of the
tournament that many years before it (a correction), with ``ratings.tasks.rerate`` (the
recompute of the changed months, the marks cleared, the stored EMA ranking written again),
then the club ranking's job the recompute queued (``ratings.store_rankings``). It prints
the wall time of each job, the rows the re-rate wrote, the process's peak memory (max RSS)
and the share of the re-rate's soft time limit used.
Each run writes what a real re-rate would: the ratings come out the same.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")
# the jobs the re-rate queues (the club ranking's) wait on an in-memory broker: each is
# timed on its own, as a worker runs it
os.environ["CELERY_TASK_ALWAYS_EAGER"] = "false"
os.environ["CELERY_BROKER_URL"] = "memory://"


def one_case(ruleset: str, years_back: int) -> dict[str, object]:
    """One re-rate in this process; what it cost."""
    import django

    django.setup()
    from django.conf import settings
    from django.db import connection

    from ratings.rules.method import period_label, period_of
    from ratings.tasks import rerate, store_rankings
    from tournaments.models import Tournament

    newest = (Tournament.objects.filter(ruleset=ruleset, state=Tournament.State.RESULTS_CONFIRMED)
              .order_by("-end_date").values_list("end_date", flat=True).first())
    if newest is None:
        raise SystemExit("no confirmed tournament: build the federation first "
                         "(benchmarks/bench_scale.py or federation_builder.py)")
    target = date(newest.year - years_back, newest.month, 1)
    month = period_label(period_of(target))
    connection.ensure_connection()
    start = time.perf_counter()
    rows = rerate.run(ruleset, month)  # the job's body, as the worker calls it
    seconds = time.perf_counter() - start
    start = time.perf_counter()
    store_rankings.run(rulesets=[ruleset], ema_ranking=False)  # the job it queued
    club_seconds = time.perf_counter() - start
    return {
        "years_back": years_back,
        "from": month,
        "seconds": round(seconds, 1),
        "club_seconds": round(club_seconds, 1),
        "rows": rows,
        "max_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
        "limit": settings.RATINGS_RERATE_TIME_LIMIT,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ruleset", default="mcr")
    parser.add_argument("--years-back", default="0,1,5,9",
                        help="comma-separated: 0 is the newest tournament's month")
    parser.add_argument("--one", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one is not None:
        print(json.dumps(one_case(args.ruleset, args.one)))
        return
    print(f"load average {os.getloadavg()[0]:.1f}", flush=True)
    print("| re-rate from | months | re-rate s | club ranking job s | rows written | peak MB "
          "| share of the limit |")
    print("|---|---|---|---|---|---|---|")
    for years in (int(y) for y in args.years_back.split(",")):
        out = subprocess.run(
            [sys.executable, __file__, "--ruleset", args.ruleset, "--one", str(years)],
            check=True, capture_output=True, text=True).stdout
        r = json.loads(out.strip().splitlines()[-1])
        what = ("the newest month" if years == 0
                else f"{years} year{'s' if years > 1 else ''} back")
        share = 100 * float(r["seconds"]) / float(r["limit"])
        print(f"| {what} ({r['from']}) | {12 * years + 1} | {r['seconds']} | "
              f"{r['club_seconds']} | {r['rows']:,} | "
              f"{r['max_rss_mb']} | {share:.1f} % of {r['limit']} s |", flush=True)
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()

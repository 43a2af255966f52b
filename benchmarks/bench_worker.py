"""One Celery worker's throughput: mails per minute of a mailing, recomputes per minute.

    DATABASE_URL=postgres://... .venv/bin/python benchmarks/bench_worker.py [--members 2000]
        [--batch-size 100] [--recomputes 20] [--players 10000] [--tournaments 600]
        [--years 10] [--reuse] [--keep]

Needs the Redis at 127.0.0.1:6379 (the broker: database 11, a queue of the run's own). The
data go into the database of DATABASE_URL: use a database of its own (the synthetic rows of
an earlier run are removed first).

1. **Mails.** MEMBERS members and a mailing being sent to all of them; one worker
   (`celery -A config worker --pool=solo`, the development settings, Django's console mail
   backend into /dev/null: the worker's own cost, each mail rendered in the member's
   language, claimed, handed over and marked in commits of their own, without a mail
   server's) runs `federation.send_mailings`, whose batches queue one another. Timed from
   the first task queued to the last delivery marked sent.
2. **Recomputes.** The ratings of benchmarks/bench_ratings.py (10,000 players, 600
   tournaments over ten years by default; --reuse keeps what a --keep run left) and
   RECOMPUTES `ratings.recompute` tasks from the latest month on: what re-rating after a
   confirmation costs (decision 0907). The worker's own "succeeded in" times are read from
   its log.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")

import django  # noqa: E402

django.setup()

import bench_ratings  # noqa: E402
from celery import Celery  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402

from federation.models import (  # noqa: E402
    Mailing,
    MailingDelivery,
    MailingTranslation,
    MailKind,
    Member,
    MembershipType,
)
from ratings.models import RatingPeriod  # noqa: E402
from tournaments.models import Tournament  # noqa: E402

BROKER = "redis://127.0.0.1:6379/11"
PREFIX = "Synthetic worker"


def start_worker(queue: str, logfile: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "CELERY_BROKER_URL": BROKER, "CELERY_TASK_DEFAULT_QUEUE": queue,
           "DJANGO_SETTINGS_MODULE": "config.settings.dev",
           "DJANGO_EMAIL_BACKEND": "django.core.mail.backends.console.EmailBackend"}
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo", "-Q", queue,
         "--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "INFO",
         f"--logfile={logfile}"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if logfile.exists() and "ready." in logfile.read_text(errors="replace"):
            return process
        time.sleep(0.2)
    os.killpg(process.pid, signal.SIGKILL)
    raise SystemExit(f"the worker did not start; see {logfile}")


def wipe_mailing() -> None:
    Mailing.objects.filter(translations__subject=PREFIX).delete()
    Member.objects.filter(name_latin__startswith=PREFIX).delete()


def mails(args: argparse.Namespace, publisher: Celery, queue: str) -> str:
    wipe_mailing()
    regular, _ = MembershipType.objects.get_or_create(kind="regular",
                                                      defaults={"name": "Regular"})
    people = Member.objects.bulk_create(
        Member(name_native=f"Игрок {i}", name_latin=f"{PREFIX} {i}",
               email=f"bench{i:05d}@example.org", language=("ru", "en", "fr")[i % 3],
               membership_type=regular, application=Member.Application.APPROVED)
        for i in range(args.members))
    mailing = Mailing.objects.create(kind=MailKind.NEWS, audience=Mailing.Audience.GOOD_STANDING,
                                     state=Mailing.State.SENDING)
    MailingTranslation.objects.bulk_create(
        MailingTranslation(mailing=mailing, language=language, subject=PREFIX,
                           body="The championship is in May.\n" * 20)
        for language in ("ru", "en", "fr"))
    MailingDelivery.objects.bulk_create(
        (MailingDelivery(mailing=mailing, member=m, email=m.email, language=m.language)
         for m in people), batch_size=5000)
    started = time.perf_counter()
    publisher.send_task("federation.send_mailings", kwargs={"batch_size": args.batch_size},
                        queue=queue)
    while mailing.deliveries.exclude(state=MailingDelivery.State.SENT).exists():
        time.sleep(0.2)
    seconds = time.perf_counter() - started
    if not args.keep:
        wipe_mailing()
    return (f"mails: {args.members} in {seconds:.1f} s = {args.members / seconds * 60:,.0f} "
            f"per minute (batches of {args.batch_size})")


def recomputes(args: argparse.Namespace, publisher: Celery, queue: str, logfile: Path) -> str:
    if not (args.reuse and Tournament.objects.filter(
            name__startswith=bench_ratings.PREFIX).exists()):
        bench_ratings.wipe()
        bench_ratings.generate(args)
        from ratings.services import ratings_recompute

        ratings_recompute()
    latest = RatingPeriod.objects.filter(has_results=True).order_by("-period").first()
    assert latest is not None
    pattern = re.compile(r"Task ratings\.recompute\[[^\]]+\] succeeded in ([0-9.]+)s")
    before = len(pattern.findall(logfile.read_text(errors="replace")))
    started = time.perf_counter()
    for _ in range(args.recomputes):
        publisher.send_task("ratings.recompute",
                            kwargs={"ruleset": "mcr", "from_period": latest.period}, queue=queue)
    while True:
        times = [float(t) for t in pattern.findall(logfile.read_text(errors="replace"))][before:]
        if len(times) >= args.recomputes:
            break
        time.sleep(0.2)
    seconds = time.perf_counter() - started
    if not args.keep:
        bench_ratings.wipe()
    return (f"recomputes from {latest.period} (after a confirmation): {args.recomputes} in "
            f"{seconds:.1f} s = {args.recomputes / seconds * 60:.1f} per minute "
            f"(each {min(times):.2f}-{max(times):.2f} s in the worker)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--members", type=int, default=2000)
    parser.add_argument("--batch-size", type=int, default=100)
    parser.add_argument("--recomputes", type=int, default=20)
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--tournaments", type=int, default=600)
    parser.add_argument("--size", type=int, default=40)
    parser.add_argument("--sessions", type=int, default=8)
    parser.add_argument("--years", type=int, default=10)
    parser.add_argument("--reuse", action="store_true",
                        help="reuse the ratings data a --keep run left behind")
    parser.add_argument("--keep", action="store_true", help="keep the synthetic data")
    args = parser.parse_args()

    call_command("migrate", verbosity=0)
    print(f"database: {connection.vendor} {connection.settings_dict['NAME']}")
    queue = f"bench-{uuid.uuid4().hex[:8]}"
    publisher = Celery("bench", broker=BROKER)
    logfile = Path(tempfile.mkdtemp()) / "worker.log"
    worker = start_worker(queue, logfile)
    try:
        print(mails(args, publisher, queue))
        if args.recomputes:
            print(recomputes(args, publisher, queue, logfile))
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(timeout=30)
        publisher.close()


if __name__ == "__main__":
    main()

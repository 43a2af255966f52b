"""A whole synthetic federation at 1k, 10k or 100k players (issue 43), in bulk.

    DATABASE_URL=postgres://... .venv/bin/python -u benchmarks/federation_builder.py \
        [--players 10000] [--tournaments 600]

What a federation of that size holds after ten years, shaped as the services leave it but
written with ``bulk_create`` (the services one object at a time would take hours at 100k):

- the players, tournaments, registrations and table results of `bench_ratings.generate`
  (PREFIX "Synthetic"): TOURNAMENTS confirmed tournaments of 40 players and 8 sessions
  spread evenly over ten years, game points following a hidden strength, each with its
  final standings stored as the confirmation stores them (``tournament_results_store``);
  every third one certified for the EMA (MERS, weight 1) with its base ranks stored as at
  confirmation (``ema_base_ranks_store``); all of them run by one organizer
  (``bench-organizer@example.org``: their own list holds every tournament);
- a club for every 25 members (tournaments hosted by one of them);
- 70 % of the players are members (80 % of those agree to public lists), each with a dues
  invoice a year from the year they joined, paid (one payment each) except a lapse for one
  member in ten and this year's invoice left open for one in seven; their stored coverage
  computed by the payment services' own function (``all_members_coverage_refresh``);
- the ratings computed by the rating method (``ratings_recompute``) and the stored
  rankings (``rankings_store``).

`build()` is what bench_scale.py calls; on its own the script builds and reports the time.
The data go into the database of DATABASE_URL: use one of its own (the synthetic data made
before are removed first).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from datetime import date
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")
# the jobs the writes queue (stored rankings after coverage changes) run here, not on a
# broker the benchmark does not start
os.environ.setdefault("CELERY_TASK_ALWAYS_EAGER", "true")

import bench_ratings  # noqa: E402  (sets Django up)
from django.db import transaction  # noqa: E402

from federation.models import (  # noqa: E402
    Club,
    DuesInvoice,
    Member,
    MembershipType,
    MembershipYear,
    Payment,
    User,
)
from federation.services.coverage import all_members_coverage_refresh  # noqa: E402
from ratings.rankings import ema_base_ranks_store, rankings_store  # noqa: E402
from ratings.services import ratings_recompute  # noqa: E402
from tournaments.models import Player, Tournament  # noqa: E402

PREFIX = bench_ratings.PREFIX
ORGANIZER = "bench-organizer@example.org"
MEMBER_USER = "bench-member@example.org"
#: the sizes of issue 43: players -> tournaments
SIZES = {1_000: 60, 10_000: 600, 100_000: 6_000}
MEMBERS_PER_CLUB = 25
FEE = Decimal("30.00")
BATCH = 5000


def wipe() -> None:
    """Everything a build made, the synthetic tournaments and players first."""
    bench_ratings.wipe()
    with transaction.atomic():
        members = Member.objects.filter(name_latin__startswith=PREFIX)
        invoices = DuesInvoice.objects.filter(number__startswith="SYN")
        Payment.objects.filter(invoice__in=invoices).delete()
        invoices.delete()
        members.delete()
        Club.objects.filter(name__startswith=PREFIX).delete()


def _years(first: int, last: int) -> dict[int, MembershipYear]:
    out = {}
    for year in range(first, last + 1):
        out[year], _ = MembershipYear.objects.get_or_create(
            year=year, defaults={"starts_on": date(year, 1, 1), "ends_on": date(year, 12, 31)})
    return out


def _members(rng: random.Random, player_ids: list[int], today: date) -> int:
    """Members for 70 % of the players, their clubs, invoices and payments; returns the
    number of members."""
    regular, _ = MembershipType.objects.get_or_create(kind="regular",
                                                      defaults={"is_free": False})
    years = _years(today.year - 9, today.year)
    chosen = sorted(rng.sample(player_ids, k=int(len(player_ids) * 0.7)))
    clubs = Club.objects.bulk_create([
        Club(name=f"{PREFIX} Club {i:04d}", city="Moscow", public_contact="tiles@example.org")
        for i in range(max(1, len(chosen) // MEMBERS_PER_CLUB))])
    names = dict(Player.objects.filter(pk__in=chosen).values_list("pk", "name_latin"))
    members = Member.objects.bulk_create([
        Member(name_latin=names[pid], name_native=names[pid], country="RU",
               membership_number=800_000 + i, membership_type=regular,
               application=Member.Application.APPROVED,
               joined_on=date(today.year - rng.randrange(10), 1, 15),
               club=rng.choice(clubs), public_consent=rng.random() < 0.8)
        for i, pid in enumerate(chosen)], batch_size=BATCH)
    players = Player.objects.in_bulk(chosen)
    for member, pid in zip(members, chosen, strict=True):
        players[pid].member_id = member.pk
    Player.objects.bulk_update(list(players.values()), ["member"], batch_size=BATCH)
    invoices, paid = [], []
    for member in members:
        assert member.joined_on is not None
        lapse = rng.random() < 0.1  # stopped paying two years ago
        open_now = rng.random() < 1 / 7
        for year in range(member.joined_on.year, today.year + 1):
            if lapse and year >= today.year - 1:
                break
            invoice = DuesInvoice(
                number=f"SYN{year}{member.membership_number:07d}",
                membership_year=years[year], member=member, membership_type=regular,
                billed_name=member.name_latin, amount=FEE, currency="EUR",
                issued_on=date(year, 1, 10), due_on=date(year, 2, 10))
            invoices.append(invoice)
            if not (open_now and year == today.year):
                paid.append(invoice)
    DuesInvoice.objects.bulk_create(invoices, batch_size=BATCH)
    covered = DuesInvoice.covered_members.through  # whom an invoice's dues cover: the payer
    covered.objects.bulk_create([covered(duesinvoice_id=invoice.pk, member_id=invoice.member_id)
                                 for invoice in invoices], batch_size=BATCH)
    Payment.objects.bulk_create([
        Payment(invoice=invoice, amount=FEE, paid_on=date(invoice.issued_on.year, 1, 20),
                method=Payment.Method.BANK_TRANSFER,
                receipt_number=f"SYR{invoice.number[3:]}")
        for invoice in paid], batch_size=BATCH)
    all_members_coverage_refresh()
    return len(members)


def build(players: int, tournaments: int, *, seed: int = 2026,
          report=print) -> dict[str, float]:  # type: ignore[no-untyped-def]
    """Build the federation; returns the seconds each step took."""
    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    wipe()
    timings["wipe"] = time.perf_counter() - t0
    organizer, _ = User.objects.get_or_create(email=ORGANIZER,
                                              defaults={"username": "bench-organizer"})
    from django.contrib.auth.models import Group

    from tournaments.services import ROLE_ORGANIZER
    organizer.groups.add(Group.objects.get(name=ROLE_ORGANIZER))
    User.objects.get_or_create(email=MEMBER_USER, defaults={"username": "bench-member"})

    t0 = time.perf_counter()
    bench_ratings.generate(argparse.Namespace(players=players, tournaments=tournaments,
                                              size=40, sessions=8, years=10))
    timings["tournaments"] = time.perf_counter() - t0
    report(f"  players, tournaments, final standings: {timings['tournaments']:.1f} s")

    rng = random.Random(seed)
    t0 = time.perf_counter()
    ids = list(Player.objects.filter(name_latin__startswith=PREFIX).order_by("pk")
               .values_list("pk", flat=True))
    members = _members(rng, ids, date.today())
    timings["members"] = time.perf_counter() - t0
    report(f"  {members} members, clubs, invoices, payments, coverage: "
           f"{timings['members']:.1f} s")

    t0 = time.perf_counter()
    events = list(Tournament.objects.filter(name__startswith=PREFIX).order_by("pk"))
    clubs = list(Club.objects.filter(name__startswith=PREFIX).values_list("pk", flat=True))
    for i, event in enumerate(events):
        event.club_id = rng.choice(clubs)
        if i % 3 == 0:
            event.mers, event.mers_weight = True, Decimal("1")
    Tournament.objects.bulk_update(events, ["club", "mers", "mers_weight"], batch_size=BATCH)
    ema_base_ranks_store(tournament_ids=[e.pk for e in events if e.mers])
    timings["mers"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    ratings_recompute()
    timings["ratings"] = time.perf_counter() - t0
    report(f"  ratings (full recompute): {timings['ratings']:.1f} s")
    t0 = time.perf_counter()
    rankings_store()
    timings["rankings"] = time.perf_counter() - t0
    report(f"  EMA base ranks, stored rankings: {timings['mers'] + timings['rankings']:.1f} s")
    return timings


def main() -> None:
    from django.core.management import call_command
    from django.db import connection

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--tournaments", type=int, default=None,
                        help="default: 60 per 1,000 players")
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    print(f"database: {connection.vendor} {connection.settings_dict['NAME']}", flush=True)
    tournaments = args.tournaments or SIZES.get(args.players, args.players * 60 // 1000)
    t0 = time.perf_counter()
    build(args.players, tournaments)
    print(f"federation of {args.players} players and {tournaments} tournaments built in "
          f"{time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main()

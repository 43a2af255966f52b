"""The spreadsheet imports at 10,000 rows (issue 35): members (each with two paid years,
so 20,000 invoices and payments), the EMA player register (half of the numbers with a
dropped leading zero) and a past tournament's final standings (the EMA results sheet:
10,000 players, a third of them already known by their EMA number, the rest new; not
rated, as decision 0810 advises for such a field), each previewed, committed, then
imported a second time (nothing changes), through the services the API and the admin's
pages call: all three read their file through the one reading path (decision 0812).

    .venv/bin/python benchmarks/bench_imports.py [--rows 10000]
    DATABASE_URL=postgres://... .venv/bin/python benchmarks/bench_imports.py

Builds a throw-away test database (SQLite in memory, or ``test_<name>`` on PostgreSQL when
DATABASE_URL is set). Target: each preview and each commit under 30 seconds.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")

TARGET = 30.0


def members_csv(rows: int) -> bytes:
    lines = ["Name;E-mail;Date of birth;Club;Member number;Country;Phone;Joined;Paid years"]
    for i in range(rows):
        lines.append(f"Member {i};member{i}@example.org;1980-01-{i % 28 + 1:02d};"
                     f"Club {i % 50};{i + 1};NL;+31 6 {i:08d};2020-01-01;2024, 2025")
    return ("\n".join(lines) + "\n").encode("cp1252")


def register_csv(rows: int) -> bytes:
    lines = ["EMA number;Last name;First name;Country"]
    for i in range(rows):
        number = f"{'0' if i % 2 else '1'}{(i % 7) + 1}{i:06d}"
        lines.append(f"{number.lstrip('0')};Last{i};First{i};{('NL', 'AT', 'FR')[i % 3]}")
    return ("\n".join(lines) + "\n").encode()


def standings_csv(rows: int) -> bytes:
    """The EMA results sheet as this site exports it; every third player is one of the
    register's (its EMA number written without the leading zero)."""
    lines = ["Place,First name,Last name,EMA number,Table points,Score,EMA member,Country"]
    for i in range(rows):
        number = f"{'0' if i % 2 else '1'}{(i % 7) + 1}{i:06d}" if i % 3 == 0 else ""
        first, last = (f"First{i}", f"Last{i}") if number else (f"Guest{i}", f"Family{i}")
        lines.append(f"{i + 1},{first},{last},{number.lstrip('0')},{(rows - i) // 4},"
                     f"{rows - 2 * i},{'yes' if number else 'no'},"
                     f"{('Netherlands', 'Austria', 'France')[i % 3]}")
    return ("\n".join(lines) + "\n").encode()


def timed(label: str, call, results: list) -> object:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    report = call()
    elapsed = time.perf_counter() - start
    results.append((label, elapsed, report.created, report.updated, report.unchanged,
                    len(report.errors)))
    return report


def run(rows: int) -> None:
    from datetime import date
    from decimal import Decimal

    from django.db import connection

    from federation.models import MembershipFee, MembershipType, MembershipYear, User
    from federation.services import members_import
    from tournaments.services import players_import
    from tournaments.services.imports import tournament_import

    regular, _created = MembershipType.objects.get_or_create(kind="regular")
    for year in (2024, 2025):
        y = MembershipYear.objects.create(year=year, starts_on=date(year, 1, 1),
                                          ends_on=date(year, 12, 31))
        MembershipFee.objects.create(membership_year=y, membership_type=regular,
                                     amount=Decimal("120.00"))
    members, register = members_csv(rows), register_csv(rows)
    results: list = []
    today = date(2025, 6, 1)

    def members_call(dry_run: bool):  # type: ignore[no-untyped-def]
        return lambda: members_import(data=members, file_name="members.csv", imported_by=None,
                                      dry_run=dry_run, today=today)

    def players_call(dry_run: bool):  # type: ignore[no-untyped-def]
        return lambda: players_import(data=register, file_name="register.csv",
                                      imported_by=None, dry_run=dry_run)

    timed("members: preview", members_call(True), results)
    timed("members: commit", members_call(False), results)
    timed("members: again", members_call(False), results)
    timed("players: preview", players_call(True), results)
    timed("players: commit", players_call(False), results)
    timed("players: again", players_call(False), results)
    officer = User.objects.create_user(username="officer", email="officer@example.org",
                                       password="bench-Secret-123")
    standings = standings_csv(rows)
    fields = {"name": "Open 2024", "ruleset": "mcr", "start_date": "2024-05-04",
              "end_date": "2024-05-05", "city": "Utrecht", "country": "NL", "mers": "true",
              "mers_weight": "1", "rated": "false"}

    def standings_call(dry_run: bool):  # type: ignore[no-untyped-def]
        return lambda: tournament_import(user=officer, data=fields, content=standings,
                                         filename="standings.csv", dry_run=dry_run)

    timed("standings: preview", standings_call(True), results)
    timed("standings: commit", standings_call(False), results)
    timed("standings: again", standings_call(False), results)
    print(f"database: {connection.vendor}; rows per file: {rows}; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'step':<20} {'seconds':>8} {'created':>8} {'updated':>8} {'unchanged':>9}")
    for label, elapsed, created, updated, unchanged, _errors in results:
        flag = "" if elapsed < TARGET else "  OVER the 30 s target"
        print(f"{label:<20} {elapsed:8.2f} {created:8} {updated:8} {unchanged:9}{flag}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=10_000)
    args = parser.parse_args()

    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment

    setup_test_environment()
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        run(args.rows)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()

"""Backups (config.backup, manage.py backup and restore, the Celery task): retention, the
media archive, and on PostgreSQL a dump restored into a fresh database that holds the same
rows and shows the same public pages (issue 36)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from django.core.cache import cache
from django.core.management import CommandError, call_command
from django.db import connection, connections
from django.test import Client

from config import backup_tasks
from config.backup import (
    DATABASE_FILE,
    MEDIA_FILE,
    PREFIX,
    backups_list,
    backups_prune,
    backups_to_keep,
    media_archive,
    media_restore,
)

ROOT = Path(__file__).resolve().parents[2]


def moment(day: int, hour: int = 3) -> datetime:
    return datetime(2026, 11, 1, hour, tzinfo=UTC) + timedelta(days=day)


# --- retention ----------------------------------------------------------------------------


def test_retention_keeps_the_newest_of_each_recent_day_and_week():
    # four backups a day for sixty days, the newest on 2026-12-30 (a Wednesday)
    taken = [moment(day, hour) for day in range(60) for hour in (3, 9, 15, 21)]
    keep = backups_to_keep(taken, daily=7, weekly=4)
    newest = max(taken)
    assert newest in keep
    days = sorted({m.date() for m in keep}, reverse=True)
    # the last seven days, each by its newest backup ...
    assert all(moment(59 - n, 21) in keep for n in range(7))
    # ... and the newest of the four last ISO weeks (two of which are already among the days)
    sundays = [m for m in keep if m.date() not in days[:7]]
    assert all(m.isoweekday() == 7 and m.hour == 21 for m in sundays)
    assert len(keep) == 7 + len(sundays) and len(sundays) == 2
    assert backups_to_keep(taken, daily=0, weekly=0) == {newest}
    assert backups_to_keep([], daily=7, weekly=4) == set()


def test_prune_deletes_what_retention_does_not_keep(tmp_path):
    for day in range(20):
        folder = tmp_path / f"{PREFIX}{moment(day).strftime('%Y%m%dT%H%M%SZ')}"
        folder.mkdir()
        (folder / DATABASE_FILE).write_bytes(b"dump")
    (tmp_path / f"{PREFIX}not-a-time").mkdir()  # not a backup: left alone
    removed = backups_prune(tmp_path, daily=3, weekly=2)
    left = backups_list(tmp_path)
    assert [b.taken_at for b in left][:3] == [moment(19), moment(18), moment(17)]
    assert len(left) + len(removed) == 20
    assert {b.taken_at for b in left} == backups_to_keep(
        [moment(day) for day in range(20)], daily=3, weekly=2
    )
    assert (tmp_path / f"{PREFIX}not-a-time").is_dir()


def test_a_backup_cut_short_is_not_taken_for_one(tmp_path):
    (tmp_path / ".partial-20261101T030000Z").mkdir()
    folder = tmp_path / f"{PREFIX}20261102T030000Z"
    folder.mkdir()  # no database dump in it
    assert backups_list(tmp_path) == []


# --- media --------------------------------------------------------------------------------


def test_the_media_archive_restores_every_file(tmp_path):
    media = tmp_path / "media"
    (media / "original_images").mkdir(parents=True)
    (media / "original_images" / "tile.png").write_bytes(b"\x89PNG...")
    (media / "documents").mkdir()
    (media / "documents" / "статут.pdf").write_bytes(b"%PDF-1.7")
    archive = tmp_path / MEDIA_FILE
    assert media_archive(archive, media) == 2
    restored = tmp_path / "restored"
    assert media_restore(archive, restored) == 2
    assert (restored / "original_images" / "tile.png").read_bytes() == b"\x89PNG..."
    assert (restored / "documents" / "статут.pdf").read_bytes() == b"%PDF-1.7"


# --- commands and task --------------------------------------------------------------------


def test_the_task_runs_nightly_on_the_backups_queue(settings):
    assert backup_tasks.backup.name == "config.backup"
    assert settings.CELERY_TASK_ROUTES["config.backup"] == {"queue": "backups"}
    entry = settings.CELERY_BEAT_SCHEDULE["backup"]
    assert entry["task"] == "config.backup"
    assert entry["schedule"].hour == {3} and entry["schedule"].minute == {15}


@pytest.mark.django_db
def test_backup_and_restore_say_that_they_need_postgresql(tmp_path):
    if connection.vendor == "postgresql":
        pytest.skip("the refusal of another database")
    with pytest.raises(CommandError, match="PostgreSQL"):
        call_command("backup", dir=tmp_path)
    folder = tmp_path / f"{PREFIX}20261102T030000Z"
    folder.mkdir()
    (folder / DATABASE_FILE).write_bytes(b"dump")
    with pytest.raises(CommandError, match="PostgreSQL"):
        call_command("restore", dir=tmp_path)
    assert list(tmp_path.glob(".partial-*")) == []  # the failed backup left nothing behind


def test_restore_without_a_backup_says_so(tmp_path):
    with pytest.raises(CommandError, match="No backup in"):
        call_command("restore", dir=tmp_path)


# --- PostgreSQL: dump, restore into a fresh database, compare ------------------------------

PUBLIC_PAGES = ["/en/", "/ru/", "/en/tournaments/", "/en/ratings/", "/en/clubs/"]
NONCE = re.compile(r"nonce(=|-)[\"']?[A-Za-z0-9+/=_-]+")
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"')


def _pages(client: Client, urls: list[str]) -> dict[str, str]:
    cache.clear()
    pages = {}
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        pages[url] = CSRF.sub("csrf", NONCE.sub("nonce", response.content.decode()))
    return pages


def _rows() -> dict[str, list[str]]:
    from tests.db_snapshot import tables_read

    return {name: sorted(map(repr, table.rows)) for name, table in tables_read().items()}


def _admin_connection():
    import psycopg

    settings = connection.settings_dict
    return psycopg.connect(
        host=settings["HOST"] or None, port=settings["PORT"] or None, user=settings["USER"],
        password=settings["PASSWORD"] or None, dbname="postgres", autocommit=True,
    )


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_backup_restores_into_a_fresh_database_with_the_same_rows_and_pages(
    tmp_path, settings
):
    if connection.vendor != "postgresql":
        pytest.skip("pg_dump and pg_restore need PostgreSQL (DATABASE_URL)")
    settings.DEBUG = True  # the demo federation's command
    settings.MEDIA_ROOT = tmp_path / "media"
    call_command("load_demo", stdout=open(os.devnull, "w"))  # noqa: SIM115
    (tmp_path / "media" / "documents").mkdir(parents=True)
    (tmp_path / "media" / "documents" / "rules.pdf").write_bytes(b"%PDF-1.7 rules")

    from tournaments.models import Player, Tournament

    tournament = Tournament.objects.filter(state="results confirmed").order_by("pk").first()
    player = Player.objects.order_by("pk").first()
    assert tournament is not None and player is not None
    urls = [*PUBLIC_PAGES, f"/en/tournaments/{tournament.pk}/",
            f"/en/ratings/players/{player.pk}/"]
    client = Client()
    pages_before = _pages(client, urls)
    rows_before = _rows()
    assert sum(len(rows) for rows in rows_before.values()) > 1000

    call_command("backup", dir=tmp_path / "backups", stdout=open(os.devnull, "w"))  # noqa: SIM115
    [taken] = backups_list(tmp_path / "backups")
    assert taken.database.stat().st_size > 0 and taken.media.is_file()

    original = connection.settings_dict["NAME"]
    fresh = f"{original}_restored"
    with _admin_connection() as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{fresh}"')
        admin.execute(f'CREATE DATABASE "{fresh}"')
    try:
        # `manage.py restore` as an operator runs it: DATABASE_URL names the new database
        settings_dict = connection.settings_dict
        url = (f"postgres://{settings_dict['USER']}:{settings_dict['PASSWORD']}@"
               f"{settings_dict['HOST'] or '127.0.0.1'}:{settings_dict['PORT'] or 5432}/{fresh}")
        environment = {**os.environ, "DATABASE_URL": url,
                       "DJANGO_SETTINGS_MODULE": "config.settings.test",
                       "DJANGO_MEDIA_ROOT": str(tmp_path / "restored-media")}
        restore = [sys.executable, "manage.py", "restore", str(taken.path)]
        result = subprocess.run(restore, cwd=ROOT, env=environment, capture_output=True,
                                text=True, check=False)
        assert result.returncode == 0, result.stderr
        assert (tmp_path / "restored-media" / "documents" / "rules.pdf").read_bytes() == (
            b"%PDF-1.7 rules"
        )
        # a second restore into the now full database is refused without --force
        again = subprocess.run([*restore, "--no-media"], cwd=ROOT, env=environment,
                               capture_output=True, text=True, check=False)
        assert again.returncode != 0 and "is not empty" in again.stderr
        forced = subprocess.run([*restore, "--no-media", "--force"], cwd=ROOT,
                                env=environment, capture_output=True, text=True, check=False)
        assert forced.returncode == 0, forced.stderr

        # this process reads the restored database now
        connections["default"].close()
        connections["default"].settings_dict["NAME"] = fresh
        try:
            rows_after = _rows()
            pages_after = _pages(client, urls)
        finally:
            connections["default"].close()
            connections["default"].settings_dict["NAME"] = original
        assert rows_after.keys() == rows_before.keys()
        for table, rows in rows_before.items():
            assert rows_after[table] == rows, table
        for url, page in pages_before.items():
            assert pages_after[url] == page, url
    finally:
        with _admin_connection() as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{fresh}" WITH (FORCE)')

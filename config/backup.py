"""Backups of the database and the media files, and their restore (decision 0908,
docs/operations.md "Backup and restore").

A backup is a folder ``backup-<UTC time>`` in ``BACKUP_DIR`` holding ``database.dump``
(``pg_dump --format=custom``: restored by ``pg_restore``, table by table, with any
PostgreSQL of the same or a newer major version), ``media.tar.gz`` (every file under
``MEDIA_ROOT``) and ``manifest.json`` (when, what, how big). It is written under a
``.partial-`` name and renamed when complete, so a backup cut short is never taken for one.

Retention (``backups_to_keep``): the newest backup of each of the last ``BACKUP_KEEP_DAILY``
days that have one, and the newest of each of the last ``BACKUP_KEEP_WEEKLY`` ISO weeks;
the others are deleted after each backup.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tarfile
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connections

PREFIX = "backup-"
PARTIAL_PREFIX = ".partial-"
STAMP_FORMAT = "%Y%m%dT%H%M%SZ"
DATABASE_FILE = "database.dump"
MEDIA_FILE = "media.tar.gz"
MANIFEST_FILE = "manifest.json"


class BackupError(Exception):
    """A backup or a restore that cannot be done, with the reason for the operator."""


@dataclass(frozen=True)
class Backup:
    path: Path
    taken_at: datetime

    @property
    def database(self) -> Path:
        return self.path / DATABASE_FILE

    @property
    def media(self) -> Path:
        return self.path / MEDIA_FILE


def backups_list(directory: Path) -> list[Backup]:
    """The complete backups in ``directory``, newest first."""
    found = []
    if directory.is_dir():
        for path in directory.iterdir():
            if not (path.is_dir() and path.name.startswith(PREFIX)):
                continue
            try:
                taken_at = datetime.strptime(path.name[len(PREFIX):], STAMP_FORMAT)
            except ValueError:
                continue
            if (path / DATABASE_FILE).is_file():
                found.append(Backup(path, taken_at.replace(tzinfo=UTC)))
    return sorted(found, key=lambda backup: backup.taken_at, reverse=True)


def backups_to_keep(taken: Iterable[datetime], *, daily: int, weekly: int) -> set[datetime]:
    """Which backups retention keeps: the newest of each of the last ``daily`` days that have
    a backup and the newest of each of the last ``weekly`` ISO weeks that have one (the
    newest backup always)."""
    newest_first = sorted(taken, reverse=True)
    keep: set[datetime] = set(newest_first[:1])
    days: dict[object, datetime] = {}
    weeks: dict[object, datetime] = {}
    for moment in newest_first:
        days.setdefault(moment.date(), moment)
        weeks.setdefault(moment.isocalendar()[:2], moment)
    keep.update(list(days.values())[:daily])
    keep.update(list(weeks.values())[:weekly])
    return keep


def backups_prune(directory: Path, *, daily: int, weekly: int) -> list[Path]:
    """Delete the backups retention does not keep, and partial ones older than a day."""
    existing = backups_list(directory)
    keep = backups_to_keep([b.taken_at for b in existing], daily=daily, weekly=weekly)
    removed = [b.path for b in existing if b.taken_at not in keep]
    for path in removed:
        shutil.rmtree(path)
    now = datetime.now(UTC).timestamp()
    for path in directory.glob(f"{PARTIAL_PREFIX}*"):
        if now - path.stat().st_mtime > 24 * 3600:
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
    return removed


# --- PostgreSQL ---------------------------------------------------------------------------


def _postgres(alias: str) -> dict[str, Any]:
    connection = connections[alias]
    if connection.vendor != "postgresql":
        raise BackupError(
            f"The database {alias!r} is {connection.vendor}: backups and restores are made "
            "of PostgreSQL (pg_dump and pg_restore)."
        )
    return connection.settings_dict


def _libpq_environment(database: dict[str, Any]) -> dict[str, str]:
    """pg_dump's and pg_restore's connection, as libpq's variables (the password is not
    on the command line, where any user of the machine could read it)."""
    environment = dict(os.environ)
    options = database.get("OPTIONS") or {}
    for variable, value in {
        "PGHOST": database.get("HOST"),
        "PGPORT": database.get("PORT"),
        "PGUSER": database.get("USER"),
        "PGPASSWORD": database.get("PASSWORD"),
        "PGDATABASE": database.get("NAME"),
        "PGSSLMODE": options.get("sslmode"),
    }.items():
        if value:
            environment[variable] = str(value)
        else:
            environment.pop(variable, None)
    return environment


def _run(command: list[str], database: dict[str, Any]) -> None:
    try:
        subprocess.run(
            command, env=_libpq_environment(database), check=True, capture_output=True, text=True
        )
    except FileNotFoundError as error:
        raise BackupError(f"{command[0]} is not installed (PostgreSQL's client).") from error
    except subprocess.CalledProcessError as error:
        raise BackupError(f"{command[0]} failed: {error.stderr.strip()}") from error


def database_dump(target: Path, *, alias: str = "default") -> None:
    """The whole database in pg_dump's custom format (compressed, restorable in parallel),
    without owners and privileges so that it restores under another role."""
    database = _postgres(alias)
    _run(["pg_dump", "--format=custom", "--no-owner", "--no-privileges",
          f"--file={target}"], database)


def database_is_empty(*, alias: str = "default") -> bool:
    """No table at all: a database just created (not even migrated)."""
    return not connections[alias].introspection.table_names()


def database_restore(dump: Path, *, alias: str = "default", force: bool = False) -> None:
    """Restore ``dump`` into the configured database: into an empty one, or with ``force``
    into one whose every table (the public schema) is dropped first."""
    database = _postgres(alias)
    if not database_is_empty(alias=alias):
        if not force:
            raise BackupError(
                f"The database {database['NAME']!r} is not empty: restore into a new, empty "
                "database, or give --force to drop everything in it first."
            )
        connection = connections[alias]
        with connection.cursor() as cursor:
            cursor.execute("DROP SCHEMA public CASCADE")
            cursor.execute("CREATE SCHEMA public")
        connection.close()
    _run(["pg_restore", "--no-owner", "--no-privileges", "--exit-on-error",
          "--single-transaction", f"--dbname={database['NAME']}", str(dump)], database)
    connections[alias].close()


# --- media --------------------------------------------------------------------------------


def media_archive(target: Path, media_root: Path) -> int:
    """Every file under ``media_root`` into a gzipped tar; how many files."""
    count = 0
    with tarfile.open(target, "w:gz") as archive:
        if media_root.is_dir():
            for path in sorted(media_root.rglob("*")):
                if path.is_file() and not path.is_symlink():
                    archive.add(path, arcname=str(path.relative_to(media_root)))
                    count += 1
    return count


def media_restore(archive: Path, media_root: Path) -> int:
    """The archive's files into ``media_root`` (the ones of the same name replaced); only
    plain files inside it are extracted (tarfile's "data" filter)."""
    media_root.mkdir(parents=True, exist_ok=True)
    with tarfile.open(archive, "r:gz") as tar:
        members = [m for m in tar.getmembers() if m.isfile()]
        tar.extractall(media_root, members=members, filter="data")
    return len(members)


# --- the whole backup ---------------------------------------------------------------------


def backup_create(
    directory: Path | None = None,
    *,
    alias: str = "default",
    media: bool = True,
    now: datetime | None = None,
) -> Backup:
    """Take a backup into ``directory`` (``BACKUP_DIR``)."""
    directory = Path(directory or settings.BACKUP_DIR)
    directory.mkdir(parents=True, exist_ok=True)
    taken_at = (now or datetime.now(UTC)).astimezone(UTC).replace(microsecond=0)
    stamp = taken_at.strftime(STAMP_FORMAT)
    final = directory / f"{PREFIX}{stamp}"
    if final.exists():
        raise BackupError(f"{final} exists already.")
    partial = directory / f"{PARTIAL_PREFIX}{stamp}"
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir()
    try:
        database_dump(partial / DATABASE_FILE, alias=alias)
        files = media_archive(partial / MEDIA_FILE, Path(settings.MEDIA_ROOT)) if media else None
        manifest = {
            "taken_at": taken_at.isoformat(),
            "database": connections[alias].settings_dict["NAME"],
            "database_bytes": (partial / DATABASE_FILE).stat().st_size,
            "media_files": files,
        }
        (partial / MANIFEST_FILE).write_text(json.dumps(manifest, indent=2) + "\n")
        partial.rename(final)
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
    return Backup(final, taken_at)


def backup_find(name: str | None, directory: Path | None = None) -> Backup:
    """The backup named (a folder, or its time stamp), or the newest in ``directory``."""
    directory = Path(directory or settings.BACKUP_DIR)
    if name:
        path = Path(name)
        if not path.is_dir():
            path = directory / (name if name.startswith(PREFIX) else f"{PREFIX}{name}")
        if not (path / DATABASE_FILE).is_file():
            raise BackupError(f"No backup at {path} (it has no {DATABASE_FILE}).")
        return Backup(path, datetime.fromtimestamp(path.stat().st_mtime, UTC))
    found = backups_list(directory)
    if not found:
        raise BackupError(f"No backup in {directory}.")
    return found[0]

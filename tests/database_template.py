"""The test database: built once per run, then copied for every worker and after every
transactional test.

Migrating Django's, Wagtail's, allauth's and the site's apps and setting up the roles takes
a minute or more; loading the home pages in every language, seconds. The first process of
the run to need a database (an xdist worker, or the only process) does both into a template
under a file lock; every worker then starts from a copy of it:

- SQLite: the template is a file in the run's temporary folder; a worker's in-memory
  database is filled from it with SQLite's backup API (milliseconds).
- PostgreSQL: the template is the database ``test_<name>_template``; a worker's database
  is ``CREATE DATABASE ... TEMPLATE`` of it, and the template is dropped at the run's end.

A test in a transaction (the `db` fixture) rolls back to that copy. A transactional test
(`transactional_db`, `live_server`, ``django_db(transaction=True)``) commits; where Django
would then empty every table (its flush, after which the next tests would find neither the
data migrations' rows nor the home pages), the worker's database is copied again from the
template instead, so every test starts from the same state.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper


@contextmanager
def file_lock(path: Path) -> Iterator[None]:
    """Held by one process of the run at a time (the xdist workers share the folder)."""
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _point_at(connection: BaseDatabaseWrapper, name: str) -> None:
    """Use the database `name` from the next query on (as Django's create_test_db does)."""
    connection.close()
    settings.DATABASES[connection.alias]["NAME"] = name
    connection.settings_dict["NAME"] = name


def _migrate(connection: BaseDatabaseWrapper, verbosity: int) -> None:
    """Create and migrate the test database the connection's TEST settings name, and use it."""
    connection.creation.create_test_db(verbosity=verbosity, autoclobber=True, serialize=False)


class SqliteTemplate:
    """The template is a file; a worker's database (in memory, as Django makes it for the
    tests) is a copy of it."""

    def __init__(self, connection: BaseDatabaseWrapper, folder: Path) -> None:
        self.connection = connection
        self.file = folder / f"test_database_{connection.alias}.sqlite3"

    def build(self, verbosity: int, prepare: Callable[[], None]) -> None:
        """Migrate this worker's database, prepare it, and keep it as the template."""
        _migrate(self.connection, verbosity)
        prepare()
        partial = self.file.with_suffix(".partial")
        target = sqlite3.connect(partial)
        try:
            self.connection.ensure_connection()
            self.connection.connection.backup(target)
        finally:
            target.close()
        os.replace(partial, self.file)

    def built(self) -> bool:
        return self.file.exists()

    def use(self) -> None:
        """This worker's database, as a copy of the template."""
        _point_at(self.connection, self.connection.creation._get_test_db_name())
        self.restore()

    def restore(self) -> None:
        """Copy the template over this worker's database (nothing may be uncommitted)."""
        self.connection.ensure_connection()
        source = sqlite3.connect(self.file)
        try:
            source.backup(self.connection.connection)
        finally:
            source.close()

    def drop(self) -> None:
        """Nothing to do: the file goes with the run's temporary folder."""


class PostgresTemplate:
    """The template is a database of its own; a worker's database is created from it."""

    def __init__(self, connection: BaseDatabaseWrapper, folder: Path) -> None:
        self.connection = connection
        self.name = template_name(connection)
        self.mark = folder / f"test_database_{connection.alias}.built"

    def build(self, verbosity: int, prepare: Callable[[], None]) -> None:
        """Create and migrate the template, prepare it, and leave it without connections
        (PostgreSQL copies only a database nobody is connected to)."""
        original = self.connection.settings_dict["NAME"]
        test = self.connection.settings_dict["TEST"]
        worker_name = test.get("NAME")
        test["NAME"] = self.name
        try:
            _migrate(self.connection, verbosity)
            prepare()
        finally:
            test["NAME"] = worker_name
            _point_at(self.connection, original)
        self.mark.touch()

    def built(self) -> bool:
        return self.mark.exists()

    def use(self) -> None:
        """This worker's database, as a copy of the template."""
        name = self.connection.creation._get_test_db_name()
        _point_at(self.connection, name)
        self._copy_to(name)

    def restore(self) -> None:
        """Copy the template over this worker's database: drop it (ending any connection
        still open to it, as a live server's may be) and create it again."""
        self.connection.close()
        self._copy_to(self.connection.settings_dict["NAME"])

    def _copy_to(self, name: str) -> None:
        quote = self.connection.ops.quote_name
        with self.connection._nodb_cursor() as cursor:
            cursor.execute(f"DROP DATABASE IF EXISTS {quote(name)} WITH (FORCE)")
            cursor.execute(f"CREATE DATABASE {quote(name)} WITH TEMPLATE {quote(self.name)}")

    def drop(self) -> None:
        postgres_template_drop(self.connection, self.name)


def template_name(connection: BaseDatabaseWrapper) -> str:
    """The same in every process of the run (the workers' own databases end in _gw0,
    _gw1...); read before the connection is pointed at a test database."""
    return f"test_{connection.settings_dict['NAME']}_template"


def postgres_template_drop(connection: BaseDatabaseWrapper, name: str) -> None:
    quote = connection.ops.quote_name
    with connection._nodb_cursor() as cursor:
        cursor.execute(f"DROP DATABASE IF EXISTS {quote(name)} WITH (FORCE)")


def template_for(alias: str, folder: Path) -> SqliteTemplate | PostgresTemplate:
    connection = connections[alias]
    if connection.vendor == "sqlite":
        return SqliteTemplate(connection, folder)
    if connection.vendor == "postgresql":
        return PostgresTemplate(connection, folder)
    raise NotImplementedError(f"no test database template for {connection.vendor}")

"""Snapshots of what a loader wrote to the test database, restored with plain INSERTs.

Loading the rulebook through Wagtail, or the demo federation, takes seconds; the tests that
need them restore their rows instead (`loaded_or_restored`, tests/conftest.py). Works on SQLite and PostgreSQL: rows are read and written
with SQL per table, foreign keys are checked at commit (Django creates them deferrable),
and PostgreSQL's sequences are moved past the restored ids.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.apps import apps
from django.core.management.color import no_style
from django.db import connection


@dataclass(frozen=True)
class TableRows:
    columns: tuple[str, ...]
    primary_key: str | None
    rows: tuple[tuple[Any, ...], ...]


def _tables() -> tuple[list[str], set[str]]:
    """The tables, and which are SQLite virtual (full-text) tables, read by rowid; their
    shadow tables are left out (SQLite maintains them)."""
    names = connection.introspection.table_names()
    virtual = set()
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("SELECT name FROM sqlite_master WHERE sql LIKE 'CREATE VIRTUAL%'")
            virtual = {name for (name,) in cursor.fetchall()}
    shadows = {n for n in names for v in virtual if n.startswith(v + "_")}
    return sorted(set(names) - shadows), virtual


def tables_read() -> dict[str, TableRows]:
    quote = connection.ops.quote_name
    out = {}
    with connection.cursor() as cursor:
        tables, virtual = _tables()
        for table in tables:
            if table in virtual:
                cursor.execute(f"SELECT rowid, * FROM {quote(table)}")
                columns = tuple(c[0] for c in cursor.description)
                rows = tuple(tuple(r) for r in cursor.fetchall())
                out[table] = TableRows(columns, "rowid", rows)
                continue
            cursor.execute(f"SELECT * FROM {quote(table)}")
            columns = tuple(c[0] for c in cursor.description)
            rows = tuple(tuple(r) for r in cursor.fetchall())
            out[table] = TableRows(columns, _primary_key(cursor, table), rows)
    return out


# The tables' primary keys, asked once per process: the schema does not change during a
# run, and asking takes seconds for every table (Django parses SQLite's CREATE TABLE).
_PRIMARY_KEYS: dict[tuple[str, str], str | None] = {}


def _primary_key(cursor: Any, table: str) -> str | None:
    """The table's primary key column, or None when it has none or several."""
    key = (connection.settings_dict["NAME"], table)
    if key not in _PRIMARY_KEYS:
        columns = connection.introspection.get_primary_key_columns(cursor, table) or []
        _PRIMARY_KEYS[key] = columns[0] if len(columns) == 1 else None
    return _PRIMARY_KEYS[key]


def state_key(tables: dict[str, TableRows]) -> int:
    """A fingerprint of every row: equal keys, equal databases."""
    return hash(tuple(sorted((name, tuple(sorted(map(repr, t.rows))))
                             for name, t in tables.items())))


def tables_written(before: dict[str, TableRows], after: dict[str, TableRows]
                   ) -> dict[str, tuple[TableRows, tuple[Any, ...]]]:
    """Per table: the rows added or changed, and the keys of the rows that were there
    before and changed or went away (deleted before the restore's INSERTs)."""
    out = {}
    for table, now in after.items():
        old = before.get(table)
        old_rows = {repr(r): r for r in (old.rows if old else ())}
        new_rows = {repr(r): r for r in now.rows}
        added = tuple(r for key, r in new_rows.items() if key not in old_rows)
        gone = tuple(r for key, r in old_rows.items() if key not in new_rows)
        if not added and not gone:
            continue
        if now.primary_key is None:
            raise ValueError(f"{table} has no single-column primary key to restore by")
        index = now.columns.index(now.primary_key)
        out[table] = (TableRows(now.columns, now.primary_key, added),
                      tuple(r[index] for r in gone))
    return out


def snapshot_restore(snapshot: dict[str, tuple[TableRows, tuple[Any, ...]]]) -> None:
    """Write the snapshot's rows (inside the caller's transaction)."""
    from django.db.models import JSONField

    quote = connection.ops.quote_name
    json_columns = {
        model._meta.db_table: {f.column for f in model._meta.concrete_fields
                               if isinstance(f, JSONField)}
        for model in apps.get_models(include_auto_created=True)
    }
    with connection.cursor() as cursor:
        for table, (data, gone) in snapshot.items():
            index = data.columns.index(data.primary_key)
            keys = list(gone) + [r[index] for r in data.rows]
            for start in range(0, len(keys), 500):
                chunk = keys[start:start + 500]
                marks = ", ".join(["%s"] * len(chunk))
                cursor.execute(
                    f"DELETE FROM {quote(table)} WHERE {quote(data.primary_key)} IN ({marks})",
                    chunk)
            if not data.rows:
                continue
            # PostgreSQL hands JSON columns to Django as text: they go back as text, cast
            jsons = json_columns.get(table, set()) if connection.vendor == "postgresql" else set()
            columns = ", ".join(quote(c) for c in data.columns)
            marks = ", ".join("%s::jsonb" if c in jsons else "%s" for c in data.columns)
            cursor.executemany(f"INSERT INTO {quote(table)} ({columns}) VALUES ({marks})",
                               data.rows)
    if connection.vendor == "postgresql":
        tables = set(snapshot)
        models = [m for m in apps.get_models(include_auto_created=True)
                  if m._meta.db_table in tables]
        with connection.cursor() as cursor:
            for statement in connection.ops.sequence_reset_sql(no_style(), models):
                cursor.execute(statement)


def loaded_or_restored(snapshots: dict[Any, Any], name: str, load: Callable[[], Any]) -> Any:
    """`load()` in the caller's transaction: through the loader (the services) the first time
    from a state of the database; the next times from the same state, that load's rows
    restored instead. A database changed under it (other rows, other ids) is a state of its
    own, loaded again. `snapshots` lives as long as the process (a session fixture); returns
    what the load returned (the same object each time)."""
    before = tables_read()
    key = (name, state_key(before))
    if key in snapshots:
        snapshot, result = snapshots[key]
        snapshot_restore(snapshot)
    else:
        result = load()
        snapshots[key] = (tables_written(before, tables_read()), result)
    return result

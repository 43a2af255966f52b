"""Trigram indexes for search (issue 26): a player's names, a tournament's name and city.

PostgreSQL only (``pg_trgm``): on any other database this migration does nothing. The
indexes are on ``UPPER(column::text)``, the expression Django writes for ``icontains`` on
PostgreSQL, so that ``tournaments.selectors.players_matching`` and
``tournaments.selectors.tournaments_matching`` read the index instead of every row. They are
not declared on the models (a ``GinIndex`` there would be created on SQLite too).

``CREATE EXTENSION pg_trgm`` needs a privilege the database's user may not have (pg_trgm is
a trusted extension from PostgreSQL 13: the database's owner may create it; on a managed
database another role may have to). When the extension cannot be created the migration
leaves the indexes out with a warning: search gives the same answers, reading the rows."""

import logging

from django.db import DatabaseError, migrations, transaction

logger = logging.getLogger(__name__)

INDEXES = [
    ("tournaments_player_name_latin_trgm", "tournaments_player", "name_latin"),
    ("tournaments_player_name_native_trgm", "tournaments_player", "name_native"),
    ("tournaments_tournament_name_trgm", "tournaments_tournament", "name"),
    ("tournaments_tournament_city_trgm", "tournaments_tournament", "city"),
]


def _trigrams(schema_editor) -> bool:
    """pg_trgm is there or could be created here."""
    try:
        with transaction.atomic(using=schema_editor.connection.alias):
            schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    except DatabaseError as error:
        logger.warning("pg_trgm could not be created (%s): search runs without its "
                       "trigram indexes; an administrator may create the extension and "
                       "migrate tournaments 0008 then 0009 again.", error)
        return False
    return True


def create_indexes(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql" or not _trigrams(schema_editor):
        return
    for name, table, column in INDEXES:
        schema_editor.execute(
            f'CREATE INDEX IF NOT EXISTS "{name}" ON "{table}" '
            f'USING gin ((UPPER("{column}"::text)) gin_trgm_ops)'
        )


def drop_indexes(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for name, _table, _column in INDEXES:
        schema_editor.execute(f'DROP INDEX IF EXISTS "{name}"')


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0008_fee_and_dates_bounds"),
    ]

    operations = [
        migrations.RunPython(create_indexes, drop_indexes, elidable=False),
    ]

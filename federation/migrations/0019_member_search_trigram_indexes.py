"""Trigram indexes for the public member list's search (issue 43): a member's names and
city, a club's name.

PostgreSQL only (``pg_trgm``), like tournaments 0009: on any other database this migration
does nothing. The indexes are on ``UPPER(column::text)``, the expression Django writes for
``icontains`` on PostgreSQL, so that the search (``federation.selectors.members_matching``)
reads the index instead of every member. They are not declared on the models (a
``GinIndex`` there would be created on SQLite too). When the extension cannot be created the
indexes are left out with a warning: the search gives the same answers, reading the rows."""

import logging

from django.db import DatabaseError, migrations, transaction

logger = logging.getLogger(__name__)

INDEXES = [
    ("federation_member_name_latin_trgm", "federation_member", "name_latin"),
    ("federation_member_name_native_trgm", "federation_member", "name_native"),
    ("federation_member_city_trgm", "federation_member", "city"),
    ("federation_club_name_trgm", "federation_club", "name"),
]


def _trigrams(schema_editor) -> bool:
    """pg_trgm is there or could be created here."""
    try:
        with transaction.atomic(using=schema_editor.connection.alias):
            schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    except DatabaseError as error:
        logger.warning("pg_trgm could not be created (%s): the member search runs without "
                       "its trigram indexes; an administrator may create the extension and "
                       "migrate federation 0018 then 0019 again.", error)
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
        ("federation", "0018_member_paid_coverage"),
    ]

    operations = [
        migrations.RunPython(create_indexes, drop_indexes, elidable=False),
    ]

"""Trigram indexes for search (issue 26): a player's names, a tournament's name and city.

PostgreSQL only (``pg_trgm``): on any other database this migration does nothing. The
indexes are on ``UPPER(column::text)``, the expression Django writes for ``icontains`` on
PostgreSQL, so that ``tournaments.selectors.players_matching`` and
``tournaments.selectors.tournaments_matching`` read the index instead of every row. They are
not declared on the models (a ``GinIndex`` there would be created on SQLite too)."""

from django.contrib.postgres.operations import TrigramExtension
from django.db import migrations

INDEXES = [
    ("tournaments_player_name_latin_trgm", "tournaments_player", "name_latin"),
    ("tournaments_player_name_native_trgm", "tournaments_player", "name_native"),
    ("tournaments_tournament_name_trgm", "tournaments_tournament", "name"),
    ("tournaments_tournament_city_trgm", "tournaments_tournament", "city"),
]


def create_indexes(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
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
        TrigramExtension(),
        migrations.RunPython(create_indexes, drop_indexes, elidable=False),
    ]

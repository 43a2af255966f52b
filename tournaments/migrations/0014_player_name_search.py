"""A player's names folded for search (decision 0525): no case, no accents, on every database.

Filled here for the existing players; ``Player.save`` keeps it in step. On PostgreSQL a
trigram index serves ``name_search LIKE '%word%'``."""

from django.db import migrations, models

INDEX = "tournaments_player_name_search_trgm"


def fill(apps, schema_editor):
    from tournaments.models import player_search_text

    Player = apps.get_model("tournaments", "Player")
    players = list(Player.objects.only("pk", "name_latin", "name_native"))
    for player in players:
        player.name_search = player_search_text(player.name_latin, player.name_native)
    Player.objects.bulk_update(players, ["name_search"], batch_size=500)


def create_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            f'CREATE INDEX IF NOT EXISTS "{INDEX}" ON "tournaments_player" '
            'USING gin ("name_search" gin_trgm_ops)'
        )


def drop_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f'DROP INDEX IF EXISTS "{INDEX}"')


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0013_player_name_order"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="name_search",
            field=models.CharField(blank=True, editable=False, max_length=401),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop, elidable=False),
        migrations.RunPython(create_index, drop_index, elidable=False),
    ]

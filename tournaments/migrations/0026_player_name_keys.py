"""The players' search column gains their names' transliteration keys (decision 0546:
"Fyodorov" finds Фёдоров and Fedorov); longer to hold them, refilled for every player."""

from django.db import migrations, models


def fill(apps, schema_editor):
    from tournaments.models import player_search_text

    Player = apps.get_model("tournaments", "Player")
    players = list(Player.objects.only("pk", "name_latin", "name_native"))
    for player in players:
        player.name_search = player_search_text(player.name_latin, player.name_native)
    Player.objects.bulk_update(players, ["name_search"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0025_mers_weight_reason"),
    ]

    operations = [
        migrations.AlterField(
            model_name="player",
            name="name_search",
            field=models.CharField(blank=True, editable=False, max_length=1000),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop, elidable=False),
    ]

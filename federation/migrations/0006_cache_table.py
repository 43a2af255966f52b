"""The database cache table (settings.CACHES without REDIS_URL): created by every migrate so
that login rate limits are shared by all workers from the first start."""

from django.core.management import call_command
from django.db import migrations


def create_cache_table(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [("federation", "0005_membership_money_reversal_online")]

    operations = [migrations.RunPython(create_cache_table, migrations.RunPython.noop)]

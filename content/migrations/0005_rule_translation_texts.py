"""The Russian text a translation was made from, and the Russian text now (decision 0526)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("content", "0004_news_index_and_posts"),
    ]

    operations = [
        migrations.AddField(
            model_name="rulechapterpage",
            name="russian_text",
            field=models.TextField(blank=True, editable=False),
        ),
        migrations.AddField(
            model_name="rulechapterpage",
            name="translated_from_text",
            field=models.TextField(blank=True, editable=False),
        ),
    ]

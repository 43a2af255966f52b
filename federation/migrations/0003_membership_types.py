from django.db import migrations

TYPES = [
    # kind, free, covers family
    ("regular", False, False),
    ("junior", False, False),
    ("senior", False, False),
    ("family", False, True),
    ("honorary", True, False),
]


def create_types(apps, schema_editor):
    MembershipType = apps.get_model("federation", "MembershipType")
    for kind, free, family in TYPES:
        MembershipType.objects.get_or_create(
            kind=kind, defaults={"is_free": free, "covers_family": family}
        )


class Migration(migrations.Migration):
    dependencies = [("federation", "0002_membership")]
    operations = [migrations.RunPython(create_types, migrations.RunPython.noop)]

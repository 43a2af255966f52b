"""Every import keeps its report in one model (decision 0815): the tournament imports'
reports move from ``TournamentImport`` into ``federation.ImportRun`` (kind "tournaments",
the stored report in the one format of ``core.imports.STORED_KEYS``), then the model goes.
Undone, they move back."""

from django.db import migrations

KIND = "tournaments"
KEYS = ("created", "updated", "unchanged", "review", "errors", "tournament", "rows",
        "decisions")


def _stored(report, tournament_id):
    stored = {key: report.get(key, None if key == "tournament" else []) for key in KEYS}
    for key in ("created", "updated", "unchanged"):
        stored[key] = int(report.get(key) or 0)
    stored["tournament"] = report.get("tournament") or tournament_id
    return stored


def forwards(apps, schema_editor):
    TournamentImport = apps.get_model("tournaments", "TournamentImport")
    ImportRun = apps.get_model("federation", "ImportRun")
    for record in TournamentImport.objects.order_by("imported_at", "pk").iterator():
        stored = _stored(record.report or {}, record.tournament_id)
        run = ImportRun.objects.create(
            kind=KIND, file_name=record.filename or f"tournament-{record.tournament_id}",
            data=b"", mapping={}, created_by_id=record.imported_by_id,
            committed_at=record.imported_at, created=stored["created"],
            updated=stored["updated"], unchanged=stored["unchanged"],
            review=len(stored["review"]), errors=0, report=stored,
        )
        # created_at is auto_now_add: the import's own time is set afterwards
        ImportRun.objects.filter(pk=run.pk).update(created_at=record.imported_at)


def backwards(apps, schema_editor):
    TournamentImport = apps.get_model("tournaments", "TournamentImport")
    Tournament = apps.get_model("tournaments", "Tournament")
    ImportRun = apps.get_model("federation", "ImportRun")
    known = set(Tournament.objects.values_list("pk", flat=True))
    for run in ImportRun.objects.filter(kind=KIND).order_by("pk").iterator():
        tournament = (run.report or {}).get("tournament")
        if tournament in known and run.created_by_id is not None:
            record = TournamentImport.objects.create(
                tournament_id=tournament, filename=run.file_name,
                imported_by_id=run.created_by_id,
                report={k: v for k, v in run.report.items() if k != "rows"})
            TournamentImport.objects.filter(pk=record.pk).update(
                imported_at=run.committed_at or run.created_at)
    ImportRun.objects.filter(kind=KIND).delete()


class Migration(migrations.Migration):

    dependencies = [
        ("federation", "0018_member_paid_coverage"),
        ("tournaments", "0026_player_name_keys"),
    ]

    operations = [
        migrations.RunPython(forwards, backwards),
        migrations.DeleteModel(name="TournamentImport"),
    ]

"""Writes of the rulebook: loading fans and worked examples from rulebook/data/.

Loading is idempotent and respects editors: each loaded row keeps the fingerprint of what
was loaded (``loaded_hash``). A re-run
- creates what is missing,
- leaves a row alone when the data file did not change,
- updates it when the data changed and nobody edited it in the admin since,
- and skips it (reported) when an editor's latest revision differs from what was loaded,
  unless ``force=True``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import models, transaction
from wagtail.models import Locale

from rulebook import book_data, rulesets
from rulebook.book_data import EXAMPLE_FIELDS, FAN_FIELDS, content_hash
from rulebook.models import Fan, WorkedExample, fan_translation_key

Progress = Callable[[str, int, int], None]

#: What the site's editors need to keep the rulebook in the admin (menu "Rulebook": fans
#: and worked examples, with drafts and revisions); config.roles gives them to the editors'
#: group. Deleting stays with superusers: ``load_content`` owns the rows.
EDITOR_PERMISSIONS: list[str] = [
    "rulebook.add_fan",
    "rulebook.change_fan",
    "rulebook.publish_fan",
    "rulebook.add_workedexample",
    "rulebook.change_workedexample",
    "rulebook.publish_workedexample",
]


@dataclass
class LoadReport:
    what: str
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    kept_edits: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        text = (
            f"{self.what}: {self.created} created, {self.updated} updated, "
            f"{self.unchanged} unchanged"
        )
        if self.kept_edits:
            text += (
                f", {len(self.kept_edits)} kept as edited in the admin "
                f"({', '.join(self.kept_edits[:10])}{' ...' if len(self.kept_edits) > 10 else ''};"
                " --force overwrites them)"
            )
        return text


def _locales() -> dict[str, Locale]:
    return {
        code: Locale.objects.get_or_create(language_code=code)[0]
        for code, _name in settings.WAGTAIL_CONTENT_LANGUAGES
    }


def _current_fields(obj: models.Model, names: Iterable[str]) -> dict[str, Any]:
    """The content an editor last saved: the latest revision's, else the row's."""
    latest = obj.get_latest_revision_as_object() if obj.latest_revision_id else obj  # type: ignore[attr-defined]
    return {name: getattr(latest, name) for name in names}


def _edited(obj: models.Model, names: Iterable[str]) -> bool:
    return content_hash(_current_fields(obj, names)) != obj.loaded_hash  # type: ignore[attr-defined]


def _apply(obj: models.Model, fields: dict[str, Any], digest: str) -> None:
    for name, value in fields.items():
        setattr(obj, name, value)
    obj.loaded_hash = digest  # type: ignore[attr-defined]
    obj.live = True  # type: ignore[attr-defined]
    obj.save()
    if obj.latest_revision_id:  # type: ignore[attr-defined]
        # Editors see the latest revision in the admin: it must say what is now live.
        obj.save_revision(log_action=False).publish(log_action=False)  # type: ignore[attr-defined]


@transaction.atomic
def fan_table_load(
    *, ruleset: str, force: bool = False, progress: Progress | None = None,
    data_dir: Path = book_data.DATA_DIR,
) -> LoadReport:
    """Create or update the fans of one ruleset in every language (from `data_dir`)."""
    locales = _locales()
    rows = book_data.fan_rows(ruleset, list(locales), data_dir)
    report = LoadReport(what=f"{ruleset} fans")
    existing = {
        (fan.code, fan.locale.language_code): fan
        for fan in Fan.objects.filter(ruleset=ruleset).select_related("locale")
    }
    for done, row in enumerate(rows, start=1):
        digest = content_hash(row.fields)
        fan = existing.get((row.code, row.language))
        if fan is None:
            Fan.objects.create(
                ruleset=ruleset, code=row.code, locale=locales[row.language],
                translation_key=fan_translation_key(ruleset, row.code),
                live=True, loaded_hash=digest, **row.fields,
            )
            report.created += 1
        elif fan.loaded_hash == digest and not force:
            report.unchanged += 1
        elif not force and _edited(fan, FAN_FIELDS):
            report.kept_edits.append(f"{row.code}/{row.language}")
        elif force and content_hash(_current_fields(fan, FAN_FIELDS)) == digest:
            report.unchanged += 1
        else:
            _apply(fan, row.fields, digest)
            report.updated += 1
        if progress:
            progress(report.what, done, len(rows))
    return report


@transaction.atomic
def examples_load(*, ruleset: str, force: bool = False, progress: Progress | None = None) -> LoadReport:
    """Create or update the worked examples of one ruleset."""
    rows = book_data.example_rows(ruleset)
    report = LoadReport(what=f"{ruleset} worked examples")
    existing = {ex.code: ex for ex in WorkedExample.objects.filter(ruleset=ruleset)}
    for done, row in enumerate(rows, start=1):
        digest = content_hash(row.fields)
        example = existing.get(row.code)
        if example is None:
            WorkedExample.objects.create(
                ruleset=ruleset, code=row.code, live=True, loaded_hash=digest, **row.fields
            )
            report.created += 1
        elif example.loaded_hash == digest and not force:
            report.unchanged += 1
        elif not force and _edited(example, EXAMPLE_FIELDS):
            report.kept_edits.append(row.code)
        elif force and content_hash(_current_fields(example, EXAMPLE_FIELDS)) == digest:
            report.unchanged += 1
        else:
            _apply(example, row.fields, digest)
            report.updated += 1
        if progress:
            progress(report.what, done, len(rows))
    return report


def rulebook_data_load(*, force: bool = False, progress: Progress | None = None) -> list[LoadReport]:
    """Fans and examples of every ruleset whose data files exist."""
    reports = []
    for ruleset in rulesets.codes():
        if not book_data.available(ruleset):
            continue
        reports.append(fan_table_load(ruleset=ruleset, force=force, progress=progress))
        reports.append(examples_load(ruleset=ruleset, force=force, progress=progress))
    return reports

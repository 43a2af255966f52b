"""What every import of a spreadsheet shares (decision 0316): the column mapping, the
report of a preview or a commit, its JSON for the API and its CSV for the officer, and the
error that refuses a file with errors.

An import reads the file (``core.spreadsheets.spreadsheet_read``), maps its columns to
the import's fields (``columns_map``: the officer's mapping, else the header names each
field is known by in the five languages), decides each row (created, updated, unchanged,
review: a person decides, with the candidates; error: row, column, code), and writes only
when no row has an error, inside one transaction. The report counts and lists it all.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from core.errors import DomainError
from core.import_texts import (  # noqa: F401 (the codes every import names from here)
    E_BAD_COUNTRY,
    E_BAD_DATE,
    E_BAD_EMAIL,
    E_BAD_NUMBER,
    E_FIELD_TWICE,
    E_MISSING_COLUMN,
    E_NO_ROWS,
    E_REQUIRED,
    E_TOO_LONG,
    E_UNKNOWN_FIELD,
    issue_message,
)
from core.spreadsheets import Sheet, SheetRow, SpreadsheetError, spreadsheet_read

CREATED = "created"
UPDATED = "updated"
UNCHANGED = "unchanged"
REVIEW = "review"
ERROR = "error"


IGNORE = ""  # a mapping's value for a column that is not imported
MAX_UPLOAD = 10 * 1024 * 1024  # as core.spreadsheets.MAX_BYTES


@dataclass(frozen=True)
class ImportField:
    """A field an import fills: its name (the mapping's value) and the header names it is
    known by (any case, spaces and punctuation ignored)."""

    name: str
    headers: tuple[str, ...]
    required: bool = False


@dataclass(frozen=True)
class Issue:
    row: int | None
    column: str | None
    code: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass
class RowOutcome:
    row: int
    outcome: str  # CREATED, UPDATED, UNCHANGED, REVIEW, ERROR
    label: str  # who or what the row is (a name), for the preview table
    notes: list[Issue] = field(default_factory=list)


@dataclass
class ReviewItem:
    row: int
    reason: str
    candidates: list[dict[str, Any]]


@dataclass
class ImportReport:
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    review: list[ReviewItem] = field(default_factory=list)
    errors: list[Issue] = field(default_factory=list)
    rows: list[RowOutcome] = field(default_factory=list)
    tournament: int | None = None
    dry_run: bool = True

    def count(self, outcome: RowOutcome) -> None:
        """Add a decided row (its outcome counted)."""
        self.rows.append(outcome)
        if outcome.outcome == CREATED:
            self.created += 1
        elif outcome.outcome == UPDATED:
            self.updated += 1
        elif outcome.outcome == UNCHANGED:
            self.unchanged += 1

    def error(self, row: int | None, column: str | None, code: str, /, **params: Any) -> None:
        self.errors.append(Issue(row, column, code, params))

    def as_json(self, describe: Callable[[str, dict[str, Any]], str] | None = None
                ) -> dict[str, Any]:
        """The API's answer: exactly these keys (issue 35)."""
        say = describe or issue_message
        return {
            "created": self.created,
            "updated": self.updated,
            "unchanged": self.unchanged,
            "review": [{"row": item.row, "reason": item.reason, "candidates": item.candidates}
                       for item in self.review],
            "errors": [{"row": e.row, "column": e.column, "code": e.code,
                        "message": say(e.code, e.params)} for e in self.errors],
            "tournament": self.tournament,
        }

    def stored(self, describe: Callable[[str, dict[str, Any]], str] | None = None
               ) -> dict[str, Any]:
        """What an import run keeps: the API's answer and every row with its notes, the
        words in the language of the person who imported."""
        say = describe or issue_message
        return {
            **self.as_json(describe),
            "rows": [{"row": r.row, "outcome": r.outcome, "label": r.label,
                      "notes": [{"column": n.column, "code": n.code,
                                 "message": say(n.code, n.params)} for n in r.notes]}
                     for r in self.rows],
            "decisions": [],
        }


class ImportFailed(DomainError):
    """A file with errors: nothing was written. The API answers the report (400)."""

    def __init__(self, report: ImportReport,
                 describe: Callable[[str, dict[str, Any]], str] | None = None) -> None:
        super().__init__("import_failed")
        self.report = report
        self.describe = describe

    @property
    def message(self) -> str:
        return " ".join(item["message"] for item in self.items())

    def items(self) -> list[dict[str, Any]]:
        return list(self.report.as_json(self.describe)["errors"])

    def body(self) -> dict[str, Any]:
        return self.report.as_json(self.describe)


def header_key(text: str) -> str:
    """A header as compared: no case, no spaces, punctuation or accents that matter."""
    return re.sub(r"[\W_]+", "", text.casefold())


def columns_guess(header: Sequence[str], fields: Sequence[ImportField]) -> dict[str, str]:
    """Each header -> the field it is known to name (IGNORE when none)."""
    known = {header_key(name): f.name for f in fields for name in (f.name, *f.headers)}
    return {column: known.get(header_key(column), IGNORE) for column in header}


def columns_map(header: Sequence[str], fields: Sequence[ImportField],
                mapping: Mapping[str, str] | None, report: ImportReport) -> dict[str, int]:
    """Field name -> the index of its column. ``mapping`` (header -> field name, IGNORE to
    leave a column out) overrides the guess for the headers it names. A required field
    without a column, a mapping to an unknown field and a field mapped twice are errors
    in the report."""
    chosen = columns_guess(header, fields)
    names = {f.name for f in fields}
    if mapping:
        by_key = {header_key(column): column for column in header}
        for column, name in mapping.items():
            target = by_key.get(header_key(column))
            if target is None:
                report.error(None, column, E_MISSING_COLUMN, column=column)
                continue
            name = name.strip()
            if name and name not in names:
                report.error(None, column, E_UNKNOWN_FIELD, field=name)
                continue
            chosen[target] = name
    indexes: dict[str, int] = {}
    for index, column in enumerate(header):
        name = chosen.get(column, IGNORE)
        if not name:
            continue
        if name in indexes:
            report.error(None, column, E_FIELD_TWICE, field=name)
            continue
        indexes[name] = index
    for f in fields:
        if f.required and f.name not in indexes:
            report.error(None, f.name, E_MISSING_COLUMN, column=f.name)
    return indexes


def mapping_posted(header: Sequence[str], fields: Sequence[ImportField],
                   posted: Mapping[str, Any], saved: Mapping[str, str] | None = None
                   ) -> dict[str, str]:
    """The mapping an admin page's form gives (a ``column-<index>`` choice per column of
    the file), over the mapping saved before (``saved``), over the guess from the headers.
    A value that names no field is left out (the guess stays)."""
    guess = columns_guess(header, fields)
    mapping = {column: (saved or {}).get(column, guess[column]) for column in header}
    names = {f.name for f in fields}
    for index, column in enumerate(header):
        key = f"column-{index}"
        if key not in posted:
            continue
        value = str(posted.get(key) or IGNORE)
        if value == IGNORE or value in names:
            mapping[column] = value
    return mapping


def mapping_columns(header: Sequence[str], mapping: Mapping[str, str]) -> list[dict[str, Any]]:
    """The rows of an admin page's mapping table: each column's index, header and field."""
    return [{"index": index, "header": column, "field": mapping.get(column, IGNORE)}
            for index, column in enumerate(header)]


class _Reporting(Protocol):
    def error(self, row: int | None, column: Any, code: str, /, **params: Any) -> None: ...


@dataclass(frozen=True)
class MappedSheet:
    """A file read and its columns mapped: the sheet, each field's column index and the
    header it has in the file (problems name the column as the person wrote it)."""

    sheet: Sheet
    indexes: dict[str, int]
    column_of: dict[str, str]

    def cells(self, row: SheetRow) -> dict[str, str]:
        """A row's cells by field name (an empty text where the row is short)."""
        return {name: row.cell(index) for name, index in self.indexes.items()}


def sheet_mapped(data: bytes, fields: Sequence[ImportField], mapping: Mapping[str, str] | None,
                 report: _Reporting) -> MappedSheet | None:
    """The one reading path of every import: the file read (``spreadsheet_read``: CSV in
    UTF-8, UTF-16 or a Windows code page, or XLSX), its columns mapped (``columns_map``),
    and at least one row. None when the file cannot be read, a column is missing or mapped
    wrongly, or there is no row: each problem is in ``report``."""
    try:
        sheet = spreadsheet_read(data)
    except SpreadsheetError as error:
        report.error(error.params.get("row"), error.params.get("column"), error.code,
                     **error.params)
        return None
    collected = ImportReport()
    indexes = columns_map(sheet.header, fields, mapping, collected)
    for issue in collected.errors:
        report.error(issue.row, issue.column, issue.code, **issue.params)
    if collected.errors:
        return None
    if not sheet.rows:
        report.error(None, None, E_NO_ROWS)
        return None
    return MappedSheet(sheet, indexes,
                       {name: sheet.header[index] for name, index in indexes.items()})


STORED_KEYS = ("created", "updated", "unchanged", "review", "errors", "tournament", "rows",
               "decisions")
"""The one format of a stored report, whatever the import (members, the EMA player
register, a tournament's standings): the API's answer, every row with its outcome and
notes (``rows``), and the decisions taken in words (``decisions``: the tournament import
says each of its choices this way; the others say them in the rows' notes)."""

DECISION = "decision"


def _candidate_label(candidate: Mapping[str, Any]) -> str:
    return str(candidate.get("label") or candidate.get("name") or candidate.get("id", ""))


def report_csv_rows(stored: Mapping[str, Any]) -> Iterable[list[Any]]:
    """A stored report (``STORED_KEYS``) as CSV rows (header first): every row, its outcome
    and each note, then the decisions, the review and the errors."""
    yield ["row", "outcome", "what", "column", "code", "message"]
    for row in stored.get("rows", []):
        notes = row.get("notes") or [{}]
        for note in notes:
            yield [row["row"], row["outcome"], row["label"], note.get("column", ""),
                   note.get("code", ""), note.get("message", "")]
    for text in stored.get("decisions", []):
        yield ["", DECISION, "", "", "", text]
    for item in stored.get("review", []):
        yield [item["row"], REVIEW, item["reason"], "", "", "; ".join(
            _candidate_label(c) for c in item["candidates"])]
    for error in stored.get("errors", []):
        yield [error["row"] or "", ERROR, "", error["column"] or "", error["code"],
               error["message"]]


@dataclass(frozen=True)
class Upload:
    """What an import's request carries: the file, its name, the column mapping (header ->
    field) and the decisions on rows for review (row -> "new" or an id)."""

    data: bytes
    file_name: str
    mapping: dict[str, str]
    decisions: dict[int, str]
    dry_run: bool


def upload_read(files: Mapping[str, Any], fields: Mapping[str, Any],
                query: Mapping[str, Any]) -> Upload:
    """An import request's parts (multipart ``file``, ``mapping`` and ``decisions`` as JSON
    objects, ``?dry_run=true``); ImportFailed naming the part that is wrong."""
    import json

    report = ImportReport()
    upload = files.get("file")
    if upload is None:
        report.error(None, "file", E_REQUIRED)
    mapping: dict[str, str] = {}
    decisions: dict[int, str] = {}
    for name in ("mapping", "decisions"):
        raw = fields.get(name)
        if not raw:
            continue
        try:
            value = json.loads(raw) if isinstance(raw, str) else raw
        except ValueError:
            value = None
        if not isinstance(value, dict) or not all(
                isinstance(k, str) and isinstance(v, str | int) for k, v in value.items()):
            report.error(None, name, "bad_json_object")
            continue
        if name == "mapping":
            mapping = {k: str(v) for k, v in value.items()}
        else:
            if not all(k.isdigit() for k in value):
                report.error(None, name, "bad_json_object")
                continue
            decisions = {int(k): str(v) for k, v in value.items()}
    if report.errors:
        raise ImportFailed(report)
    dry_run = str(query.get("dry_run", "")).lower() in ("true", "1", "yes")
    size = getattr(upload, "size", 0)
    if size > MAX_UPLOAD:
        report.error(None, "file", "file_too_large", limit=MAX_UPLOAD // (1024 * 1024))
        raise ImportFailed(report)
    return Upload(upload.read(), str(getattr(upload, "name", "") or "upload")[:255], mapping,
                  decisions, dry_run)

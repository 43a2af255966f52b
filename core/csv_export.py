"""The one CSV writer of the site: every CSV it hands out (standings, rating lists, the
results template, club member lists, the admin's exports) goes through defusedcsv: a cell
typed as a formula ("=HYPERLINK(...)", "+...", "-...", "@...") is prefixed with a quote so
that spreadsheets show it as text instead of running it; numbers, negative ones too, stay
numbers. Wagtail admin exports use `SafeCsvExportMixin` (Wagtail's XLSX export already
stores formula-like cells as text). A config leaf module, so that every app may use it.

A spreadsheet may split a line on another character than ours: Excel with a `;` list
separator (Russian, French, Dutch locales) reads ``Anna;=cmd|' /C calc'!A0;x`` as three
cells, the middle one a formula, whatever quotes we write. So a formula is neutralised
after every separator a spreadsheet may use (`;`, `,`, tab, a line break) as well as at the
start of a cell (``defuse``; issue 37, item 9)."""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Sequence
from typing import Any

from defusedcsv import csv
from django.http import HttpResponse, StreamingHttpResponse

# a separator a spreadsheet may split on, then what may stand before a formula's sign
_AFTER_SEPARATOR = re.compile(r"([;,\t\r\n])([\s\"']*)(?=[=+\-@|%])([^;,\t\r\n]*)")
_NUMBER = re.compile(r"^-?[0-9,.]+$")


def _defuse_part(match: re.Match[str]) -> str:
    separator, lead, part = match.groups()
    if _NUMBER.match(part):  # "1;-5": a number, not a formula
        return match.group(0)
    return f"{separator}{lead}'{part}"


def defuse(value: Any) -> Any:
    """``value`` with a quote before every formula that follows a separator, so that no
    splitting of the line makes a formula of a cell. Numbers and None pass unchanged (the
    start of the cell is defusedcsv's)."""
    if not isinstance(value, str) or not any(c in value for c in ";,\t\r\n"):
        return value
    return _AFTER_SEPARATOR.sub(_defuse_part, value)


class _DefusingWriter:
    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def writerow(self, row: Iterable[Any]) -> Any:
        return self.inner.writerow([defuse(field) for field in row])

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def _writer(stream: Any, **fmtparams: Any) -> Any:
    return _DefusingWriter(csv.writer(stream, **fmtparams))


class _DictWriter(csv.DictWriter):  # type: ignore[misc]
    def __init__(self, stream: Any, fieldnames: Sequence[str], **kwargs: Any) -> None:
        super().__init__(stream, fieldnames, **kwargs)
        self.writer = _DefusingWriter(self.writer)


def writer(stream: Any, **fmtparams: Any) -> Any:
    """A ``csv.writer`` on ``stream`` (a file, an ``HttpResponse``) that neutralises
    formulas."""
    return _writer(stream, **fmtparams)


def csv_text(header: Sequence[str], rows: Iterable[Sequence[Any]], **fmtparams: Any) -> str:
    buffer = io.StringIO()
    writer = _writer(buffer, **fmtparams)
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue()


def csv_response(
    filename: str, header: Sequence[str], rows: Iterable[Sequence[Any]], **fmtparams: Any
) -> HttpResponse:
    response = HttpResponse(csv_text(header, rows, **fmtparams),
                            content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


class _Echo:
    def write(self, value: str) -> str:
        return value


def csv_stream(
    filename: str, header: Sequence[str], rows: Iterable[Sequence[Any]], **fmtparams: Any
) -> StreamingHttpResponse:
    """A CSV download written line by line while it is sent (a whole list without holding
    it in memory): ``rows`` may be a generator that reads the database as it goes."""
    writer = _writer(_Echo(), **fmtparams)

    def lines() -> Iterable[str]:
        yield writer.writerow(header)
        for row in rows:
            yield writer.writerow(row)

    response = StreamingHttpResponse(lines(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


class SafeCsvExportMixin:
    """For Wagtail index views (SpreadsheetExportMixin): the CSV export through defusedcsv.
    (Wagtail's XLSX export already stores formula-like cells as text.)"""

    def stream_csv(self, queryset):  # type: ignore[no-untyped-def]
        writer = _DictWriter(_Echo(), fieldnames=self.list_export)  # type: ignore[attr-defined]
        yield writer.writerow(
            {field: self.get_heading(queryset, field) for field in self.list_export}  # type: ignore[attr-defined]
        )
        for item in queryset:
            yield self.write_csv_row(writer, self.to_row_dict(item))  # type: ignore[attr-defined]

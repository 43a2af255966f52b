"""The one CSV writer of the site: every CSV it hands out (standings, rating lists, the
results template, club member lists, the admin's exports) goes through defusedcsv: a cell
typed as a formula ("=HYPERLINK(...)", "+...", "-...", "@...") is prefixed with a quote so
that spreadsheets show it as text instead of running it; numbers, negative ones too, stay
numbers. Wagtail admin exports use `SafeCsvExportMixin` (Wagtail's XLSX export already
stores formula-like cells as text). A config leaf module, so that every app may use it."""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from typing import Any

from defusedcsv import csv
from django.http import HttpResponse, StreamingHttpResponse


def writer(stream: Any, **fmtparams: Any) -> Any:
    """A ``csv.writer`` on ``stream`` (a file, an ``HttpResponse``) that neutralises
    formulas."""
    return csv.writer(stream, **fmtparams)


def csv_text(header: Sequence[str], rows: Iterable[Sequence[Any]], **fmtparams: Any) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, **fmtparams)
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
    writer = csv.writer(_Echo(), **fmtparams)

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
        writer = csv.DictWriter(_Echo(), fieldnames=self.list_export)  # type: ignore[attr-defined]
        yield writer.writerow(
            {field: self.get_heading(queryset, field) for field in self.list_export}  # type: ignore[attr-defined]
        )
        for item in queryset:
            yield self.write_csv_row(writer, self.to_row_dict(item))  # type: ignore[attr-defined]

"""Spreadsheets as XLSX (openpyxl): one sheet, the header row, the rows. Text cells that
look like formulas are written as text, as core.csv_export does for CSV. The EMA's
results sheet and the organizer's entrants list for the venue."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import IO, Any

from openpyxl import Workbook
from openpyxl.cell.cell import TYPE_STRING
from openpyxl.utils import get_column_letter

from core.rules.typed_text import printable

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def sheet_write(
    out: IO[bytes] | Any, title: str, header: Sequence[str], rows: Iterable[Sequence[object]],
    *, text_columns: Sequence[int] = (),
) -> None:
    """Write one sheet to ``out``; ``text_columns`` (0-based) are formatted as text (numbers
    with leading zeros, phone numbers)."""
    book = Workbook()
    sheet = book.active
    sheet.title = printable(title or "Sheet")[:31].translate({ord(c): " " for c in "[]:*?/\\"})
    sheet.append([printable(str(h)) for h in header])
    for values in rows:
        # control characters (Word's line break in an old name) cannot be written: cleaned
        sheet.append([float(v) if isinstance(v, Decimal) else
                      printable(v) if isinstance(v, str) else v for v in values])
        for cell in sheet[sheet.max_row]:
            if isinstance(cell.value, str) and cell.value.startswith(FORMULA_START):
                cell.data_type = TYPE_STRING
    for index in text_columns:
        for cell in sheet[get_column_letter(index + 1)][1:]:
            cell.number_format = "@"
    book.save(out)


def ema_results_write(
    out: IO[bytes] | Any, title: str, header: Sequence[str], rows: Iterable[Sequence[object]]
) -> None:
    # EMA numbers (column D) keep their leading zeros: text cells
    sheet_write(out, title or "Results", header, rows, text_columns=(3,))

"""The EMA's results sheet as XLSX (openpyxl): one sheet, the header row, the rows. Text
cells that look like formulas are written as text, as config.csv_export does for CSV."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import IO, Any

from openpyxl import Workbook
from openpyxl.cell.cell import TYPE_STRING

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def ema_results_write(
    out: IO[bytes] | Any, title: str, header: Sequence[str], rows: Iterable[Sequence[object]]
) -> None:
    book = Workbook()
    sheet = book.active
    sheet.title = (title or "Results")[:31].translate({ord(c): " " for c in "[]:*?/\\"})
    sheet.append(list(header))
    for values in rows:
        sheet.append([float(v) if isinstance(v, Decimal) else v for v in values])
        for cell in sheet[sheet.max_row]:
            if isinstance(cell.value, str) and cell.value.startswith(FORMULA_START):
                cell.data_type = TYPE_STRING
    # EMA numbers keep their leading zeros: text cells
    for cell in sheet["D"][1:]:
        cell.number_format = "@"
    book.save(out)

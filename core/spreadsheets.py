"""The one reader of the spreadsheets people upload: CSV or XLSX bytes -> the header and
the rows, every cell as text (decision 0316).

- XLSX (openpyxl, read-only, the first sheet, values not formulas): a date cell becomes
  ``YYYY-MM-DD``, a whole number ``1000001`` (not ``1000001.0``).
- CSV: UTF-8 with or without a byte order mark, UTF-16 with one (Excel's "Unicode text"),
  else a Windows code page: cp1251 when the letters outside ASCII come in runs (words of
  Cyrillic), cp1252 when they stand alone among ASCII letters (an accent in "José"); see
  ``detect_encoding``. The delimiter is the one of ``;``, ``,`` and tab that the header
  line uses most.
- Limits, each refused with its own code (and the row and column where there is one):
  ``MAX_BYTES``, ``MAX_ROWS``, ``MAX_COLUMNS``, ``MAX_CELL``.

Rows are numbered as the person sees them in their spreadsheet (the header is row 1 when
it is the first line); empty rows are skipped, their numbers kept.
"""

from __future__ import annotations

import csv
import io
import zipfile
from dataclasses import dataclass, field
from datetime import date, datetime, time
from typing import Any

from core.errors import DomainError
from core.import_texts import issue_message

MAX_BYTES = 10 * 1024 * 1024
MAX_ROWS = 20_000
MAX_COLUMNS = 60
MAX_CELL = 1_000
# an XLSX is a zip: what it unpacks to is bounded too (a small file can unpack to gigabytes)
MAX_UNPACKED = 200 * 1024 * 1024

E_EMPTY = "file_empty"
E_TOO_LARGE = "file_too_large"
E_TOO_MANY_ROWS = "too_many_rows"
E_TOO_MANY_COLUMNS = "too_many_columns"
E_CELL_TOO_LONG = "cell_too_long"
E_NOT_TEXT = "not_text"
E_BAD_XLSX = "bad_xlsx"
E_OLD_EXCEL = "old_excel"
E_DUPLICATE_HEADER = "duplicate_header"

DELIMITERS = (";", ",", "\t")


class SpreadsheetError(DomainError):
    """The file cannot be read as a spreadsheet: ``code`` and ``row``, ``column``, ``limit``
    where they apply (``core.import_texts.issue_message`` says it)."""

    @property
    def message(self) -> str:
        return issue_message(self.code, self.params)


@dataclass(frozen=True)
class SheetRow:
    number: int  # the row's number in the person's spreadsheet
    cells: tuple[str, ...]

    def cell(self, index: int | None) -> str:
        if index is None or index >= len(self.cells):
            return ""
        return self.cells[index]


@dataclass(frozen=True)
class Sheet:
    header: tuple[str, ...]
    rows: tuple[SheetRow, ...]
    file_format: str  # "csv" or "xlsx"
    encoding: str = ""  # the CSV's: utf-8, utf-8-sig, utf-16, cp1251, cp1252
    delimiter: str = ""
    notes: tuple[str, ...] = field(default=())


def spreadsheet_read(data: bytes) -> Sheet:
    """The header and rows of a CSV or XLSX file, or SpreadsheetError."""
    if not data or not data.strip():
        raise SpreadsheetError(E_EMPTY)
    if len(data) > MAX_BYTES:
        raise SpreadsheetError(E_TOO_LARGE, limit=MAX_BYTES // (1024 * 1024))
    if data.startswith(b"\xd0\xcf\x11\xe0"):
        raise SpreadsheetError(E_OLD_EXCEL)
    if data.startswith(b"PK\x03\x04"):
        return _sheet(_xlsx_rows(data), file_format="xlsx")
    encoding = detect_encoding(data)
    text = data.decode(encoding)
    if "\x00" in text:
        raise SpreadsheetError(E_NOT_TEXT)
    first_line = text.lstrip("\ufeff").split("\n", 1)[0]
    delimiter = max(DELIMITERS, key=first_line.count)
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff"), newline=""), delimiter=delimiter)
    try:
        return _sheet(((reader.line_num, row) for row in reader), file_format="csv",
                      encoding=encoding, delimiter=delimiter)
    except csv.Error as error:
        raise SpreadsheetError(E_NOT_TEXT, row=reader.line_num) from error


def detect_encoding(data: bytes) -> str:
    """The encoding a CSV was written in (module docstring)."""
    if data.startswith(b"\xef\xbb\xbf"):
        return "utf-8-sig"
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "utf-16"
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        return "utf-8"
    # cp1251 puts the Cyrillic letters at 0xC0-0xFF (and Ё, ё at 0xA8, 0xB8); a Russian
    # word is a run of them. In cp1252 the same bytes are accented Latin letters, which a
    # French, German or Dutch name has one or two of, between ASCII letters.
    letters = in_runs = 0
    for index, byte in enumerate(data):
        if byte >= 0xC0 or byte in (0xA8, 0xB8):
            letters += 1
            before = data[index - 1] if index else 0
            after = data[index + 1] if index + 1 < len(data) else 0
            if before >= 0xC0 or after >= 0xC0 or before in (0xA8, 0xB8) or after in (0xA8, 0xB8):
                in_runs += 1
    if letters and in_runs * 2 > letters:
        return "cp1251"
    try:
        data.decode("cp1252")
    except UnicodeDecodeError:
        return "cp1251"  # the five bytes cp1252 leaves undefined; cp1251 defines all but one
    return "cp1252"


def _xlsx_rows(data: bytes) -> Any:
    from openpyxl import load_workbook

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            if sum(info.file_size for info in archive.infolist()) > MAX_UNPACKED:
                raise SpreadsheetError(E_TOO_LARGE, limit=MAX_BYTES // (1024 * 1024))
        workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except SpreadsheetError:
        raise
    except Exception as error:  # openpyxl raises many kinds for a broken file
        raise SpreadsheetError(E_BAD_XLSX) from error
    try:
        sheet = workbook.worksheets[0]
        for number, values in enumerate(sheet.iter_rows(values_only=True), start=1):
            yield number, [_cell_text(value) for value in values]
    finally:
        workbook.close()


def _cell_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, datetime):
        return value.date().isoformat() if value.time() == time(0) else value.isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _sheet(numbered_rows: Any, *, file_format: str, encoding: str = "",
           delimiter: str = "") -> Sheet:
    header: tuple[str, ...] | None = None
    rows: list[SheetRow] = []
    for number, raw in numbered_rows:
        cells = [cell.strip() for cell in raw]
        while cells and not cells[-1]:
            cells.pop()
        if not cells:
            continue
        if len(cells) > MAX_COLUMNS:
            raise SpreadsheetError(E_TOO_MANY_COLUMNS, row=number, limit=MAX_COLUMNS)
        for index, cell in enumerate(cells):
            if len(cell) > MAX_CELL:
                column = header[index] if header and index < len(header) else str(index + 1)
                raise SpreadsheetError(E_CELL_TOO_LONG, row=number, column=column,
                                       limit=MAX_CELL)
        if header is None:
            header = tuple(cells)
            seen: set[str] = set()
            for name in header:
                if name and name.casefold() in seen:
                    raise SpreadsheetError(E_DUPLICATE_HEADER, row=number, column=name)
                seen.add(name.casefold())
            continue
        if len(rows) >= MAX_ROWS:
            raise SpreadsheetError(E_TOO_MANY_ROWS, limit=MAX_ROWS)
        rows.append(SheetRow(number, tuple(cells)))
    if header is None:
        raise SpreadsheetError(E_EMPTY)
    return Sheet(header=header, rows=tuple(rows), file_format=file_format, encoding=encoding,
                 delimiter=delimiter)

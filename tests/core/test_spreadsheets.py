"""The shared spreadsheet reader and import report (core.spreadsheets, core.imports)."""

from __future__ import annotations

import io
from datetime import date, datetime

import pytest
from django.utils import translation
from openpyxl import Workbook

from core import spreadsheets
from core.imports import (
    ImportFailed,
    ImportField,
    ImportReport,
    RowOutcome,
    columns_guess,
    columns_map,
    report_csv_rows,
)
from core.spreadsheets import SpreadsheetError, detect_encoding, spreadsheet_read

RUSSIAN = "Фамилия;Имя;Клуб\nПетров;Иван;Восточный ветер\nСоколова;Анна;Ёлка\n"
FRENCH = "Nom,Prénom,Ville\nLefèvre,Hélène,Besançon\nMüller,Jürgen,Köln\nDupont,José,Orléans\n"


def xlsx(rows):
    book = Workbook()
    sheet = book.active
    for row in rows:
        sheet.append(row)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


@pytest.mark.parametrize(("data", "encoding"), [
    (RUSSIAN.encode("utf-8"), "utf-8"),
    (b"\xef\xbb\xbf" + RUSSIAN.encode("utf-8"), "utf-8-sig"),
    (RUSSIAN.encode("cp1251"), "cp1251"),
    (FRENCH.encode("cp1252"), "cp1252"),
    (RUSSIAN.encode("utf-16"), "utf-16"),
])
def test_the_encoding_is_found_and_the_text_read_back(data, encoding):
    assert detect_encoding(data) == encoding
    sheet = spreadsheet_read(data)
    assert sheet.encoding == encoding
    first = (RUSSIAN if "Фамилия" in sheet.header else FRENCH).splitlines()[1]
    assert ";".join(sheet.rows[0].cells) == first.replace(",", ";")


@pytest.mark.parametrize("delimiter", [";", ",", "\t"])
def test_each_delimiter(delimiter):
    text = delimiter.join(["name", "email"]) + "\n" + delimiter.join(["Anna", "a@x.nl"]) + "\n"
    sheet = spreadsheet_read(text.encode())
    assert sheet.delimiter == delimiter
    assert sheet.header == ("name", "email") and sheet.rows[0].cells == ("Anna", "a@x.nl")


def test_quoted_cells_empty_rows_and_row_numbers():
    sheet = spreadsheet_read(b'name,club\n"Smit, Anna","East ""Wind"""\n\n,\nBob,\n')
    assert [(r.number, r.cells) for r in sheet.rows] == [
        (2, ("Smit, Anna", 'East "Wind"')), (5, ("Bob",))]
    assert sheet.rows[1].cell(1) == "" and sheet.rows[1].cell(None) == ""


def test_xlsx_dates_and_whole_numbers_read_as_people_see_them():
    data = xlsx([["EMA", "Born", "Name", "Score"],
                 [1000001, datetime(1990, 3, 4), "Anna", 12.5],
                 [None, date(2001, 1, 2), "Bob", 3.0]])
    sheet = spreadsheet_read(data)
    assert sheet.file_format == "xlsx"
    assert sheet.rows[0].cells == ("1000001", "1990-03-04", "Anna", "12.5")
    assert sheet.rows[1].cells == ("", "2001-01-02", "Bob", "3")


@pytest.mark.parametrize(("data", "code"), [
    (b"", spreadsheets.E_EMPTY),
    (b"   \n", spreadsheets.E_EMPTY),
    (b"\xd0\xcf\x11\xe0rest of an old excel file", spreadsheets.E_OLD_EXCEL),
    (b"PK\x03\x04not really a zip", spreadsheets.E_BAD_XLSX),
    (b"name,Name\nA,B\n", spreadsheets.E_DUPLICATE_HEADER),
    (b"a,b\n1,2\x00\n", spreadsheets.E_NOT_TEXT),
])
def test_files_that_cannot_be_read_are_refused_with_their_code(data, code):
    with pytest.raises(SpreadsheetError) as refused:
        spreadsheet_read(data)
    assert refused.value.code == code
    assert refused.value.message  # in words


def test_limits(monkeypatch):
    with pytest.raises(SpreadsheetError) as long_cell:
        spreadsheet_read(b"name,club\nAnna," + b"x" * (spreadsheets.MAX_CELL + 1) + b"\n")
    assert long_cell.value.params == {"row": 2, "column": "club", "limit": spreadsheets.MAX_CELL}
    with pytest.raises(SpreadsheetError) as columns:
        spreadsheet_read(",".join(["c"] * (spreadsheets.MAX_COLUMNS + 1)).encode())
    assert columns.value.code == spreadsheets.E_TOO_MANY_COLUMNS
    monkeypatch.setattr(spreadsheets, "MAX_ROWS", 3)
    with pytest.raises(SpreadsheetError) as rows:
        spreadsheet_read(b"name\n" + b"a\n" * 4)
    assert rows.value.code == spreadsheets.E_TOO_MANY_ROWS
    monkeypatch.setattr(spreadsheets, "MAX_BYTES", 10)
    with pytest.raises(SpreadsheetError) as size:
        spreadsheet_read(b"name\n" + b"a\n" * 10)
    assert size.value.code == spreadsheets.E_TOO_LARGE


FIELDS = [ImportField("email", ("e-mail", "почта", "courriel")),
          ImportField("name", ("full name", "имя"), required=True)]


def test_headers_are_recognised_in_any_case_and_spelling():
    assert columns_guess(["E-Mail", "ИМЯ", "Notes"], FIELDS) == {
        "E-Mail": "email", "ИМЯ": "name", "Notes": ""}


def test_a_mapping_overrides_the_guess_and_is_checked():
    report = ImportReport()
    assert columns_map(["Mail", "Who"], FIELDS, {"Mail": "email", "who": "name"}, report) == {
        "email": 0, "name": 1}
    assert report.errors == []
    bad = ImportReport()
    columns_map(["Mail", "Who", "Courriel"], FIELDS,
                {"Mail": "colour", "Nope": "name", "Who": "email"}, bad)
    assert {(e.column, e.code) for e in bad.errors} == {
        ("Mail", "unknown_field"), ("Nope", "missing_column"),
        ("Courriel", "field_mapped_twice"), ("name", "missing_column")}


def test_the_report_answers_exactly_the_api_shape_and_refuses_with_it(settings):
    settings.LANGUAGE_CODE = "en"
    translation.activate("en")
    report = ImportReport()
    report.count(RowOutcome(2, "created", "Anna"))
    report.count(RowOutcome(3, "unchanged", "Bob"))
    report.error(4, "email", "bad_email", value="x@")
    body = report.as_json()
    assert list(body) == ["created", "updated", "unchanged", "review", "errors", "tournament"]
    assert body["errors"] == [{"row": 4, "column": "email", "code": "bad_email",
                               "message": "“x@” is not an e-mail address."}]
    failed = ImportFailed(report)
    assert failed.status == 400 and failed.body() == body
    rows = list(report_csv_rows(report.stored()))
    assert rows[0] == ["row", "outcome", "what", "column", "code", "message"]
    assert [4, "error", "", "email", "bad_email", "“x@” is not an e-mail address."] in rows

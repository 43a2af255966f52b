"""The words of the codes every import shares (reading a file, mapping its columns, the
common cell errors), apart from ``core.imports`` so that the reader
(``core.spreadsheets``) can say its errors without importing the imports back."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

E_MISSING_COLUMN = "missing_column"
E_UNKNOWN_FIELD = "unknown_field"
E_FIELD_TWICE = "field_mapped_twice"
E_REQUIRED = "required"
E_TOO_LONG = "too_long"
E_BAD_DATE = "bad_date"
E_BAD_EMAIL = "bad_email"
E_BAD_NUMBER = "bad_number"
E_BAD_COUNTRY = "bad_country"
E_NO_ROWS = "no_rows"


def issue_message(code: str, params: Mapping[str, Any]) -> str:
    """The words of the shared codes (reading, mapping, the common cell errors); an import
    says its own codes first and falls back to these."""
    try:
        count = int(params.get("limit") or 0)
    except (TypeError, ValueError):
        count = 0
    texts = {
        "file_empty": _("The file is empty: it needs a header row and at least one row."),
        "file_too_large": ngettext("The file is larger than %(limit)s MB.",
                                   "The file is larger than %(limit)s MB.", count),
        "too_many_rows": ngettext(
            "The file has more than %(limit)s row: import it in parts.",
            "The file has more than %(limit)s rows: import it in parts.", count),
        "too_many_columns": _("Row %(row)s has more than %(limit)s columns."),
        "cell_too_long": ngettext("A cell is longer than %(limit)s character.",
                                  "A cell is longer than %(limit)s characters.", count),
        "not_text": _("The file is neither a spreadsheet (XLSX) nor a text file (CSV)."),
        "bad_xlsx": _("The XLSX file cannot be read."),
        "old_excel": _("Old Excel files (.xls) cannot be read: save it as XLSX or CSV."),
        "duplicate_header": _("The header “%(column)s” appears twice."),
        E_MISSING_COLUMN: _("The file has no column “%(column)s”."),
        E_UNKNOWN_FIELD: _("“%(field)s” is not a field of this import."),
        E_FIELD_TWICE: _("Two columns are mapped to “%(field)s”."),
        E_REQUIRED: _("This cell is required."),
        E_TOO_LONG: ngettext("At most %(limit)s character.", "At most %(limit)s characters.",
                             count),
        E_BAD_DATE: _("“%(value)s” is not a date (write 2024-03-31 or 31.03.2024)."),
        E_BAD_EMAIL: _("“%(value)s” is not an e-mail address."),
        E_BAD_NUMBER: _("“%(value)s” is not a number."),
        E_BAD_COUNTRY: _("“%(value)s” is not a country (a two-letter code such as NL)."),
        E_NO_ROWS: _("The file has a header but no rows."),
        "bad_json_object": _("Send a JSON object, such as {\"E-mail\": \"email\"}."),
    }
    text = texts.get(code)
    if text is None:
        return code
    try:
        return text % dict(params)
    except (KeyError, TypeError, ValueError):
        return text

"""PURE parsing of a bank statement CSV into dataclasses, with line-numbered errors.

Format (UTF-8, header row required, comma or semicolon separated, column order free):

    date,amount,reference,transaction_id[,payer]
    2025-02-03,60.00,Dues 2025-00012,TX-889102,Ivan Petrov

date: YYYY-MM-DD (or DD.MM.YYYY); amount: positive, "." or "," as decimal mark, no thousands
separator; reference: free text that contains the invoice number (a reference naming two
or more invoices is ambiguous and left to the treasurer); transaction_id: the bank's
unique id of the transaction (the same id is never recorded twice).

Errors are stable codes with line numbers; the edge translates them. A file with any error
is rejected as a whole.

Russian banks' statements come in the 1C exchange format (``parse_1c``, chosen by the
file's first line ``1CClientBankExchange``): Windows-1251 text (or DOS, cp866, when its
``Кодировка=DOS``), ``key=value`` lines, one ``СекцияДокумент=…`` … ``КонецДокумента`` per
transaction. A document credited to one of the statement's own accounts (``РасчСчет``) is a
payment received, in roubles; the ones it paid out are skipped. Decision 0322.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from core.rules.date_windows import is_plausible, window

REQUIRED_COLUMNS = ("date", "amount", "reference", "transaction_id")
OPTIONAL_COLUMNS = ("payer",)
INVOICE_NUMBER_RE = re.compile(r"\b(\d{4}-\d{5})\b")

E_EMPTY = "empty"
E_MISSING_COLUMNS = "missing_columns"
E_BAD_DATE = "bad_date"
E_BAD_AMOUNT = "bad_amount"
E_NOT_POSITIVE = "not_positive"
E_MISSING_TRANSACTION_ID = "missing_transaction_id"
E_DUPLICATE_IN_FILE = "duplicate_in_file"
E_WRONG_COLUMN_COUNT = "wrong_column_count"
E_NOT_TEXT = "not_text"
E_NUL_BYTE = "nul_byte"
E_AMOUNT_TOO_LARGE = "amount_too_large"
E_TOO_LONG = "too_long"
E_TOO_MANY_LINES = "too_many_lines"
E_IMPLAUSIBLE_DATE = "implausible_date"

# Bounds of what is stored (federation.models.Payment): amount max_digits=10, 2 decimals;
# transaction_id and reference 100 and 200 characters. A file has at most MAX_LINES lines.
MAX_AMOUNT = Decimal("99999999.99")
MAX_LENGTH = {"transaction_id": 100, "reference": 200, "payer": 200}
# A statement line is a payment recorded by the one rule (federation.services.payment_record,
# about 8 ms each on the reference machine): 2,000 lines stay well inside a worker's timeout;
# a longer statement is imported in parts (re-importing records nothing twice).
MAX_LINES = 2_000


@dataclass(frozen=True)
class StatementRow:
    line: int
    paid_on: date
    amount: Decimal
    reference: str
    transaction_id: str
    payer: str = ""
    currency: str = ""  # "" when the statement does not say (CSV); RUB for a 1C statement

    @property
    def invoice_numbers(self) -> tuple[str, ...]:
        """Every distinct invoice number the reference names, in the order written."""
        return tuple(dict.fromkeys(INVOICE_NUMBER_RE.findall(self.reference)))

    @property
    def invoice_number(self) -> str | None:
        """The one invoice the reference names; None when it names none or several (an
        ambiguous line is for the treasurer to decide, never credited to the first)."""
        numbers = self.invoice_numbers
        return numbers[0] if len(numbers) == 1 else None

    @property
    def is_ambiguous(self) -> bool:
        return len(self.invoice_numbers) > 1


@dataclass(frozen=True)
class ParseError:
    line: int  # 1-based line of the file (the header is line 1)
    code: str
    detail: str = ""


@dataclass
class Statement:
    rows: list[StatementRow] = field(default_factory=list)
    errors: list[ParseError] = field(default_factory=list)


def _parse_date(text: str) -> date:
    for fmt in ("%Y-%m-%d", "%d.%m.%Y"):
        try:
            return datetime.strptime(text, fmt).date()
        except ValueError:
            continue
    raise ValueError(text)


def _parse_amount(text: str) -> Decimal:
    cleaned = text.strip().replace(" ", "")
    if "," in cleaned and "." not in cleaned:
        cleaned = cleaned.replace(",", ".")
    if not re.fullmatch(r"-?\d+(\.\d{1,2})?", cleaned):
        raise InvalidOperation(text)
    return Decimal(cleaned)


def _lines(reader: Any, statement: Statement) -> Iterator[list[str]]:
    """The lines of ``reader``; one the csv module cannot read (a field over its 131,072
    characters) ends the statement with an error naming the line."""
    while True:
        try:
            yield next(reader)
        except StopIteration:
            return
        except csv.Error:
            statement.errors.append(ParseError(reader.line_num, E_TOO_LONG,
                                               str(csv.field_size_limit())))
            return


def parse_statement(data: bytes | str) -> Statement:
    """A CSV statement, or a 1C one (``parse_1c``) when the file says so on its first line."""
    head = data[:40]
    if isinstance(head, bytes):
        head = head.decode("ascii", errors="replace")
    if head.lstrip("\ufeff\ufffd").startswith(ONE_C_HEADER):
        return parse_1c(data)
    statement = Statement()
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            statement.errors.append(ParseError(1, E_NOT_TEXT))
            return statement
    data = data.lstrip("\ufeff")
    if "\x00" in data:  # the database stores no NUL character
        statement.errors.append(ParseError(data[: data.index("\x00")].count("\n") + 1,
                                           E_NUL_BYTE))
        return statement
    if data.count("\n") > MAX_LINES:
        statement.errors.append(ParseError(MAX_LINES + 1, E_TOO_MANY_LINES, str(MAX_LINES)))
        return statement
    if not data.strip():
        statement.errors.append(ParseError(1, E_EMPTY))
        return statement
    first_line = data.splitlines()[0]
    delimiter = ";" if first_line.count(";") > first_line.count(",") else ","
    reader = csv.reader(io.StringIO(data), delimiter=delimiter)
    try:
        header = [h.strip().lower() for h in next(reader)]
    except csv.Error:
        statement.errors.append(ParseError(1, E_TOO_LONG, str(csv.field_size_limit())))
        return statement
    missing = [c for c in REQUIRED_COLUMNS if c not in header]
    if missing:
        statement.errors.append(ParseError(1, E_MISSING_COLUMNS, ", ".join(missing)))
        return statement
    index = {
        name: header.index(name)
        for name in (*REQUIRED_COLUMNS, *OPTIONAL_COLUMNS)
        if name in header
    }
    seen: dict[str, int] = {}
    for values in _lines(reader, statement):
        line = reader.line_num
        if not any(v.strip() for v in values):
            continue
        if len(values) != len(header):
            statement.errors.append(ParseError(line, E_WRONG_COLUMN_COUNT, str(len(values))))
            continue
        cell = {name: values[i].strip() for name, i in index.items()}
        row_errors: list[ParseError] = []
        try:
            paid_on = _parse_date(cell["date"])
            if not is_plausible("payment", paid_on):
                earliest, latest = window("payment")
                row_errors.append(ParseError(line, E_IMPLAUSIBLE_DATE,
                                             f"{earliest.isoformat()} – {latest.isoformat()}"))
        except ValueError:
            row_errors.append(ParseError(line, E_BAD_DATE, cell["date"][:30]))
        try:
            amount = _parse_amount(cell["amount"])
            if amount <= 0:
                row_errors.append(ParseError(line, E_NOT_POSITIVE, cell["amount"]))
            elif amount > MAX_AMOUNT:
                row_errors.append(ParseError(line, E_AMOUNT_TOO_LARGE, str(MAX_AMOUNT)))
        except InvalidOperation:
            row_errors.append(ParseError(line, E_BAD_AMOUNT, cell["amount"][:30]))
        for name, limit in MAX_LENGTH.items():
            if len(cell.get(name, "")) > limit:
                row_errors.append(ParseError(line, E_TOO_LONG, f"{name}: {limit}"))
        transaction_id = cell["transaction_id"]
        if not transaction_id:
            row_errors.append(ParseError(line, E_MISSING_TRANSACTION_ID))
        elif transaction_id in seen:
            row_errors.append(
                ParseError(
                    line, E_DUPLICATE_IN_FILE, f"{transaction_id} (line {seen[transaction_id]})"
                )
            )
        else:
            seen[transaction_id] = line
        if row_errors:
            statement.errors.extend(row_errors)
            continue
        statement.rows.append(
            StatementRow(
                line=line,
                paid_on=paid_on,
                amount=amount,
                reference=cell["reference"],
                transaction_id=transaction_id,
                payer=cell.get("payer", ""),
            )
        )
    return statement


# --- the 1C exchange format (1CClientBankExchange) -----------------------------------------

ONE_C_HEADER = "1CClientBankExchange"
E_1C_NOT_CLOSED = "1c_document_not_closed"
E_1C_MISSING_FIELD = "1c_missing_field"
E_1C_BAD_LINE = "1c_bad_line"
# a 1C document takes some 20 to 40 lines: the file may have that many lines per payment
ONE_C_MAX_FILE_LINES = MAX_LINES * 60
_ONE_C_ENCODINGS = {"windows": "cp1251", "dos": "cp866"}


def _decode_1c(data: bytes | str) -> str:
    if isinstance(data, str):
        return data
    for encoding in ("cp1251", "cp866"):  # the line saying which is in either
        match = re.search(r"^Кодировка=(\w+)",
                          data[:2000].decode(encoding, errors="replace"), re.MULTILINE)
        if match:
            return data.decode(_ONE_C_ENCODINGS.get(match[1].lower(), encoding),
                               errors="replace")
    return data.decode("cp1251", errors="replace")


def _payer_name(fields: dict[str, str]) -> str:
    """``Плательщик1`` (the name alone), else ``Плательщик`` without its "ИНН …" prefix."""
    name = fields.get("Плательщик1") or fields.get("Плательщик", "")
    return re.sub(r"^ИНН\s*\d+\s*", "", name).strip()


def _purpose(fields: dict[str, str]) -> str:
    """``НазначениеПлатежа``, or the older format's lines ``НазначениеПлатежа1``…``6``."""
    if fields.get("НазначениеПлатежа"):
        return " ".join(fields["НазначениеПлатежа"].split())
    parts = [fields.get(f"НазначениеПлатежа{i}", "") for i in range(1, 7)]
    return " ".join(" ".join(parts).split())


def parse_1c(data: bytes | str) -> Statement:
    """The payments received in a 1C statement, as ``StatementRow``s in roubles.

    The transaction id is the bank's document: ``1C/<date>/<number>/<payer's account>`` (the
    format has no id of its own; a payer's account numbers its documents), so a statement
    imported again, or one overlapping it, records nothing twice."""
    statement = Statement()
    text = _decode_1c(data).lstrip("\ufeff")
    if "\x00" in text:
        statement.errors.append(ParseError(text[: text.index("\x00")].count("\n") + 1,
                                           E_NUL_BYTE))
        return statement
    lines = text.splitlines()
    if len(lines) > ONE_C_MAX_FILE_LINES:
        statement.errors.append(ParseError(ONE_C_MAX_FILE_LINES + 1, E_TOO_MANY_LINES,
                                           str(ONE_C_MAX_FILE_LINES)))
        return statement
    own_accounts: set[str] = set()
    documents: list[tuple[int, dict[str, str]]] = []
    current: dict[str, str] | None = None
    start = 0
    for number, raw in enumerate(lines, start=1):
        entry = raw.strip()
        if not entry or number == 1:
            continue
        if entry.startswith("СекцияДокумент"):
            if current is not None:
                statement.errors.append(ParseError(start, E_1C_NOT_CLOSED))
            current, start = {}, number
            continue
        if entry == "КонецДокумента":
            if current is None:
                statement.errors.append(ParseError(number, E_1C_BAD_LINE, entry[:30]))
            else:
                documents.append((start, current))
            current = None
            continue
        key, sep, value = entry.partition("=")
        if current is not None:
            if sep:
                current[key] = value.strip()
            continue
        if key == "РасчСчет" and sep:
            own_accounts.add(value.strip())
    if current is not None:
        statement.errors.append(ParseError(start, E_1C_NOT_CLOSED))
    if len(documents) > MAX_LINES:
        statement.errors.append(ParseError(1, E_TOO_MANY_LINES, str(MAX_LINES)))
        return statement
    seen: dict[str, int] = {}
    for line, fields in documents:
        received = (fields.get("ПолучательСчет") in own_accounts if own_accounts
                    else bool(fields.get("ДатаПоступило")))
        if not received:
            continue  # paid out by the federation: not a payment to record
        row_errors: list[ParseError] = []
        for name in ("Номер", "Сумма"):
            if not fields.get(name):
                row_errors.append(ParseError(line, E_1C_MISSING_FIELD, name))
        day = fields.get("ДатаПоступило") or fields.get("Дата", "")
        paid_on = None
        try:
            paid_on = _parse_date(day)
            if not is_plausible("payment", paid_on):
                earliest, latest = window("payment")
                row_errors.append(ParseError(line, E_IMPLAUSIBLE_DATE,
                                             f"{earliest.isoformat()} – {latest.isoformat()}"))
        except ValueError:
            row_errors.append(ParseError(line, E_BAD_DATE, day[:30]))
        amount = Decimal(0)
        if fields.get("Сумма"):
            try:
                amount = _parse_amount(fields["Сумма"])
                if amount <= 0:
                    row_errors.append(ParseError(line, E_NOT_POSITIVE, fields["Сумма"]))
                elif amount > MAX_AMOUNT:
                    row_errors.append(ParseError(line, E_AMOUNT_TOO_LARGE, str(MAX_AMOUNT)))
            except InvalidOperation:
                row_errors.append(ParseError(line, E_BAD_AMOUNT, fields["Сумма"][:30]))
        payer_account = fields.get("ПлательщикСчет") or fields.get("ПлательщикИНН", "")
        transaction_id = f"1C/{fields.get('Дата', day)}/{fields.get('Номер', '')}/{payer_account}"
        reference, payer = _purpose(fields), _payer_name(fields)
        for name, value in (("transaction_id", transaction_id), ("reference", reference),
                            ("payer", payer)):
            if len(value) > MAX_LENGTH[name]:
                row_errors.append(ParseError(line, E_TOO_LONG, f"{name}: {MAX_LENGTH[name]}"))
        if transaction_id in seen:
            row_errors.append(ParseError(line, E_DUPLICATE_IN_FILE,
                                         f"{transaction_id} (line {seen[transaction_id]})"))
        else:
            seen[transaction_id] = line
        if row_errors or paid_on is None:
            statement.errors.extend(row_errors)
            continue
        statement.rows.append(StatementRow(line=line, paid_on=paid_on, amount=amount,
                                           reference=reference, transaction_id=transaction_id,
                                           payer=payer, currency="RUB"))
    if not documents and not statement.errors:
        statement.errors.append(ParseError(1, E_EMPTY))
    return statement

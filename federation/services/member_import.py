"""Members and clubs from a federation's spreadsheet (issue 35, item 1; decision 0316).

Each row is matched to a member by member number, then by e-mail; a row matching neither
whose name (and date of birth, when both have one) is an existing member's waits for a
person's decision (``decisions``: row -> "new" or the member's id). Clubs are matched by
name (any case) or created. A cell left empty changes nothing. Paid years become the
year's dues invoice with a payment of method "imported" (no receipt is mailed), so the
member's status is right on day one (``federation.rules.dues``). New members are approved,
numbered from the file or from the sequence. No e-mail is sent.

Nothing is written when a row has an error; the same file imported twice changes nothing
the second time.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection, connections, models, transaction
from django.db.models import Sum
from django.utils import timezone

from core.imports import (
    CREATED,
    ERROR,
    REVIEW,
    UNCHANGED,
    UPDATED,
    ImportFailed,
    ImportField,
    ImportReport,
    Issue,
    ReviewItem,
    RowOutcome,
    sheet_mapped,
)
from federation import selectors
from federation.models import (
    Club,
    ClubMembership,
    DuesInvoice,
    ImportRun,
    Member,
    MembershipFee,
    MembershipType,
    MembershipYear,
    NumberSequence,
    Payment,
)
from federation.rules import dues
from federation.rules.member_import import HEADERS, REQUIRED, MemberRow, member_row_read
from federation.services.coverage import member_coverage_refresh, members_changed_later
from federation.services.import_runs import import_run_record

KIND = "members"
FIELDS = tuple(ImportField(name, headers, name in REQUIRED) for name, headers in HEADERS.items())

E_NUMBER_TWICE = "number_twice"
E_EMAIL_TWICE = "email_twice"
E_NUMBER_EMAIL_CONFLICT = "number_email_conflict"
E_NUMBER_ERASED = "number_erased"
E_UNKNOWN_YEAR = "unknown_year"
E_NO_FEE_FOR_YEAR = "no_fee_for_year"
E_NO_REGULAR_TYPE = "no_regular_type"
R_SAME_NAME = "same_name"
N_CLUB_CREATED = "club_created"
N_YEARS_PAID = "years_paid"
N_FREE_TYPE = "free_type_no_dues"


def describe(code: str, params: dict[str, Any]) -> str:
    from federation.error_texts import import_message

    return import_message(code, params)


@dataclass
class _Plan:
    """What the rows decided, written only when no row has an error."""

    new_clubs: dict[str, Club] = field(default_factory=dict)
    new_members: list[tuple[Member, Club | None]] = field(default_factory=list)
    changed: dict[int, tuple[Member, set[str]]] = field(default_factory=dict)
    club_moves: list[tuple[Member, Club | None]] = field(default_factory=list)
    # (member, membership year, fee, the open invoice to pay or None)
    dues: list[tuple[Member, MembershipYear, Decimal, DuesInvoice | None]] = field(
        default_factory=list)


@transaction.atomic
def members_import(
    *,
    data: bytes,
    file_name: str,
    imported_by: Any,
    mapping: Mapping[str, str] | None = None,
    decisions: Mapping[int, str] | None = None,
    dry_run: bool = False,
    run: ImportRun | None = None,
    today: date | None = None,
) -> ImportReport:
    """Preview (``dry_run``) or import the file (module docstring). A file with any error
    raises ImportFailed (its report) and writes nothing. A commit is stored as an
    ImportRun (``run`` when the admin's pages made one) and written to the audit log."""
    today = today or selectors.today()
    report = ImportReport(dry_run=dry_run)
    mapped = sheet_mapped(data, FIELDS, mapping, report)
    if mapped is None:
        raise ImportFailed(report, describe)
    sheet, indexes, column_of = mapped.sheet, mapped.indexes, mapped.column_of
    plan = _plan(sheet, indexes, column_of, report, decisions or {}, today)
    if report.errors:
        raise ImportFailed(report, describe)
    if dry_run:
        return report
    _write(plan, today=today, file_name=file_name)
    import_run_record(run=run, kind=KIND, action="federation.import.members",
                      file_name=file_name, imported_by=imported_by, mapping=mapping,
                      report=report, describe=describe)
    report.rows.sort(key=lambda outcome: outcome.row)
    return report


def _plan(sheet: Any, indexes: dict[str, int], column_of: dict[str, str],
          report: ImportReport, decisions: Mapping[int, str], today: date) -> _Plan:
    plan = _Plan()
    members = list(Member.objects.filter(anonymised_at__isnull=True)
                   .select_related("club", "membership_type"))
    by_id = {m.pk: m for m in members}
    by_number = {m.membership_number: m for m in members if m.membership_number}
    by_email: dict[str, Member] = {}
    by_name: dict[str, list[Member]] = {}
    for m in members:
        if m.email:
            by_email.setdefault(m.email.lower(), m)
        for name in {m.name_native.casefold(), m.name_latin.casefold()} - {""}:
            by_name.setdefault(name, []).append(m)
    erased_numbers = set(Member.objects.filter(anonymised_at__isnull=False,
                                               membership_number__isnull=False)
                         .values_list("membership_number", flat=True))
    clubs = {c.name.casefold(): c for c in Club.objects.all()}
    years = {y.year: y for y in MembershipYear.objects.all()}
    fees = {(f.membership_year_id, f.membership_type_id): f.amount
            for f in MembershipFee.objects.all()}
    invoices: dict[tuple[int, int], tuple[DuesInvoice, Decimal]] = {}
    for invoice in (DuesInvoice.objects.filter(member__isnull=False, cancelled=False)
                    .annotate(paid=Sum("payments__amount",
                                       filter=_counted_payments()))):
        paid = invoice.paid or Decimal(0)  # type: ignore[attr-defined]
        invoices[(invoice.member_id, invoice.membership_year_id)] = (invoice, paid)
    regular = MembershipType.objects.filter(kind=MembershipType.Kind.REGULAR).first()
    seen_numbers: dict[int, int] = {}
    seen_emails: dict[str, int] = {}

    for sheet_row in sheet.rows:
        cells = {name: sheet_row.cell(index) for name, index in indexes.items()}
        row, problems = member_row_read(cells, today)
        number = sheet_row.number
        label = cells.get("name", "")
        if row is None:
            for problem in problems:
                params: dict[str, Any] = {"value": problem.value}
                if problem.limit is not None:
                    params["limit"] = problem.limit
                report.error(number, column_of.get(problem.field, problem.field), problem.code,
                             **params)
            report.rows.append(RowOutcome(number, ERROR, label))
            continue
        failed = False
        if row.member_number is not None:
            if row.member_number in seen_numbers:
                report.error(number, column_of["member_number"], E_NUMBER_TWICE,
                             other=seen_numbers[row.member_number])
                failed = True
            seen_numbers.setdefault(row.member_number, number)
        if row.email:
            if row.email in seen_emails:
                report.error(number, column_of["email"], E_EMAIL_TWICE,
                             other=seen_emails[row.email])
                failed = True
            seen_emails.setdefault(row.email, number)
        if row.member_number in erased_numbers:
            report.error(number, column_of["member_number"], E_NUMBER_ERASED,
                         number=row.member_number)
            failed = True
        if failed:
            report.rows.append(RowOutcome(number, ERROR, label))
            continue
        member = by_number.get(row.member_number) if row.member_number else None
        by_mail = by_email.get(row.email) if row.email else None
        if member is not None and by_mail is not None and by_mail.pk != member.pk:
            report.error(number, column_of["email"], E_NUMBER_EMAIL_CONFLICT,
                         value=row.email, number=row.member_number)
            report.rows.append(RowOutcome(number, ERROR, label))
            continue
        if member is None and by_mail is not None:
            if row.member_number and by_mail.membership_number:
                report.error(number, column_of["member_number"], E_NUMBER_EMAIL_CONFLICT,
                             value=row.email, number=row.member_number)
                report.rows.append(RowOutcome(number, ERROR, label))
                continue
            member = by_mail
        if member is None and row.member_number is None and not row.email:
            candidates = [m for m in by_name.get(row.name.casefold(), [])
                          if not (m.date_of_birth and row.date_of_birth)
                          or m.date_of_birth == row.date_of_birth]
            decision = str(decisions.get(number, "")).strip()
            if candidates and decision != "new":
                chosen = next((m for m in candidates if str(m.pk) == decision), None)
                if chosen is None:
                    report.review.append(ReviewItem(number, R_SAME_NAME, [
                        _candidate(m) for m in candidates]))
                    report.rows.append(RowOutcome(number, REVIEW, label))
                    continue
                member = by_id[chosen.pk]
        notes: list[Issue] = []
        club = None
        if row.club:
            club = clubs.get(row.club.casefold())
            if club is None:
                club = Club(name=row.club)
                clubs[row.club.casefold()] = club
                plan.new_clubs[row.club.casefold()] = club
                notes.append(Issue(number, column_of.get("club"), N_CLUB_CREATED,
                                   {"club": row.club}))
        if member is None:
            if regular is None:
                report.error(number, None, E_NO_REGULAR_TYPE)
                report.rows.append(RowOutcome(number, ERROR, label))
                continue
            member = _new_member(row, club, regular)
            plan.new_members.append((member, club))
            outcome = CREATED
        else:
            changed = _apply(member, row, club)
            if "club" in changed:
                plan.club_moves.append((member, club))
            if changed:
                entry = plan.changed.setdefault(member.pk, (member, set()))
                entry[1].update(changed - {"club"} | ({"club"} if "club" in changed else set()))
            outcome = UPDATED if changed else UNCHANGED
        paid_now = _paid_years(member, row, years, fees, invoices, plan, report, number,
                               column_of.get("paid_years", ""), notes)
        if paid_now is None:
            report.rows.append(RowOutcome(number, ERROR, label))
            continue
        if paid_now and outcome == UNCHANGED:
            outcome = UPDATED
        report.count(RowOutcome(number, outcome, label, notes))
    return plan


def _counted_payments() -> Any:
    from django.db.models import Q

    return Q(payments__reversed_at__isnull=True)


def _candidate(member: Member) -> dict[str, Any]:
    return {"id": member.pk, "label": str(member),
            "member_number": member.membership_number,
            "date_of_birth": member.date_of_birth.isoformat() if member.date_of_birth else None}


def _new_member(row: MemberRow, club: Club | None, regular: MembershipType) -> Member:
    return Member(
        membership_number=row.member_number, name_native=row.name,
        name_latin=row.name_latin or row.name, email=row.email,
        date_of_birth=row.date_of_birth, country=row.country, phone=row.phone, club=club,
        membership_type=regular, application=Member.Application.APPROVED,
        joined_on=row.joined,
    )


def _apply(member: Member, row: MemberRow, club: Club | None) -> set[str]:
    """Set the row's non-empty cells on ``member``; the names of the fields changed."""
    changed: set[str] = set()

    def put(name: str, value: Any) -> None:
        if value not in ("", None) and getattr(member, name) != value:
            setattr(member, name, value)
            changed.add(name)

    if row.name.casefold() not in {member.name_native.casefold(), member.name_latin.casefold()}:
        put("name_native", row.name)
    put("name_latin", row.name_latin)
    put("email", row.email)
    put("date_of_birth", row.date_of_birth)
    put("country", row.country)
    put("phone", row.phone)
    put("joined_on", row.joined)
    if club is not None and (member.club_id is None or member.club_id != club.pk
                             or club.pk is None):
        member.club = club
        changed.add("club")
    if row.member_number and member.membership_number is None:
        put("membership_number", row.member_number)
    return changed


def _paid_years(member: Member, row: MemberRow, years: dict[int, MembershipYear],
                fees: dict[tuple[int, int], Decimal],
                invoices: dict[tuple[int, int], tuple[DuesInvoice, Decimal]], plan: _Plan,
                report: ImportReport, number: int, column: str,
                notes: list[Issue]) -> list[int] | None:
    """The years this row pays now (added to the plan); None after an error."""
    if not row.paid_years:
        return []
    if member.membership_type.is_free:
        notes.append(Issue(number, column, N_FREE_TYPE, {}))
        return []
    paying: list[int] = []
    for year in row.paid_years:
        membership_year = years.get(year)
        if membership_year is None:
            report.error(number, column, E_UNKNOWN_YEAR, year=year)
            return None
        fee = fees.get((membership_year.pk, member.membership_type_id))
        if fee is None:
            report.error(number, column, E_NO_FEE_FOR_YEAR, year=year)
            return None
        existing = invoices.get((member.pk, membership_year.pk)) if member.pk else None
        if existing is not None:
            invoice, paid = existing
            if paid >= invoice.amount:
                continue
            plan.dues.append((member, membership_year, invoice.amount - paid, invoice))
        else:
            plan.dues.append((member, membership_year, fee, None))
        paying.append(year)
    if paying:
        notes.append(Issue(number, column, N_YEARS_PAID,
                           {"years": ", ".join(str(y) for y in paying)}))
    return paying


def _reserve(key: str, count: int) -> int:
    """The first of ``count`` new numbers of the counter ``key`` (locked, never reused)."""
    NumberSequence.objects.get_or_create(key=key)
    sequence = NumberSequence.objects.select_for_update().get(key=key)
    first = sequence.last_value + 1
    sequence.last_value += count
    sequence.save(update_fields=["last_value"])
    return first


def _write(plan: _Plan, *, today: date, file_name: str) -> None:
    Club.objects.bulk_create(plan.new_clubs.values(), batch_size=500)
    new_members = [member for member, _club in plan.new_members]
    for member in new_members:  # the clubs have their keys now
        member.club = member.club
    unnumbered = [m for m in new_members if m.membership_number is None]
    given = [m.membership_number for m in new_members if m.membership_number is not None]
    given += [m.membership_number for m, fields in plan.changed.values()
              if "membership_number" in fields and m.membership_number is not None]
    sequence, _created = NumberSequence.objects.get_or_create(key="member")
    sequence = NumberSequence.objects.select_for_update().get(pk=sequence.pk)
    if given and max(given) > sequence.last_value:
        sequence.last_value = max(given)
        sequence.save(update_fields=["last_value"])
    if unnumbered:
        first = _reserve("member", len(unnumbered))
        for offset, member in enumerate(unnumbered):
            member.membership_number = first + offset
    Member.objects.bulk_create(new_members, batch_size=500)
    for member, fields in plan.changed.values():
        if "club" in fields:
            member.club = member.club
    by_fields: dict[frozenset[str], list[Member]] = {}
    for member, fields in plan.changed.values():
        by_fields.setdefault(frozenset(fields), []).append(member)
    for fields, changed_members in by_fields.items():
        names = sorted({"club" if name == "club" else name for name in fields})
        Member.objects.bulk_update(changed_members, names, batch_size=500)
    moved = [member for member, _club in plan.club_moves]
    if moved:
        ClubMembership.objects.filter(member__in=[m.pk for m in moved],
                                      ended_on__isnull=True).update(ended_on=today)
    _insert(ClubMembership, ["member", "club", "started_on"],
            [(m.pk, m.club.pk, m.joined_on or today) for m in new_members if m.club is not None]
            + [(m.pk, club.pk, today) for m, club in plan.club_moves if club is not None])
    _write_dues(plan, today=today, file_name=file_name)
    touched = {m.pk for m in new_members} | {m.pk for m, _f in plan.changed.values()}
    paid = {m.pk for m, _y, _fee, _invoice in plan.dues}
    member_coverage_refresh(member_ids=paid)
    members_changed_later(sorted(touched | paid))


def _write_dues(plan: _Plan, *, today: date, file_name: str) -> None:
    fresh = [(m, y, fee) for m, y, fee, invoice in plan.dues if invoice is None]
    per_year: dict[int, int] = {}
    for _member, year, _fee in fresh:
        per_year[year.year] = per_year.get(year.year, 0) + 1
    next_invoice = {year: _reserve(f"invoice-{year}", count) for year, count in per_year.items()}
    new_invoices: list[DuesInvoice] = []
    for member, year, fee in fresh:
        sequence = next_invoice[year.year]
        next_invoice[year.year] += 1
        issued_on = min(max(year.starts_on, member.joined_on or year.starts_on), today)
        new_invoices.append(DuesInvoice(
            number=f"{year.year}-{sequence:05d}", membership_year=year, member=member,
            membership_type_id=member.membership_type_id,
            billed_name=member.name_native or member.name_latin, amount=dues.money(fee),
            currency=year.currency, issued_on=issued_on, due_on=issued_on))
    _insert(DuesInvoice, ["number", "membership_year", "member", "membership_type",
                          "billed_name", "amount", "currency", "issued_on", "due_on",
                          "prorated", "cancelled", "purpose"],
            [(i.number, i.membership_year_id, i.member_id, i.membership_type_id,
              i.billed_name, i.amount, i.currency, i.issued_on, i.due_on, False, False, "")
             for i in new_invoices])
    numbers = [i.number for i in new_invoices]
    keys: dict[str, int] = {}
    for start in range(0, len(numbers), 1000):
        keys.update(DuesInvoice.objects.filter(number__in=numbers[start:start + 1000])
                    .values_list("number", "pk"))
    for invoice in new_invoices:
        invoice.pk = keys[invoice.number]
    _insert(DuesInvoice.covered_members.through, ["duesinvoice", "member"],
            [(i.pk, i.member_id) for i in new_invoices])
    to_pay = [(i, i.amount) for i in new_invoices] + [
        (invoice, amount) for _m, _y, amount, invoice in plan.dues if invoice is not None]
    to_pay = [(invoice, amount) for invoice, amount in to_pay if amount > 0]
    per_receipt_year: dict[int, int] = {}
    for invoice, _amount in to_pay:
        per_receipt_year[invoice.issued_on.year] = per_receipt_year.get(
            invoice.issued_on.year, 0) + 1
    next_receipt = {year: _reserve(f"receipt-{year}", count)
                    for year, count in per_receipt_year.items()}
    payments = []
    reference = f"Imported: {file_name}"[:200]
    now = timezone.now()
    for invoice, amount in to_pay:
        paid_on = invoice.issued_on
        sequence = next_receipt[paid_on.year]
        next_receipt[paid_on.year] += 1
        payments.append((invoice.pk, dues.money(amount), paid_on, Payment.Method.IMPORTED,
                         reference, "", f"R{paid_on.year}-{sequence:05d}", now, False, ""))
    _insert(Payment, ["invoice", "amount", "paid_on", "method", "reference", "transaction_id",
                      "receipt_number", "recorded_at", "receipt_waiting", "reversal_reason"],
            payments)


def _insert(model: Any, names: list[str], rows: list[tuple[Any, ...]]) -> None:
    """Plain rows inserted in one ``executemany`` per thousand: tens of thousands of rows
    that need no key back (the payments, the invoices' covered members, the club history)
    cost a fraction of ``bulk_create``'s time, the values prepared by their fields."""
    if not rows:
        return
    fields = [model._meta.get_field(name) for name in names]
    table = connection.ops.quote_name(model._meta.db_table)
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    sql = f"INSERT INTO {table} ({columns}) VALUES ({marks})"
    database = connections[DEFAULT_DB_ALIAS]  # the connection itself, not its proxy
    convert = [_converter(f, database) for f in fields]
    prepared = [[to_db(value) for to_db, value in zip(convert, row, strict=True)]
                for row in rows]
    with connection.cursor() as cursor:
        for start in range(0, len(prepared), 1000):
            cursor.executemany(sql, prepared[start:start + 1000])


def _converter(field: Any, database: Any) -> Any:
    """How a value of ``field`` goes to the database: text, numbers, flags and keys as they
    are; dates, times and amounts through the backend's adapters; anything else as the
    field prepares it."""
    ops = database.ops
    if isinstance(field, models.DateTimeField):
        return ops.adapt_datetimefield_value
    if isinstance(field, models.DateField):
        return ops.adapt_datefield_value
    if isinstance(field, models.DecimalField):
        return lambda value: ops.adapt_decimalfield_value(value, field.max_digits,
                                                          field.decimal_places)
    if isinstance(field, models.CharField | models.IntegerField | models.BooleanField
                  | models.ForeignKey):
        return lambda value: value
    return lambda value: field.get_db_prep_save(value, database)

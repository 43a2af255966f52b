"""The stored summary of each member's invoices (decision 0820): what the status needs, kept
up to date by every service that issues, cancels or pays an invoice, so that reading a
status never reads the invoices."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from federation import selectors
from federation.models import DuesInvoice, Member
from federation.rules import dues
from federation.signals import members_changed

#: members refreshed per batch (two queries and one UPDATE each)
BATCH = 2000


def members_covered_by(invoice_ids: Iterable[int]) -> set[int]:
    """The members whose status the invoices count for: payers and covered members."""
    ids = list(invoice_ids)
    payers = DuesInvoice.objects.filter(pk__in=ids, member__isnull=False).values_list(
        "member_id", flat=True)
    covered = DuesInvoice.covered_members.through.objects.filter(
        duesinvoice_id__in=ids).values_list("member_id", flat=True)
    return set(payers) | set(covered)


def member_coverage_refresh(*, member_ids: Iterable[int]) -> int:
    """Recompute the stored coverage of these members from their invoices; returns how many
    changed. Apps that follow membership hear of the changed ones after the commit."""
    ids = sorted(set(member_ids))
    changed: list[int] = []
    for start in range(0, len(ids), BATCH):
        chunk = ids[start:start + BATCH]
        periods = selectors.invoice_periods_by_member(chunk)
        members = Member.objects.filter(pk__in=chunk).only(
            "pk", "paid_from", "paid_through", "open_until")
        dirty = []
        for member in members:
            new = dues.coverage(paid_periods=periods.paid.get(member.pk, []),
                                open_periods=periods.open.get(member.pk, []))
            old = dues.Coverage(member.paid_from, member.paid_through, member.open_until)
            if new != old:
                member.paid_from, member.paid_through = new.paid_from, new.paid_through
                member.open_until = new.open_until
                dirty.append(member)
        Member.objects.bulk_update(dirty, ["paid_from", "paid_through", "open_until"])
        changed.extend(m.pk for m in dirty)
    if changed:
        members_changed_later(changed)
    return len(changed)


def members_changed_later(member_ids: list[int]) -> None:
    """Tell the apps that follow membership once the transaction has committed."""
    transaction.on_commit(
        lambda: members_changed.send(sender=Member, member_ids=list(member_ids)))


def invoices_coverage_refresh(*, invoice_ids: Iterable[int]) -> int:
    return member_coverage_refresh(member_ids=members_covered_by(invoice_ids))


def all_members_coverage_refresh() -> int:
    """Every member (after a membership year's dates change; ``manage.py
    membership_coverage_refresh``)."""
    return member_coverage_refresh(member_ids=Member.objects.values_list("pk", flat=True))

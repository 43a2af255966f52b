"""Membership pages. Thin: check permission, call one service or selector, render."""

from __future__ import annotations

import csv
import io

import segno
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from federation import bank_import, receipts, selectors, services
from federation.forms import BankImportForm, ContactForm, ErasureForm, MembershipApplicationForm
from federation.models import Club, DuesInvoice, Member, Payment
from federation.payment_providers import get_providers

STATUS_LABELS = {
    "active": gettext_lazy("Active"),
    "grace": gettext_lazy("Grace period"),
    "lapsed": gettext_lazy("Lapsed"),
}
INVOICE_STATE_LABELS = {
    "unpaid": gettext_lazy("Unpaid"),
    "partial": gettext_lazy("Partly paid"),
    "paid": gettext_lazy("Paid"),
    "overpaid": gettext_lazy("Overpaid"),
}
IMPORT_ERRORS = {
    bank_import.E_EMPTY: gettext_lazy("The file is empty."),
    bank_import.E_NOT_TEXT: gettext_lazy("The file is not UTF-8 text."),
    bank_import.E_MISSING_COLUMNS: gettext_lazy("Missing columns: %(detail)s."),
    bank_import.E_BAD_DATE: gettext_lazy("Invalid date “%(detail)s” (use YYYY-MM-DD)."),
    bank_import.E_BAD_AMOUNT: gettext_lazy("Invalid amount “%(detail)s”."),
    bank_import.E_NOT_POSITIVE: gettext_lazy("The amount “%(detail)s” is not positive."),
    bank_import.E_MISSING_TRANSACTION_ID: gettext_lazy("The transaction id is missing."),
    bank_import.E_DUPLICATE_IN_FILE: gettext_lazy("Transaction %(detail)s appears twice."),
    bank_import.E_WRONG_COLUMN_COUNT: gettext_lazy(
        "Wrong number of columns (%(detail)s) for the header."
    ),
}


def _member_or_redirect(request):
    member = selectors.member_for_user(request.user)
    if member is None or member.anonymised_at:
        return None
    return member


def _can_view_invoice(user, invoice: DuesInvoice) -> bool:
    if user.has_perm("federation.view_duesinvoice"):
        return True
    member = selectors.member_for_user(user)
    return member is not None and (
        invoice.member_id == member.pk or invoice.covered_members.filter(pk=member.pk).exists()
    )


@login_required
@require_http_methods(["GET", "POST"])
def apply(request):
    if selectors.member_for_user(request.user):
        return redirect("membership:me")
    form = MembershipApplicationForm(
        request.POST or None,
        initial={"email": request.user.email, "language": request.user.language},
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.member_apply(user=request.user, **form.cleaned_data)
        except services.MembershipError:
            messages.error(request, _("You have already applied."))
        else:
            messages.success(request, _("Thank you: your application has been received."))
        return redirect("membership:me")
    return render(request, "federation/apply.html", {"form": form})


@login_required
def me(request):
    member = _member_or_redirect(request)
    if member is None:
        return redirect("membership:apply")
    invoices = [
        (invoice, selectors.invoice_balance(invoice))
        for invoice in selectors.member_invoices(member)
    ]
    status = selectors.member_status(member)
    return render(
        request,
        "federation/me.html",
        {
            "member": member,
            "status": status.value,
            "status_label": STATUS_LABELS[status.value],
            "covered_until": selectors.member_covered_until(member),
            "invoices": invoices,
            "state_labels": INVOICE_STATE_LABELS,
            "payments": selectors.member_payments(member),
            "club_history": member.club_history.select_related("club"),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def edit(request):
    member = _member_or_redirect(request)
    if member is None:
        raise PermissionDenied
    form = ContactForm(request.POST or None, instance=Member.objects.get(pk=member.pk))
    if request.method == "POST" and form.is_valid():
        services.member_update_contact(
            member=member, changed_by=request.user, **{f: form.cleaned_data[f] for f in form.fields}
        )
        messages.success(request, _("Your contact data has been saved."))
        return redirect("membership:me")
    return render(request, "federation/edit.html", {"form": form, "member": member})


@login_required
def export(request):
    member = _member_or_redirect(request)
    if member is None:
        raise PermissionDenied
    response = JsonResponse(
        selectors.member_export(member), json_dumps_params={"ensure_ascii": False, "indent": 2}
    )
    response["Content-Disposition"] = 'attachment; filename="my-membership-data.json"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def erase(request):
    member = _member_or_redirect(request)
    if member is None:
        raise PermissionDenied
    form = ErasureForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        services.member_erase(member=member, requested_by=request.user)
        logout(request)
        messages.success(request, _("Your personal data has been erased."))
        return redirect("/")
    return render(request, "federation/erase.html", {"form": form, "member": member})


@login_required
def card(request):
    member = _member_or_redirect(request)
    if member is None or not member.membership_number:
        raise PermissionDenied
    url = request.build_absolute_uri(reverse("membership:check", args=[member.public_id]))
    qr = segno.make(url, error="m").svg_inline(scale=5, title=_("Membership check"))
    status = selectors.member_status(member)
    return render(
        request,
        "federation/card.html",
        {
            "member": member,
            "qr": qr,
            "check_url": url,
            "status": status.value,
            "status_label": STATUS_LABELS[status.value],
        },
    )


def public_list(request):
    """Public: active members who consented to be listed (name, club, city only)."""
    consenting = selectors.members_public_list().order_by("name_latin", "pk")
    active = selectors.members_with_status("active", consenting)
    return render(request, "federation/public_list.html", {"members": active})


def check(request, public_id):
    """Public: only name, number and whether the membership is active."""
    member = get_object_or_404(
        Member, public_id=public_id, anonymised_at__isnull=True, membership_number__isnull=False
    )
    status = selectors.member_status(member)
    return render(
        request,
        "federation/check.html",
        {
            "name": str(member),
            "number": member.display_number,
            "is_active": status.value == "active",
            "status_label": STATUS_LABELS[status.value],
        },
    )


@login_required
def invoice_detail(request, number):
    invoice = get_object_or_404(
        DuesInvoice.objects.select_related("membership_year", "membership_type"), number=number
    )
    if not _can_view_invoice(request.user, invoice):
        raise PermissionDenied
    balance = selectors.invoice_balance(invoice)
    return render(
        request,
        "federation/invoice.html",
        {
            "invoice": invoice,
            "balance": balance,
            "state_label": INVOICE_STATE_LABELS[balance.state.value],
            "covered": invoice.covered_members.all(),
            "payments": invoice.payments.all(),
            "instructions": [p.instructions(invoice) for p in get_providers()]
            if balance.outstanding
            else [],
        },
    )


@login_required
def receipt_pdf(request, receipt_number):
    payment = get_object_or_404(
        Payment.objects.select_related("invoice__membership_year"), receipt_number=receipt_number
    )
    if not _can_view_invoice(request.user, payment.invoice):
        raise PermissionDenied
    response = HttpResponse(receipts.receipt_pdf(payment), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="receipt-{payment.receipt_number}.pdf"'
    return response


def _club_for(request, pk) -> Club:
    club = get_object_or_404(Club, pk=pk)
    if not request.user.is_authenticated:
        raise PermissionDenied
    if not selectors.clubs_managed_by(request.user).filter(pk=club.pk).exists():
        raise PermissionDenied
    return club


@login_required
def club_members(request, pk):
    club = _club_for(request, pk)
    members = selectors.members_visible_to(request.user).filter(club=club, anonymised_at=None)
    statuses = selectors.member_statuses(members)
    rows = [(m, STATUS_LABELS[statuses[m.pk].value]) for m in members]
    return render(request, "federation/club_members.html", {"club": club, "rows": rows})


@login_required
def club_members_csv(request, pk):
    club = _club_for(request, pk)
    members = selectors.members_visible_to(request.user).filter(club=club, anonymised_at=None)
    statuses = selectors.member_statuses(members)
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["number", "name_native", "name_latin", "email", "phone", "type", "status"])
    for m in members:
        writer.writerow(
            [
                m.display_number,
                m.name_native,
                m.name_latin,
                m.email,
                m.phone,
                m.membership_type.kind,
                statuses[m.pk].value,
            ]
        )
    response = HttpResponse(buffer.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="club-{club.pk}-members.csv"'
    return response


@login_required
def my_clubs(request):
    clubs = selectors.clubs_managed_by(request.user)
    if not clubs.exists():
        raise PermissionDenied
    return render(request, "federation/my_clubs.html", {"clubs": clubs})


# --- Treasurer (mounted in the Wagtail admin by wagtail_hooks) --------------------------------


def bank_import_view(request):
    if not request.user.has_perm("federation.import_bank_statement"):
        raise PermissionDenied
    form = BankImportForm(request.POST or None, request.FILES or None)
    report = errors = None
    if request.method == "POST" and form.is_valid():
        try:
            report = services.bank_statement_import(
                data=form.cleaned_data["statement"].read(), recorded_by=request.user
            )
        except services.MembershipError as error:
            errors = [
                {"line": e.line, "message": IMPORT_ERRORS[e.code] % {"detail": e.detail}}
                for e in error.detail
            ]
    return render(
        request,
        "federation/admin/bank_import.html",
        {"form": form, "report": report, "errors": errors},
    )


def applications_view(request):
    if not request.user.has_perm("federation.approve_member"):
        raise PermissionDenied
    if request.method == "POST":
        member = get_object_or_404(Member, pk=request.POST.get("member"))
        try:
            if request.POST.get("action") == "approve":
                services.member_approve(member=member, approved_by=request.user)
                messages.success(request, _("Application approved."))
            else:
                services.member_reject(member=member, rejected_by=request.user)
                messages.success(request, _("Application rejected."))
        except services.MembershipError:
            messages.error(request, _("This application is no longer pending."))
        return redirect("membership_applications")
    pending = Member.objects.filter(application=Member.Application.PENDING).select_related(
        "club", "membership_type"
    )
    return render(request, "federation/admin/applications.html", {"pending": pending})

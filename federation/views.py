"""Membership pages. Thin: check permission, call one service or selector, render."""

from __future__ import annotations

from urllib.parse import urlencode

import segno
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_http_methods
from payments import PaymentError, PaymentStatus, RedirectNeeded

from core import csv_export
from core.errors import DomainError, errors_as_messages, errors_collected
from core.site_url import site_absolute_url
from federation import online_payments, selectors, services
from federation.card_pdf import card_pdf as card_pdf_document
from federation.error_texts import error_message
from federation.forms import (
    BankImportForm,
    ContactForm,
    ErasureForm,
    MembershipApplicationForm,
    RejectionForm,
)
from federation.invoice_pdf import invoice_pdf as invoice_pdf_document
from federation.models import (
    Club,
    DuesInvoice,
    Member,
    MembershipFee,
    OnlinePayment,
    OutgoingMail,
    Payment,
)
from federation.payment_providers import get_providers, payment_qr_svg
from federation.receipt_pdf import receipt_pdf as receipt_pdf_document
from federation.status_labels import INVOICE_STATE_LABELS, STATUS_LABELS


def _member_or_redirect(request):
    member = selectors.member_for_user(request.user)
    if member is None or member.anonymised_at:
        return None
    return member


def _can_view_invoice(user, invoice: DuesInvoice) -> bool:
    if user.has_perm("federation.view_duesinvoice"):
        return True
    if invoice.user_id is not None:  # not dues: the account billed
        return invoice.user_id == user.pk
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
        with errors_as_messages(request) as outcome:
            services.member_apply(user=request.user, **form.cleaned_data)
        if outcome.ok:
            messages.success(request, _("Thank you: your application has been received."))
        return redirect("membership:me")
    year = selectors.membership_year_for(selectors.today())
    fees = (
        MembershipFee.objects.filter(membership_year=year, membership_type__is_free=False)
        .select_related("membership_type")
        .order_by("amount")
        if year
        else []
    )
    return render(request, "federation/apply.html", {"form": form, "fees": fees, "year": year})


@login_required
def me(request):
    member = _member_or_redirect(request)
    if member is None:
        return redirect("membership:apply")
    invoices = [
        (invoice, balance, INVOICE_STATE_LABELS[selectors.invoice_state(invoice, balance)])
        for invoice, balance in selectors.invoices_with_balances(selectors.member_invoices(member))
    ]
    status = selectors.member_status(member)
    to_pay = next(
        (i for i, balance, _label in invoices if balance.outstanding and not i.cancelled), None
    )
    return render(
        request,
        "federation/me.html",
        {
            "member": member,
            "status": status.value,
            "status_label": STATUS_LABELS[status.value],
            "covered_until": selectors.member_covered_until(member),
            "invoices": invoices,
            "to_pay": to_pay,
            "payments": selectors.member_payments(member),
            "club_history": member.club_history.select_related("club"),
            "manages_clubs": selectors.clubs_managed_by(request.user).exists(),
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


def _card_context(request) -> dict:
    member = _member_or_redirect(request)
    if member is None or not member.membership_number:
        raise PermissionDenied
    url = site_absolute_url(reverse("membership:check", args=[member.public_id]), request)
    status = selectors.member_status(member)
    return {
        "member": member,
        "check_url": url,
        "status": status.value,
        "status_label": STATUS_LABELS[status.value],
        "valid_until": selectors.member_covered_until(member),
    }


@login_required
def card(request):
    """The member's card: number, names, club, valid until and the QR of the public check."""
    context = _card_context(request)
    context["qr"] = segno.make(context["check_url"], error="m").svg_inline(
        scale=5, title=_("Membership check")
    )
    return render(request, "federation/card.html", context)


@login_required
def card_pdf(request):
    """The same card as a PDF the size of a bank card, to print or keep on a phone."""
    context = _card_context(request)
    pdf = card_pdf_document(
        context["member"], check_url=context["check_url"], valid_until=context["valid_until"],
        status_label=str(context["status_label"]),
    )
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = (
        f'attachment; filename="membership-card-{context["member"].display_number}.pdf"'
    )
    return response


#: members a page of the public list shows
PUBLIC_LIST_PAGE_SIZE = 100


def public_list(request):
    """Public: active members who consented to be listed (name, club, city only), in pages
    of PUBLIC_LIST_PAGE_SIZE, searchable by name, club or city (``?q=``)."""
    query = request.GET.get("q", "").strip()[:100]
    consenting = selectors.members_public_list().order_by("name_latin", "pk")
    active = selectors.members_with_status("active", consenting)
    if query:
        active = selectors.members_matching(active, query)
    page = Paginator(active.only("name_latin", "name_native", "city", "anonymised_at",
                                 "club__name"), PUBLIC_LIST_PAGE_SIZE).get_page(
        request.GET.get("page"))
    return render(request, "federation/public_list.html", {
        "members": page.object_list, "page": page, "query": query,
        "querystring": urlencode({"q": query}) if query else "",
    })


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
    payable = bool(balance.outstanding) and not invoice.cancelled
    return render(
        request,
        "federation/invoice.html",
        {
            "invoice": invoice,
            "balance": balance,
            "state": selectors.invoice_state(invoice, balance),
            "state_label": INVOICE_STATE_LABELS[selectors.invoice_state(invoice, balance)],
            "covered": invoice.covered_members.all(),
            "payments": invoice.payments.all(),
            "instructions": (
                [p.instructions(invoice) for p in get_providers(invoice)] if payable else []
            ),
            "payment_qr": payment_qr_svg(invoice, balance.outstanding) if payable else "",
        },
    )


@login_required
@require_http_methods(["POST"])
def online_payment_start(request, number):
    """The member's "Pay by card" button: a payment attempt, then the provider's page."""
    invoice = get_object_or_404(DuesInvoice, number=number)
    if not _can_view_invoice(request.user, invoice):
        raise PermissionDenied
    with errors_as_messages(request) as outcome:
        online = online_payments.online_payment_start(
            invoice=invoice, language=translation.get_language(), email=request.user.email
        )
    if not outcome.ok:
        return redirect("membership:invoice", number=invoice.number)
    return redirect("membership:online_payment", token=online.token)


def _online_payment_for(request, token) -> OnlinePayment:
    online = get_object_or_404(OnlinePayment.objects.select_related("invoice"), token=token)
    if not _can_view_invoice(request.user, online.invoice):
        raise PermissionDenied
    return online


@login_required
@require_http_methods(["GET", "POST"])
def online_payment(request, token):
    """The provider's form (the dummy's confirm/reject form) or a redirect to its checkout."""
    online = _online_payment_for(request, token)
    try:
        form = online.get_form(data=request.POST or None)
    except RedirectNeeded as to:
        return redirect(str(to))
    except PaymentError as error:
        messages.error(request, _("The payment could not be started: %(error)s") % {"error": error})
        return redirect("membership:invoice", number=online.invoice.number)
    if online.variant == "dummy":
        _test_form_in_language(form)
    return render(request, "federation/online_payment.html", {"form": form, "online": online})


def _test_form_in_language(form) -> None:
    """The test provider's form speaks the page's language: django-payments labels its
    fields by their English names and translates few of its choices."""
    outcomes = [
        ("confirmed", pgettext("test payment", "Paid (confirmed)")),
        ("rejected", pgettext("test payment", "Rejected by the bank")),
        ("waiting", pgettext("test payment", "Waiting for confirmation")),
        ("preauth", pgettext("test payment", "Pre-authorised")),
        ("error", pgettext("test payment", "Error")),
        ("input", pgettext("test payment", "Waiting for the payer's input")),
        ("cancelled", pgettext("test payment", "Cancelled")),
        ("refunded", pgettext("test payment", "Refunded")),
    ]
    labels = {
        "status": (pgettext("test payment", "Outcome"), outcomes),
        "fraud_status": (pgettext("test payment", "Fraud check"), [
            ("accept", pgettext("test payment", "Passed")),
            ("reject", pgettext("test payment", "Failed")),
            ("review", pgettext("test payment", "To be reviewed")),
            ("unknown", pgettext("test payment", "Unknown")),
        ]),
        "gateway_response": (pgettext("test payment", "Answer of the payment service"), [
            ("3ds-disabled", pgettext("test payment", "Paid without card verification")),
            ("3ds-redirect", pgettext("test payment", "Card verification (3-D Secure) first")),
            ("failure", pgettext("test payment", "No connection to the payment service")),
            ("payment-error", pgettext("test payment", "An answer the site does not understand")),
        ]),
        "verification_result": (pgettext("test payment", "Result of the card verification"),
                                [("", "—"), *outcomes]),
    }
    for name, (label, choices) in labels.items():
        field = form.fields.get(name)
        if field is not None:
            field.label = label
            field.choices = choices


@login_required
def online_payment_return(request, token):
    """Where the provider sends the member back: the outcome, then the invoice."""
    online = _online_payment_for(request, token)
    online_payments.online_payment_sync(online)
    if online.status == PaymentStatus.CONFIRMED:
        messages.success(request, _("Thank you: your payment has been received."))
    elif online.status in (PaymentStatus.REJECTED, PaymentStatus.ERROR):
        messages.error(request, _("The payment was not completed. Nothing has been charged."))
    else:
        messages.info(request, _("Your payment is being processed."))
    return redirect("membership:invoice", number=online.invoice.number)


@login_required
def invoice_pdf(request, number):
    invoice = get_object_or_404(
        DuesInvoice.objects.select_related("membership_year"), number=number
    )
    if not _can_view_invoice(request.user, invoice):
        raise PermissionDenied
    response = HttpResponse(invoice_pdf_document(invoice), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="invoice-{invoice.number}.pdf"'
    return response


@login_required
def receipt_pdf(request, receipt_number):
    payment = get_object_or_404(
        Payment.objects.select_related("invoice__membership_year"), receipt_number=receipt_number
    )
    if not _can_view_invoice(request.user, payment.invoice):
        raise PermissionDenied
    response = HttpResponse(receipt_pdf_document(payment), content_type="application/pdf")
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
    rows = [(m, STATUS_LABELS[statuses[m.pk]]) for m in members]
    return render(request, "federation/club_members.html", {"club": club, "rows": rows})


@login_required
def club_members_csv(request, pk):
    club = _club_for(request, pk)
    members = selectors.members_visible_to(request.user).filter(club=club, anonymised_at=None)
    statuses = selectors.member_statuses(members)
    rows = [
        [
            m.display_number,
            m.name_native,
            m.name_latin,
            m.email,
            m.phone,
            m.membership_type.kind,
            statuses[m.pk].value,
        ]
        for m in members
    ]
    header = ["number", "name_native", "name_latin", "email", "phone", "type", "status"]
    return csv_export.csv_response(f"club-{club.pk}-members.csv", header, rows)


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
        problems: list[dict] = []
        with errors_collected(problems, describe=_bank_statement_problems):
            report = services.bank_statement_import(
                data=form.cleaned_data["statement"].read(), recorded_by=request.user
            )
        errors = problems or None
    return render(
        request,
        "federation/admin/bank_import.html",
        {"form": form, "report": report, "errors": errors},
    )


def _bank_statement_problems(error: DomainError) -> list[dict]:
    """A statement that cannot be read names each line; another refusal has no line."""
    if error.code == services.E_BAD_FILE:
        return [{"line": e.line, "message": error_message(e.code, e.detail)}
                for e in error.detail]
    return [{"line": None, "message": error.message}]


def _pending_application(pk: str) -> Member:
    if not str(pk).isdigit():
        raise Http404
    return get_object_or_404(
        Member.objects.select_related("club", "membership_type", "user"), pk=pk
    )


def applications_view(request):
    if not request.user.has_perm("federation.approve_member"):
        raise PermissionDenied
    pending = Member.objects.filter(application=Member.Application.PENDING).select_related(
        "club", "membership_type", "user"
    )
    return render(request, "federation/admin/applications.html", {"pending": pending})


OUTBOX_SHOWN = 200


def outbox_view(request):
    """Transactional mails the mail server refused: waiting to be sent again, given up,
    and sent on a later attempt (kept 30 days). Recipient, subject, attempts, last error."""
    if not request.user.has_perm("federation.view_outgoingmail"):
        raise PermissionDenied
    rows = OutgoingMail.objects.defer("message").order_by("-pk")[:OUTBOX_SHOWN]
    return render(request, "federation/admin/outbox.html", {
        "rows": rows, "shown": OUTBOX_SHOWN,
        "waiting": OutgoingMail.objects.filter(state=OutgoingMail.State.PENDING).count(),
    })


@require_http_methods(["GET", "POST"])
def application_view(request, pk, action=None):
    """One application with the applicant's details; approve and reject are separate
    buttons posting to their own URLs."""
    if not request.user.has_perm("federation.approve_member"):
        raise PermissionDenied
    member = _pending_application(pk)
    if action == "reject":
        return _application_reject(request, member)
    if request.method == "POST" and action == "approve":
        with errors_as_messages(request):
            services.member_approve(member=member, approved_by=request.user)
            messages.success(request, _("Application approved."))
        return redirect("membership_applications")
    return render(request, "federation/admin/application.html", {"member": member})


def _application_reject(request, member):
    """Rejecting asks for the reason (mailed to the applicant in their language) and a
    confirmation; GET shows the form, nothing is decided without a POST with a reason."""
    form = RejectionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        with errors_as_messages(request) as outcome:
            services.member_reject(member=member, rejected_by=request.user,
                                   reason=form.cleaned_data["reason"])
        if outcome.ok:
            messages.success(request, _("Application rejected; the applicant has been told why."))
        return redirect("membership_applications")
    return render(request, "federation/admin/application_reject.html",
                  {"member": member, "form": form})

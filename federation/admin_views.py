"""Treasurer screens mounted in the Wagtail admin (wagtail_hooks): issue a year's invoices
with a preview, reverse a mistaken payment. Thin: permission, form, one service."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods

from core.errors import errors_on_form
from federation import online_payments, selectors, services
from federation.error_texts import error_message
from federation.models import MembershipYear, Payment


class IssueInvoicesForm(forms.Form):
    membership_year = forms.ModelChoiceField(
        label=gettext_lazy("Membership year"), queryset=MembershipYear.objects.all()
    )


@require_http_methods(["GET", "POST"])
def issue_invoices_view(request):
    """GET with a year: the preview (who gets what, who cannot and why); POST: issue them."""
    if not request.user.has_perm("federation.add_duesinvoice"):
        raise PermissionDenied
    data = request.POST if request.method == "POST" else (request.GET or None)
    form = IssueInvoicesForm(data)
    preview = []
    if form.is_valid():
        year = form.cleaned_data["membership_year"]
        if request.method == "POST":
            issued = services.dues_invoices_issue_for_year(
                membership_year=year, issued_by=request.user
            )
            messages.success(
                request,
                ngettext(
                    "%(count)d invoice issued for %(year)s.",
                    "%(count)d invoices issued for %(year)s.",
                    len(issued),
                )
                % {"count": len(issued), "year": year.year},
            )
            return redirect("invoices:index")
        preview = [
            {
                "member": line.member,
                "amount": line.amount,
                "currency": year.currency,
                "error": error_message(line.error) if line.error else "",
            }
            for line in selectors.dues_invoices_preview(membership_year=year)
        ]
    elif not data:
        current = selectors.membership_year_for(selectors.today())
        form = IssueInvoicesForm(initial={"membership_year": current})
    return render(
        request,
        "federation/admin/issue_invoices.html",
        {
            "form": form,
            "preview": preview,
            "issuable": sum(1 for line in preview if not line["error"]),
            "bank_details_missing": selectors.bank_details_missing(),
            "rouble_bank_details_missing": selectors.rouble_bank_details_missing(),
        },
    )


class ReverseForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Reason"),
        max_length=300,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=gettext_lazy("Kept with the payment and in the audit log."),
    )


class RefundForm(ReverseForm):
    refund = forms.BooleanField(
        label=gettext_lazy("Give the money back to the payer through the payment service"),
        required=False,
        initial=True,
        help_text=gettext_lazy("Unticked: the payment is only reversed here (money already "
                               "given back another way)."),
    )


@require_http_methods(["GET", "POST"])
def payment_reverse_view(request, pk):
    if not request.user.has_perm("federation.reverse_payment"):
        raise PermissionDenied
    if not str(pk).isdigit():
        raise Http404
    payment = get_object_or_404(Payment.objects.select_related("invoice"), pk=pk)
    refundable = online_payments.online_payment_refundable(payment)
    form = (RefundForm if refundable else ReverseForm)(request.POST or None)
    if request.method == "POST" and form.is_valid():
        with errors_on_form(form, None) as outcome:
            if refundable and form.cleaned_data["refund"]:
                online_payments.online_payment_refund(
                    payment=payment, refunded_by=request.user,
                    reason=form.cleaned_data["reason"])
            else:
                services.payment_reverse(
                    payment=payment, reversed_by=request.user,
                    reason=form.cleaned_data["reason"])
        if outcome.ok:
            messages.success(
                request, _("Payment %(receipt)s reversed.") % {"receipt": payment.receipt_number}
            )
            return redirect("payments:index")
    return render(
        request, "federation/admin/payment_reverse.html", {"form": form, "payment": payment}
    )

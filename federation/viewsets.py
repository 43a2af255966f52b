"""Wagtail admin viewsets for membership (grouped under "Membership" by wagtail_hooks)."""

from __future__ import annotations

import django_filters
from django import forms
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from wagtail.admin.filters import WagtailFilterSet
from wagtail.admin.forms import WagtailAdminModelForm
from wagtail.admin.ui.tables import Column
from wagtail.admin.views import generic
from wagtail.admin.viewsets.base import ViewSetGroup
from wagtail.admin.viewsets.model import ModelViewSet

from core.csv_export import SafeCsvExportMixin
from core.errors import DomainError, errors_on_form
from federation import selectors, services
from federation.models import (
    Club,
    DuesInvoice,
    Member,
    MembershipFee,
    MembershipType,
    MembershipYear,
    MoneyFormField,
    Payment,
)
from federation.services.coverage import all_members_coverage_refresh, members_changed_later
from federation.status_labels import INVOICE_STATE_LABELS, STATUS_CHOICES, STATUS_LABELS
from federation.widgets import SearchableSelectMultiple


class MemberFilterSet(WagtailFilterSet):
    status = django_filters.ChoiceFilter(
        label=_("Status"), choices=STATUS_CHOICES, method="filter_status"
    )
    year = django_filters.ModelChoiceFilter(
        label=_("Invoiced for year"),
        queryset=MembershipYear.objects.all(),
        field_name="covering_invoices__membership_year",
        distinct=True,
    )

    class Meta:
        model = Member
        fields = ["club", "membership_type", "application"]

    def filter_status(self, queryset, name, value):
        return selectors.members_with_status(value, queryset)


class StatusColumn(Column):
    """Reads the status the index view computed for the whole page (no query per row)."""

    def get_value(self, instance):
        return STATUS_LABELS[instance.computed_status]


class SafeIndexView(SafeCsvExportMixin, generic.IndexView):
    """Index view whose CSV export neutralises formulas."""


def _with_statuses(members):
    members = list(members)
    statuses = selectors.member_statuses(members)
    for member in members:
        member.computed_status = statuses[member.pk]
    return members


class MemberIndexView(SafeCsvExportMixin, generic.IndexView):
    """A fixed number of queries whatever the number of members: related rows are joined,
    statuses computed for the page at once."""

    def get_base_queryset(self):
        return super().get_base_queryset().select_related("club", "membership_type")

    def get_table(self, object_list):
        return super().get_table(_with_statuses(object_list))

    def as_spreadsheet(self, queryset, spreadsheet_format):
        self.export_statuses = selectors.member_statuses(queryset)
        return super().as_spreadsheet(queryset, spreadsheet_format)

    def to_row_dict(self, item):
        item.computed_status = self.export_statuses[item.pk]
        row = super().to_row_dict(item)
        row["computed_status"] = item.computed_status.value
        return row


class MemberEditView(generic.EditView):
    def save_instance(self):
        # A club change goes through the service so that the history is kept.
        new_club = self.form.cleaned_data.get("club")
        instance = self.form.save(commit=False)
        old_club_id = Member.objects.filter(pk=instance.pk).values_list("club_id", flat=True)[0]
        instance.club_id = old_club_id
        instance.save()
        self.form.save_m2m()
        if (new_club.pk if new_club else None) != old_club_id:
            services.member_change_club(
                member=instance, club=new_club, changed_by=self.request.user
            )
        instance.refresh_from_db()
        # the type (honorary), consent or club may change who the club ranking counts
        members_changed_later([instance.pk])
        return instance


class MemberViewSet(ModelViewSet):
    model = Member
    icon = "user"
    menu_label = _("Members")
    add_to_admin_menu = False
    copy_view_enabled = False
    inspect_view_enabled = True
    index_view_class = MemberIndexView
    edit_view_class = MemberEditView
    list_display = [
        "display_number",
        "name_latin",
        "name_native",
        "club",
        "membership_type",
        "application",
        StatusColumn("status", label=_("Status")),
    ]
    filterset_class = MemberFilterSet
    search_fields = ["name_latin", "name_native", "email"]
    list_export = [
        "membership_number",
        "name_native",
        "name_latin",
        "email",
        "phone",
        "city",
        "country",
        "club",
        "membership_type",
        "application",
        "joined_on",
        "computed_status",
    ]
    export_headings = {"computed_status": _("Status")}
    export_filename = "members"
    form_fields = [
        "name_native",
        "name_latin",
        "date_of_birth",
        "country",
        "city",
        "club",
        "email",
        "phone",
        "address",
        "language",
        "public_consent",
        "membership_type",
        "family_head",
    ]


class InvoiceChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj):
        return f"{obj.number} · {obj.billed_name} · {obj.amount} {obj.currency}"


class PaymentForm(forms.ModelForm):
    invoice = InvoiceChoiceField(
        label=_("Invoice"),
        queryset=DuesInvoice.objects.filter(cancelled=False).order_by("-number"),
        help_text=_("Invoice number · billed to · amount. Cancelled invoices are not offered."),
    )
    amount = MoneyFormField(label=_("Amount"), max_digits=10, decimal_places=2)
    paid_on = forms.DateField(label=_("Paid on"), widget=forms.DateInput(attrs={"type": "date"}))
    confirm_overpayment = forms.BooleanField(
        label=_("Yes, record it although it is more than the invoice"), required=False
    )
    confirm_duplicate = forms.BooleanField(
        label=_("Yes, this is a second payment of the same amount on the same day"),
        required=False,
    )

    class Meta:
        model = Payment
        fields = ["invoice", "amount", "paid_on", "method", "reference", "transaction_id"]

    def __init__(self, *args, for_user=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["paid_on"].initial = selectors.today()
        # imported payments come from a members import only (decision 0316)
        self.fields["method"].choices = [
            choice for choice in self.fields["method"].choices
            if choice[0] != Payment.Method.IMPORTED
        ]


class PaymentCreateView(generic.CreateView):
    def form_valid(self, form):
        self.form = form
        with errors_on_form(form, self.error_field) as outcome:
            self.object = services.payment_record(
                recorded_by=self.request.user, **form.cleaned_data
            )
        if outcome.error is not None:
            self.produced_error_message = outcome.error.message
            return self.form_invalid(form)
        return self.save_action()

    @staticmethod
    def error_field(error: DomainError) -> str | None:
        """The field of the form that a refusal of the payment concerns."""
        return {
            services.E_OVERPAYMENT: "confirm_overpayment",
            services.E_POSSIBLE_DUPLICATE: "confirm_duplicate",
            services.E_PAYMENT_IN_FUTURE: "paid_on",
            services.E_DUPLICATE_TRANSACTION: "transaction_id",
        }.get(error.code)


class ReversedColumn(Column):
    """ "Reversed", or a link to reverse the payment (with a reason)."""

    def get_value(self, instance):
        if instance.reversed_at:
            return _("Reversed")
        url = reverse("membership_payment_reverse", args=[instance.pk])
        return format_html(
            '<a class="button button-small button-secondary" href="{}">{}</a>', url, _("Reverse")
        )


class PaymentViewSet(ModelViewSet):
    model = Payment
    icon = "success"
    menu_label = _("Payments")
    add_view_class = PaymentCreateView
    copy_view_enabled = False
    inspect_view_enabled = True
    list_display = [
        "receipt_number",
        "invoice",
        "amount",
        "paid_on",
        "method",
        "transaction_id",
        ReversedColumn("reversed_at", label=_("Reversed")),
    ]
    list_filter = ["method", "invoice__membership_year"]
    search_fields = ["receipt_number", "reference", "transaction_id"]
    list_export = [
        "receipt_number",
        "invoice",
        "amount",
        "paid_on",
        "method",
        "reference",
        "transaction_id",
        "recorded_by",
        "reversed_at",
        "reversal_reason",
    ]
    export_filename = "payments"
    form_fields = ["invoice", "amount", "paid_on", "method", "reference", "transaction_id"]
    inspect_view_fields = [
        "receipt_number",
        "invoice",
        "amount",
        "paid_on",
        "method",
        "reference",
        "transaction_id",
        "recorded_by",
        "recorded_at",
        "reversed_at",
        "reversed_by",
        "reversal_reason",
    ]
    index_view_class = SafeIndexView

    def get_form_class(self, for_update=False):
        return PaymentForm


class InvoiceStateColumn(Column):
    def get_value(self, instance):
        return INVOICE_STATE_LABELS[instance.computed_state]


class BilledNameColumn(Column):
    """The name billed, kept after an erasure for bookkeeping (decision 0303), marked so
    that nobody takes it for a member to contact."""

    def get_value(self, instance):
        if instance.member_id and instance.member.anonymised_at:
            return _("%(name)s (member's data erased; kept for the accounts)") % {
                "name": instance.billed_name
            }
        return instance.billed_name


class InvoiceOutstandingColumn(Column):
    def get_value(self, instance):
        return f"{instance.computed_balance.outstanding} {instance.currency}"


def _with_balances(invoices):
    rows = selectors.invoices_with_balances(invoices)
    for invoice, balance in rows:
        invoice.computed_balance = balance
        invoice.computed_state = selectors.invoice_state(invoice, balance)
    return [invoice for invoice, _balance in rows]


class DuesInvoiceFilterSet(WagtailFilterSet):
    state = django_filters.ChoiceFilter(
        label=_("State"),
        choices=[(code, label) for code, label in INVOICE_STATE_LABELS.items()],
        method="filter_state",
    )

    class Meta:
        model = DuesInvoice
        fields = ["membership_year", "membership_type", "prorated"]

    def filter_state(self, queryset, name, value):
        if value == "cancelled":
            return queryset.filter(cancelled=True)
        rows = selectors.invoices_with_balances(queryset.filter(cancelled=False))
        return queryset.filter(pk__in=[i.pk for i, b in rows if b.state.value == value])


class DuesInvoiceIndexView(SafeCsvExportMixin, generic.IndexView):
    template_name = "federation/admin/invoice_index.html"
    add_item_label = _("Issue the year's invoices")

    def get_base_queryset(self):
        return super().get_base_queryset().select_related(
            "membership_year", "membership_type", "member"
        )

    def get_table(self, object_list):
        return super().get_table(_with_balances(object_list))

    def get_context_data(self, *args, **kwargs):
        context = super().get_context_data(*args, **kwargs)
        rows = selectors.invoices_with_balances(
            self.get_queryset().filter(cancelled=False).order_by()
        )
        totals: dict[str, object] = {}
        for invoice, balance in rows:
            totals[invoice.currency] = totals.get(invoice.currency, 0) + balance.outstanding
        context["outstanding_totals"] = sorted(totals.items())
        context["refunds_due"] = selectors.refunds_due()
        context["bank_details_missing"] = selectors.bank_details_missing()
        context["rouble_bank_details_missing"] = selectors.rouble_bank_details_missing()
        return context


class DuesInvoiceEditView(generic.EditView):
    """The only change to an invoice is cancelling it, through the service (an invoice with
    payments is refused with the reason)."""

    def save_instance(self):
        instance = self.form.instance
        if (
            self.form.cleaned_data.get("cancelled")
            and not DuesInvoice.objects.get(pk=instance.pk).cancelled
        ):
            return services.dues_invoice_cancel(invoice=instance, cancelled_by=self.request.user)
        return DuesInvoice.objects.get(pk=instance.pk)

    def form_valid(self, form):
        self.form = form
        with errors_on_form(form, "cancelled") as outcome:
            return super().form_valid(form)
        assert outcome.error is not None
        self.produced_error_message = outcome.error.message
        return self.form_invalid(form)


class DuesInvoiceViewSet(ModelViewSet):
    model = DuesInvoice
    icon = "doc-full"
    menu_label = _("Invoices")
    copy_view_enabled = False
    inspect_view_enabled = True
    index_view_class = DuesInvoiceIndexView
    edit_view_class = DuesInvoiceEditView
    filterset_class = DuesInvoiceFilterSet
    list_display = [
        "number",
        BilledNameColumn("billed_name", label=_("billed to")),
        "membership_year",
        "amount",
        InvoiceOutstandingColumn("outstanding", label=_("Outstanding")),
        InvoiceStateColumn("state", label=_("State")),
        "due_on",
    ]
    search_fields = ["number", "billed_name"]
    list_export = [
        "number",
        "billed_name",
        "membership_year",
        "membership_type",
        "amount",
        "currency",
        "issued_on",
        "due_on",
        "cancelled",
    ]
    export_filename = "invoices"
    form_fields = ["cancelled"]

    def get_urlpatterns(self):
        # "Add" is the issue page (preview, then issue the year's invoices by the service).
        from django.urls import path

        from federation import admin_views

        patterns = [p for p in super().get_urlpatterns() if p.name != "add"]
        return [path("new/", admin_views.issue_invoices_view, name="add"), *patterns]


class MembershipYearEditView(generic.EditView):
    def save_instance(self):
        instance = super().save_instance()
        if {"starts_on", "ends_on"} & set(self.form.changed_data):
            all_members_coverage_refresh()  # the members' stored coverage uses these dates
        return instance


class MembershipYearViewSet(ModelViewSet):
    edit_view_class = MembershipYearEditView
    model = MembershipYear
    icon = "date"
    menu_label = _("Membership years")
    list_display = ["year", "starts_on", "ends_on", "currency"]
    form_fields = ["year", "starts_on", "ends_on", "currency"]


class MembershipFeeViewSet(ModelViewSet):
    model = MembershipFee
    icon = "tag"
    menu_label = _("Fees")
    list_display = ["membership_year", "membership_type", "amount"]
    list_filter = ["membership_year", "membership_type"]
    form_fields = ["membership_year", "membership_type", "amount"]


class MembershipTypeViewSet(ModelViewSet):
    model = MembershipType
    icon = "group"
    menu_label = _("Membership types")
    list_display = ["kind", "name", "is_free", "covers_family"]
    form_fields = ["kind", "name", "is_free", "covers_family"]


class OfficerChoiceField(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj):
        name = obj.get_full_name()
        return f"{name} <{obj.email}>" if name else obj.email


class ClubForm(WagtailAdminModelForm):
    officers = OfficerChoiceField(
        label=_("Officers"),
        required=False,
        queryset=get_user_model().objects.filter(is_active=True).order_by("email"),
        widget=SearchableSelectMultiple,
        help_text=_("Club officers see and manage this club's members only."),
    )

    class Meta:
        model = Club
        fields = ["name", "city", "email", "phone", "website", "public_contact", "officers"]


class ClubViewSet(ModelViewSet):
    model = Club
    icon = "home"
    menu_label = _("Clubs")
    list_display = ["name", "city", "email"]
    search_fields = ["name", "city"]
    list_export = ["name", "city", "email", "phone", "website"]
    index_view_class = SafeIndexView
    form_fields = ["name", "city", "email", "phone", "website", "public_contact", "officers"]

    def get_form_class(self, for_update=False):
        return ClubForm


class MembershipViewSetGroup(ViewSetGroup):
    menu_label = _("Membership")
    menu_icon = "group"
    menu_order = 300
    items = (
        MemberViewSet("members"),
        ClubViewSet("clubs"),
        DuesInvoiceViewSet("invoices"),
        PaymentViewSet("payments"),
        MembershipYearViewSet("membership_years"),
        MembershipFeeViewSet("membership_fees"),
        MembershipTypeViewSet("membership_types"),
    )

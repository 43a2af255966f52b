"""Wagtail admin viewsets for membership (grouped under "Membership" by wagtail_hooks)."""

from __future__ import annotations

import django_filters
from django import forms
from django.utils.translation import gettext_lazy as _
from wagtail.admin.filters import WagtailFilterSet
from wagtail.admin.ui.tables import Column
from wagtail.admin.views import generic
from wagtail.admin.viewsets.base import ViewSetGroup
from wagtail.admin.viewsets.model import ModelViewSet

from federation import selectors, services
from federation.models import (
    Club,
    DuesInvoice,
    Member,
    MembershipFee,
    MembershipType,
    MembershipYear,
    Payment,
)

STATUS_CHOICES = [
    ("active", _("Active")),
    ("grace", _("Grace period")),
    ("lapsed", _("Lapsed")),
]


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
    def get_value(self, instance):
        return dict(STATUS_CHOICES)[selectors.member_status(instance).value]


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
        return instance


class MemberViewSet(ModelViewSet):
    model = Member
    icon = "user"
    menu_label = _("Members")
    add_to_admin_menu = False
    copy_view_enabled = False
    inspect_view_enabled = True
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
        "status_code",
    ]
    export_headings = {"status_code": _("Status")}
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


class PaymentForm(forms.ModelForm):
    class Meta:
        model = Payment
        fields = ["invoice", "amount", "paid_on", "method", "reference", "transaction_id"]


class PaymentCreateView(generic.CreateView):
    def form_valid(self, form):
        self.form = form
        try:
            self.object = services.payment_record(
                recorded_by=self.request.user, **form.cleaned_data
            )
        except services.MembershipError as error:
            messages = {
                services.E_DUPLICATE_TRANSACTION: _("This bank transaction is already recorded."),
                services.E_INVOICE_CANCELLED: _("The invoice is cancelled."),
                services.E_AMOUNT_NOT_POSITIVE: _("The amount must be positive."),
            }
            form.add_error(None, messages.get(error.code, error.code))
            return self.form_invalid(form)
        return self.save_action()


class PaymentViewSet(ModelViewSet):
    model = Payment
    icon = "success"
    menu_label = _("Payments")
    add_view_class = PaymentCreateView
    copy_view_enabled = False
    inspect_view_enabled = True
    list_display = ["receipt_number", "invoice", "amount", "paid_on", "method", "transaction_id"]
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
    ]
    export_filename = "payments"
    form_fields = ["invoice", "amount", "paid_on", "method", "reference", "transaction_id"]

    def get_form_class(self, for_update=False):
        return PaymentForm


class DuesInvoiceViewSet(ModelViewSet):
    model = DuesInvoice
    icon = "doc-full"
    menu_label = _("Invoices")
    copy_view_enabled = False
    inspect_view_enabled = True
    list_display = ["number", "billed_name", "membership_year", "membership_type", "amount"]
    list_filter = ["membership_year", "membership_type", "cancelled", "prorated"]
    search_fields = ["number", "billed_name"]
    list_export = [
        "number",
        "billed_name",
        "membership_year",
        "membership_type",
        "amount",
        "currency",
        "issued_on",
        "cancelled",
    ]
    export_filename = "invoices"
    form_fields = ["cancelled"]


class MembershipYearViewSet(ModelViewSet):
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


class ClubViewSet(ModelViewSet):
    model = Club
    icon = "home"
    menu_label = _("Clubs")
    list_display = ["name", "city", "email"]
    search_fields = ["name", "city"]
    list_export = ["name", "city", "email", "phone", "website"]
    form_fields = ["name", "city", "email", "phone", "website", "officers"]


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

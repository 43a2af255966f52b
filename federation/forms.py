"""Membership forms: validation only; views hand cleaned data to federation.services."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from core.countries import country_choices
from federation.models import Club, Member, MembershipType
from federation.rules import dues


class CountrySelectMixin:
    """The member's country as a list in the page's language and alphabet
    (core.countries); a value stored before, that is not a code, stays selectable."""

    def _country_select(self) -> None:
        field = self.fields["country"]  # type: ignore[attr-defined]
        current = (self.initial.get("country") or "").strip()  # type: ignore[attr-defined]
        choices = [("", "—"), *country_choices()]
        if current and current not in {code for code, _name in choices}:
            choices.append((current, current))
        self.fields["country"] = forms.ChoiceField(  # type: ignore[attr-defined]
            label=field.label, required=field.required, choices=choices,
            help_text=field.help_text,
        )


class MembershipApplicationForm(CountrySelectMixin, forms.ModelForm):
    membership_type = forms.ModelChoiceField(
        queryset=MembershipType.objects.filter(is_free=False),
        label=_("Membership type"),
        empty_label=_("— choose —"),
        help_text=_("The dues of each type are listed above."),
    )
    club = forms.ModelChoiceField(queryset=Club.objects.all(), required=False, label=_("Club"))

    class Meta:
        model = Member
        fields = [
            "name_native",
            "name_latin",
            "date_of_birth",
            "country",
            "city",
            "club",
            "membership_type",
            "email",
            "phone",
            "address",
            "language",
            "public_consent",
        ]
        widgets = {
            "date_of_birth": forms.DateInput(attrs={"type": "date"}),
            "address": forms.Textarea(attrs={"rows": 3}),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._country_select()

    def clean(self):
        cleaned = super().clean()
        kind = cleaned.get("membership_type")
        born = cleaned.get("date_of_birth")
        if kind and kind.kind in (MembershipType.Kind.JUNIOR, MembershipType.Kind.SENIOR):
            if not born:
                self.add_error(
                    "date_of_birth", _("Junior and senior memberships need a date of birth.")
                )
            else:
                age = dues.age_on(born_on=born, day=timezone.localdate())
                if (
                    kind.kind == MembershipType.Kind.JUNIOR
                    and age >= settings.MEMBERSHIP_JUNIOR_MAX_AGE
                ):
                    self.add_error("membership_type", _("You are too old for a junior membership."))
                if (
                    kind.kind == MembershipType.Kind.SENIOR
                    and age < settings.MEMBERSHIP_SENIOR_MIN_AGE
                ):
                    self.add_error(
                        "membership_type", _("You are too young for a senior membership.")
                    )
        return cleaned


class ContactForm(CountrySelectMixin, forms.ModelForm):
    class Meta:
        model = Member
        fields = ["email", "phone", "address", "city", "country", "language", "public_consent"]
        widgets = {"address": forms.Textarea(attrs={"rows": 3})}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._country_select()


class ErasureForm(forms.Form):
    confirm = forms.BooleanField(
        label=_(
            "I understand that my name, contact data and birth date will be erased, my account "
            "closed, and that my results stay as an anonymous player and my payments stay in "
            "the accounts as the law requires."
        )
    )


class BankImportForm(forms.Form):
    statement = forms.FileField(
        label=_("Bank statement (CSV or 1C)"),
        help_text=_("CSV columns: date, amount, reference, transaction_id (payer optional). "
                    "Or the 1C exchange file (1CClientBankExchange) a Russian bank exports."),
    )


class RejectionForm(forms.Form):
    """The membership officer's reason for rejecting an application."""

    reason = forms.CharField(
        label=_("Reason"), max_length=2000, widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("The applicant receives it by mail, in their language, as you write it."),
    )

"""The federation's own domain. The account model lives here so that members link to it."""

from __future__ import annotations

import re
import uuid
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.contrib.auth.models import UserManager as AuthUserManager
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.utils.translation import gettext_lazy as _
from payments.models import BasePayment

from core.dates import validate_birth_date, validate_payment_date
from core.tokens import api_tokens_forget_users


class UserQuerySet(models.QuerySet):
    def update(self, **kwargs):  # type: ignore[no-untyped-def]
        """A bulk change of accounts (the admin's bulk actions, ``.update()`` in code) sends
        no save signal: an account deactivated this way must still lose its API access at
        once, so the cached token authentications of the accounts are forgotten (when the
        shared cache cannot hear it, the revocation is written down in the database:
        core.tokens)."""
        if "is_active" not in kwargs:
            return super().update(**kwargs)
        with transaction.atomic(using=self.db):
            user_ids = list(self.values_list("pk", flat=True))
            count = super().update(**kwargs)
            api_tokens_forget_users(user_ids=user_ids, revoking=not kwargs["is_active"])
        return count


class UserManager(AuthUserManager.from_queryset(UserQuerySet)):  # type: ignore[misc]
    def create_superuser(self, username, email=None, password=None, **extra_fields):  # type: ignore[no-untyped-def]
        """A superuser (``manage.py createsuperuser``) whose address is confirmed: the one
        login (allauth's, issue 37, item 1) lets in confirmed addresses only, and whoever
        runs the command on the server vouches for the address (decision 0911)."""
        from allauth.account.models import EmailAddress

        user = super().create_superuser(username, email, password, **extra_fields)
        if user.email:
            EmailAddress.objects.update_or_create(
                user=user, email=user.email, defaults={"verified": True, "primary": True})
        return user


class User(AbstractUser):
    """A login account. Sign-in is by email (django-allauth); the username is internal."""

    email = models.EmailField(_("email address"), unique=True)
    objects = UserManager()
    language = models.CharField(
        _("preferred language"),
        max_length=10,
        choices=settings.LANGUAGES,
        default=settings.LANGUAGE_CODE,
        help_text=_("Emails from the federation are written in this language."),
    )

    class Meta(AbstractUser.Meta):
        swappable = "AUTH_USER_MODEL"
        verbose_name = _("user")
        verbose_name_plural = _("users")

    def __str__(self) -> str:
        return self.get_full_name() or self.email

    def save(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        """In a transaction with its signals: a deactivation and the record of its cached
        API tokens' revocation (core.tokens) are written together."""
        with transaction.atomic(using=kwargs.get("using")):
            super().save(*args, **kwargs)


# --- Membership ------------------------------------------------------------------------------
# Status (active / grace / lapsed) is never stored: federation.rules.dues computes it from the paid
# invoices; federation.selectors feeds it the rows.


MONEY_PATTERN = re.compile(r"^\d{1,8}([.,]\d{1,2})?$")


class MoneyFormField(forms.DecimalField):
    """An amount typed as digits with at most two decimals ("120", "120.50", "120,50"):
    exponents ("1e3"), signs and thousands separators are refused with a clear message."""

    default_error_messages = {
        "money": _("Enter an amount such as 120 or 120.50 (digits, at most two decimals)."),
    }

    def to_python(self, value):  # type: ignore[no-untyped-def]
        if isinstance(value, str):
            value = value.strip()
            if value and not MONEY_PATTERN.match(value):
                raise ValidationError(self.error_messages["money"], code="money")
            value = value.replace(",", ".")
        return super().to_python(value)


class MoneyField(models.DecimalField):
    """Decimal money column (10 digits, 2 decimals) whose form field is MoneyFormField."""

    def formfield(self, **kwargs):  # type: ignore[no-untyped-def]
        return super().formfield(**{"form_class": MoneyFormField, **kwargs})


class HttpsURLField(models.URLField):
    """A URL field whose form treats a bare "example.org" as https (Django 6's default)."""

    def formfield(self, **kwargs):
        return super().formfield(**{"assume_scheme": "https", **kwargs})


class NumberSequence(models.Model):
    """A named counter (membership numbers, invoice numbers per year). Values are never reused:
    services lock the row (select_for_update) and only ever increment it."""

    key = models.CharField(max_length=50, unique=True)
    last_value = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("number sequence")
        verbose_name_plural = _("number sequences")

    def __str__(self) -> str:
        return f"{self.key}: {self.last_value}"


class Club(models.Model):
    name = models.CharField(_("name"), max_length=200, unique=True)
    city = models.CharField(_("city"), max_length=100, blank=True)
    email = models.EmailField(_("email"), blank=True)
    phone = models.CharField(_("phone"), max_length=50, blank=True)
    website = HttpsURLField(_("website"), blank=True)
    public_contact = models.CharField(
        _("public contact"), max_length=300, blank=True,
        help_text=_("Shown on the club's public page: an e-mail address, a phone number or "
                    "a person, as the club chooses. Empty: no contact is shown."),
    )
    officers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="officer_of_clubs",
        verbose_name=_("officers"),
        help_text=_("Club officers see and manage this club's members only."),
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class MembershipType(models.Model):
    class Kind(models.TextChoices):
        REGULAR = "regular", _("Regular")
        JUNIOR = "junior", _("Junior")
        SENIOR = "senior", _("Senior")
        FAMILY = "family", _("Family")
        HONORARY = "honorary", _("Honorary")

    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices, unique=True)
    name = models.CharField(
        _("name"),
        max_length=100,
        blank=True,
        help_text=_("Leave empty to use the translated kind."),
    )
    is_free = models.BooleanField(
        _("free (always active)"), default=False, help_text=_("Honorary membership: no dues.")
    )
    covers_family = models.BooleanField(
        _("covers a family"),
        default=False,
        help_text=_("One invoice covers the head of the family and the members linked to them."),
    )

    class Meta:
        ordering = ["kind"]
        verbose_name = _("membership type")
        verbose_name_plural = _("membership types")

    def __str__(self) -> str:
        return self.name or self.get_kind_display()


def default_currency() -> str:
    return getattr(settings, "MEMBERSHIP_CURRENCY", "EUR")


class MembershipYear(models.Model):
    """A membership period with its fees, edited by the treasurer."""

    year = models.PositiveIntegerField(_("year"), unique=True)
    starts_on = models.DateField(_("starts on"))
    ends_on = models.DateField(_("ends on"))
    currency = models.CharField(_("currency"), max_length=3, default=default_currency)

    class Meta:
        ordering = ["-year"]
        verbose_name = _("membership year")
        verbose_name_plural = _("membership years")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_on__gt=models.F("starts_on")),
                name="membership_year_ends_after_start",
                violation_error_message=_("The year must end after it starts."),
            )
        ]

    def __str__(self) -> str:
        return str(self.year)

    def clean(self) -> None:
        """Membership years never overlap: the year covering a day must be unambiguous."""
        from federation.rules import dues

        if not (self.starts_on and self.ends_on) or self.ends_on <= self.starts_on:
            return
        others = MembershipYear.objects.exclude(pk=self.pk)
        by_period = {dues.Period(o.starts_on, o.ends_on): o for o in others}
        clash = dues.overlapping(dues.Period(self.starts_on, self.ends_on), by_period)
        if clash:
            from federation.error_texts import error_message

            raise ValidationError(error_message("years_overlap", by_period[clash[0]].year))


class MembershipFee(models.Model):
    membership_year = models.ForeignKey(
        MembershipYear, on_delete=models.CASCADE, related_name="fees", verbose_name=_("year")
    )
    membership_type = models.ForeignKey(
        MembershipType, on_delete=models.PROTECT, related_name="fees", verbose_name=_("type")
    )
    amount = MoneyField(_("amount"), max_digits=10, decimal_places=2)

    class Meta:
        verbose_name = _("membership fee")
        verbose_name_plural = _("membership fees")
        constraints = [
            models.UniqueConstraint(
                fields=["membership_year", "membership_type"],
                name="one_fee_per_type_and_year",
                violation_error_message=_("This year already has a fee for this type."),
            ),
            models.CheckConstraint(
                condition=models.Q(amount__gte=0),
                name="fee_not_negative",
                violation_error_message=_("The fee cannot be negative."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.membership_year} {self.membership_type}: {self.amount}"


class Member(models.Model):
    class Application(models.TextChoices):
        PENDING = "pending", _("Pending approval")
        APPROVED = "approved", _("Approved")
        REJECTED = "rejected", _("Rejected")

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="member",
        verbose_name=_("user account"),
    )
    membership_number = models.PositiveIntegerField(
        _("membership number"), unique=True, null=True, blank=True, editable=False
    )
    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    name_native = models.CharField(_("name (native script)"), max_length=200)
    name_latin = models.CharField(_("name (Latin letters)"), max_length=200)
    date_of_birth = models.DateField(_("date of birth"), null=True, blank=True,
                                     validators=[validate_birth_date])
    country = models.CharField(_("country"), max_length=100, blank=True)
    city = models.CharField(_("city"), max_length=100, blank=True)
    club = models.ForeignKey(
        Club,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="members",
        verbose_name=_("club"),
    )
    email = models.EmailField(_("contact email"), blank=True)
    phone = models.CharField(_("phone"), max_length=50, blank=True)
    address = models.TextField(_("address"), blank=True)
    language = models.CharField(
        _("preferred language"),
        max_length=10,
        choices=settings.LANGUAGES,
        default=settings.LANGUAGE_CODE,
    )
    public_consent = models.BooleanField(
        _("appear in public lists"),
        default=False,
        help_text=_("Your name and club may be shown in public member lists."),
    )
    membership_type = models.ForeignKey(
        MembershipType, on_delete=models.PROTECT, related_name="members", verbose_name=_("type")
    )
    family_head = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="family_members",
        verbose_name=_("family head"),
        help_text=_("For family memberships: the member whose invoice covers this one."),
    )
    application = models.CharField(
        _("application"), max_length=20, choices=Application.choices, default=Application.PENDING
    )
    rejection_reason = models.TextField(
        _("reason for rejection"), blank=True,
        help_text=_("Sent to the applicant in their language."),
    )
    joined_on = models.DateField(_("joined on"), null=True, blank=True)
    applied_at = models.DateTimeField(_("applied at"), auto_now_add=True)
    anonymised_at = models.DateTimeField(_("anonymised at"), null=True, blank=True, editable=False)
    # What the status needs from the invoices, kept by the payment services (decision 0820):
    # the latest uninterrupted paid coverage and the end of the latest open invoice's year.
    paid_from = models.DateField(_("paid from"), null=True, blank=True, editable=False)
    paid_through = models.DateField(_("paid through"), null=True, blank=True, editable=False)
    open_until = models.DateField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["membership_number", "pk"]
        verbose_name = _("member")
        verbose_name_plural = _("members")
        permissions = [
            ("approve_member", _("Can approve membership applications")),
            ("import_bank_statement", _("Can import bank statements")),
            ("import_members", _("Can import members and clubs from a spreadsheet")),
        ]

    def __str__(self) -> str:
        if self.anonymised_at:
            return str(_("Anonymous member"))
        return self.name_latin or self.name_native

    @property
    def display_number(self) -> str:
        return f"{self.membership_number:06d}" if self.membership_number else ""


class ClubMembership(models.Model):
    """History of a member's clubs; the open row (ended_on empty) mirrors Member.club."""

    member = models.ForeignKey(
        Member, on_delete=models.CASCADE, related_name="club_history", verbose_name=_("member")
    )
    club = models.ForeignKey(
        Club, on_delete=models.PROTECT, related_name="membership_history", verbose_name=_("club")
    )
    started_on = models.DateField(_("from"))
    ended_on = models.DateField(_("until"), null=True, blank=True)

    class Meta:
        ordering = ["started_on", "pk"]
        verbose_name = _("club membership")
        verbose_name_plural = _("club memberships")

    def __str__(self) -> str:
        return f"{self.club} {self.started_on} - {self.ended_on or ''}"


class DuesInvoice(models.Model):
    """An invoice of the federation: the dues of a member for a year, or (``purpose`` set,
    no year, no type, no member) another fee billed to an account, such as a tournament's
    entry fee (decision 0314). Numbering, PDF receipts, EPC QR, online payment, bank
    matching and reversal are the same for both."""

    number = models.CharField(_("number"), max_length=20, unique=True, editable=False)
    membership_year = models.ForeignKey(
        MembershipYear, on_delete=models.PROTECT, related_name="invoices", verbose_name=_("year"),
        null=True, blank=True,
    )
    member = models.ForeignKey(
        Member, on_delete=models.PROTECT, related_name="invoices", verbose_name=_("payer"),
        null=True, blank=True,
    )
    # the account billed for an invoice that is not dues (a member or a guest)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True,
        related_name="invoices", verbose_name=_("account billed"),
    )
    purpose = models.CharField(_("for"), max_length=300, blank=True)
    covered_members = models.ManyToManyField(
        Member, related_name="covering_invoices", verbose_name=_("members covered")
    )
    membership_type = models.ForeignKey(
        MembershipType, on_delete=models.PROTECT, related_name="+", verbose_name=_("type"),
        null=True, blank=True,
    )
    # Kept for the legal retention of financial records: erasure anonymises the member, not this.
    billed_name = models.CharField(_("billed to"), max_length=200)
    amount = models.DecimalField(_("amount"), max_digits=10, decimal_places=2)
    currency = models.CharField(_("currency"), max_length=3)
    issued_on = models.DateField(_("issued on"))
    due_on = models.DateField(_("due on"), null=True, blank=True)
    prorated = models.BooleanField(_("pro-rated"), default=False)
    cancelled = models.BooleanField(_("cancelled"), default=False)

    class Meta:
        ordering = ["-issued_on", "-number"]
        verbose_name = _("dues invoice")
        verbose_name_plural = _("dues invoices")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(membership_year__isnull=False, member__isnull=False)
                | models.Q(membership_year__isnull=True, user__isnull=False),
                name="invoice_dues_or_billed_account",
            ),
            models.CheckConstraint(
                condition=models.Q(amount__gte=0),
                name="invoice_not_negative",
                violation_error_message=_("The amount cannot be negative."),
            ),
        ]

    def __str__(self) -> str:
        return self.number

    def purpose_label(self) -> str:
        """What the invoice is for, in the active language."""
        if self.membership_year_id is None:
            return self.purpose
        return str(_("Membership dues %(year)s") % {"year": self.membership_year.year})


class Payment(models.Model):
    class Method(models.TextChoices):
        BANK_TRANSFER = "bank_transfer", _("Bank transfer")
        CASH = "cash", _("Cash")
        ONLINE = "online", _("Online")
        # paid years brought in by a members import (decision 0316): never typed by hand
        IMPORTED = "imported", _("Imported")

    invoice = models.ForeignKey(
        DuesInvoice, on_delete=models.PROTECT, related_name="payments", verbose_name=_("invoice")
    )
    amount = MoneyField(_("amount"), max_digits=10, decimal_places=2)
    paid_on = models.DateField(_("paid on"), validators=[validate_payment_date])
    method = models.CharField(_("method"), max_length=20, choices=Method.choices)
    reference = models.CharField(_("reference"), max_length=200, blank=True)
    transaction_id = models.CharField(
        _("bank transaction id"),
        max_length=100,
        blank=True,
        help_text=_("The bank's own id of the transaction; the same id cannot be recorded twice."),
    )
    receipt_number = models.CharField(_("receipt number"), max_length=20, unique=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("recorded by"),
    )
    recorded_at = models.DateTimeField(_("recorded at"), auto_now_add=True)
    # A mistaken payment is reversed (with a reason, in the audit log), never deleted: it
    # then counts for nothing and its transaction id may be recorded again.
    reversed_at = models.DateTimeField(_("reversed at"), null=True, blank=True, editable=False)
    reversed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        editable=False,
        verbose_name=_("reversed by"),
    )
    reversal_reason = models.CharField(
        _("reason for the reversal"), max_length=300, blank=True, editable=False
    )
    # A bank statement's payments: their receipts are mailed by ``send_queued_mail``, not
    # while the treasurer waits for the import (federation.emails.send_waiting_receipts).
    receipt_waiting = models.BooleanField(_("receipt waiting to be mailed"), default=False,
                                          editable=False)

    class Meta:
        ordering = ["-paid_on", "-pk"]
        permissions = [("reverse_payment", _("Can reverse a mistaken payment"))]
        verbose_name = _("payment")
        verbose_name_plural = _("payments")
        constraints = [
            models.UniqueConstraint(
                fields=["method", "transaction_id"],
                condition=~models.Q(transaction_id="") & models.Q(reversed_at__isnull=True),
                name="bank_transaction_recorded_once",
                violation_error_message=_("This transaction is already recorded."),
            ),
            models.CheckConstraint(
                condition=models.Q(amount__gt=0),
                name="payment_positive",
                violation_error_message=_("The amount must be positive."),
            ),
        ]

    def __str__(self) -> str:
        return self.receipt_number


class ReminderSent(models.Model):
    """One row per member, membership year and stage: a reminder is never sent twice."""

    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="reminders")
    period_ends_on = models.DateField()
    stage = models.CharField(max_length=20)
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("reminder sent")
        verbose_name_plural = _("reminders sent")
        constraints = [
            models.UniqueConstraint(
                fields=["member", "period_ends_on", "stage"], name="reminder_once_per_stage"
            )
        ]

    def __str__(self) -> str:
        return f"{self.member_id} {self.period_ends_on} {self.stage}"


class OnlinePayment(BasePayment):
    """One card payment attempt through django-payments (PAYMENT_MODEL). When the provider
    confirms it (its webhook, verified by signature), federation.online_payments records a
    Payment for the invoice once, keyed on the provider's transaction id."""

    invoice = models.ForeignKey(
        DuesInvoice,
        on_delete=models.PROTECT,
        related_name="online_payments",
        verbose_name=_("invoice"),
    )
    language = models.CharField(max_length=10, default=settings.LANGUAGE_CODE)
    recorded_payment = models.OneToOneField(
        Payment,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="online_payment",
    )

    class Meta:
        verbose_name = _("online payment")
        verbose_name_plural = _("online payments")

    def __str__(self) -> str:
        return f"{self.invoice_id} {self.status}"

    def _url(self, name: str) -> str:
        from django.urls import reverse
        from django.utils import translation

        from core.site_url import site_absolute_url

        with translation.override(self.language):
            path = reverse(name, args=[self.token])
        return site_absolute_url(path)

    def get_success_url(self) -> str:
        return self._url("membership:online_payment_return")

    def get_failure_url(self) -> str:
        return self._url("membership:online_payment_return")

    def save(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        """``recorded_payment`` is written only when named (``update_fields``): the
        settlement records it on its own locked copy while django-payments still holds an
        older copy of the attempt, which it saves whole after the status change. Without
        this, that save cleared the link and a provider event delivered again recorded the
        payment a second time."""
        if not self._state.adding and kwargs.get("update_fields") is None:
            kwargs["update_fields"] = [
                f.name for f in self._meta.concrete_fields
                if not f.primary_key and f.name != "recorded_payment"
            ]
        super().save(*args, **kwargs)

    def get_purchased_items(self):  # type: ignore[no-untyped-def]
        from payments import PurchasedItem

        yield PurchasedItem(
            name=str(self.invoice.purpose_label()),
            sku=self.invoice.number,
            quantity=1,
            price=self.total,
            currency=self.currency,
        )


# --- mail to members: consent, mailings, deliveries (decision 0315) -------------------------


class MailKind(models.TextChoices):
    """The kinds of mail a member chooses on their page. Dues notices and the mails about
    their own application, payments and entries are not among them: they always go out."""

    NEWS = "news", _("News and newsletters")
    TOURNAMENTS = "tournaments", _("New tournaments in my country")


# What a member gets before they ever choose: the federation's news (with a link to stop
# them in every mail), and no announcements until they follow a country's tournaments.
MAIL_KIND_DEFAULTS: dict[str, bool] = {MailKind.NEWS: True, MailKind.TOURNAMENTS: False}


class MailConsent(models.Model):
    """A member's current choice for one kind of mail (no row: the kind's default)."""

    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="mail_consents")
    kind = models.CharField(_("kind of mail"), max_length=20, choices=MailKind.choices)
    granted = models.BooleanField(_("wanted"))
    country = models.CharField(_("country"), max_length=2, blank=True)
    updated_at = models.DateTimeField(_("changed at"), auto_now=True)

    class Meta:
        verbose_name = _("mail consent")
        verbose_name_plural = _("mail consents")
        constraints = [
            models.UniqueConstraint(fields=["member", "kind"], name="mail_consent_once_per_kind"),
        ]

    def __str__(self) -> str:
        return f"{self.member} · {self.get_kind_display()}: {self.granted}"


class ConsentEvent(models.Model):
    """Every change of a member's mail consent, with its date and where it was made."""

    class Source(models.TextChoices):
        MEMBER_PAGE = "member_page", _("Member's page")
        UNSUBSCRIBE = "unsubscribe", _("Unsubscribe link")

    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="consent_events")
    kind = models.CharField(_("kind of mail"), max_length=20, choices=MailKind.choices)
    granted = models.BooleanField(_("wanted"))
    country = models.CharField(_("country"), max_length=2, blank=True)
    source = models.CharField(_("source"), max_length=20, choices=Source.choices)
    mailing = models.ForeignKey(
        "Mailing", on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        verbose_name=_("mailing"),
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        ordering = ["-at", "-pk"]
        verbose_name = _("consent event")
        verbose_name_plural = _("consent events")

    def __str__(self) -> str:
        return f"{self.member} · {self.get_kind_display()}: {self.granted} ({self.at:%Y-%m-%d})"


class Mailing(models.Model):
    """A mail to a group of members, written in one or more languages, sent in batches."""

    class Audience(models.TextChoices):
        GOOD_STANDING = "good_standing", _("All members in good standing")
        LAPSED = "lapsed", _("Lapsed members")
        CLUB = "club", _("Members of a club")
        TOURNAMENT = "tournament", _("Entrants of a tournament")
        FOLLOWERS = "followers", _("Followers of a country's tournaments")

    class State(models.TextChoices):
        DRAFT = "draft", _("Draft")
        SENDING = "sending", _("Sending")
        SENT = "sent", _("Sent")

    kind = models.CharField(
        _("kind of mail"), max_length=20, choices=MailKind.choices, default=MailKind.NEWS,
        help_text=_("Only members who want this kind of mail receive it."),
    )
    audience = models.CharField(
        _("audience"), max_length=20, choices=Audience.choices, default=Audience.GOOD_STANDING
    )
    club = models.ForeignKey(
        Club, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
        verbose_name=_("club"),
    )
    # The tournament of the "entrants" audience; a plain id, since membership sits below
    # tournaments (the tournaments app registers the audience, decision 0315).
    tournament_id = models.PositiveIntegerField(_("tournament"), null=True, blank=True)
    country = models.CharField(_("country"), max_length=2, blank=True)
    key = models.CharField(max_length=100, unique=True, null=True, blank=True, editable=False)
    state = models.CharField(
        _("state"), max_length=10, choices=State.choices, default=State.DRAFT, db_index=True
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+", verbose_name=_("written by"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    queued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+", verbose_name=_("sent by"),
    )
    queued_at = models.DateTimeField(_("sent at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("mailing")
        verbose_name_plural = _("mailings")
        permissions = [("send_mailing", _("Can write and send mailings to members"))]

    def __str__(self) -> str:
        translation_ = self.translation_for(settings.LANGUAGE_CODE)
        return translation_.subject if translation_ else f"#{self.pk}"

    def translation_for(self, language: str) -> MailingTranslation | None:
        """The text in this language, else in the default language (prefetch-friendly)."""
        texts = {t.language: t for t in self.translations.all()}
        return texts.get(language) or texts.get(settings.LANGUAGE_CODE)


class MailingTranslation(models.Model):
    mailing = models.ForeignKey(Mailing, on_delete=models.CASCADE, related_name="translations")
    language = models.CharField(_("language"), max_length=10, choices=settings.LANGUAGES)
    subject = models.CharField(_("subject"), max_length=200)
    body = models.TextField(_("text"))

    class Meta:
        ordering = ["pk"]
        verbose_name = _("mailing text")
        verbose_name_plural = _("mailing texts")
        constraints = [
            models.UniqueConstraint(
                fields=["mailing", "language"], name="mailing_translation_once_per_language"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.language}: {self.subject}"


class MailingDelivery(models.Model):
    """One recipient of a mailing: written when the mailing is sent, then claimed, sent and
    marked sent (or failed) one by one, so a sending stopped half-way resumes with exactly
    the rest."""

    class State(models.TextChoices):
        PENDING = "pending", _("Waiting")
        # claimed by a sender, handed to the mail server next (decision 0907)
        SENDING = "sending", _("Sending")
        SENT = "sent", _("Sent")
        FAILED = "failed", _("Failed")

    mailing = models.ForeignKey(Mailing, on_delete=models.CASCADE, related_name="deliveries")
    # a member, or (``guest``) an account without membership that an audience holds: the
    # paying guests of a tournament's entrants (decision 0728)
    member = models.ForeignKey(Member, on_delete=models.CASCADE, related_name="deliveries",
                               null=True, blank=True)
    guest = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                              related_name="mailing_deliveries", null=True, blank=True)
    email = models.EmailField(_("email"))
    language = models.CharField(_("language"), max_length=10)
    state = models.CharField(
        _("state"), max_length=10, choices=State.choices, default=State.PENDING
    )
    error = models.CharField(_("error"), max_length=500, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)
    # when a sender claimed it (state "sending"); a claim older than MAILING_CLAIM_SECONDS
    # belongs to a sender that died and is taken again
    claimed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["pk"]
        verbose_name = _("delivery")
        verbose_name_plural = _("deliveries")
        constraints = [
            models.UniqueConstraint(
                fields=["mailing", "member"], name="mailing_delivery_once_per_member"
            ),
            models.UniqueConstraint(
                fields=["mailing", "guest"], name="mailing_delivery_once_per_guest"
            ),
        ]
        indexes = [models.Index(fields=["state", "mailing"], name="mailing_delivery_state")]

    def __str__(self) -> str:
        return f"{self.mailing_id} → {self.email}: {self.state}"

    @property
    def recipient(self) -> Any:
        """Who it goes to, for the editor's list of failures: the member or the guest."""
        return self.member if self.member_id else self.guest


class OutgoingMail(models.Model):
    """A transactional mail (sign-up, application, receipt, entry, decision) that could not
    be handed to the mail server after its transaction committed. ``manage.py
    send_queued_mail`` tries it again with a growing wait until it is sent or has used up
    its attempts (decision 0901). The message is kept whole (MIME), attachments included."""

    class State(models.TextChoices):
        PENDING = "pending", _("Waiting to be sent again")
        SENT = "sent", _("Sent")
        FAILED = "failed", _("Given up")

    to = models.CharField(_("recipient"), max_length=1000)
    subject = models.CharField(_("subject"), max_length=300)
    from_email = models.CharField(max_length=300)
    recipients = models.JSONField(default=list)
    message = models.BinaryField()
    state = models.CharField(
        _("state"), max_length=10, choices=State.choices, default=State.PENDING
    )
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=1)
    last_error = models.CharField(_("last error"), max_length=500, blank=True)
    created_at = models.DateTimeField(_("queued at"), auto_now_add=True)
    next_attempt_at = models.DateTimeField(_("next attempt"), null=True, blank=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)

    class Meta:
        ordering = ["-pk"]
        verbose_name = _("queued mail")
        verbose_name_plural = _("queued mails")
        indexes = [models.Index(fields=["state", "next_attempt_at"], name="outgoing_mail_due")]

    def __str__(self) -> str:
        return f"{self.to}: {self.subject} ({self.state})"


class ImportRun(models.Model):
    """One spreadsheet imported (decision 0316): who, when, which kind, the file's name, the
    counts and the report (every row's outcome, the review and the errors). The uploaded
    file is kept between the preview and the commit (the admin's pages) and dropped once it
    is committed; the report stays downloadable. Kinds: ``members`` (federation), ``players``
    (the EMA register, tournaments) and whatever other app imports through it."""

    kind = models.CharField(_("kind"), max_length=30)
    file_name = models.CharField(_("file"), max_length=255)
    data = models.BinaryField(default=b"", editable=False)
    mapping = models.JSONField(default=dict, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+", verbose_name=_("by"),
    )
    created_at = models.DateTimeField(_("uploaded at"), auto_now_add=True)
    committed_at = models.DateTimeField(_("committed at"), null=True, blank=True)
    created = models.PositiveIntegerField(default=0)
    updated = models.PositiveIntegerField(default=0)
    unchanged = models.PositiveIntegerField(default=0)
    review = models.PositiveIntegerField(default=0)
    errors = models.PositiveIntegerField(default=0)
    report = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-pk"]
        verbose_name = _("import")
        verbose_name_plural = _("imports")
        indexes = [models.Index(fields=["kind", "-created_at"], name="import_run_kind")]

    def __str__(self) -> str:
        return f"{self.kind} {self.file_name}"

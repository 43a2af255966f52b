"""Wagtail admin for membership: audit-log actions, viewsets, bank import."""

from __future__ import annotations

from django.db.models import Count
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from wagtail import hooks

LOG_ACTIONS = [
    ("federation.member.apply", _("Membership applied for"), _("Applied for membership")),
    ("federation.member.approve", _("Membership approved"), _("Membership approved")),
    ("federation.member.reject", _("Membership rejected"), _("Membership rejected")),
    ("federation.member.contact", _("Contact data changed"), _("Contact data changed")),
    ("federation.member.club", _("Club changed"), _("Club changed")),
    ("federation.member.erase", _("Member anonymised"), _("Member anonymised")),
    ("federation.invoice.issue", _("Invoice issued"), _("Invoice issued")),
    ("federation.invoice.cancel", _("Invoice cancelled"), _("Invoice cancelled")),
    ("federation.payment.record", _("Payment recorded"), _("Payment recorded")),
    ("federation.payment.reverse", _("Payment reversed"), _("Payment reversed")),
    ("federation.mailing.create", _("Mailing written"), _("Mailing written")),
    ("federation.mailing.change", _("Mailing changed"), _("Mailing changed")),
    ("federation.mailing.send", _("Mailing sent"), _("Mailing sent")),
    ("federation.mailing.retry", _("Failed mails sent again"), _("Failed mails sent again")),
    ("federation.import.members", _("Members imported"), _("Members imported")),
]


@hooks.register("register_log_actions")
def register_membership_log_actions(actions):
    for action, label, message in LOG_ACTIONS:
        actions.register_action(action, label, message)


@hooks.register("register_admin_viewset")
def register_membership_viewsets():
    from federation.viewsets import MembershipViewSetGroup

    return MembershipViewSetGroup()


@hooks.register("register_admin_urls")
def register_membership_admin_urls():
    from django.urls import path

    from federation import admin_views, import_views, mailing_admin_views, views

    # the admin's URLs are read before any admin page answers: the import kinds are known
    import_views.import_kind_register(_members_import_kind())
    return [
        *import_views.import_admin_urls(),
        path("mailings/", mailing_admin_views.mailing_index, name="mailing_index"),
        path("mailings/new/", mailing_admin_views.mailing_new, name="mailing_new"),
        path("mailings/<str:pk>/", mailing_admin_views.mailing_detail, name="mailing_detail"),
        path("mailings/<str:pk>/edit/", mailing_admin_views.mailing_edit, name="mailing_edit"),
        path("membership/outbox/", views.outbox_view, name="membership_outbox"),
        path("membership/bank-import/", views.bank_import_view, name="membership_bank_import"),
        path("membership/applications/", views.applications_view, name="membership_applications"),
        path(
            "membership/applications/<str:pk>/",
            views.application_view,
            name="membership_application",
        ),
        path(
            "membership/applications/<str:pk>/<str:action>/",
            views.application_view,
            name="membership_application_action",
        ),
        path(
            "membership/payments/<str:pk>/reverse/",
            admin_views.payment_reverse_view,
            name="membership_payment_reverse",
        ),
    ]


@hooks.register("register_admin_menu_item")
def register_bank_import_menu_item():
    from django.urls import reverse
    from wagtail.admin.menu import MenuItem

    class PermissionMenuItem(MenuItem):
        def __init__(self, *args, permission, **kwargs):
            super().__init__(*args, **kwargs)
            self.permission = permission

        def is_shown(self, request):
            return request.user.has_perm(self.permission)

    return PermissionMenuItem(
        _("Bank import"),
        reverse("membership_bank_import"),
        icon_name="download",
        order=310,
        permission="federation.import_bank_statement",
    )


@hooks.register("register_admin_menu_item")
def register_applications_menu_item():
    from django.urls import reverse
    from wagtail.admin.menu import MenuItem

    class ApproveMenuItem(MenuItem):
        def is_shown(self, request):
            return request.user.has_perm("federation.approve_member")

    return ApproveMenuItem(
        _("Applications"), reverse("membership_applications"), icon_name="user", order=305
    )


@hooks.register("register_admin_menu_item")
def register_mailings_menu_item():
    from django.urls import reverse
    from wagtail.admin.menu import MenuItem

    class MailingsMenuItem(MenuItem):
        def is_shown(self, request):
            return request.user.has_perm("federation.send_mailing")

    return MailingsMenuItem(_("Mailings"), reverse("mailing_index"), icon_name="mail", order=320)


@hooks.register("register_admin_menu_item")
def register_outbox_menu_item():
    from django.urls import reverse
    from wagtail.admin.menu import MenuItem

    class OutboxMenuItem(MenuItem):
        def is_shown(self, request):
            return request.user.has_perm("federation.view_outgoingmail")

    return OutboxMenuItem(_("Mail queue"), reverse("membership_outbox"), icon_name="mail",
                          order=325)


def membership_tasks(user) -> list:
    """The membership officer's and the treasurer's lines on the admin's home page."""
    from django.urls import reverse
    from django.utils import formats

    from core.admin_dashboard import Task
    from federation import selectors
    from federation.models import Member

    tasks = []
    if user.has_perm("federation.approve_member"):
        pending = Member.objects.filter(application=Member.Application.PENDING).count()
        tasks.append(Task(str(_("Membership applications to review")), pending,
                          reverse("membership_applications")))
    if user.has_perm("federation.view_duesinvoice"):
        summary = selectors.open_invoices(selectors.today())
        owed = ", ".join(f"{formats.number_format(amount, 2, use_l10n=True)} {currency}"
                         for currency, amount in summary.outstanding.items())
        detail = ""
        if summary.count:
            detail = str(_("Outstanding: %(owed)s; past their due date: %(overdue)d")) % {
                "owed": owed, "overdue": summary.overdue}
        tasks.append(Task(str(_("Open invoices")), summary.count, reverse("invoices:index"),
                          detail))
        refunds = selectors.refunds_due()
        if refunds.count:
            tasks.append(Task(
                str(_("Refunds due")), refunds.count,
                reverse("invoices:index") + "?state=cancelled",
                ", ".join(f"{formats.number_format(amount, 2, use_l10n=True)} {currency}"
                          for currency, amount in refunds.amounts.items())))
        rouble_missing = selectors.rouble_bank_details_missing()
        if rouble_missing:
            tasks.append(Task(
                str(_("Russian bank details missing from the settings")), len(rouble_missing),
                reverse("invoices:index"), ", ".join(rouble_missing).upper()))
    if user.has_perm("federation.view_outgoingmail"):
        from federation.models import OutgoingMail

        counts = dict(OutgoingMail.objects.exclude(state=OutgoingMail.State.SENT)
                      .values_list("state").annotate(n=Count("pk")))
        given_up = counts.get(OutgoingMail.State.FAILED, 0)
        tasks.append(Task(
            str(_("Mails waiting to be sent again")), counts.get(OutgoingMail.State.PENDING, 0),
            reverse("membership_outbox"),
            str(ngettext("%(count)d mail given up", "%(count)d mails given up", given_up)
                % {"count": given_up}) if given_up else ""))
    return tasks


@hooks.register("construct_homepage_panels")
def add_membership_tasks_panel(request, panels):
    from core.admin_dashboard import TasksPanel

    panels.append(TasksPanel(name="membership_tasks", heading=str(_("Membership: waiting")),
                             order=50, tasks=membership_tasks))


def _members_import_kind():  # type: ignore[no-untyped-def]
    from federation.import_views import ImportKind
    from federation.services import member_import

    return ImportKind(
        kind=member_import.KIND,
        title=_("Import members"),
        help=_("A spreadsheet of members: name, e-mail, date of birth, club, member number, "
               "country, phone, joined, paid years. Members are matched by member number, "
               "then by e-mail; clubs by name. Paid years are recorded as paid dues. No "
               "e-mail is sent."),
        fields=member_import.FIELDS,
        field_labels={
            "name": _("Name"), "name_latin": _("Name (Latin letters)"),
            "email": _("E-mail"), "date_of_birth": _("Date of birth"), "club": _("Club"),
            "member_number": _("Member number"), "country": _("Country"),
            "phone": _("Phone"), "joined": _("Joined on"), "paid_years": _("Paid years"),
        },
        allowed=lambda user: user.has_perm("federation.import_members"),
        run_import=member_import.members_import,
        describe=member_import.describe,
    )


@hooks.register("register_admin_menu_item")
def register_members_import_menu_item():
    from django.urls import reverse
    from wagtail.admin.menu import MenuItem

    class ImportMenuItem(MenuItem):
        def is_shown(self, request):
            return request.user.has_perm("federation.import_members")

    return ImportMenuItem(_("Import members"), reverse("import_upload", args=["members"]),
                          icon_name="upload", order=312)

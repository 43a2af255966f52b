"""Wagtail admin for membership: audit-log actions, viewsets, bank import."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from wagtail import hooks

LOG_ACTIONS = [
    ("federation.member.apply", _("Membership applied for"), _("Applied for membership")),
    ("federation.member.approve", _("Membership approved"), _("Membership approved")),
    ("federation.member.reject", _("Membership rejected"), _("Membership rejected")),
    ("federation.member.contact", _("Contact data changed"), _("Contact data changed")),
    ("federation.member.club", _("Club changed"), _("Club changed")),
    ("federation.member.erase", _("Member anonymised"), _("Member anonymised")),
    ("federation.invoice.issue", _("Invoice issued"), _("Invoice issued")),
    ("federation.payment.record", _("Payment recorded"), _("Payment recorded")),
]


@hooks.register("register_log_actions")
def register_membership_log_actions(actions):
    for action, label, message in LOG_ACTIONS:
        actions.register_action(action, label, message)

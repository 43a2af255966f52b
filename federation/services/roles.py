"""Roles: the groups the federation's volunteers are put in, and what each may do."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.contrib.auth.models import Group, Permission

ROLE_TREASURER = "Treasurer"
ROLE_MEMBERSHIP_OFFICER = "Membership officer"
ROLE_CLUB_OFFICER = "Club officer"

ROLE_PERMISSIONS: dict[str, list[str]] = {
    ROLE_TREASURER: [
        "wagtailadmin.access_admin",
        "federation.view_member",
        "federation.import_bank_statement",
        *(
            f"federation.{action}_{model}"
            for model in ("membershipyear", "membershipfee", "membershiptype")
            for action in ("add", "change", "view")
        ),
        # Invoices are issued by services (numbering, pro-rating): "add" opens the issue page.
        *(f"federation.{a}_duesinvoice" for a in ("add", "change", "view")),
        *(f"federation.{a}_payment" for a in ("add", "view")),
        "federation.reverse_payment",
        # the mail queue (decision 0901): receipts and invoices that did not go out
        "federation.view_outgoingmail",
    ],
    ROLE_MEMBERSHIP_OFFICER: [
        "wagtailadmin.access_admin",
        "federation.approve_member",
        "federation.import_members",
        "tournaments.import_players",
        *(f"federation.{a}_member" for a in ("add", "change", "view")),
        *(f"federation.{a}_club" for a in ("add", "change", "view")),
        "federation.view_clubmembership",
        "tournaments.view_player",
        "tournaments.change_player",
        "federation.view_outgoingmail",
    ],
    # Club officers are scoped by Club.officers, not by model permissions: the group only
    # names the role. They use the club pages under /members/clubs/.
    ROLE_CLUB_OFFICER: [],
}


# Wagtail's own editors' group keeps the page permissions Wagtail gave it; membership adds
# the mailings to it (decision 0315) and takes nothing away.
ROLE_EDITORS = "Editors"
EDITOR_PERMISSIONS: list[str] = [
    "wagtailadmin.access_admin",
    "federation.send_mailing",
]


def roles_setup() -> dict[str, Group]:
    """Create (or bring up to date) the membership role groups. Idempotent."""
    groups = role_groups_ensure(role_permissions=ROLE_PERMISSIONS)
    groups[ROLE_EDITORS] = role_permissions_add(name=ROLE_EDITORS, codes=EDITOR_PERMISSIONS)
    return groups


def role_permissions_add(*, name: str, codes: Sequence[str]) -> Group:
    """Add these permissions ("app_label.codename"; ones not yet migrated are skipped) to
    the group, created if missing, taking none away (the editors' group keeps what Wagtail
    gave it; other apps add theirs through config.roles). Idempotent."""
    group, _created = Group.objects.get_or_create(name=name)
    for code in codes:
        app_label, codename = code.split(".")
        permission = Permission.objects.filter(
            content_type__app_label=app_label, codename=codename
        ).first()
        if permission is not None:
            group.permissions.add(permission)
    return group


def role_groups_ensure(*, role_permissions: Mapping[str, Sequence[str]]) -> dict[str, Group]:
    """Create (or bring up to date) one group per role with exactly these permissions
    ("app_label.codename"; ones not yet migrated are skipped). Idempotent; every app's roles
    are set up through this."""
    groups = {}
    for name, codes in role_permissions.items():
        group, _created = Group.objects.get_or_create(name=name)
        permissions = []
        for code in codes:
            app_label, codename = code.split(".")
            permission = Permission.objects.filter(
                content_type__app_label=app_label, codename=codename
            ).first()
            if permission is not None:
                permissions.append(permission)
        group.permissions.set(permissions)
        groups[name] = group
    return groups

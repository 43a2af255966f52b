"""Every role group of the site, set up in one place after each ``migrate``.

Each app declares its roles and their permissions (``federation.services.roles``,
``tournaments.services.lifecycle``, the editors' rulebook permissions in
``rulebook.services``); this module creates them all, after making sure every
permission exists (auth's own ``post_migrate`` receiver may not have run yet).
"""

from __future__ import annotations

from django.contrib.auth.models import Group


def roles_setup_all(using: str = "default") -> dict[str, Group]:
    """Create or bring up to date every role group of every app. Idempotent."""
    from django.apps import apps
    from django.contrib.auth.management import create_permissions
    from wagtail.snippets.models import create_extra_permissions

    from federation.services import ROLE_EDITORS, role_permissions_add
    from federation.services import roles_setup as membership_roles_setup
    from rulebook.services import EDITOR_PERMISSIONS as RULEBOOK_EDITOR_PERMISSIONS
    from tournaments.services import roles_setup as tournament_roles_setup

    for app_config in apps.get_app_configs():
        create_permissions(app_config, verbosity=0, using=using)
    # the snippets' "publish" permissions (Wagtail's own post_migrate may come later)
    create_extra_permissions(apps.get_app_config("wagtailsnippets"), using=using)
    groups = {**membership_roles_setup(), **tournament_roles_setup()}
    # the editors keep the rulebook too (README: fans and worked examples)
    groups[ROLE_EDITORS] = role_permissions_add(name=ROLE_EDITORS,
                                                codes=RULEBOOK_EDITOR_PERMISSIONS)
    _editors_publish_pages(groups[ROLE_EDITORS])
    return groups


#: what the editors may do with the site's pages, from its root down (decision 0727):
#: Wagtail gives its editors' group only "add" and "change", so their only way to publish
#: was "Submit to moderators", and the federation has no moderators.
EDITOR_PAGE_PERMISSIONS = ("add_page", "change_page", "publish_page")


def _editors_publish_pages(group: Group) -> None:
    from django.contrib.auth.models import Permission
    from wagtail.models import GroupPagePermission, Page

    root = Page.get_first_root_node()
    if root is None:
        return
    for codename in EDITOR_PAGE_PERMISSIONS:
        permission = Permission.objects.filter(content_type__app_label="wagtailcore",
                                               codename=codename).first()
        if permission is not None:
            GroupPagePermission.objects.get_or_create(group=group, page=root,
                                                      permission=permission)

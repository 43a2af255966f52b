"""Every role group of the site, set up in one place after each ``migrate``.

Each app declares its roles and their permissions (``federation.services.roles``,
``tournaments.services.lifecycle``); this module creates them all, after making sure every
permission exists (auth's own ``post_migrate`` receiver may not have run yet).
"""

from __future__ import annotations

from django.contrib.auth.models import Group


def roles_setup_all(using: str = "default") -> dict[str, Group]:
    """Create or bring up to date every role group of every app. Idempotent."""
    from django.apps import apps
    from django.contrib.auth.management import create_permissions

    from federation.services import roles_setup as membership_roles_setup
    from tournaments.services import roles_setup as tournament_roles_setup

    for app_config in apps.get_app_configs():
        create_permissions(app_config, verbosity=0, using=using)
    return {**membership_roles_setup(), **tournament_roles_setup()}

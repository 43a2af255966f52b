from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


def _setup_roles(sender, using="default", apps=None, **kwargs):
    # Our receiver runs before auth's for this app: make sure every permission exists first.
    from django.apps import apps as global_apps
    from django.contrib.auth.management import create_permissions

    from federation.services import roles_setup

    for app_config in global_apps.get_app_configs():
        create_permissions(app_config, verbosity=0, using=using)
    roles_setup()


class FederationConfig(AppConfig):
    name = "federation"
    verbose_name = _("Federation")

    def ready(self) -> None:
        # The role groups (treasurer, membership officer, club officer) exist after every
        # migrate; `manage.py setup_roles` does the same on demand.
        post_migrate.connect(_setup_roles, sender=self, dispatch_uid="federation_setup_roles")
        # Confirmed card payments become federation payments (payments.signals.status_changed).
        from federation import online_payments  # noqa: F401

from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


def _setup_roles(sender, using="default", apps=None, **kwargs):
    # Make sure every permission exists before the groups get them (auth's own receiver
    # may run after ours).
    from django.apps import apps as global_apps
    from django.contrib.auth.management import create_permissions

    from ratings.services import roles_setup

    for app_config in global_apps.get_app_configs():
        create_permissions(app_config, verbosity=0, using=using)
    roles_setup()


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Tournaments and ratings")

    def ready(self) -> None:
        # The groups "Tournament organizer" and "Accreditation officer" exist after every
        # migrate; `manage.py setup_roles` creates the membership roles the same way.
        post_migrate.connect(_setup_roles, sender=self, dispatch_uid="ratings_setup_roles")

from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


def _roles_after_migrate(sender, using="default", **kwargs):
    from config.roles import roles_setup_all

    roles_setup_all(using=using)


def _task_schedules_after_migrate(sender, using="default", **kwargs):
    from config.task_schedules import task_schedules_setup

    task_schedules_setup(using=using)


class SiteConfig(AppConfig):
    """The wiring as an app: every app's roles and the task queue's default schedules after
    migrate, the demo federation and its commands (load_demo, create_demo_admin,
    setup_roles)."""

    name = "config"
    verbose_name = _("Site")

    def ready(self) -> None:
        # The role groups of every app (treasurer, membership officer, club officer,
        # tournament organizer, accreditation officer) exist after every migrate.
        # post_migrate is only sent for apps with models; the tournaments app's comes after
        # the federation's, and the receiver creates every app's permissions first.
        from django.apps import apps

        from config import backup_tasks, checks  # noqa: F401  (the backup task, the checks)
        from config.metrics import connect_task_failure_signal

        # every task that fails, in any worker, counts in /metrics
        connect_task_failure_signal()

        post_migrate.connect(_roles_after_migrate, sender=apps.get_app_config("tournaments"),
                             dispatch_uid="site_roles_setup")
        # The jobs' default schedules (config.task_schedules), once their tables exist.
        post_migrate.connect(_task_schedules_after_migrate,
                             sender=apps.get_app_config("django_celery_beat"),
                             dispatch_uid="site_task_schedules_setup")

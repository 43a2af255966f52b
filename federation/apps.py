from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FederationConfig(AppConfig):
    name = "federation"
    verbose_name = _("Federation")

    def ready(self) -> None:
        # Confirmed card payments become federation payments (payments.signals.status_changed).
        from federation import checks, online_payments  # noqa: F401

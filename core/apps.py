from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CoreConfig(AppConfig):
    """The shared kernel: what every app may use and that imports no app (cache, rate
    limits, API tokens and errors, middleware, health check, CSP, countries, CSV, dates,
    pagination, PDF fonts, the site's address, the site-wide template tags)."""

    name = "core"
    verbose_name = _("Site")

    def ready(self) -> None:
        from core import typed_text

        typed_text.install()  # control characters cleaned from every typed text field

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RulebookConfig(AppConfig):
    name = "rulebook"
    verbose_name = _("Rulebook")

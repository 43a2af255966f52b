from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        # the entrants' audience of mailings, and announcements to followers (decision 0315)
        from tournaments import (
            announcements,  # noqa: F401  (the receiver of tournament_accredited)
            entrants_audience,
            receivers,  # noqa: F401  (the hand statistics follow confirmations and merges)
        )

        entrants_audience.register_audience()

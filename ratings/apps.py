from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = _("Ratings")

    def ready(self) -> None:
        # Ratings follow the tournaments' results: the one call from tournaments to ratings
        # is this signal (tournaments.signals.results_confirmed).
        # the jobs ratings.rankings queues by name are known in every process (decision 0821)
        from ratings import (
            receivers,  # noqa: F401
            tasks,  # noqa: F401
        )

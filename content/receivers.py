"""Draft news for editors when a tournament is accredited and when its results are confirmed
(docs/decisions/0530). The tournaments app sends the signals (tournaments.signals) and knows
nothing of news; the drafts are written in every site language (decision 0727), never published."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from content.services import news_draft_for_accreditation, news_draft_for_results
from tournaments.signals import results_confirmed, tournament_accredited


@receiver(tournament_accredited, dispatch_uid="content_news_draft_accredited")
def draft_after_accreditation(sender: Any, tournament: Any, **kwargs: Any) -> None:
    news_draft_for_accreditation(tournament=tournament)


@receiver(results_confirmed, dispatch_uid="content_news_draft_results")
def draft_after_results(sender: Any, tournament: Any, **kwargs: Any) -> None:
    news_draft_for_results(tournament=tournament)

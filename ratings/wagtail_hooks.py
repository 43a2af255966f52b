"""Wagtail admin for ratings: the past months' lists waiting to be published, on the
admin's home page (in the tournaments' panel, decision 0804)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from wagtail import hooks


def rating_tasks(user) -> list:
    """The lines of whoever publishes rating lists: past months not yet published."""
    from django.urls import reverse

    from core.admin_dashboard import Task
    from core.dates import date_display
    from ratings.models import DEFAULT_RULESET, RatingPeriod
    from ratings.rules.method import parse_period, period_first_day, period_label, period_of
    from tournaments.selectors import today

    if not user.has_perm("ratings.publish_ratingperiod"):
        return []
    this_month = period_label(period_of(today()))
    unpublished = list(
        RatingPeriod.objects.filter(has_results=True, published=False, period__lt=this_month)
        .order_by("period", "ruleset").values_list("ruleset", "period")
    )
    url = reverse("ratings:list")
    if unpublished:
        first_ruleset, first_period = unpublished[0]
        url += f"?period={first_period}"
        if first_ruleset != DEFAULT_RULESET:
            url += f"&ruleset={first_ruleset}"

    def month(ruleset: str, period: str) -> str:
        # MCR's months by name alone, the other rulesets' with the rules' code
        name = date_display(period_first_day(parse_period(period)), "YEAR_MONTH_FORMAT")
        return name if ruleset == DEFAULT_RULESET else f"{name} ({ruleset.upper()})"

    months = ", ".join(month(r, p) for r, p in unpublished)
    return [Task(str(_("Past months' rating lists to publish")), len(unpublished), url, months)]


@hooks.register("construct_homepage_panels")
def add_tournament_tasks_panel(request, panels):
    """One panel for the accreditation officer: tournaments to decide, lists to publish."""
    from core.admin_dashboard import TasksPanel
    from tournaments.wagtail_hooks import tournament_tasks

    panels.append(TasksPanel(name="tournament_tasks",
                             heading=str(_("Tournaments and ratings: waiting")), order=60,
                             tasks=lambda user: tournament_tasks(user) + rating_tasks(user)))


@hooks.register("register_admin_viewset")
def register_qualification_lists():
    from ratings.viewsets import QualificationListViewSet

    return QualificationListViewSet("qualification_lists")

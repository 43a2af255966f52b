"""Wagtail admin for ratings: the past months' lists waiting to be published, on the
admin's home page (in the tournaments' panel, decision 0804)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from wagtail import hooks


def rating_tasks(user) -> list:
    """The lines of whoever publishes rating lists: past months not yet published."""
    from django.urls import reverse
    from django.utils import formats

    from config.admin_dashboard import Task
    from ratings.method import parse_period, period_first_day, period_label, period_of
    from ratings.models import RatingPeriod
    from tournaments.selectors import today

    if not user.has_perm("ratings.publish_ratingperiod"):
        return []
    this_month = period_label(period_of(today()))
    unpublished = list(
        RatingPeriod.objects.filter(has_results=True, published=False, period__lt=this_month)
        .order_by("period").values_list("period", flat=True)
    )
    url = reverse("ratings:list")
    if unpublished:
        url += f"?period={unpublished[0]}"
    months = ", ".join(
        formats.date_format(period_first_day(parse_period(p)), "YEAR_MONTH_FORMAT")
        for p in unpublished
    )
    return [Task(str(_("Past months' rating lists to publish")), len(unpublished), url, months)]


@hooks.register("construct_homepage_panels")
def add_tournament_tasks_panel(request, panels):
    """One panel for the accreditation officer: tournaments to decide, lists to publish."""
    from config.admin_dashboard import TasksPanel
    from tournaments.wagtail_hooks import tournament_tasks

    panels.append(TasksPanel(name="tournament_tasks",
                             heading=str(_("Tournaments and ratings: waiting")), order=60,
                             tasks=lambda user: tournament_tasks(user) + rating_tasks(user)))

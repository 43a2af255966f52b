"""Wagtail admin for tournaments: audit-log actions and the accreditation officers' views."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from wagtail import hooks

LOG_ACTIONS = [
    ("ratings.tournament.create", _("Tournament created"), _("Tournament created")),
    ("ratings.tournament.update", _("Tournament changed"), _("Tournament changed")),
    ("ratings.tournament.submit", _("Tournament submitted"), _("Tournament submitted")),
    ("ratings.tournament.accredit", _("Tournament accredited"), _("Tournament accredited")),
    ("ratings.tournament.reject", _("Tournament rejected"), _("Tournament rejected")),
    ("ratings.tournament.players", _("Players registered"), _("Players registered")),
    ("ratings.tournament.seating", _("Seating drawn"), _("Seating drawn")),
    ("ratings.tournament.results", _("Results entered"), _("Results entered")),
    ("ratings.tournament.confirm", _("Results confirmed"), _("Results confirmed")),
    ("ratings.tournament.correct", _("Results corrected"), _("Results corrected")),
]


@hooks.register("register_log_actions")
def register_tournament_log_actions(actions):
    for action, label, message in LOG_ACTIONS:
        actions.register_action(action, label, message)


@hooks.register("register_admin_viewset")
def register_tournament_viewsets():
    from ratings.viewsets import TournamentViewSetGroup

    return TournamentViewSetGroup()


@hooks.register("register_admin_urls")
def register_tournament_admin_urls():
    from django.urls import path

    from ratings.viewsets import decide_view

    return [path("tournaments/<int:pk>/decide/", decide_view, name="tournament_decide")]


def tournament_tasks(user) -> list:
    """The accreditation officer's lines on the admin's home page: tournaments to decide
    and past months' rating lists to publish (decision 0804)."""
    from django.urls import reverse
    from django.utils import formats

    from federation.admin_dashboard import Task
    from ratings.models import Tournament
    from ratings.rating_method import parse_period, period_first_day, period_label, period_of
    from ratings.rating_models import RatingPeriod
    from ratings.selectors import today

    tasks = []
    if user.has_perm("ratings.accredit_tournament"):
        waiting = Tournament.objects.filter(state=Tournament.State.SUBMITTED).count()
        tasks.append(Task(str(_("Tournaments awaiting accreditation")), waiting,
                          reverse("tournament_admin:index") + "?state=submitted"))
    if user.has_perm("ratings.publish_ratingperiod"):
        this_month = period_label(period_of(today()))
        unpublished = list(
            RatingPeriod.objects.filter(has_results=True, published=False,
                                        period__lt=this_month)
            .order_by("period").values_list("period", flat=True)
        )
        url = reverse("ratings:list")
        if unpublished:
            url += f"?period={unpublished[0]}"
        months = ", ".join(
            formats.date_format(period_first_day(parse_period(p)), "YEAR_MONTH_FORMAT")
            for p in unpublished
        )
        tasks.append(Task(str(_("Past months' rating lists to publish")), len(unpublished),
                          url, months))
    return tasks


@hooks.register("construct_homepage_panels")
def add_tournament_tasks_panel(request, panels):
    from federation.admin_dashboard import TasksPanel

    panels.append(TasksPanel(name="tournament_tasks",
                             heading=str(_("Tournaments and ratings: waiting")),
                             order=60, tasks=tournament_tasks))

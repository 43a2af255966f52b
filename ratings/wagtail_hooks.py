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

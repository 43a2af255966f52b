"""Wagtail admin for tournaments: audit-log actions, the accreditation officers' views and
their line on the admin's home page."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from wagtail import hooks

LOG_ACTIONS = [
    ("tournaments.tournament.create", _("Tournament created"), _("Tournament created")),
    ("tournaments.tournament.update", _("Tournament changed"), _("Tournament changed")),
    ("tournaments.tournament.submit", _("Tournament submitted"), _("Tournament submitted")),
    ("tournaments.tournament.accredit", _("Tournament accredited"), _("Tournament accredited")),
    ("tournaments.tournament.mers", _("MERS certification recorded"),
     _("MERS certification recorded")),
    ("tournaments.tournament.reject", _("Tournament rejected"), _("Tournament rejected")),
    ("tournaments.tournament.players", _("Players registered"), _("Players registered")),
    ("tournaments.tournament.seating", _("Seating drawn"), _("Seating drawn")),
    ("tournaments.tournament.seating_published", _("Seating published"),
     _("Seating published")),
    ("tournaments.tournament.results", _("Results entered"), _("Results entered")),
    ("tournaments.tournament.clock", _("Session clock changed"), _("Session clock changed")),
    ("tournaments.tournament.tables", _("Tables opened for entry at the table"),
     _("Tables opened for entry at the table")),
    ("tournaments.tournament.table_choice", _("Table results chosen by the organizer"),
     _("Table results chosen by the organizer")),
    ("tournaments.tournament.penalty", _("Penalty given"), _("Penalty given")),
    ("tournaments.tournament.absent", _("Absence for a session recorded"),
     _("Absence for a session recorded")),
    ("tournaments.tournament.reveal", _("Hidden standings revealed"),
     _("Hidden standings revealed")),
    ("tournaments.tournament.unbalanced", _("Unbalanced table kept as recorded"),
     _("Unbalanced table kept as recorded")),
    ("tournaments.tournament.confirm", _("Results confirmed"), _("Results confirmed")),
    ("tournaments.tournament.correct", _("Results corrected"), _("Results corrected")),
    ("tournaments.tournament.import", _("Final standings imported"),
     _("Final standings imported")),
    ("tournaments.player.correct", _("Player's name, country or EMA number corrected"),
     _("Player's name, country or EMA number corrected")),
    ("tournaments.tournament.ema_sheet", _("EMA results sheet taken by the organizer"),
     _("EMA results sheet taken by the organizer")),
    ("tournaments.tournament.resubmit", _("Tournament sent back to the officer"),
     _("Tournament sent back to the officer")),
    ("tournaments.player.merge", _("Players merged"), _("Players merged")),
    ("tournaments.player.unmerge", _("Players merge undone"), _("Players merge undone")),
    ("tournaments.player.claim", _("Player claim decided"), _("Player claim decided")),
    ("tournaments.entry.create", _("Entry received"), _("Entry received")),
    ("tournaments.entry.withdraw", _("Entry withdrawn"), _("Entry withdrawn")),
    ("tournaments.entry.move_up", _("Moved up from the waiting list"),
     _("Moved up from the waiting list")),
    ("tournaments.entry.confirm", _("Entry confirmed"), _("Entry confirmed")),
    ("tournaments.entry.refuse", _("Entry refused"), _("Entry refused")),
    ("tournaments.entry.cash", _("Cash recorded"), _("Cash recorded")),
    ("tournaments.entry.full_fee", _("Reduced entry fee not granted"),
     _("Reduced entry fee not granted")),
    ("tournaments.entry.release", _("Unpaid place released"), _("Unpaid place released")),
    ("tournaments.import.players", _("EMA player register imported"),
     _("EMA player register imported")),
]


@hooks.register("register_log_actions")
def register_tournament_log_actions(actions):
    for action, label, message in LOG_ACTIONS:
        actions.register_action(action, label, message)


@hooks.register("register_admin_viewset")
def register_tournament_viewsets():
    from tournaments.viewsets import TournamentViewSetGroup

    return TournamentViewSetGroup()


@hooks.register("register_admin_urls")
def register_tournament_admin_urls():
    from django.urls import path

    from federation.import_views import import_kind_register
    from tournaments.views import imports, merges
    from tournaments.viewsets import decide_view

    # the admin's URLs are read before any admin page answers: the import kinds are known
    import_kind_register(_players_import_kind())
    import_kind_register(_tournaments_import_kind())
    return [
        path("tournaments/<int:pk>/decide/", decide_view, name="tournament_decide"),
        path("tournaments/import/", imports.tournament_import_view, name="tournament_import"),
        path("players/claims/", imports.player_claims_view, name="tournament_player_claims"),
        path("players/claims/<int:pk>/decide/", imports.player_claim_decide_view,
             name="tournament_player_claim_decide"),
        path("players/merge/", merges.player_merge_view, name="tournament_player_merge"),
        path("players/merge/preview/", merges.player_merge_preview_view,
             name="tournament_player_merge_preview"),
        path("players/merges/<int:pk>/undo/", merges.player_merge_undo_view,
             name="tournament_player_merge_undo"),
    ]


@hooks.register("register_admin_menu_item")
def register_import_menu_item():
    """The accreditation officer's import of past tournaments (issue 35)."""
    from django.urls import reverse_lazy
    from wagtail.admin.menu import MenuItem

    from tournaments.permissions import can_accredit

    class OfficerMenuItem(MenuItem):
        def is_shown(self, request):
            return can_accredit(request.user)

    return OfficerMenuItem(_("Import a past tournament"), reverse_lazy("tournament_import"),
                           icon_name="upload", order=330)


@hooks.register("register_admin_menu_item")
def register_claims_menu_item():
    """The membership officer's decisions on players claimed by members (issue 35)."""
    from django.urls import reverse_lazy
    from wagtail.admin.menu import MenuItem

    class MembershipMenuItem(MenuItem):
        def is_shown(self, request):
            return request.user.has_perm("tournaments.change_player")

    return MembershipMenuItem(_("Players claimed by members"),
                              reverse_lazy("tournament_player_claims"), icon_name="user",
                              order=306)


@hooks.register("register_admin_menu_item")
def register_merge_menu_item():
    """The membership officer's merge of two players found to be one person (issue 35)."""
    from django.urls import reverse_lazy
    from wagtail.admin.menu import MenuItem

    from tournaments.permissions import can_merge_players

    class MembershipMenuItem(MenuItem):
        def is_shown(self, request):
            return can_merge_players(request.user)

    return MembershipMenuItem(_("Merge players"), reverse_lazy("tournament_player_merge"),
                              icon_name="resubmit", order=307)


def _players_import_kind():  # type: ignore[no-untyped-def]
    from federation.import_views import ImportKind
    from tournaments.permissions import can_import_players
    from tournaments.services import player_import

    return ImportKind(
        kind=player_import.KIND,
        title=_("Import the EMA player register"),
        help=_("The EMA's list of players: EMA number, last name, first name, country. "
               "Players are matched by EMA number; a number of 7 digits lost its leading "
               "zero in a spreadsheet and is read with it."),
        fields=player_import.FIELDS,
        field_labels={"ema_number": _("EMA number"), "last_name": _("Last name"),
                      "first_name": _("First name"), "country": _("Country")},
        allowed=can_import_players,
        run_import=player_import.players_import,
        describe=player_import.describe,
    )


def _tournaments_import_kind():  # type: ignore[no-untyped-def]
    """The past tournaments' import: its own page (the tournament's fields, the mapping, the
    review), its reports kept and answered as every import's (decision 0815)."""
    from federation.import_views import ImportKind
    from tournaments.permissions import can_accredit
    from tournaments.services import imports as tournament_imports
    from tournaments.views.imports import field_labels

    return ImportKind(
        kind=tournament_imports.KIND,
        title=_("Import a past tournament"),
        help=_("Final standings of a past tournament, at home or abroad."),
        fields=tournament_imports.FIELDS,
        field_labels=field_labels(),
        allowed=can_accredit,
        run_import=None,
        describe=tournament_imports.describe,
        page="tournament_import",
    )


@hooks.register("register_admin_menu_item")
def register_players_import_menu_item():
    from django.urls import reverse
    from wagtail.admin.menu import MenuItem

    from tournaments.permissions import can_import_players

    class ImportMenuItem(MenuItem):
        def is_shown(self, request):
            return can_import_players(request.user)

    return ImportMenuItem(_("Import EMA players"), reverse("import_upload", args=["players"]),
                          icon_name="upload", order=316)


@hooks.register("register_admin_menu_item")
def register_entry_fees_menu_item():
    """The treasurer's view of entry fees (what each tournament collected, what is open)."""
    from django.urls import reverse_lazy
    from wagtail.admin.menu import MenuItem

    class TreasurerMenuItem(MenuItem):
        def is_shown(self, request):
            return request.user.has_perm("federation.view_duesinvoice")

    return TreasurerMenuItem(
        _("Entry fees"), reverse_lazy("tournaments:entry_fees"), icon_name="list-ul", order=315
    )


def tournament_tasks(user) -> list:
    """The accreditation officer's line on the admin's home page: tournaments to decide."""
    from django.urls import reverse

    from core.admin_dashboard import Task
    from tournaments.models import Tournament
    from tournaments.permissions import can_accredit

    if not can_accredit(user):
        return []
    waiting = Tournament.objects.filter(state=Tournament.State.SUBMITTED).count()
    return [Task(str(_("Tournaments awaiting accreditation")), waiting,
                 reverse("tournament_admin:index") + "?state=submitted")]

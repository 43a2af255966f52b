"""Who may do what with tournaments: the two roles, their permissions, and one question
per kind of decision (views, the API and the admin ask these, never the strings)."""

from __future__ import annotations

from typing import Any

ORGANIZE = "tournaments.organize_tournament"
ACCREDIT = "tournaments.accredit_tournament"
IMPORT_PLAYERS = "tournaments.import_players"

ROLE_ORGANIZER = "Tournament organizer"
ROLE_OFFICER = "Accreditation officer"

ROLE_PERMISSIONS: dict[str, list[str]] = {
    ROLE_ORGANIZER: [ORGANIZE],
    ROLE_OFFICER: [
        "wagtailadmin.access_admin",
        ACCREDIT,
        "tournaments.view_tournament",
        "tournaments.view_accreditation",
        "tournaments.view_registration",
        "tournaments.view_player",
        # the EMA player register (decision 0316), as the membership officer
        IMPORT_PLAYERS,
        # the monthly rating list is published by the official who accredits the
        # tournaments behind it (decision 0804)
        "ratings.publish_ratingperiod",
        # the federation's qualification lists for championships (decision 0842)
        "ratings.view_qualificationlist",
        "ratings.add_qualificationlist",
        "ratings.change_qualificationlist",
        "ratings.delete_qualificationlist",
    ],
}


def can_accredit(user: Any) -> bool:
    """An accreditation officer (or a superuser): sees every tournament, decides, corrects."""
    return bool(user.is_authenticated and user.has_perm(ACCREDIT))


def can_import_players(user: Any) -> bool:
    """May import the EMA player register: an accreditation or a membership officer."""
    return bool(user.is_authenticated and user.has_perm(IMPORT_PLAYERS))


def can_merge_players(user: Any) -> bool:
    """May merge two players and decide the members' claims of players: the membership
    officer (who edits players: ``tournaments.change_player``), or a superuser."""
    return bool(user.is_authenticated and user.has_perm("tournaments.change_player"))


def can_organize(user: Any) -> bool:
    """May create tournaments (and manage their own)."""
    return bool(user.is_authenticated and user.has_perm(ORGANIZE))


def is_organizer(user: Any, tournament: Any) -> bool:
    """Is this tournament's own organizer (its pages and calls that only they may use:
    players, seating, results, penalties, the entrants' contact details)."""
    return bool(user.is_authenticated and tournament.organizer_id == user.pk)


def can_manage(user: Any, tournament: Any) -> bool:
    """May change this tournament: its organizer, or an accreditation officer."""
    return is_organizer(user, tournament) or can_accredit(user)

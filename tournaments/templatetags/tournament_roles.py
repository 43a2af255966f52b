"""Who the reader is to a tournament, for the pages' templates: the same questions as
``tournaments.permissions``."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.permissions import is_organizer

register = template.Library()


@register.filter
def organized_by(tournament: Any, user: Any) -> bool:
    """``{% if tournament|organized_by:request.user %}``: the tournament's own organizer
    (no one when the template has no request: the user is then the empty string)."""
    return bool(user) and is_organizer(user, tournament)

"""Places under the maximum: how many are taken, how many are left (decisions 0706, 0716)."""

from __future__ import annotations

from tournaments.models import Tournament


def places_taken(tournament: Tournament) -> int:
    """The places held (decisions 0706, 0716): entries entered or confirmed, and the players
    the organizer registered by hand (not substitutes; a registration made from an entry
    counts once, as its entry)."""
    from tournaments.models import Entry

    held = tournament.entries.filter(status__in=Entry.HOLDING).count()
    by_hand = tournament.registrations.filter(substitute=False, entry__isnull=True).count()
    return held + by_hand


def places_left(tournament: Tournament) -> int | None:
    if tournament.max_players is None:
        return None
    return max(tournament.max_players - places_taken(tournament), 0)

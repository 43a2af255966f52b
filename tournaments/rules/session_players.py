"""Who plays which session: the players who must have a seat in it and those who may,
from the registrations, the withdrawals (a player leaves from a session on), the
substitutes and the absences (docs/decisions/0712-withdrawals-and-substitutes.md,
docs/decisions/0715-penalties-absences-hidden-standings.md)."""

from __future__ import annotations

from collections.abc import Collection, Mapping


def expected_players(
    session: int,
    *,
    registered: Collection[int],
    withdrawn: Mapping[int, int],
    substitutes: Collection[int],
    absent: Mapping[int, Collection[int]] | None = None,
) -> set[int]:
    """The players who must have a seat in ``session``: registered, not substitutes, not
    withdrawn from that session or an earlier one, and not absent for it (``absent``:
    session -> the players who miss it)."""
    away = (absent or {}).get(session, ())
    return {
        p for p in registered
        if p not in substitutes and (p not in withdrawn or session < withdrawn[p])
        and p not in away
    }


def allowed_players(
    session: int, *, registered: Collection[int], withdrawn: Mapping[int, int],
    absent: Mapping[int, Collection[int]] | None = None,
) -> set[int]:
    """The players who may have a seat in ``session`` (substitutes included)."""
    away = (absent or {}).get(session, ())
    return {p for p in registered
            if (p not in withdrawn or session < withdrawn[p]) and p not in away}

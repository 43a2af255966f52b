"""PURE: which session the room screen shows when the organizer does not name one
(decision 0731)."""

from __future__ import annotations

from collections.abc import Collection, Mapping


def current_session(sessions: int, *, running: Collection[int],
                    seated: Mapping[int, int], entered: Mapping[int, int]) -> int:
    """The session of the room screen: the one whose clock runs (the last, if several);
    else the first session drawn with a table still without results (``seated``: session
    -> tables drawn, ``entered``: session -> tables with results); else the last session
    with results; else the first."""
    live = [s for s in running if 1 <= s <= sessions]
    if live:
        return max(live)
    for session in sorted(seated):
        if 1 <= session <= sessions and entered.get(session, 0) < seated[session]:
            return session
    done = [s for s, tables in entered.items() if tables and 1 <= s <= sessions]
    if done:
        return max(done)
    return 1

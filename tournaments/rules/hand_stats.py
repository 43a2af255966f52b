"""What a tournament's hands say about each player: wins, self-drawn wins, deal-ins, points,
the largest hand, the fans scored, the most wins in one session and the longest run of
wins (issue 40; decision 0735).

Pure: it reads the score sheet lines the results service stored (one per hand, in the
order they were played at each table) and who sat at each table, and counts. A line is a
win (a winner; a discarder unless self-drawn), a draw, or a transferred penalty (not a
hand: left out). A hand is *played* by the four players seated at its table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

WIN = "win"
DRAW = "draw"


@dataclass(frozen=True, slots=True)
class HandLine:
    """One stored hand: where it was played, its kind, who won and who paid as discarder."""

    key: int  # the stored hand's id, to find it again
    session: int
    table: int
    number: int
    kind: str
    winner: int | None
    discarder: int | None
    points: int | None
    fans: tuple[str, ...] = ()


@dataclass(slots=True)
class PlayerTally:
    """One player's hands in one tournament."""

    hands_played: int = 0
    hands_won: int = 0
    self_drawn: int = 0
    dealt_in: int = 0
    points_won: int = 0
    largest_points: int | None = None
    largest_hand: int | None = None  # HandLine.key
    best_session_wins: int = 0
    longest_streak: int = 0
    fans: Counter[str] = field(default_factory=Counter)


def tally(
    hands: Iterable[HandLine], seats: Mapping[tuple[int, int], Iterable[int]]
) -> dict[int, PlayerTally]:
    """Per player: what their hands say. ``seats`` maps (session, table) to the players
    seated there; a hand at a table nobody is seated at counts for its winner and
    discarder only."""
    tallies: dict[int, PlayerTally] = {}
    by_table: dict[tuple[int, int], list[HandLine]] = {}
    for hand in hands:
        if hand.kind not in (WIN, DRAW):
            continue
        by_table.setdefault((hand.session, hand.table), []).append(hand)
    for (session, table), lines in by_table.items():
        lines.sort(key=lambda h: h.number)
        at_table = set(seats.get((session, table), ()))
        at_table |= {p for h in lines for p in (h.winner, h.discarder) if p is not None}
        wins: Counter[int] = Counter()
        streak: Counter[int] = Counter()
        for player in at_table:
            tallies.setdefault(player, PlayerTally()).hands_played += len(lines)
        for hand in lines:
            for player in at_table:
                if hand.kind == WIN and hand.winner == player:
                    streak[player] += 1
                    mine = tallies[player]
                    mine.longest_streak = max(mine.longest_streak, streak[player])
                else:
                    streak[player] = 0
            if hand.kind != WIN or hand.winner is None:
                continue
            winner = tallies[hand.winner]
            winner.hands_won += 1
            wins[hand.winner] += 1
            points = hand.points or 0
            winner.points_won += points
            if hand.discarder is None:
                winner.self_drawn += 1
            else:
                tallies[hand.discarder].dealt_in += 1
            if hand.points is not None and (winner.largest_points is None
                                            or hand.points > winner.largest_points):
                winner.largest_points, winner.largest_hand = hand.points, hand.key
            winner.fans.update(hand.fans)
        for player, count in wins.items():
            mine = tallies[player]
            mine.best_session_wins = max(mine.best_session_wins, count)
    return tallies


def share(part: int, whole: int) -> float | None:
    """``part / whole`` as a fraction of one, or none when there is nothing to divide."""
    return part / whole if whole else None

"""Confirmed tournaments with results, written straight into the tournaments' tables; a
confirmed tournament's final standings are stored by the service the confirmation uses."""

from __future__ import annotations

import random
from datetime import date, timedelta

from tests.factories import UserFactory
from tournaments.models import Player, Registration, TableResult, Tournament
from tournaments.services import tournament_results_store

SEATS = "ESWN"


def players(n: int, *, country: str = "RU", prefix: str = "Player") -> list[Player]:
    return [
        Player.objects.create(name_latin=f"{prefix} {i:03d}", country=country)
        for i in range(1, n + 1)
    ]


def confirmed_tournament(
    people: list[Player],
    end: date,
    *,
    sessions: int = 6,
    seed: int = 1,
    name: str | None = None,
    state: str = Tournament.State.RESULTS_CONFIRMED,
    ruleset: str = Tournament.Ruleset.MCR,
) -> Tournament:
    rng = random.Random(seed)
    tournament = Tournament.objects.create(
        name=name or f"Open {end:%Y-%m} #{seed}",
        start_date=end - timedelta(days=1),
        end_date=end,
        city="Moscow",
        country="RU",
        organizer=UserFactory(),
        ruleset=ruleset,
        sessions=sessions,
        planned_players=len(people),
        state=state,
    )
    for number, player in enumerate(people, start=1):
        Registration.objects.create(tournament=tournament, player=player, number=number)
    rows = []
    for session in range(1, sessions + 1):
        order = people[:]
        rng.shuffle(order)
        for t in range(len(order) // 4):
            points = [rng.choice([-40, -16, -8, 0, 8, 16, 24, 48]) for _ in range(3)]
            points.append(-sum(points))
            for seat, player, gp in zip(SEATS, order[4 * t : 4 * t + 4], points, strict=True):
                rows.append(
                    TableResult(
                        tournament=tournament,
                        session=session,
                        table=t + 1,
                        seat=seat,
                        player=player,
                        game_points=gp,
                    )
                )
    TableResult.objects.bulk_create(rows)
    if state == Tournament.State.RESULTS_CONFIRMED:
        tournament_results_store(tournament)
    return tournament

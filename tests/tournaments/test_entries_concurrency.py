"""Two people enter for the last place at the same moment (PostgreSQL): exactly one gets
it, the other waits."""

from __future__ import annotations

import threading
from datetime import timedelta
from decimal import Decimal

import pytest
from django.db import connection, connections

from federation import selectors as federation_selectors
from tournaments import services
from tournaments.models import Entry

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("row locks (select_for_update) need PostgreSQL; SQLite serialises writers")


def test_exactly_one_gets_the_last_place(make_tournament, make_user):
    today = federation_selectors.today()
    t = make_tournament("accredited", start_date=today + timedelta(days=30),
                        end_date=today + timedelta(days=30), max_players=1,
                        fee_other=Decimal("10.00"), currency="EUR")
    users = [make_user(), make_user(), make_user()]
    barrier = threading.Barrier(len(users))
    outcomes: list[str] = []

    def enter(user):
        try:
            barrier.wait()
            entry = services.entry_create(tournament=t, user=user, first_name="A",
                                          last_name=f"B{user.pk}", country="NL")
            outcomes.append(entry.status)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=enter, args=(u,)) for u in users]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["entered", "waiting", "waiting"]
    assert Entry.objects.filter(tournament=t, status="entered").count() == 1
    assert Entry.objects.filter(tournament=t, invoice__isnull=False).count() == 1

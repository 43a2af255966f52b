"""In a real browser: what a place would do, the EMA quotas and a qualification list, at
desktop and phone width in English and Russian (screenshots in /tmp/ema-quotas-*.png)."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest

from tests.browser import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _season():
    from django.utils import timezone

    from ratings.rankings import ema_base_ranks_store
    from ratings.services import ratings_recompute
    from tests.tournaments.confirmed_results import confirmed_tournament
    from tournaments.models import Player, Tournament

    people = [Player.objects.create(name_latin=f"{first} {last}", country=country)
              for first, last, country in [
                  ("Anna", "de Vries", "NL"), ("Pierre", "Dubois", "FR"),
                  ("Olga", "Petrova", "RU"), ("Wang", "Lei", "CN"),
                  ("Jan", "Bakker", "NL"), ("Sophie", "Martin", "FR"),
                  ("Li", "Na", "CN"), ("Emma", "Visser", "NL")]]
    today = timezone.localdate()
    for i, days in enumerate((20, 50, 90)):
        t = confirmed_tournament(people, today - timedelta(days=days), seed=i + 1,
                                 name=f"Euro Open {i + 1}")
        Tournament.objects.filter(pk=t.pk).update(mers=True, mers_weight=Decimal("2"))
        ema_base_ranks_store(tournament_ids=[t.pk])
    ratings_recompute(ruleset="mcr")
    return people


def test_pages_at_two_widths_in_two_languages(browser, live_server, transactional_db):
    from django.utils import timezone

    from ratings.models import QualificationList
    from tests.factories import UserFactory
    from tournaments.models import Registration, Tournament

    people = _season()
    today = timezone.localdate()
    staff = UserFactory(is_staff=True, is_superuser=True)
    t = Tournament.objects.create(
        name="Winter Open", start_date=today + timedelta(days=20),
        end_date=today + timedelta(days=21), city="Utrecht", country="NL",
        organizer=staff, ruleset="mcr", sessions=6, planned_players=8,
        state=Tournament.State.ACCREDITED, mers=True, mers_weight=Decimal("2"))
    for n, p in enumerate(people, start=1):
        Registration.objects.create(tournament=t, player=p, number=n)
    ql = QualificationList.objects.create(name="OEMC 2027", rule="ema", seats=3, reserves=2,
                                          published=True)
    pages = {
        "what-if": f"/ratings/tournaments/{t.pk}/what-if/{people[0].pk}/",
        "quotas": "/ratings/ema/quotas/?seats=12",
        "qualification": f"/ratings/qualification/{ql.pk}/",
    }
    for lang in ("en", "ru"):
        for width in (1280, 390):
            context = browser.new_context(base_url=live_server.url,
                                          viewport={"width": width, "height": 900})
            page = context.new_page()
            log_in(page, staff.email)
            for name, path in pages.items():
                page.goto(f"/{lang}{path}")
                assert page.locator("table.rating-table tbody tr").count() >= 3, name
                page.screenshot(path=f"/tmp/ema-quotas-{name}-{lang}-{width}.png",
                                full_page=True)
            context.close()

"""In a real browser: the EMA ranking and the calculation on a player's page, at desktop
and phone width (screenshots in test-artifacts/ratings/)."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "ratings"


def _mers_season():
    from decimal import Decimal

    from ratings.rankings import ema_base_ranks_store
    from tests.tournaments.confirmed_results import confirmed_tournament
    from tournaments.models import Player
    from tournaments.services import tournament_mers_set

    people = [Player.objects.create(name_latin=f"{first} {last}", country=country)
              for first, last, country in [
                  ("Anna", "de Vries", "NL"), ("Pierre", "Dubois", "FR"),
                  ("Olga", "Petrova", "RU"), ("Wang", "Lei", "CN"),
                  ("Jan", "Bakker", "NL"), ("Sophie", "Martin", "FR"),
                  ("Li", "Na", "CN"), ("Emma", "Visser", "NL")]]
    today = date.today()
    for i, (days, weight) in enumerate([(20, "2.5"), (150, "1"), (400, "3"), (600, "1.5")]):
        t = confirmed_tournament(people[i % 2:] + people[: i % 2], today - timedelta(days=days),
                                 seed=i + 1, name=f"Euro Open {i + 1}")
        ema_base_ranks_store(tournament_ids=[t.pk])  # what confirming the results does
        tournament_mers_set(tournament=t, user=t.organizer, mers=True, mers_weight=Decimal(weight),
                           reason="as the EMA gave it")
    return people


def test_ema_list_and_calculation(browser, live_server, transactional_db):
    people = _mers_season()
    for width, label in ((1280, "desktop"), (390, "phone")):
        context = browser.new_context(base_url=live_server.url,
                                      viewport={"width": width, "height": 900})
        page = context.new_page()
        page.goto("/en/ratings/ema/")
        assert page.locator("table.rating-table tbody tr").count() == 8
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"ema-list-{label}.png"), full_page=True)
        page.goto(f"/en/ratings/players/{people[0].pk}/")
        assert page.locator("table.ema-calculation tbody tr").count() == 5
        page.locator("#ema-heading").scroll_into_view_if_needed()
        page.screenshot(path=str(ARTIFACTS / f"ema-player-{label}.png"), full_page=True)
        context.close()


def test_ema_country_ranking_page(browser, live_server, transactional_db):
    """The country ranking (decision 0832) from the EMA ranking's link, in English and
    Russian, at desktop and phone width (screenshots in /tmp/ema-exact-*.png)."""
    _mers_season()
    for language, title in (("en", "EMA country ranking"), ("ru", "Рейтинг стран EMA")):
        for width in (1280, 390):
            context = browser.new_context(base_url=live_server.url,
                                          viewport={"width": width, "height": 900})
            page = context.new_page()
            page.goto(f"/{language}/ratings/ema/?ruleset=mcr")
            page.get_by_test_id("ema-countries-link").click()
            page.wait_for_url("**/ratings/ema/countries/**")
            assert title in page.locator("h1").inner_text()
            rows = page.locator("[data-testid=ema-countries] tbody tr")
            assert rows.count() == 4  # NL, FR, RU, CN
            # nothing wider than the phone's screen but the table's own scroller
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            page.screenshot(path=f"/tmp/ema-exact-countries-{language}-{width}.png",
                            full_page=True)
            context.close()

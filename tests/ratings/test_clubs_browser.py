"""In a real browser: from the rating list to the club ranking, then a club's page, at
desktop and phone width, in English and Russian (screenshots in the system's temporary
folder, clubs/)."""

from __future__ import annotations

import re
import tempfile
from datetime import date
from pathlib import Path

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(tempfile.gettempdir()) / "clubs"


def _clubs():
    from federation import selectors as federation_selectors
    from federation.models import Club, Member, MembershipType
    from ratings.services import ratings_recompute
    from tests.factories import UserFactory
    from tests.tournaments.confirmed_results import confirmed_tournament
    from tournaments.models import Player

    honorary, _ = MembershipType.objects.get_or_create(kind="honorary",
                                                       defaults={"is_free": True})
    clubs = [
        Club.objects.create(name="Tulip Tiles", city="Amsterdam",
                            public_contact="Tuesdays 19:00 · tiles@example.org"),
        Club.objects.create(name="Neva Dragons", city="Saint Petersburg",
                            website="https://example.org/dragons"),
        Club.objects.create(name="Vent d'Est", city="Paris"),
    ]
    names = ["Anna de Vries", "Jan Bakker", "Emma Visser", "Sanne Jansen", "Olga Petrova",
             "Ivan Sokolov", "Elena Lebedeva", "Marie Dubois", "Luc Martin", "Hugo Petit",
             "Camille Bernard", "Pieter Smit"]
    people = []
    for i, name in enumerate(names):
        member = Member.objects.create(
            user=UserFactory(), name_native=name, name_latin=name, membership_type=honorary,
            application=Member.Application.APPROVED, membership_number=7000 + i,
            joined_on=federation_selectors.today(), club=clubs[i % 3],
            public_consent=name != "Pieter Smit")
        people.append(Player.objects.create(name_latin=name, country="NL", member=member))
    for month in (1, 3, 5, 7, 9):
        t = confirmed_tournament(people, date(2025, month, 10), sessions=8, seed=month,
                                 name=f"Spring Open {month}")
        t.club = clubs[month % 3]
        t.save()
    ratings_recompute()
    return clubs


@pytest.mark.parametrize("language", ["en", "ru"])
def test_club_ranking_and_club_page(browser, live_server, transactional_db, language):
    clubs = _clubs()
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, label in ((1280, "desktop"), (390, "phone")):
        context = browser.new_context(base_url=live_server.url,
                                      viewport={"width": width, "height": 900})
        page = context.new_page()
        page.goto(f"/{language}/ratings/")
        page.locator(f"a[href='/{language}/clubs/?ruleset=mcr']").click()
        page.wait_for_url(re.compile(rf"/{language}/clubs/\?ruleset=mcr$"))
        rows = page.locator("#club-ranking tbody tr")
        assert rows.count() == 3
        # three players counted per club, each linked to their page
        assert rows.first.locator("td.counted a").count() == 3
        # on a phone the counted players are written under the club's name
        inline = rows.first.locator(".counted-inline")
        assert inline.is_visible() == (width < 600)
        assert rows.first.locator("td.counted").is_visible() == (width >= 600)
        assert "Pieter Smit" not in page.content()
        page.screenshot(path=str(SHOTS / f"club-ranking-{language}-{label}.png"),
                        full_page=True)
        page.locator("#club-ranking").get_by_role("link", name="Tulip Tiles").click()
        page.wait_for_url(f"**/{language}/clubs/{clubs[0].pk}/")
        assert page.locator("#club-contact").inner_text() == "Tuesdays 19:00 · tiles@example.org"
        assert page.locator("#club-members-list li").count() == 4
        assert page.locator("#club-ratings-mcr tbody tr").count() == 4
        assert page.locator("#club-tournaments-list li").count() == 2
        page.screenshot(path=str(SHOTS / f"club-page-{language}-{label}.png"), full_page=True)
        context.close()


@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_club_ranking_says_when_it_is_being_updated(browser, live_server, transactional_db,
                                                         language):
    """Decision 0828: after a change the stored ranking is kept with a note until the
    queued job has stored it again; the note fits a phone's width."""
    from django.utils import timezone

    from ratings.models import StoredRanking

    _clubs()
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, label in ((1280, "desktop"), (390, "phone")):
        context = browser.new_context(base_url=live_server.url,
                                      viewport={"width": width, "height": 900})
        page = context.new_page()
        page.goto(f"/{language}/clubs/?ruleset=mcr")  # stores the ranking
        assert page.locator("[data-testid=ranking-updating]").count() == 0
        StoredRanking.objects.filter(kind="club").update(updating_since=timezone.now())
        page.reload()
        note = page.locator("[data-testid=ranking-updating]")
        assert note.is_visible()
        assert ("being updated" if language == "en" else "пересчитывается") in note.inner_text()
        assert page.locator("#club-ranking tbody tr").count() == 3  # the rows stored before
        box = note.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.screenshot(path=str(SHOTS / f"club-ranking-updating-{language}-{label}.png"),
                        full_page=True)
        StoredRanking.objects.filter(kind="club").update(updating_since=None)
        context.close()

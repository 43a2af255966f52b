"""In a real browser: the rating list and a player's page with its chart, at desktop and
phone width, in English and Chinese (screenshots in test-artifacts/ratings/)."""

from __future__ import annotations

import random
import tempfile
from datetime import date
from pathlib import Path

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "ratings"

NAMES = [
    ("Sergei Ivanov", "Сергей Иванов", "RU"),
    ("Anna Smirnova", "Анна Смирнова", "RU"),
    ("Wang Lei", "王磊", "CN"),
    ("Li Na", "李娜", "CN"),
    ("Sophie Martin", "", "FR"),
    ("Jan de Vries", "", "NL"),
    ("Olga Petrova", "Ольга Петрова", "RU"),
    ("Chen Jing", "陈静", "CN"),
    ("Pierre Dubois", "", "FR"),
    ("Daan Bakker", "", "NL"),
    ("Dmitri Sokolov", "Дмитрий Соколов", "RU"),
    ("Zhang Wei", "张伟", "CN"),
    ("Camille Laurent", "", "FR"),
    ("Emma Visser", "", "NL"),
    ("Maria Kuznetsova", "Мария Кузнецова", "RU"),
    ("Liu Yang", "刘洋", "CN"),
]


def _season():
    from ratings.services import ratings_recompute
    from tests.tournaments.confirmed_results import confirmed_tournament
    from tournaments.models import Player

    people = [
        Player.objects.create(name_latin=latin, name_native=native, country=country)
        for latin, native, country in NAMES
    ]
    rng = random.Random(7)
    for i, month in enumerate([1, 2, 4, 5, 7, 9, 10, 12]):
        field = people[:] if i % 3 == 0 else rng.sample(people, 12)
        confirmed_tournament(
            sorted(field, key=lambda p: p.pk),
            date(2025, month, 14),
            sessions=8,
            seed=month,
            name=["Moscow Open", "Beijing Cup", "Paris Riichi-free MCR", "Amsterdam Spring"][i % 4]
            + f" {2025}",
        )
    newcomers = [
        Player.objects.create(name_latin=f"Newcomer {i}", country="DE") for i in range(1, 5)
    ]
    confirmed_tournament(newcomers, date(2025, 12, 20), sessions=6, seed=99, name="Berlin Intro")
    ratings_recompute()
    return people


def _shoot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def test_list_and_player_page_with_chart(browser, live_server, transactional_db):
    people = _season()
    for lang in ("en", "zh-hans"):
        for width, label in ((1280, "desktop"), (390, "phone")):
            context = browser.new_context(
                base_url=live_server.url,
                viewport={"width": width, "height": 900},
                locale="zh-CN" if lang == "zh-hans" else "en-US",
            )
            page = context.new_page()
            page.set_default_timeout(15_000)
            page.goto(f"/{lang}/ratings/")
            assert page.locator("table.rating-table").first.is_visible()
            rows = page.locator("section[aria-labelledby=established-heading] tbody tr")
            assert rows.count() == 16
            provisional = page.locator("section.provisional-section tbody tr")
            assert provisional.count() == 4
            _shoot(page, f"list-{lang}-{label}")

            page.goto(f"/{lang}/ratings/players/{people[2].pk}/")
            # Chart.js drew the history: a chart object is bound to the canvas and it has
            # painted pixels.
            page.wait_for_function(
                "() => window.Chart && Chart.getChart(document.getElementById('rating-chart'))"
            )
            datasets = page.evaluate(
                "() => Chart.getChart(document.getElementById('rating-chart')).data.datasets"
                ".map(d => d.data.length)"
            )
            assert datasets == [12, 12, 12]  # January to December: band top, bottom, line
            painted = page.evaluate(
                """() => {
                    const c = document.getElementById('rating-chart');
                    const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
                    let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
                    return n;
                }"""
            )
            assert painted > 1000
            _shoot(page, f"player-{lang}-{label}")
            context.close()


def test_the_table_fallback_without_javascript(browser, live_server, transactional_db):
    people = _season()
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"/en/ratings/players/{people[0].pk}/")
    page.get_by_text("History as a table").click()
    table = page.locator("details.history-table table")
    assert table.is_visible()
    assert table.locator("tbody tr").count() >= 3
    context.close()


SHOTS = Path(tempfile.gettempdir()) / "i26-shots"


def test_player_lists_come_in_pages(browser, live_server, transactional_db, site_content,
                                                 monkeypatch):
    """A player's tournaments and explained months, and the players a search finds, are
    read page by page with the pagers' links (screenshots in the temporary directory)."""
    monkeypatch.setattr("ratings.views.TOURNAMENTS_PAGE_SIZE", 3)
    monkeypatch.setattr("ratings.views.PERIODS_PAGE_SIZE", 2)
    people = _season()
    SHOTS.mkdir(parents=True, exist_ok=True)
    for lang, older, earlier in (("en", "Older tournaments", "Earlier months"),
                                 ("ru", "Более ранние турниры", "Более ранние месяцы")):
        for width in (1280, 390):
            context = browser.new_context(base_url=live_server.url,
                                          viewport={"width": width, "height": 900})
            page = context.new_page()
            page.set_default_timeout(15_000)
            page.goto(f"/{lang}/ratings/players/{people[0].pk}/")
            rows = page.locator("table.tournament-table").first.locator("tbody tr")
            assert rows.count() == 3
            first_names = rows.all_inner_texts()
            page.screenshot(path=str(SHOTS / f"player-{lang}-{width}.png"), full_page=True)
            page.get_by_role("link", name=older).click()
            page.wait_for_url("**page=2**")
            assert rows.count() == 3 and rows.all_inner_texts() != first_names
            assert page.locator("details.explain").count() == 2
            page.get_by_role("link", name=earlier).click()
            page.wait_for_url("**periods=2**")
            assert "page=2" in page.url  # the other list stays on its page
            assert page.locator("details.explain").count() == 2
            page.screenshot(path=str(SHOTS / f"player-pages-{lang}-{width}.png"),
                            full_page=True)

            context.close()

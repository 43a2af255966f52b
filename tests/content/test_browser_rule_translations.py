"""In a real browser: a Hong Kong chapter in English links the fans it names to their pages,
and the same chapter in French fits a phone's width."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CHAPTERS = ("introduction", "sistema-podscheta-ochkov", "tablitsa-fanov")


@pytest.fixture
def hkos_translated(transactional_db, monkeypatch, tmp_path):
    from content import services
    from rulebook.services import rulebook_data_load

    shutil.copy(Path(__file__).parent / "data/rules/mcr.json", tmp_path / "mcr.json")
    for name in ("hkos.json", "hkos.en.json", "hkos.fr.json"):
        data = json.loads((services.RULES_DIR / name).read_text("utf-8"))
        data["chapters"] = [c for c in data["chapters"] if c["slug"] in CHAPTERS]
        (tmp_path / name).write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    monkeypatch.setattr(services, "RULES_DIR", tmp_path)
    rulebook_data_load()
    services.rulebook_pages_load()


def test_an_english_chapter_links_its_fans_and_the_french_one_fits_a_phone(
    browser_page, hkos_translated
):
    page = browser_page
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto("/en/rules/hkos/sistema-podscheta-ochkov/")
    assert page.locator("h1").inner_text() == "The scoring system of Hong Kong mahjong"
    assert "The project's translation of the Russian edition." in page.content()
    links = page.locator("article a.rb-link-fan")
    assert links.all_inner_texts()[:3] == ["All Pungs", "Half Flush", "All Pungs"]
    assert page.locator('p.rb-book-text[lang="en"]').first.inner_text().startswith(
        "For example, a player may make a self-drawn win")
    links.first.click()
    page.wait_for_url("**/en/rules/hkos/fans/13/")

    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("/fr/rules/hkos/sistema-podscheta-ochkov/")
    assert page.locator("h1").inner_text() == "Le système de points du mahjong de Hong Kong"
    assert page.locator("article a.rb-link-fan").first.inner_text() == "Tout Pung"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390

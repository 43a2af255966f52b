"""Every locale's home page renders in its language and the switcher keeps the page."""

from __future__ import annotations

import re

import pytest
from django.conf import settings

HOME_TITLES = {
    "ru": "Федерация маджонга",
    "en": "Mahjong Federation",
    "zh-hans": "麻将联合会",
    "fr": "Fédération de mahjong",
    "nl": "Mahjongfederatie",
}
# A UI string from the base template, as each catalogue translates it.
SKIP_LINK = {
    "ru": "Перейти к основному содержанию",
    "en": "Skip to main content",
    "zh-hans": "跳到主要内容",
    "fr": "Aller au contenu principal",
    "nl": "Naar de hoofdinhoud",
}

pytestmark = pytest.mark.django_db


def switcher_links(html: str) -> dict[str, str]:
    nav = re.search(r'<nav class="language-switcher".*?</nav>', html, re.S)
    assert nav, "every page has a language switcher"
    return dict(
        (lang, href)
        for href, lang in re.findall(r'<a href="([^"]+)" hreflang="([^"]+)"', nav.group(0))
    )


@pytest.mark.parametrize("code", [code for code, _ in settings.LANGUAGES])
def test_home_page_renders_in_its_language(client, site_content, code):
    response = client.get(f"/{code}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<html lang="{code}"' in html
    assert f"<h1>{HOME_TITLES[code]}</h1>" in html
    assert SKIP_LINK[code] in html
    assert '<main id="main"' in html and 'role="banner"' in html and 'role="contentinfo"' in html


def test_root_redirects_to_a_language(client, site_content):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 302
    assert response["Location"] == "/fr/"


def test_switcher_on_a_page_links_to_its_translations(client, site_content):
    links = switcher_links(client.get("/en/").content.decode())
    assert links == {code: f"/{code}/" for code in HOME_TITLES}


def test_switcher_on_a_translated_subpage_keeps_the_page(client, site_content):
    from wagtail.models import Locale

    from content.models import StandardPage

    about = StandardPage(title="О федерации", slug="o-federacii")
    site_content.add_child(instance=about)
    english_home = site_content.get_translation(Locale.objects.get(language_code="en"))
    about_en = about.copy_for_translation(Locale.objects.get(language_code="en"))
    about_en.title, about_en.slug = "About", "about"
    about_en.save_revision().publish()
    about.save_revision().publish()
    assert about_en.get_parent().pk == english_home.pk

    links = switcher_links(client.get("/ru/o-federacii/").content.decode())
    assert links["en"] == "/en/about/"
    # Not translated yet: the switcher leads to that language's home instead of a 404.
    assert links["fr"] == "/fr/"
    back = switcher_links(client.get("/en/about/").content.decode())
    assert back["ru"] == "/ru/o-federacii/"


def test_switcher_on_a_non_wagtail_page_keeps_the_path(client, site_content):
    links = switcher_links(client.get("/nl/accounts/login/").content.decode())
    assert links["zh-hans"] == "/zh-hans/accounts/login/"
    assert links["ru"] == "/ru/accounts/login/"


def test_load_content_is_idempotent(site_content):
    from content.models import HomePage
    from content.services import site_skeleton_load

    site_skeleton_load()
    assert HomePage.objects.count() == len(HOME_TITLES)
    assert {page.locale.language_code: page.title for page in HomePage.objects.all()} == HOME_TITLES

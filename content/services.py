"""Writes to the page tree: the per-locale skeleton of the site."""

from __future__ import annotations

import json
from pathlib import Path

from django.conf import settings
from django.db import transaction
from wagtail.models import Locale, Page, Site

from content.models import HomePage

DATA_DIR = Path(__file__).resolve().parent / "data"
HOME_SLUG = "home"


def locales_ensure() -> dict[str, Locale]:
    """One Wagtail Locale per configured language."""
    return {
        code: Locale.objects.get_or_create(language_code=code)[0]
        for code, _name in settings.WAGTAIL_CONTENT_LANGUAGES
    }


@transaction.atomic
def site_skeleton_load() -> HomePage:
    """Create (or update) the home page in every language and point the default Site at it.

    Safe to run again: existing pages are updated in place, never duplicated.
    """
    texts = json.loads((DATA_DIR / "home.json").read_text(encoding="utf-8"))
    locales = locales_ensure()
    default_locale = locales[settings.LANGUAGE_CODE]
    root = Page.get_first_root_node()
    if root is None:  # an emptied database (Wagtail's migration normally creates the root)
        root = Page.add_root(instance=Page(title="Root", slug="root", locale=default_locale))

    home = HomePage.objects.filter(depth=2, locale=default_locale).first()
    if home is None:
        # Wagtail's initial migration leaves a placeholder "Welcome" page: replace it.
        placeholder = Page.objects.filter(depth=2, slug="home", content_type__model="page")
        for page in placeholder:
            Site.objects.filter(root_page=page).delete()
            page.delete()
        home = HomePage(slug=HOME_SLUG, locale=default_locale, **texts[settings.LANGUAGE_CODE])
        root.add_child(instance=home)
    _page_update(home, texts[settings.LANGUAGE_CODE])

    for code, locale in locales.items():
        if locale == default_locale:
            continue
        translated = home.get_translation_or_none(locale)
        if translated is None:
            translated = home.copy_for_translation(locale)
        _page_update(translated.specific, texts[code])

    site = Site.objects.filter(is_default_site=True).first()
    if site is None:
        Site.objects.create(hostname="localhost", port=80, root_page=home, is_default_site=True)
    elif site.root_page_id != home.pk:
        site.root_page = home
        site.save()
    return home


def _page_update(page: HomePage, text: dict[str, str]) -> None:
    """Publish the data file's text unless the live page already says exactly that."""
    if page.live and page.title == text["title"] and page.intro == text["intro"]:
        return
    page.title = text["title"]
    page.intro = text["intro"]
    page.save_revision().publish()

"""Template tags shared by every page: the language switcher, the current section."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django import template
from django.conf import settings
from django.urls import translate_url
from django.utils import translation
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@dataclass(frozen=True)
class LanguageLink:
    code: str
    name: str
    url: str
    current: bool


def _translation_urls(page, request) -> dict[str, str]:
    """URL of the translation of a Wagtail page in each language that has one, or of that
    locale's home page. Three queries whatever the number of languages: the locales, the
    live translations, the home pages of the locales left (decision 0005).

    For a routable page's sub-route (e.g. a fan page under the fan table,
    ``/en/rules/mcr/fans/57a/``) the same sub-route of the translation is kept.
    """
    from wagtail.models import Locale, Page

    locales = {locale.pk: locale.language_code for locale in Locale.objects.all()}
    found: dict[str, Page] = {
        locales[p.locale_id]: p
        for p in Page.objects.filter(translation_key=page.translation_key, live=True,
                                     locale_id__in=locales)
    }
    missing = [pk for pk, code in locales.items() if code not in found]
    if missing:
        for root in Page.objects.filter(depth=2, locale_id__in=missing, live=True).order_by(
                "path"):
            found.setdefault(locales[root.locale_id], root)
    own_url = page.get_url(request=request)
    path = getattr(request, "path", "") or ""
    urls = {}
    for code, translation_page in found.items():
        url = translation_page.get_url(request=request)
        if (
            url
            and own_url
            and translation_page.translation_key == page.translation_key
            and path.startswith(own_url)
            and len(path) > len(own_url)
        ):
            url += path[len(own_url):]
        if url:
            urls[code] = url
    return urls


@register.simple_tag(takes_context=True)
def language_links(context) -> list[LanguageLink]:
    """One link per language that leads to the same page in that language."""
    request = context.get("request")
    page = context.get("page")
    current = translation.get_language()
    urls = {}
    if page is not None and hasattr(page, "get_translation_or_none"):
        urls = _translation_urls(page, request)
    links = []
    for code, name in settings.LANGUAGES:
        url = urls.get(code)
        if url is None and request is not None:
            url = translate_url(request.get_full_path(), code)
        links.append(LanguageLink(code=code, name=name, url=url or "/", current=code == current))
    return links


@register.simple_tag(takes_context=True)
def nav_current(context, href: str, section: bool = True) -> SafeString:
    """`` aria-current="page"`` on the main navigation's link to the page shown, and
    `` aria-current="true"`` on the link of the section it is in (``/<lang>/rules/`` for a
    fan page); nothing otherwise. ``section=False`` for a link whose URL starts every
    other one (the home page)."""
    request = context.get("request")
    path = getattr(request, "path", "")
    if path == href:
        return mark_safe(' aria-current="page"')
    if section and path.startswith(href):
        return mark_safe(' aria-current="true"')
    return mark_safe("")


@register.filter
def with_site_name(title: str, site_name: str) -> SafeString:
    """A page's <title>: "Page · Site", or the site's name alone when the page has no title
    or is named like the site (the home page), never "Site · Site". The title comes
    rendered (escaped) from the template."""
    site = conditional_escape(str(site_name).strip())
    title = conditional_escape(title).strip()
    if not title or title == site:
        return mark_safe(site)  # both parts escaped above
    return mark_safe(f"{title} · {site}")  # both parts escaped above


_CYRILLIC = re.compile(r"[\u0400-\u04ff]")
_HAN = re.compile(r"[\u3400-\u9fff]")


@register.filter
def script_lang(text: str) -> str:
    """The language a name written by a person is in, as far as its script tells: "ru"
    for Cyrillic (the one Cyrillic language of the site), "zh" for Chinese characters,
    else "" (unknown). For the ``lang`` of a native name on a page of another language."""
    text = str(text or "")
    if _CYRILLIC.search(text):
        return "ru"
    if _HAN.search(text):
        return "zh"
    return ""

"""Template tags shared by every page: the language switcher, the current section."""

from __future__ import annotations

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


def _page_url_in(page, language_code: str, request) -> str | None:
    """URL of the translation of a Wagtail page, or of that locale's home page.

    For a routable page's sub-route (e.g. a fan page under the fan table,
    ``/en/rules/mcr/fans/57a/``) the same sub-route of the translation is kept.
    """
    from wagtail.models import Locale, Page

    try:
        locale = Locale.objects.get(language_code=language_code)
    except Locale.DoesNotExist:
        return None
    translation_page = page.get_translation_or_none(locale)
    if translation_page is None or not translation_page.live:
        site_root = Page.objects.filter(depth=2, locale=locale, live=True).first()
        translation_page = site_root
    if translation_page is None:
        return None
    url = translation_page.get_url(request=request)
    own_url = page.get_url(request=request)
    path = getattr(request, "path", "") or ""
    if (
        url
        and own_url
        and translation_page.translation_key == page.translation_key
        and path.startswith(own_url)
        and len(path) > len(own_url)
    ):
        url += path[len(own_url):]
    return url


@register.simple_tag(takes_context=True)
def language_links(context) -> list[LanguageLink]:
    """One link per language that leads to the same page in that language."""
    request = context.get("request")
    page = context.get("page")
    current = translation.get_language()
    links = []
    for code, name in settings.LANGUAGES:
        url = None
        if page is not None and hasattr(page, "get_translation_or_none"):
            url = _page_url_in(page, code, request)
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

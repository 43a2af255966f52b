"""``/sitemap.xml``: an index of one section a language (``/sitemap-<language>.xml``), each
the public pages of that language's tree (issue 43: one sitemap of every page of every
language took 72 queries and 1.2 s). Both are cached for ``SITEMAP_CACHE_SECONDS``.

Each language's home page is a translation of the default site's root page and a tree of
its own (a sibling, not a descendant), so Wagtail's sitemap, which walks the site root's
descendants, listed only the Russian pages. A section walks the tree of the root page's
translation in its language; each page still adds its own URLs (a fan table adds its fan
pages).
"""

from __future__ import annotations

from django.conf import settings
from django.db.models import Q
from wagtail.contrib.sitemaps import Sitemap
from wagtail.models import Page


class LanguageSitemap(Sitemap):
    """The live public pages of one language's tree (``language``: set by the subclass)."""

    language = ""

    def items(self):
        roots = self.get_wagtail_site().root_page.get_translations(inclusive=True).filter(
            locale__language_code=self.language)
        under_a_root = Q(pk__in=[])
        for root in roots:
            under_a_root |= Q(path__startswith=root.path)
        return (
            Page.objects.filter(under_a_root)
            .live()
            .public()
            .order_by("path")
            .defer_streamfields()
            .specific()
        )


def language_sitemaps() -> dict[str, type[LanguageSitemap]]:
    """The sitemap index's sections: one a language, named by its code."""
    return {
        code: type(f"LanguageSitemap_{code.replace('-', '_')}", (LanguageSitemap,),
                   {"language": code})
        for code, _name in settings.LANGUAGES
    }

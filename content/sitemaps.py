"""``/sitemap.xml``: the site's public pages in every language.

Each language's home page is a translation of the default site's root page and a tree of
its own (a sibling, not a descendant), so Wagtail's sitemap, which walks the site root's
descendants, listed only the Russian pages. This one walks the root page's translations
too; each page still adds its own URLs (a fan table adds its fan pages).
"""

from __future__ import annotations

from django.db.models import Q
from wagtail.contrib.sitemaps import Sitemap
from wagtail.models import Page


class AllLanguagesSitemap(Sitemap):
    def items(self):
        roots = self.get_wagtail_site().root_page.get_translations(inclusive=True)
        under_a_root = Q()
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

"""Site search (/<lang>/search/): the one search service (content.site_search) rendered as a
page, in the page's language, ranked, 20 results a page."""

from __future__ import annotations

from django.shortcuts import render
from django.utils.translation import get_language

from content.site_search import KINDS, site_search
from core.pagination import page_number


def search(request):
    query = " ".join(request.GET.get("q", "").split())
    kind = request.GET.get("type", "")
    kinds = [kind] if kind in KINDS else list(KINDS)
    number = page_number(request) or 1
    found = site_search(query, language=get_language(), kinds=kinds, page=number) if query else None
    if found is not None and found.count and not found.results:
        # a page past the last (an old link, a typed number): the last page, as the site's
        # other lists do, not "nothing found" under a count of results
        found = site_search(query, language=get_language(), kinds=kinds, page=found.pages)
    return render(
        request,
        "content/search.html",
        {"query": query, "search_query": query, "found": found,
         "kind": kind if kind in KINDS else ""},
    )

"""Site search over the current language's live, public pages (the configured backend)."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.shortcuts import render
from wagtail.models import Locale

from content.search import get_backend

RESULTS_PER_PAGE = 20


def search(request):
    query = request.GET.get("q", "").strip()
    results = get_backend().search(query, locale=Locale.get_active()) if query else []
    paginator = Paginator(results, RESULTS_PER_PAGE)
    return render(
        request,
        "content/search.html",
        {"query": query, "results": paginator.get_page(request.GET.get("page", 1))},
    )

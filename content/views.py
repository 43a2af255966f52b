"""Site search over the current language's pages (Wagtail's configured search backend)."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.shortcuts import render
from wagtail.models import Locale, Page


def search(request):
    query = request.GET.get("q", "").strip()
    results = Page.objects.none()
    if query:
        pages = Page.objects.live().public().filter(locale=Locale.get_active()).specific()
        results = pages.search(query)
    page_number = request.GET.get("page", 1)
    paginator = Paginator(results, 20)
    return render(
        request,
        "content/search.html",
        {"query": query, "results": paginator.get_page(page_number)},
    )

"""Content's endpoints under /api/v1/ (included by config/api_urls.py): the site search."""

from django.urls import path

from content import api

urlpatterns = [
    path("search", api.SearchView.as_view(), name="api-search"),
]

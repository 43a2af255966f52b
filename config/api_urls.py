"""The public REST API, version 1, mounted at /api/v1/ (config.urls).

Each app keeps its endpoints in its own module and is included here. Authentication:
session or "Authorization: Token <key>"; rate limits per settings.REST_FRAMEWORK.
"""

from django.urls import include, path

urlpatterns: list = [
    path("", include("rulebook.api_urls")),
    path("", include("tournaments.api_urls")),
    path("", include("federation.api_urls")),
    path("", include("ratings.api_urls")),
    path("", include("content.api_urls")),
]

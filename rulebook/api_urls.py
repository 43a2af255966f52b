"""/api/v1/ endpoints of the rulebook (included by config/api_urls.py)."""

from django.urls import path

from rulebook import api

urlpatterns = [
    path("fans", api.FanListView.as_view(), name="api-fans"),
    path("examples", api.ExampleListView.as_view(), name="api-examples"),
]

"""Membership's endpoints, included by config/api_urls.py under /api/v1/."""

from django.urls import path

from federation import api

urlpatterns = [
    path("imports/members", api.MembersImportView.as_view(), name="api-imports-members"),
]

"""Membership's endpoints, included by config/api_urls.py under /api/v1/."""

from django.urls import path

from federation import api

urlpatterns = [
    path("imports/members", api.MembersImportView.as_view(), name="api-imports-members"),
    path("imports/<int:pk>/report", api.ImportReportView.as_view(), name="api-import-report"),
    path("imports/<int:pk>/report.csv", api.ImportReportView.as_view(as_csv=True),
         name="api-import-report-csv"),
]

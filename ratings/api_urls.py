"""The rating endpoints, included by config/api_urls.py under /api/v1/."""

from django.urls import path

from ratings.api import PlayerView, RatingListView

urlpatterns = [
    path("ratings", RatingListView.as_view(), name="api-ratings"),
    path("players/<int:pk>", PlayerView.as_view(), name="api-player"),
]

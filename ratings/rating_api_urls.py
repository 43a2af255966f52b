"""The rating endpoints, included by federation/api_v1_urls.py under /api/v1/."""

from django.urls import path

from ratings.rating_api import PlayerView, RatingListView

urlpatterns = [
    path("ratings", RatingListView.as_view(), name="api-ratings"),
    path("players/<int:pk>", PlayerView.as_view(), name="api-player"),
]

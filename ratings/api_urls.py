"""The rating endpoints, included by config/api_urls.py under /api/v1/."""

from django.urls import path

from ratings.api import EmaRankingView, PlayerView, RatingListView

urlpatterns = [
    path("ratings", RatingListView.as_view(), name="api-ratings"),
    path("rankings/ema", EmaRankingView.as_view(), name="api-ema-ranking"),
    path("players/<int:pk>", PlayerView.as_view(), name="api-player"),
]

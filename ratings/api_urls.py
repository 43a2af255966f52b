"""The rating endpoints, included by config/api_urls.py under /api/v1/."""

from django.urls import path

from ratings.api import EmaCountriesView, EmaRankingView, PlayerView, RatingListView
from ratings.quota_views import QuotasView
from ratings.stats_api import AlmanacView, HeadToHeadView, PlayerStatsView
from ratings.what_if_api import WhatIfView

urlpatterns = [
    path("ratings", RatingListView.as_view(), name="api-ratings"),
    path("rankings/ema", EmaRankingView.as_view(), name="api-ema-ranking"),
    path("rankings/ema/quotas", QuotasView.as_view(), name="api-ema-quotas"),
    path("rankings/ema/countries", EmaCountriesView.as_view(), name="api-ema-countries"),
    path("players/<int:pk>", PlayerView.as_view(), name="api-player"),
    path("players/<int:pk>/stats", PlayerStatsView.as_view(), name="api-player-stats"),
    path("players/<int:pk>/head-to-head/<int:other>", HeadToHeadView.as_view(),
         name="api-player-head-to-head"),
    path("tournaments/<int:pk>/what-if", WhatIfView.as_view(), name="api-tournament-what-if"),
    path("fans/<str:ruleset>/almanac", AlmanacView.as_view(), name="api-fan-almanac"),
]

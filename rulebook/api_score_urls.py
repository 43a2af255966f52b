"""The scoring API's URLs, included under /api/v1/ (config/api_urls.py)."""

from django.urls import path

from rulebook.api_score import ScoreBatchView, ScoreView

urlpatterns = [
    path("score", ScoreView.as_view(), name="api-score"),
    path("score/batch", ScoreBatchView.as_view(), name="api-score-batch"),
]

"""The rulebook's endpoints under /api/v1/ (included by config/api_urls.py): the fan
table and the worked examples (``fans_api``), scoring (``score_api``)."""

from django.urls import path

from rulebook import fans_api, score_api

urlpatterns = [
    path("fans", fans_api.FanListView.as_view(), name="api-fans"),
    path("examples", fans_api.ExampleListView.as_view(), name="api-examples"),
    path("score", score_api.ScoreView.as_view(), name="api-score"),
    path("score/batch", score_api.ScoreBatchView.as_view(), name="api-score-batch"),
]

"""Tournament endpoints, included by config/api_urls.py under /api/v1/."""

from django.urls import path

from . import api

urlpatterns = [
    path("tournaments", api.TournamentListView.as_view(), name="api-tournaments"),
    path("tournaments/<int:pk>", api.TournamentDetailView.as_view(), name="api-tournament"),
    path("tournaments/<int:pk>/submit", api.SubmitView.as_view(), name="api-tournament-submit"),
    path("tournaments/<int:pk>/decision", api.DecisionView.as_view(),
         name="api-tournament-decision"),
    path("tournaments/<int:pk>/mers", api.MersView.as_view(), name="api-tournament-mers"),
    path("tournaments/<int:pk>/players", api.PlayersView.as_view(),
         name="api-tournament-players"),
    path("tournaments/<int:pk>/players/<int:player>", api.PlayerView.as_view(),
         name="api-tournament-player"),
    path("tournaments/<int:pk>/players/<int:player>/withdraw", api.WithdrawView.as_view(),
         name="api-tournament-withdraw"),
    path("tournaments/<int:pk>/seating", api.SeatingView.as_view(),
         name="api-tournament-seating"),
    path("tournaments/<int:pk>/results", api.ResultsView.as_view(),
         name="api-tournament-results"),
    path("tournaments/<int:pk>/confirm", api.ConfirmView.as_view(),
         name="api-tournament-confirm"),
    path("tournaments/<int:pk>/correction", api.CorrectionView.as_view(),
         name="api-tournament-correction"),
    path("tournaments/<int:pk>/ema-results", api.EmaResultsView.as_view(),
         name="api-tournament-ema-results"),
    path("tournaments/<int:pk>/sessions/<int:session>", api.SessionView.as_view(),
         name="api-tournament-session"),
    path("tournaments/<int:pk>/entries", api.EntriesView.as_view(),
         name="api-tournament-entries"),
    path("tournaments/<int:pk>/entries/<int:entry>/withdraw", api.EntryWithdrawView.as_view(),
         name="api-tournament-entry-withdraw"),
    path("tournaments/<int:pk>/standings", api.StandingsView.as_view(),
         name="api-tournament-standings"),
]

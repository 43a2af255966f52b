"""Public rating pages, mounted at /<lang>/ratings/."""

from django.urls import path

from ratings import qualification_views, quota_views, stats_views, views, what_if_api

app_name = "ratings"

urlpatterns = [
    path("", views.rating_list, name="list"),
    path("csv/", views.rating_list_csv, name="list_csv"),
    path("history.csv", views.rating_history_csv, name="history_csv"),
    path("publish/", views.rating_publish, name="publish"),
    path("ema/", views.ema_list, name="ema"),
    path("ema/csv/", views.ema_list_csv, name="ema_csv"),
    path("ema/quotas/", quota_views.quotas_page, name="ema_quotas"),
    path("qualification/", qualification_views.qualification_index, name="qualification_index"),
    path("qualification/<int:pk>/", qualification_views.qualification_page,
         name="qualification"),
    path("qualification/<int:pk>/csv/", qualification_views.qualification_csv,
         name="qualification_csv"),
    path("qualification/<int:pk>/xlsx/", qualification_views.qualification_xlsx,
         name="qualification_xlsx"),
    path("ema/countries/", views.ema_countries, name="ema_countries"),
    path("method/", views.method_page, name="method"),
    path("players/<int:pk>/", views.player_page, name="player"),
    path("players/<int:pk>/claim/", views.player_claim, name="player_claim"),
    path("players/<int:pk>/game/", stats_views.player_game_page, name="player_game"),
    path("players/<int:pk>/vs/<int:other>/", stats_views.head_to_head_page,
         name="head_to_head"),
    path("tournaments/<int:pk>/what-if/<int:player>/", what_if_api.what_if_page,
         name="what_if"),
    path("fans/<str:ruleset>/", stats_views.almanac_page, name="almanac"),
]

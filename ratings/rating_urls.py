"""Public rating pages, mounted at /<lang>/ratings/."""

from django.urls import path

from ratings import rating_views

app_name = "ratings"

urlpatterns = [
    path("", rating_views.rating_list, name="list"),
    path("csv/", rating_views.rating_list_csv, name="list_csv"),
    path("publish/", rating_views.rating_publish, name="publish"),
    path("method/", rating_views.method_page, name="method"),
    path("players/<int:pk>/", rating_views.player_page, name="player"),
]

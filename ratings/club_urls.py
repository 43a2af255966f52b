"""Public club pages, mounted at /<lang>/clubs/."""

from django.urls import path

from ratings import club_views

app_name = "club_pages"

urlpatterns = [
    path("", club_views.club_list, name="list"),
    path("<int:pk>/", club_views.club_page, name="detail"),
]

"""Tournament pages, mounted at /<language>/tournaments/ (config.urls)."""

from django.urls import path

from .views import entries as views
from .views import table_entry as table_views

app_name = "tournaments"

urlpatterns = [
    path("", views.calendar, name="calendar"),
    path("new/", views.tournament_new, name="new"),
    path("entry-fees/", views.entry_fees, name="entry_fees"),
    path("results-template.csv", views.results_template, name="results_template"),
    path("<int:pk>/", views.tournament_page, name="detail"),
    path("<int:pk>/standings/", views.standings_page, name="standings"),
    path("<int:pk>/standings.csv", views.standings_csv, name="standings_csv"),
    path("<int:pk>/ema-results.csv", views.ema_results_csv, name="ema_results_csv"),
    path("<int:pk>/ema-results.xlsx", views.ema_results_xlsx, name="ema_results_xlsx"),
    path("<int:pk>/standings.pdf", views.standings_pdf, name="standings_pdf"),
    path("<int:pk>/sessions/<int:session>/tables/", views.table_distribution,
         name="distribution"),
    path("<int:pk>/entrants/", views.entrants, name="entrants"),
    path("<int:pk>/enter/", views.enter, name="enter"),
    path("<int:pk>/entries/", views.entries_manage, name="entries"),
    path("<int:pk>/entries.csv", views.entries_csv, name="entries_csv"),
    path("<int:pk>/entries.xlsx", views.entries_xlsx, name="entries_xlsx"),
    path("<int:pk>/entries/register/", views.entries_register, name="entries_register"),
    path("<int:pk>/entries/<int:entry>/", views.entry_decide, name="entry_decide"),
    path("<int:pk>/entries/<int:entry>/withdraw/", views.entry_withdraw,
         name="entry_withdraw"),
    path("<int:pk>/manage/", views.manage, name="manage"),
    path("<int:pk>/edit/", views.tournament_edit, name="edit"),
    path("<int:pk>/submit/", views.submit, name="submit"),
    path("<int:pk>/confirm/", views.confirm, name="confirm"),
    path("<int:pk>/reveal/", views.reveal, name="reveal"),
    path("<int:pk>/players/", views.players_add, name="players"),
    path("<int:pk>/players/<int:player>/withdraw/", views.withdraw, name="withdraw"),
    path("<int:pk>/players/<int:player>/remove/", views.remove, name="remove"),
    path("<int:pk>/seating/", views.seating, name="seating"),
    path("<int:pk>/sessions/<int:session>/sheet/", views.score_sheet, name="sheet"),
    path("<int:pk>/upload/", views.upload, name="upload"),
    path("<int:pk>/sessions/<int:session>/", table_views.session_view, name="session"),
    path("<int:pk>/sessions/<int:session>/tables.pdf", table_views.session_codes_pdf,
         name="session_codes_pdf"),
    path("<int:pk>/sessions/<int:session>/clock/", table_views.clock_screen, name="clock"),
    path("table/<str:token>/", table_views.table_page, name="table"),
    path("table/<str:token>/score/", table_views.table_score, name="table-score"),
]

"""Tournament pages, mounted at /<language>/tournaments/ (config.urls); the views by subject
in tournaments/views/."""

from django.urls import path

from tournaments.views import (
    calendar,
    clock,
    entries,
    hands,
    lifecycle,
    penalties,
    players,
    results,
    seating,
    standings,
    table_entry,
)

app_name = "tournaments"

urlpatterns = [
    path("", calendar.calendar, name="calendar"),
    path("new/", lifecycle.tournament_new, name="new"),
    path("entry-fees/", entries.entry_fees, name="entry_fees"),
    path("results-template.csv", results.results_template, name="results_template"),
    path("<int:pk>/", calendar.tournament_page, name="detail"),
    path("<int:pk>/standings/", standings.standings_page, name="standings"),
    path("<int:pk>/standings.csv", standings.standings_csv, name="standings_csv"),
    path("<int:pk>/ema-results.csv", standings.ema_results_csv, name="ema_results_csv"),
    path("<int:pk>/ema-results.xlsx", standings.ema_results_xlsx, name="ema_results_xlsx"),
    path("<int:pk>/hands/", hands.hands_page, name="hands"),
    path("<int:pk>/hands.csv", hands.prizes_csv, name="hands_csv"),
    path("<int:pk>/standings.pdf", standings.standings_pdf, name="standings_pdf"),
    path("<int:pk>/sessions/<int:session>/tables/", seating.table_distribution,
         name="distribution"),
    path("<int:pk>/entrants/", entries.entrants, name="entrants"),
    path("<int:pk>/enter/", entries.enter, name="enter"),
    path("<int:pk>/entries/", entries.entries_manage, name="entries"),
    path("<int:pk>/entries.csv", entries.entries_csv, name="entries_csv"),
    path("<int:pk>/entries.xlsx", entries.entries_xlsx, name="entries_xlsx"),
    path("<int:pk>/entries/register/", entries.entries_register, name="entries_register"),
    path("<int:pk>/entries/<int:entry>/", entries.entry_decide, name="entry_decide"),
    path("<int:pk>/entries/<int:entry>/withdraw/", entries.entry_withdraw,
         name="entry_withdraw"),
    path("<int:pk>/manage/", lifecycle.manage, name="manage"),
    path("<int:pk>/edit/", lifecycle.tournament_edit, name="edit"),
    path("<int:pk>/submit/", lifecycle.submit, name="submit"),
    path("<int:pk>/confirm/", lifecycle.confirm, name="confirm"),
    path("<int:pk>/reveal/", penalties.reveal, name="reveal"),
    path("<int:pk>/players/", players.players_add, name="players"),
    path("<int:pk>/players/<int:player>/withdraw/", players.withdraw, name="withdraw"),
    path("<int:pk>/players/<int:player>/remove/", players.remove, name="remove"),
    path("<int:pk>/seating/", seating.seating, name="seating"),
    path("<int:pk>/sessions/<int:session>/sheet/", results.score_sheet, name="sheet"),
    path("<int:pk>/sessions/<int:session>/totals/", results.totals_grid, name="totals"),
    path("<int:pk>/upload/", results.upload, name="upload"),
    path("<int:pk>/sessions/<int:session>/", table_entry.session_view, name="session"),
    path("<int:pk>/sessions/<int:session>/tables.pdf", table_entry.session_codes_pdf,
         name="session_codes_pdf"),
    path("<int:pk>/sessions/<int:session>/clock/", clock.clock_screen, name="clock"),
    path("table/<str:token>/", table_entry.table_page, name="table"),
    path("table/<str:token>/score/", table_entry.table_score, name="table-score"),
]

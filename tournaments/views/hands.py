"""A confirmed tournament's hands (issue 40): the biggest hands, the biggest of each
session, the rarest fans, each player's figures and the organizer's prize list (page and
CSV). Public like the standings; nothing before the results are confirmed."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core import csv_export
from rulebook.fan_labels import fan_name_map
from rulebook.links import fan_page_url
from tournaments.models import Tournament
from tournaments.selectors.hand_stats import tournament_hands, tournament_prizes
from tournaments.views._common import _visible

#: The prizes' names, by the codes of ``tournaments.selectors.hand_stats.PRIZE_FIELDS``.
PRIZE_NAMES = {
    "best_hand": gettext_lazy("Best hand"),
    "most_wins": gettext_lazy("Most hands won"),
    "most_self_drawn": gettext_lazy("Most self-drawn wins"),
    "most_wins_in_a_session": gettext_lazy("Most wins in one session"),
    "longest_streak": gettext_lazy("Longest run of wins"),
    "fewest_deal_ins": gettext_lazy("Fewest hands paid as discarder"),
}


def _confirmed(request: HttpRequest, pk: int) -> Tournament:
    tournament = _visible(request, pk)
    if tournament.state != Tournament.State.RESULTS_CONFIRMED:
        raise Http404(_("The hands are shown once the results are confirmed."))
    return tournament


def hands_page(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = _confirmed(request, pk)
    hands = tournament_hands(tournament)
    names = fan_name_map(tournament.ruleset)
    prizes = [(PRIZE_NAMES[p.code], p) for p in tournament_prizes(hands)]
    return render(request, "tournaments/hands.html", {
        "tournament": tournament, "tab": "hands", "hands": hands, "prizes": prizes,
        "names": names,
        "rarest": [(names.get(f, f), fan_page_url(tournament.ruleset, f), n)
                   for f, n in hands.rarest],
    })


def prizes_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """The prize list and every player's figures, for the organizer's prize-giving."""
    tournament = _confirmed(request, pk)
    hands = tournament_hands(tournament)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = (
        f'attachment; filename="tournament-{tournament.pk}-hands.csv"')
    writer = csv_export.writer(response)
    writer.writerow(["prize", "prize_name", "player_id", "player", "value"])
    for prize in tournament_prizes(hands):
        for player in prize.players:
            writer.writerow([prize.code, str(PRIZE_NAMES[prize.code]), player.pk, str(player),
                             prize.value])
    writer.writerow([])
    writer.writerow(["player_id", "player", "hands_played", "hands_won", "self_drawn",
                     "dealt_in", "points_won", "largest_hand", "most_wins_in_a_session",
                     "longest_streak"])
    for row in hands.players:
        writer.writerow([row.player_id, str(row.player), row.hands_played, row.hands_won,
                         row.self_drawn, row.dealt_in, row.points_won,
                         row.largest_points or "", row.best_session_wins, row.longest_streak])
    return response

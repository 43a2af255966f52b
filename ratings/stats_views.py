"""The hand archive's pages (issue 40; decision 0735): a player's game
(``/ratings/players/<id>/game/``), head-to-head (``/ratings/players/<id>/vs/<other>/``) and
the fan almanac with the federation's records (``/ratings/fans/<ruleset>/``)."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ratings.selectors import RULESETS, ruleset_name
from ratings.views import RulesetTab, _pager, _ruleset, _tabs
from rulebook.fan_labels import fan_name_map
from rulebook.links import fan_page_url
from tournaments.models import Player
from tournaments.selectors.hand_stats import (
    fan_almanac,
    frequent_opponents,
    head_to_head,
    player_game,
    player_stats_rulesets,
    records,
)

HEAD_TO_HEAD_PAGE_SIZE = 50
RECORD_NAMES = {
    "largest_hand": gettext_lazy("Largest hand"),
    "most_wins_in_a_session": gettext_lazy("Most wins in one session"),
    "longest_streak": gettext_lazy("Longest run of wins"),
    "most_wins_in_a_tournament": gettext_lazy("Most wins in one tournament"),
}


def _player(pk: int) -> Player | HttpResponsePermanentRedirect:
    player = get_object_or_404(Player, pk=pk)
    if player.merged_into_id is not None:
        return HttpResponsePermanentRedirect(
            reverse("ratings:player_game", args=[player.merged_into_id]))
    return player


def _year(request: HttpRequest) -> int | None:
    text = request.GET.get("year") or ""
    if not text:
        return None
    if not text.isdigit() or not 1900 <= int(text) <= 2100:
        raise Http404(_("The year is a number from 1900 to 2100."))
    return int(text)


def _fans(pairs: list[tuple[str, int]], ruleset: str, limit: int = 15) -> list[dict[str, Any]]:
    names = fan_name_map(ruleset)
    return [{"name": names.get(f, f), "url": fan_page_url(ruleset, f), "count": n}
            for f, n in pairs[:limit]]


def player_game_page(request: HttpRequest, pk: int) -> HttpResponse:
    player = _player(pk)
    if not isinstance(player, Player):
        return player
    played = player_stats_rulesets(player)
    if request.GET.get("ruleset"):
        ruleset = _ruleset(request)
    else:
        ruleset = "mcr" if "mcr" in played or not played else played[0]
    year = _year(request)
    game = player_game(player, ruleset=ruleset, year=year)
    base = reverse("ratings:player_game", args=[player.pk])
    figures, field = game.figures, game.field
    rows = [
        (_("Hands played"), figures.hands_played, field.per_player("hands_played"), None),
        (_("Hands won"), figures.hands_won, field.per_player("hands_won"), figures.win_rate),
        (_("Self-drawn wins"), figures.self_drawn, field.per_player("self_drawn"),
         figures.self_drawn_share),
        (_("Hands paid as discarder"), figures.dealt_in, field.per_player("dealt_in"),
         figures.deal_in_rate),
    ]
    return render(request, "ratings/player_game.html", {
        "player": player, "ruleset": ruleset, "ruleset_name": ruleset_name(ruleset),
        "tabs": _tabs(base, played, ruleset) if len(played) > 1 else [],
        "year": year, "years": game.years, "base": f"{base}?ruleset={ruleset}",
        "game": game, "rows": rows, "names": fan_name_map(ruleset),
        "fans": _fans(game.fans, ruleset),
        "top": max((n for _, n in game.fans), default=1),
        "field_rates": {"win": field.win_rate, "self_drawn": field.self_drawn_share,
                        "deal_in": field.deal_in_rate, "average": field.average_points},
        "opponents": frequent_opponents(player),
    })


def head_to_head_page(request: HttpRequest, pk: int, other: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=pk)
    rival = get_object_or_404(Player, pk=other)
    if player.merged_into_id or rival.merged_into_id:
        return HttpResponsePermanentRedirect(reverse("ratings:head_to_head", args=[
            player.merged_into_id or player.pk, rival.merged_into_id or rival.pk]))
    if player.pk == rival.pk:
        raise Http404(_("Head-to-head compares two different players."))
    h2h = head_to_head(player, rival)
    page = Paginator(h2h.sessions, HEAD_TO_HEAD_PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "ratings/head_to_head.html", {
        "player": player, "rival": rival, "h2h": h2h, "sessions": page.object_list,
        "pager": _pager(request, page, "page", "sessions-heading"),
        "level": h2h.together - h2h.ahead - h2h.behind,
    })


def almanac_page(request: HttpRequest, ruleset: str) -> HttpResponse:
    if ruleset not in RULESETS:
        raise Http404(_("There is no rating list for these rules."))
    years = fan_almanac(ruleset)
    year = _year(request)
    shown = next((y for y in years if y.year == year), years[0] if years else None)
    names = fan_name_map(ruleset)
    fans = [] if shown is None else [
        {"name": names.get(f, f), "url": fan_page_url(ruleset, f), "count": n,
         "share": shown.share(n)} for f, n in shown.fans]
    return render(request, "ratings/almanac.html", {
        "ruleset": ruleset, "ruleset_name": ruleset_name(ruleset),
        "tabs": [RulesetTab(code=c, name=ruleset_name(c), active=c == ruleset,
                            url=reverse("ratings:almanac", args=[c])) for c in RULESETS],
        "years": years, "shown": shown, "fans": fans, "names": names,
        "top": max((f["count"] for f in fans), default=1),
        "records": [(RECORD_NAMES[r.code], r) for r in records(ruleset)],
    })

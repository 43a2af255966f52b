"""Public rating pages: the list of a period (with CSV), a player's page, the method; the
list and the player's page for one ruleset at a time (?ruleset=, default mcr)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import permission_required
from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.views import redirect_to_login
from django.core.cache import cache
from django.core.paginator import Page, Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.template.defaultfilters import floatformat
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import get_format
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core import csv_export
from core.cache_keys import NUMBER, TOKEN, ParameterShapes, page_query_key
from core.countries import country_choices, country_name
from core.dates import implausible_date_message
from core.errors import errors_as_messages
from core.request_limits import bad_parameter_page
from core.shared_pages import shared_page_reader, with_own_account_nav
from federation.models import Club
from ratings.models import DEFAULT_RULESET, RatingPeriod
from ratings.rankings import ema_country_ranking, ema_ranking_store
from ratings.rules import ema
from ratings.rules.method import parse_period, period_first_day, period_label
from ratings.selectors import (
    RULESETS,
    ListEntry,
    ema_player,
    ema_ranking,
    ema_ranking_stored,
    latest_period_with_results,
    list_countries,
    list_periods,
    list_stamp,
    method_config,
    period_explanations,
    period_list,
    player_chart,
    player_current,
    player_history,
    player_months,
    player_rulesets,
    player_tournament_results,
    player_tournaments,
    players_by_id,
    ruleset_history,
    ruleset_name,
    ruleset_or_none,
)
from ratings.services import rating_period_publish
from tournaments.models import Player
from tournaments.services.identity import player_claim as claim_player

PAGE_SIZE = 50
TOURNAMENTS_PAGE_SIZE = 20  # a player's tournaments a page
PERIODS_PAGE_SIZE = 3  # a player's months explained a page
HISTORY_CACHE_SECONDS = 7 * 24 * 3600
#: how long a player's months explained are kept (a new recompute or publication: at once)
EXPLAINED_CACHE_SECONDS = 3600
ACTIVE_MONTHS = 12
# The query parameters the list page reads (_filters, the two pagers): the key of its cached
# rendering is made of these alone, so an invented parameter is the same page (issue 36).
LIST_PARAMETERS: ParameterShapes = {
    "ruleset": TOKEN,
    "period": re.compile(r"\d{4}-\d{2}"),
    "country": re.compile(r"[A-Za-z]{2}"),
    "club": NUMBER,
    "active": re.compile(r"1|on|true"),
    "page": NUMBER,
    "ppage": NUMBER,
}


@dataclass(frozen=True)
class ListFilters:
    ruleset: str
    period: str
    country: str
    club: int | None
    active: bool

    def querystring(self) -> str:
        parts = [f"ruleset={self.ruleset}", f"period={self.period}"]
        if self.country:
            parts.append(f"country={self.country}")
        if self.club:
            parts.append(f"club={self.club}")
        if self.active:
            parts.append("active=1")
        return "&".join(parts)


def _ruleset(request: HttpRequest) -> str:
    ruleset = ruleset_or_none(request.GET.get("ruleset"))
    if ruleset is None:
        raise Http404(_("There is no rating list for these rules."))
    return ruleset


@dataclass(frozen=True)
class RulesetTab:
    code: str
    name: str
    url: str
    active: bool


def _tabs(base_url: str, codes: list[str] | tuple[str, ...], current: str) -> list[RulesetTab]:
    """The switch between the rulesets' lists: one tab per ruleset, in `RULESETS` order."""
    return [
        RulesetTab(code=c, name=ruleset_name(c), url=f"{base_url}?ruleset={c}", active=c == current)
        for c in codes
    ]


def _filters(request: HttpRequest, ruleset: str) -> ListFilters | None:
    period = request.GET.get("period") or latest_period_with_results(ruleset)
    if period is None:
        return None
    try:
        parse_period(period)
    except ValueError as error:
        raise Http404(_("The period must be given as YYYY-MM.")) from error
    if not RatingPeriod.objects.filter(ruleset=ruleset, period=period).exists():
        raise Http404(_("There is no rating list for this period."))
    club_text = request.GET.get("club", "")
    return ListFilters(
        ruleset=ruleset,
        period=period,
        country=request.GET.get("country", "").strip().upper()[:2],
        club=int(club_text) if club_text.isdigit() else None,
        active=request.GET.get("active") in {"1", "on", "true"},
    )


def _filtered(filters: ListFilters) -> list[ListEntry]:
    rows = period_list(filters.period, filters.ruleset)
    if filters.country:
        ids = set(Player.objects.filter(country=filters.country).values_list("pk", flat=True))
        rows = [r for r in rows if r.player_id in ids]
    if filters.club:
        ids = set(
            Player.objects.filter(
                member__club_id=filters.club, member__public_consent=True
            ).values_list("pk", flat=True)
        )
        rows = [r for r in rows if r.player_id in ids]
    if filters.active:
        since = period_label(parse_period(filters.period) - ACTIVE_MONTHS + 1)
        rows = [r for r in rows if r.last_period >= since]
    return rows


@dataclass(frozen=True)
class Row:
    """A list row ready to print: the numbers are whole, so they need no localisation
    (no thousands separator is used), and formatting them here keeps a 200-row page cheap."""

    entry: ListEntry
    player: Player
    url: str
    club: str
    rating: str
    low: str
    high: str
    change: str  # "+12", "−3", "0"; "" for a player's first month
    trend: str  # "up", "down", "same", "new"


def _whole(value: float) -> str:
    return str(round(value))


def _rows(page: Page, players: dict[int, Player], player_url: str) -> list[Row]:
    out = []
    for entry in page.object_list:
        player = players[entry.player_id]
        member = player.member
        club = member.club.name if member and member.public_consent and member.club else ""
        change, trend = "", "new"
        if entry.change is not None:
            moved = round(entry.change)
            change = f"+{moved}" if moved > 0 else (f"−{-moved}" if moved < 0 else "0")
            trend = "up" if moved > 0 else ("down" if moved < 0 else "same")
        out.append(
            Row(
                entry=entry,
                player=player,
                url=player_url.replace("/0/", f"/{player.pk}/"),
                club=club,
                rating=_whole(entry.rating),
                low=_whole(entry.low),
                high=_whole(entry.high),
                change=change,
                trend=trend,
            )
        )
    return out


def rating_list(request: HttpRequest) -> HttpResponse:
    """The list page. Every visitor who cannot publish it gets the same page for the same
    address, so it is kept whole until the next recompute or publication (the key holds the
    stamp); a signed-in visitor gets it with their own account links (issue 43)."""
    signed_in = request.user.is_authenticated
    if signed_in and (not shared_page_reader(request)
                      or request.user.has_perm("ratings.publish_ratingperiod")):
        return _rating_list(request)  # the publish button, a message: rendered for them
    query = page_query_key(request.GET, LIST_PARAMETERS)
    if query is None:
        return _rating_list(request)
    key = f"ratings:page:{list_stamp()}:{get_language()}:{query}"
    cached = cache.get(key)
    if cached is None:
        user = request.user
        request.user = AnonymousUser()  # the page as everyone sees it
        try:
            response = _rating_list(request)
        finally:
            request.user = user
        if response.status_code != 200:
            return _rating_list(request) if signed_in else response
        cached = response.content.decode()
        cache.set(key, cached, timeout=3600)
        if not signed_in:
            return response
    if signed_in:
        return with_own_account_nav(request, cached)
    return HttpResponse(cached)


def _rating_list(request: HttpRequest) -> HttpResponse:
    ruleset = _ruleset(request)
    tabs = _tabs(reverse("ratings:list"), RULESETS, ruleset)
    filters = _filters(request, ruleset)
    if filters is None:
        return render(
            request,
            "ratings/list.html",
            {"filters": None, "tabs": tabs, "ruleset_name": ruleset_name(ruleset)},
        )
    rows = _filtered(filters)
    established = [r for r in rows if not r.provisional]
    provisional = [r for r in rows if r.provisional]
    page = Paginator(established, PAGE_SIZE).get_page(request.GET.get("page"))
    ppage = Paginator(provisional, PAGE_SIZE).get_page(request.GET.get("ppage"))
    ids = [e.player_id for e in page.object_list] + [e.player_id for e in ppage.object_list]
    players = Player.objects.select_related("member__club").in_bulk(ids)
    period_row = RatingPeriod.objects.get(ruleset=ruleset, period=filters.period)
    player_url = reverse("ratings:player", args=[0])
    return render(
        request,
        "ratings/list.html",
        {
            "filters": filters,
            "tabs": tabs,
            "ruleset_name": ruleset_name(ruleset),
            "period": period_row,
            "period_date": period_first_day(parse_period(filters.period)),
            "periods": [
                (p.period, period_first_day(parse_period(p.period)))
                for p in list_periods(ruleset)
            ],
            "countries": _country_choices(list_countries(ruleset)),
            "clubs": Club.objects.order_by("name"),
            "page": page,
            "ppage": ppage,
            "established": _rows(page, players, player_url),
            "provisional": _rows(ppage, players, player_url),
            "established_count": len(established),
            "provisional_count": len(provisional),
            "config": method_config(),
            "can_publish": request.user.has_perm("ratings.publish_ratingperiod"),
        },
    )


def _country_choices(codes: list[str]) -> list[tuple[str, str]]:
    """(code, name in the page's language) of the rated players' countries, in the
    language's alphabetical order; a value that is not a code comes last, as is."""
    return country_choices(codes=codes)


CSV_HEADER = (
    "rank", "player", "name", "country", "club", "rating", "rd", "low", "high", "volatility",
    "games", "provisional", "change",
)
CSV_CHUNK = 1000


def _csv_rows(rows: list[ListEntry]) -> Iterator[list[Any]]:
    """The CSV's lines, the players read a thousand at a time while the file is sent."""
    for start in range(0, len(rows), CSV_CHUNK):
        chunk = rows[start:start + CSV_CHUNK]
        players = Player.objects.select_related("member__club").in_bulk(
            [r.player_id for r in chunk])
        for r in chunk:
            player = players[r.player_id]
            member = player.member
            club = member.club.name if member and member.public_consent and member.club else ""
            yield [
                r.rank,
                r.player_id,
                str(player),
                player.country,
                club,
                repr(r.rating),
                repr(r.rd),
                repr(r.low),
                repr(r.high),
                repr(r.vol),
                r.games,
                "yes" if r.provisional else "no",
                "" if r.change is None else repr(r.change),
            ]


def rating_list_csv(request: HttpRequest) -> HttpResponseBase:
    """The whole list as CSV, streamed (StreamingHttpResponse through core.csv_export)."""
    filters = _filters(request, _ruleset(request))
    if filters is None:
        raise Http404(_("There are no ratings yet."))
    return csv_export.csv_stream(
        f"ratings-{filters.ruleset}-{filters.period}.csv", CSV_HEADER, _csv_rows(_filtered(filters))
    )


HISTORY_CSV_HEADER = (
    "player", "name", "country", "period", "rating", "rd", "low", "high", "volatility",
    "games", "change",
)


def _history_csv_rows(ruleset: str) -> Iterator[list[Any]]:
    for row in ruleset_history(ruleset, chunk=CSV_CHUNK):
        m = row.month
        yield [
            row.player.pk, str(row.player), row.player.country, m.period, repr(m.rating),
            repr(m.rd), repr(m.low), repr(m.high), repr(m.vol), m.games,
            "" if m.change is None else repr(m.change),
        ]


def rating_history_csv(request: HttpRequest) -> HttpResponseBase:
    """The whole rating history of a ruleset (every player, every month from their first
    games to the latest list), streamed as CSV."""
    ruleset = _ruleset(request)
    if latest_period_with_results(ruleset) is None:
        raise Http404(_("There are no ratings yet."))
    return csv_export.csv_stream(
        f"rating-history-{ruleset}.csv", HISTORY_CSV_HEADER, _history_csv_rows(ruleset)
    )


@require_POST
@permission_required("ratings.publish_ratingperiod", raise_exception=True)
def rating_publish(request: HttpRequest) -> HttpResponse:
    period = request.POST.get("period", "")
    ruleset = request.POST.get("ruleset") or DEFAULT_RULESET
    with errors_as_messages(request) as outcome:
        rating_period_publish(period=period, ruleset=ruleset, user=request.user)
    if outcome.ok:
        messages.success(
            request, _("The rating list of %(period)s is published.") % {"period": period}
        )
    base = request.path.rsplit("/publish/", 1)[0]
    ruleset = ruleset if ruleset in RULESETS else DEFAULT_RULESET
    return redirect(f"{base}/?ruleset={ruleset}&period={period}")


def _page_url(request: HttpRequest, name: str, number: int, anchor: str) -> str:
    """The same address with `name` set to page `number` (the other parameters kept)."""
    query = request.GET.copy()
    query[name] = str(number)
    return f"?{query.urlencode()}#{anchor}"


def _pager(request: HttpRequest, page: Page, name: str, anchor: str) -> dict[str, Any] | None:
    """Previous and next links of one of the page's lists (None when it has one page)."""
    if not page.has_other_pages():
        return None
    return {
        "number": page.number,
        "total": page.paginator.num_pages,
        "previous": _page_url(request, name, page.previous_page_number(), anchor)
        if page.has_previous() else None,
        "next": _page_url(request, name, page.next_page_number(), anchor)
        if page.has_next() else None,
    }


def _history_table(
    request: HttpRequest, history: list, until: str | None, chart: list
) -> str:
    """The chart's figures as a table, month by month: rendered once and kept in the cache
    under a digest of what it shows (the stored rows, the month it runs to, the method's
    settings, the language), so that a new recompute is a new key (issue 26: a hundred and
    twenty rows at ten years, most of a light player page's cost)."""
    shown = ([(e.period, e.rating, e.rd, e.vol, e.games) for e in history], until,
             repr(method_config()), bool(chart))
    digest = hashlib.sha256(repr(shown).encode()).hexdigest()
    key = f"ratings:history-table:{get_language()}:{digest}"
    html = cache.get(key)
    if html is None:
        months = [
            {"month": m, "date": period_first_day(parse_period(m.period))}
            for m in reversed(player_months(history, until))
        ]
        html = render_to_string("ratings/_history_table.html",
                                {"months": months, "chart": chart}, request)
        cache.set(key, html, timeout=HISTORY_CACHE_SECONDS)
    return mark_safe(html)


@dataclass(frozen=True, slots=True)
class ExplainedLine:
    """A line of a month explained, ready to print (formatted here with the template's own
    filters: a busy player's month has a hundred opponents, three months a page)."""

    opponent_id: int
    name: str  # "" when the opponent is not found
    url: str
    rating: str
    rd: str
    games: int
    score: str
    expected: str


_WHOLE = Decimal(1)
_HUNDREDTHS = Decimal("0.01")
_TENTHS = Decimal("0.1")


def _places(value: float, exp: Decimal, point: str) -> str:
    """``floatformat`` of a number that is not negative, as the template writes it (rounded
    half up from the number's shortest form, no thousands separator), at a fraction of its
    cost: a busy player's three months have a thousand of them."""
    return str(Decimal(repr(value)).quantize(exp, ROUND_HALF_UP)).replace(".", point)


def _explained_line(line: Any, opponent: Player | None, opponent_url: str,
                    point: str) -> ExplainedLine:
    if line.rating < 0 or line.rd < 0 or line.score < 0 or line.expected < 0:  # never
        return ExplainedLine(
            line.opponent_id, str(opponent) if opponent else "",
            opponent_url.replace("/0/", f"/{line.opponent_id}/"), floatformat(line.rating, 0),
            floatformat(line.rd, 0), line.games, floatformat(line.score, -1),
            floatformat(line.expected, 2))
    score = _places(line.score, _TENTHS, ".")
    return ExplainedLine(
        opponent_id=line.opponent_id,
        name=str(opponent) if opponent else "",
        url=opponent_url.replace("/0/", f"/{line.opponent_id}/"),
        rating=_places(line.rating, _WHOLE, point),
        rd=_places(line.rd, _WHOLE, point),
        games=line.games,
        score=score[:-2] if score.endswith(".0") else score.replace(".", point),
        expected=_places(line.expected, _HUNDREDTHS, point),
    )


_EXPLAINED_ROW = ('<tr><td>{}</td><td class="num nowrap">{} <span class="muted">± {}</span>'
                  '</td><td class="num">{}</td><td class="num">{}</td><td class="num">{}</td>'
                  '</tr>')


def _explained_rows(lines: list[ExplainedLine]) -> SafeString:
    """A month's table rows, one an opponent, escaped here in one pass: a busy month has a
    hundred of them, three months a page, and the template's loop over them was half the
    page's time at 10,000 players (issue 43)."""
    return format_html_join("\n", _EXPLAINED_ROW, (
        (format_html('<a href="{}">{}</a>', line.url, line.name) if line.name
         else f"#{line.opponent_id}", line.rating, line.rd, line.games, line.score,
         line.expected)
        for line in lines))


def _explained_months(request: HttpRequest, player: Player, entries: list[Any],
                      own: bool) -> SafeString:
    """The page's months explained game by game (``entries``: the player's stored rows of
    those months), rendered once and kept until the next recompute or publication (the key
    holds the lists' stamp; a renamed opponent shows within EXPLAINED_CACHE_SECONDS): the
    busiest player's three months are a few hundred opponents' lines and most of the page's
    time at 10,000 players (issue 43)."""
    if not entries:
        return mark_safe("")
    key = (f"ratings:explained:{list_stamp()}:{get_language()}:{player.pk}:"
           f"{entries[0].ruleset}:{entries[0].period}:{entries[-1].period}:{own:d}")
    html = cache.get(key)
    if html is not None:
        return mark_safe(html)
    explanations = period_explanations(player, entries)
    opponents = players_by_id(
        {line.opponent_id for lines in explanations.values() for line in lines}
    )
    opponent_url = reverse("ratings:player", args=[0])
    point = get_format("DECIMAL_SEPARATOR")
    periods = []
    for entry in entries:
        lines = sorted(explanations[entry.period], key=lambda line: -line.rating)
        periods.append({
            "entry": entry,
            "date": period_first_day(parse_period(entry.period)),
            "rows": _explained_rows([
                _explained_line(line, opponents.get(line.opponent_id), opponent_url, point)
                for line in lines]),
            "change": entry.rating - entry.rating_before,
        })
    html = render_to_string("ratings/_explained_months.html",
                            {"periods": periods, "own": own}, request)
    cache.set(key, html, timeout=EXPLAINED_CACHE_SECONDS)
    return mark_safe(html)


def player_page(request: HttpRequest, pk: int) -> HttpResponse:
    """A player's rating, history and tournaments. Its two long lists come in pages
    (decision 0809): the tournaments (``?page=``, TOURNAMENTS_PAGE_SIZE newest first) and the
    months explained game by game (``?periods=``, PERIODS_PAGE_SIZE newest first); the chart
    and its table keep every month (one row a month: bounded by the calendar)."""
    player = get_object_or_404(Player.objects.select_related("member__club"), pk=pk)
    if player.merged_into_id is not None:  # a duplicate merged into another player
        return HttpResponsePermanentRedirect(reverse("ratings:player",
                                                     args=[player.merged_into_id]))
    played = player_rulesets(player)
    if request.GET.get("ruleset"):
        ruleset = _ruleset(request)
    else:
        ruleset = DEFAULT_RULESET if DEFAULT_RULESET in played or not played else played[0]
    history = player_history(player, ruleset)
    # the headline is the rating now: the chart's last point, this month's games included
    # (the list shows the months that have ended; issue 38, item 10)
    latest = latest_period_with_results(ruleset)
    if history and (latest is None or history[-1].period > latest):
        latest = history[-1].period
    current = player_current(player, period=latest, ruleset=ruleset) if latest else None
    explained = Paginator(list(reversed(history)), PERIODS_PAGE_SIZE).get_page(
        request.GET.get("periods"))
    member = player.member
    # "you" on one's own page, the third person on anyone else's
    own = bool(member and member.user_id and member.user_id == request.user.pk)
    tournaments = Paginator(player_tournament_results(player, ruleset),
                            TOURNAMENTS_PAGE_SIZE).get_page(request.GET.get("page"))
    shown = player_tournaments(player, ruleset, rows=tournaments.object_list)
    until = current.period if current else None
    chart = player_chart(history, until)
    return render(
        request,
        "ratings/player.html",
        {
            "player": player,
            "ruleset": ruleset,
            "ruleset_name": ruleset_name(ruleset),
            "tabs": _tabs(reverse("ratings:player", args=[player.pk]), played, ruleset),
            "history_table": _history_table(request, history, until, chart),
            "club": member.club if member and member.public_consent and member.club else None,
            "own": own,
            "current": current,
            "current_date": period_first_day(parse_period(current.period)) if current else None,
            "interval_low": current.rating.rating - 2 * current.rating.rd if current else None,
            "interval_high": current.rating.rating + 2 * current.rating.rd if current else None,
            "explained_months": _explained_months(request, player, list(explained.object_list),
                                                  own),
            "periods_pager": _pager(request, explained, "periods", "explain-heading"),
            "tournaments": shown,
            "has_final_only": any(t.final_only for t in shown),
            "can_claim": (not player.member_id and request.user.is_authenticated
                          and getattr(request.user, "member", None) is not None),
            "tournaments_count": tournaments.paginator.count,
            "tournaments_pager": _pager(request, tournaments, "page", "tournaments-heading"),
            "chart": [
                {
                    "period": point.period,
                    "rating": round(point.rating, 2),
                    "low": round(point.rating - 2 * point.rd, 2),
                    "high": round(point.rating + 2 * point.rd, 2),
                    "games": point.games,
                }
                for point in chart
            ],
            "chart_labels": {
                "rating": _("Rating"),
                "band": _("Interval: rating ± 2 RD"),
                "games": _("games"),
            },
            "config": method_config(),
            "ema": _ema_calculation(player, ruleset),
        },
    )


# -- the EMA ranking (MERS, decision 0806) -------------------------------------------------


@dataclass(frozen=True)
class EmaFilters:
    ruleset: str
    on: date
    country: str

    def querystring(self) -> str:
        parts = [f"ruleset={self.ruleset}", f"date={self.on.isoformat()}"]
        if self.country:
            parts.append(f"country={self.country}")
        return "&".join(parts)


def _ema_filters(request: HttpRequest) -> EmaFilters | HttpResponse:
    ruleset = _ruleset(request)
    text = request.GET.get("date")
    try:
        on = date.fromisoformat(text) if text else timezone.localdate()
    except ValueError as error:
        raise Http404(_("The date must be given as YYYY-MM-DD.")) from error
    implausible = implausible_date_message("tournament", on)
    if implausible:  # year 1: the ranking's two-year window cannot even be computed
        return bad_parameter_page(request, "date", implausible)
    country = request.GET.get("country", "").strip().upper()[:2]
    return EmaFilters(ruleset=ruleset, on=on, country=country)


@dataclass(frozen=True, slots=True)
class EmaRow:
    rank: int
    player: Player
    score: Decimal
    part_a: Decimal
    part_b: Decimal
    tournaments: int


def _ema_listing(filters: EmaFilters) -> tuple[Any, list[str], bool]:
    """The rows of the EMA ranking the filters ask for, the countries to filter by, and
    whether the queued job is storing it again (decision 0828): the stored ranking
    (decision 0821) for today, read a page at a time; another day's is computed."""
    if filters.on == timezone.localdate():
        stored = ema_ranking_stored(filters.ruleset, filters.on)
        if stored is None:  # the day's first reader before the nightly job: store it now
            stored = ema_ranking_store(ruleset=filters.ruleset, on=filters.on)
        rows = stored.ema_rows.select_related("player").order_by("rank", "player_id")
        if filters.country:
            rows = rows.filter(player__country=filters.country)
        return rows, list(stored.countries), stored.updating_since is not None
    ranked = ema_ranking(filters.ruleset, filters.on)
    players = Player.objects.in_bulk([r.score.player for r in ranked])
    computed = [EmaRow(r.rank, players[r.score.player], ema.rounded(r.score.score),
                       ema.rounded(r.score.part_a), ema.rounded(r.score.part_b),
                       r.score.tournaments) for r in ranked]
    countries = sorted({p.country for p in players.values() if p.country})
    if filters.country:
        computed = [r for r in computed if r.player.country == filters.country]
    return computed, countries, False


def ema_list(request: HttpRequest) -> HttpResponse:
    """The EMA ranking of a ruleset on a date, paginated, with a country filter."""
    filters = _ema_filters(request)
    if isinstance(filters, HttpResponse):
        return filters
    rows, countries, updating = _ema_listing(filters)
    page = Paginator(rows, PAGE_SIZE).get_page(request.GET.get("page"))
    return render(
        request,
        "ratings/ema_list.html",
        {
            "filters": filters,
            "tabs": _tabs(reverse("ratings:ema"), RULESETS, filters.ruleset),
            "ruleset_name": ruleset_name(filters.ruleset),
            "page": page,
            "rows": list(page.object_list),
            "count": page.paginator.count,
            "countries": _country_choices(countries),
            "updating": updating,
        },
    )


def ema_countries(request: HttpRequest) -> HttpResponse:
    """The EMA country ranking of a ruleset on a date (decision 0832)."""
    filters = _ema_filters(request)
    if isinstance(filters, HttpResponse):
        return filters
    countries = [
        {"rank": c.rank, "code": c.country, "name": country_name(c.country), "score": c.score,
         "players": [{"id": pid, "name": name, "score": score} for pid, name, score in players]}
        for c, players in ema_country_ranking(filters.ruleset, filters.on)
    ]
    return render(request, "ratings/ema_countries.html", {
        "filters": filters,
        "tabs": _tabs(reverse("ratings:ema_countries"), RULESETS, filters.ruleset),
        "ruleset_name": ruleset_name(filters.ruleset),
        "countries": countries,
        "best": ema.COUNTRY_BEST,
    })


def ema_list_csv(request: HttpRequest) -> HttpResponse:
    filters = _ema_filters(request)
    if isinstance(filters, HttpResponse):
        return filters
    rows, _countries, _updating = _ema_listing(filters)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = (
        f'attachment; filename="ema-{filters.ruleset}-{filters.on.isoformat()}.csv"'
    )
    writer = csv_export.writer(response)
    writer.writerow(["rank", "player", "name", "country", "score", "part_a", "part_b",
                     "tournaments"])
    for r in rows:
        writer.writerow([r.rank, r.player.pk, str(r.player), r.player.country, r.score,
                         r.part_a, r.part_b, r.tournaments])
    return response


def _ema_calculation(player: Player, ruleset: str) -> dict[str, object] | None:
    """The player's EMA score today written out, or None without a MERS result."""
    calc = ema_player(player, ruleset, timezone.localdate())
    if not calc.score.tournaments:
        return None
    lines = []
    for c in calc.score.results:
        event = calc.tournaments.get(c.tournament) if c.tournament else None
        lines.append({
            "event": event,
            "place": calc.places.get(c.tournament) if c.tournament else None,
            # as counted: a whole number unless the setting keeps them exact (decision 0831)
            "base_rank": ema.rounded(
                c.base_rank, 2 if calc.config.base_rank_rounding == "exact" else 0),
            "mers_weight": c.mers_weight,
            "age_days": c.age_days,
            "age_factor": ema.rounded(c.age_factor),
            "weight": ema.rounded(c.weight),
            "in_a": c.in_a,
            "in_b": c.in_b,
        })
    return {
        "lines": lines,
        "count_a": calc.score.count_a,
        "count_b": calc.score.count_b,
        "part_a": ema.rounded(calc.score.part_a),
        "part_b": ema.rounded(calc.score.part_b),
        "score": ema.rounded(calc.score.score),
        "listed": calc.score.listed,
        "tournaments": calc.score.tournaments,
        "min_results": calc.config.min_results,
        "on": timezone.localdate(),
    }


def method_page(request: HttpRequest) -> HttpResponse:
    return render(request, "ratings/method.html", {"config": method_config()})


@require_POST
def player_claim(request: HttpRequest, pk: int) -> HttpResponse:
    """A member says "this is me" (decision 0811); the membership officer decides."""
    player = get_object_or_404(Player, pk=pk)
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("ratings:player", args=[pk]))
    with errors_as_messages(request) as outcome:
        claim_player(player=player, user=request.user)
    if outcome.ok:
        messages.success(request, _("Thank you: the membership officer will confirm that "
                                    "this player is you."))
    return redirect("ratings:player", pk=pk)

"""Players: those the public pages show, the search by name, a tournament's registrations."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Count, Exists, OuterRef, Q, QuerySet

from rulebook.search_text import name_key, search_fold
from tournaments.models import PUBLIC_STATES, Player, Registration, Tournament


def _every_folded_word_in_name(query: str) -> Q:
    """Each word of the query, folded, in the player's folded names (``name_search``): any
    case in every script and with or without accents, on SQLite too (decision 0525)."""
    condition = Q()
    for word in search_fold(query).split():
        condition &= _name_word_condition(word)
    return condition


def _name_word_condition(word: str) -> Q:
    """The folded word anywhere in the names, or its transliteration key at the start of
    one of the names' keys (decision 0546): "fyodorov" finds Фёдоров and Fedorov. Keys under
    three letters would find too much; they are left to the folded names."""
    folded = Q(name_search__contains=word)
    key = name_key(word)
    if len(key) < 3 or key == word:
        return folded
    return folded | Q(name_search__contains=f" {key}")


def _listed_probes() -> tuple[Exists, Exists]:
    """The two ways a player is shown publicly: rated, or entered in a public tournament.
    The rating entries are reached through the relation: tournaments does not import
    ratings."""
    rating_entry = Player._meta.get_field("rating_entries").related_model
    rated = Exists(rating_entry.objects.filter(player_id=OuterRef("pk")))
    entered = Exists(Registration.objects.filter(
        player_id=OuterRef("pk"), tournament__state__in=PUBLIC_STATES))
    return rated, entered


def players_shown() -> QuerySet[Player]:
    """The players the public pages show: rated, or entered in a public tournament; not
    anonymised, not merged into another player (the search index reads them all)."""
    rated, entered = _listed_probes()
    return Player.objects.filter(rated | entered, is_anonymised=False,
                                 merged_into__isnull=True)


def players_merged_among(ids: Iterable[int]) -> set[int]:
    """Which of these players were merged into another (decision 0811): a search index
    built before the merge may still name them; one query."""
    wanted = {int(pk) for pk in ids}
    if not wanted:
        return set()
    return set(Player.objects.filter(pk__in=wanted, merged_into__isnull=False)
               .values_list("pk", flat=True))


def players_matching(query: str, *, limit: int, offset: int = 0) -> list[Player]:
    """Players whose name holds every word of the query, in Latin letters or native
    script, in any case and with or without accents (``name_search``), in name order:
    `limit` of them from `offset`. Only players the public pages already show: rated, or
    entered in a public tournament; anonymised players and players merged into another
    (decision 0811) are left out.

    Three queries whatever the number of players (issue 26): the first rated ones and the
    first entered ones, each in the order of the ``player_name_order`` index with its own
    limit, then the page of their union. One query OR-ing the two EXISTS probes made
    PostgreSQL hash every rating row and every entry before it could stop (65 ms at 10,000
    players, 4 s without statistics); each probe alone is a semi-join that reads the first
    names in order and stops (under 5 ms)."""
    if not search_fold(query).split():
        return []
    rated, entered = _listed_probes()
    matching = Player.objects.filter(is_anonymised=False, merged_into__isnull=True).filter(
        _every_folded_word_in_name(query)
    ).order_by("name_latin", "pk")
    found: set[int] = set()
    for listed in (rated, entered):
        found.update(matching.filter(listed).values_list("pk", flat=True)[:offset + limit])
    # The page of the union, in the database's own order of names (its collation).
    return list(Player.objects.filter(pk__in=found)
                .only("pk", "name_latin", "name_native", "country")
                .order_by("name_latin", "pk")[offset:offset + limit])


def players_to_merge(query: str, *, limit: int) -> list[Player]:
    """The membership officer's search before a merge: every player (listed publicly or
    not) whose folded names hold every word of the query, or whose EMA number starts with
    it; neither merged nor anonymised; with their number of tournaments (``tournaments``).
    One query."""
    words = search_fold(query).split()
    if not words:
        return []
    condition = _every_folded_word_in_name(query)
    digits = query.strip()
    if digits.isdigit():
        condition |= Q(ema_number__startswith=digits.zfill(8) if len(digits) == 7 else digits)
    return list(Player.objects.filter(condition, is_anonymised=False, merged_into__isnull=True)
                .select_related("member").annotate(tournaments=Count("registrations"))
                .order_by("name_latin", "pk")[:limit])


def players_rerate_pending(player_ids: list[int]) -> set[int]:
    """Which of these players have a tournament whose re-rate is still on the task queue
    (``Tournament.rerate_queued_at``: after a confirmation or a merge, decision 0825). One
    query."""
    if not player_ids:
        return set()
    return set(Registration.objects.filter(
        player_id__in=player_ids, tournament__rerate_queued_at__isnull=False,
    ).values_list("player_id", flat=True).distinct())


def tournament_registrations(tournament: Tournament) -> list[Registration]:
    return list(
        Registration.objects.filter(tournament=tournament).select_related("player__member")
    )


def registration_next_session(registration: Registration) -> int:
    """The first session the player has no results in after their last one: where a
    withdrawal may start (issue 38: the form offered session 1 to a player with results).
    Never past the tournament's last session."""
    from django.db.models import Max

    from tournaments.models import TableResult

    last = TableResult.objects.filter(tournament_id=registration.tournament_id,
                                      player_id=registration.player_id).aggregate(
        last=Max("session"))["last"] or 0
    return min(last + 1, registration.tournament.sessions)

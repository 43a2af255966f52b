"""The EMA's championship quotas from the stored EMA ranking (decision 0841): each member
country's ranked players and their published scores, through the pure rule
``ratings.rules.quotas``."""

from __future__ import annotations

from fractions import Fraction

from django.conf import settings

from ratings.models import StoredRanking
from ratings.rules import ema
from ratings.rules.quotas import CountryPlayers, Quotas, quotas

#: the EMA seats of a championship when the reader does not say (EMA_QUOTA_SEATS)
DEFAULT_SEATS = 100
MAX_SEATS = 2000


def default_seats() -> int:
    return int(getattr(settings, "EMA_QUOTA_SEATS", DEFAULT_SEATS))


def member_countries() -> set[str] | None:
    """The EMA's member countries (EMA_MEMBER_COUNTRIES, ISO codes); None: every country
    with a player in the ranking."""
    codes = getattr(settings, "EMA_MEMBER_COUNTRIES", None)
    return {c.upper() for c in codes} if codes else None


def ranking_countries(stored: StoredRanking) -> list[CountryPlayers]:
    """The member countries of a stored EMA ranking with their players' published scores,
    in the order of the EMA country ranking (``ratings.rules.ema.country_ranking``, decision
    0832; one query)."""
    members = member_countries()
    rows = []
    for pid, country, score in stored.ema_rows.exclude(player__country="").values_list(
            "player_id", "player__country", "score").iterator(chunk_size=5000):
        code = country.upper()
        if members is None or code in members:
            rows.append((pid, code, score))
    scores: dict[str, list[Fraction]] = {}
    for _pid, code, score in rows:
        scores.setdefault(code, []).append(Fraction(str(score)))
    return [CountryPlayers(c.country, tuple(scores[c.country]))
            for c in ema.country_ranking(rows)]


def ema_quotas(stored: StoredRanking, seats: int) -> Quotas:
    return quotas(seats, ranking_countries(stored))

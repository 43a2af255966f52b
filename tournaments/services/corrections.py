"""Corrections of a tournament's registered players: their first and last names (Latin
letters, as the EMA lists them), their country and their EMA number, by the organizer until
they take the EMA results sheet and by an accreditation officer always (decision 0720).
Every correction is in the audit log with what it was before."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django_countries import countries

from tournaments.errors import (
    E_BAD_COUNTRY,
    E_BAD_EMA_NUMBER,
    E_CORRECTIONS_CLOSED,
    E_EMA_NUMBER_TAKEN,
    E_NAME_REQUIRED,
    E_PLAYER_NOT_REGISTERED,
    TournamentError,
)
from tournaments.models import Player, Tournament
from tournaments.permissions import can_accredit, is_organizer
from tournaments.rules import states
from tournaments.rules.ema_numbers import ema_number_normalise
from tournaments.services._common import _audit, _locked

CORRECTED_FIELDS = ("first_name", "last_name", "name_latin", "country", "ema_number")


def ema_number_holder(number: str, *, besides: int | None = None) -> Player | None:
    """The player who holds the EMA number ``number`` (other than player ``besides``)."""
    if not number:
        return None
    return Player.objects.filter(ema_number=number).exclude(pk=besides).first()


def players_correction_open(tournament: Tournament, user: Any) -> bool:
    """Whether ``user`` may correct this tournament's players now (its organizer until the
    EMA sheet is taken, an accreditation officer always)."""
    officer = can_accredit(user)
    if not officer and not is_organizer(user, tournament):
        return False
    return states.players_correctable(tournament.state,
                                      sheet_taken=tournament.ema_exported_at is not None,
                                      officer=officer)


@transaction.atomic
def player_correct(
    *, tournament: Tournament, player: Player, user: Any, first_name: str, last_name: str,
    country: str, ema_number: str,
) -> Player:
    """Correct a registered player's names, country and EMA number (the Latin name becomes
    "first last"). Refused with the field at fault: an empty name, an unknown country, a
    text that is no EMA number, an EMA number another player holds (named)."""
    tournament = _locked(tournament)
    if not tournament.registrations.filter(player_id=player.pk).exists():
        raise TournamentError(E_PLAYER_NOT_REGISTERED)
    if not players_correction_open(tournament, user):
        raise TournamentError(E_CORRECTIONS_CLOSED)
    first_name, last_name = " ".join(first_name.split()), " ".join(last_name.split())
    if not first_name or not last_name:
        raise TournamentError(E_NAME_REQUIRED,
                              field="first_name" if not first_name else "last_name")
    code = countries.alpha2(country.strip())
    if not code:
        raise TournamentError(E_BAD_COUNTRY, field="country")
    ema = ema_number_normalise(ema_number)
    if ema.error:
        raise TournamentError(E_BAD_EMA_NUMBER, field="ema_number", number=ema_number.strip())
    player = Player.objects.select_for_update().get(pk=player.pk)
    holder = ema_number_holder(ema.number, besides=player.pk)
    if holder is not None:
        raise TournamentError(E_EMA_NUMBER_TAKEN, field="ema_number", number=ema.number,
                              player=str(holder), id=holder.pk)
    after = {"first_name": first_name, "last_name": last_name,
             "name_latin": f"{first_name} {last_name}", "country": code,
             "ema_number": ema.number}
    changes = {field: [getattr(player, field), value] for field, value in after.items()
               if getattr(player, field) != value}
    if not changes:
        return player
    for field in changes:
        setattr(player, field, after[field])
    player.save(update_fields=list(changes))
    _audit(tournament, "tournaments.player.correct", user, player=player.pk,
           changes=changes, padded=ema.padded or None)
    return player


@transaction.atomic
def tournament_ema_sheet_taken(*, tournament: Tournament, user: Any) -> None:
    """The organizer took the EMA results sheet: from now on only an officer corrects the
    players (the first time only is recorded)."""
    if not is_organizer(user, tournament):
        return
    updated = Tournament.objects.filter(pk=tournament.pk, ema_exported_at__isnull=True).update(
        ema_exported_at=timezone.now())
    if updated:
        _audit(tournament, "tournaments.tournament.ema_sheet", user)

"""Players and registrations: matching an entry to an existing player (never a duplicate),
registering players for a tournament, removing a registration, withdrawing a player from
a session on (drop-outs: they keep the sessions they played)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.db.models.functions import Lower
from django_countries import countries

from federation.models import Member
from rulebook.scoring.standings import Problem
from tournaments import selectors
from tournaments.errors import (
    E_BAD_COUNTRY,
    E_BAD_EMA_NUMBER,
    E_CONFLICTING_IDS,
    E_MEMBER_UNKNOWN,
    E_NAME_MATCH,
    E_NAME_REQUIRED,
    E_NO_TEAM_COMPETITION,
    E_PLAYER_HAS_RESULTS,
    E_REGISTRATION_CLOSED,
    E_SEATING_DRAWN,
    E_TEAM_FULL,
    E_WITHDRAW_AFTER_RESULTS,
    E_WITHDRAW_SESSION,
    ResultsError,
    TournamentError,
)
from tournaments.models import (
    PendingRegistration,
    Player,
    Registration,
    SeatingAssignment,
    TableResult,
    Tournament,
)
from tournaments.rules import states
from tournaments.rules.ema_numbers import ema_number_normalise
from tournaments.services._common import _audit, _locked
from tournaments.services.identity import player_kept
from tournaments.services.places import waiting_list_move_up

TEAM_SIZE = 4


@dataclass(frozen=True)
class PlayerEntry:
    name: str
    country: str
    member_number: int | None = None
    ema_number: str = ""
    team: str = ""
    substitute: bool = False
    first_name: str = ""
    last_name: str = ""
    date_of_birth: date | None = None
    confirm: bool = False
    """A name-only match is the player meant (when the caller must confirm such matches)."""
    new: bool = False
    """A name-only match is another person: a new player, a namesake."""


def _name_words(name: str) -> list[str]:
    return name.replace(",", " ").casefold().split()


def _name_agrees(entry_name: str, member_name: str) -> bool:
    """Every word of the entry is a word of the member's name or its initial ("A." for
    "Anna"), in any order, and at least one word is written out."""
    remaining = _name_words(member_name)
    written_out = False
    for word in _name_words(entry_name):
        stem = word.rstrip(".")
        initial = word.endswith(".") or len(stem) == 1
        match = next((w for w in remaining if w == word or (initial and w.startswith(stem))),
                     None)
        if not stem or match is None:
            return False
        remaining.remove(match)
        written_out = written_out or not initial
    return written_out


def _same_name(entry_name: str, *member_names: str) -> bool:
    """The entry's name agrees with one of the member's names (Latin or native)."""
    return any(_name_agrees(entry_name, name) for name in member_names if name)


class _Directory:
    """The members and players a batch of entries can name, read in four queries whatever
    the batch's size, and kept up to date with the players the batch creates (saved
    together at the end): one call registering a thousand players costs a few queries, not
    four a player (issue 22, item 7).

    The matching rules: an entry naming a member number is that member's player when the
    entry's name agrees with the member's (Latin or native) or its date of birth is the
    member's; an EMA number is that player; else the oldest player of the same name (Latin
    or native, any case as the database compares it) and country."""

    def __init__(self, entries: Sequence[PlayerEntry]) -> None:
        numbers = {e.member_number for e in entries if e.member_number is not None}
        self.members = {
            m.membership_number: m
            for m in Member.objects.filter(membership_number__in=numbers,
                                           anonymised_at__isnull=True)
        } if numbers else {}
        self.by_member = {
            p.member_id: p
            for p in Player.objects.filter(member__in=self.members.values()).select_related("member")
        } if self.members else {}
        ema_numbers = {e.ema_number.strip() for e in entries if e.ema_number.strip()}
        self.by_ema = {
            p.ema_number: p
            for p in Player.objects.filter(ema_number__in=ema_numbers).select_related("member")
        } if ema_numbers else {}
        self.by_name: dict[str, list[Player]] = {}
        names = {name for e in entries if (name := e.name.strip())}
        if names:
            # the exact names, and the lower-case ones that the database's LOWER() gives back
            # for other cases; which of them agree is decided below, as ``iexact`` would
            wanted = names | {name.lower() for name in names}
            candidates = (
                Player.objects.annotate(latin=Lower("name_latin"), native=Lower("name_native"))
                .filter(Q(name_latin__in=wanted) | Q(name_native__in=wanted)
                        | Q(latin__in=wanted) | Q(native__in=wanted), is_anonymised=False)
                .select_related("member")
                .order_by("pk")
            )
            for player in candidates:
                self._add_names(player)
            # a name of a player merged into another names the kept one (decision 0813)
            for name, found in self.by_name.items():
                kept = [player_kept(p) if p.merged_into_id is not None else p for p in found]
                self.by_name[name] = list({p.pk: p for p in kept}.values())
        self.created: list[Player] = []
        # set by players_register: name-only matches of known players need ``confirm``
        self.confirm_names = False
        self.registered: set[int] = set()

    def _add_names(self, player: Player) -> None:
        for name in {player.name_latin.upper(), (player.name_native or "").upper()} - {""}:
            self.by_name.setdefault(name, []).append(player)

    def create(self, **fields: Any) -> Player:
        """A new player, saved with the others when the batch is registered."""
        player = Player(**fields)
        self.created.append(player)
        if player.member_id is not None:
            self.by_member[player.member_id] = player
        if player.ema_number:
            self.by_ema[player.ema_number] = player
        self._add_names(player)
        return player

    def member_agreeing(self, entry: PlayerEntry) -> Member | None:
        """The member with the entry's number when the entry's name agrees with the member's
        or its date of birth is the member's; else None, whatever the reason."""
        member = self.members.get(entry.member_number)  # type: ignore[arg-type]
        if member is None:
            return None
        if _same_name(entry.name, member.name_latin, member.name_native):
            return member
        if entry.date_of_birth is not None and entry.date_of_birth == member.date_of_birth:
            return member
        return None

    def by_name_and_country(self, entry: PlayerEntry) -> Player | None:
        return next(iter(self.namesakes(entry)), None)

    def namesakes(self, entry: PlayerEntry) -> list[Player]:
        """The players of the entry's name and country, oldest first."""
        country = entry.country.upper()
        return [p for p in self.by_name.get(entry.name.upper(), [])
                if p.country.upper() == country]


def _match_player(
    entry: PlayerEntry, row: int, directory: _Directory
) -> tuple[Player | None, list[Problem]]:
    """The player this entry names (member number, EMA number, name + country), created for
    a member who has none; None for a guest nobody knows yet."""
    problems: list[Problem] = []
    found: list[Player] = []
    if entry.member_number is not None:
        member = directory.member_agreeing(entry)
        if member is None:
            # The same answer whether the number exists or not, and nothing of the member:
            # a member number is no key to anybody's name (issue 22, decision 0901).
            problems.append(Problem(E_MEMBER_UNKNOWN,
                                    "no member with this number has this name or date of birth",
                                    row=row, field="member_number",
                                    params={"row": row, "number": entry.member_number}))
            return None, problems
        player = directory.by_member.get(member.pk)
        if player is None:
            player = directory.create(
                member=member, name_latin=member.name_latin, name_native=member.name_native,
                country=(member.country or entry.country)[:100],
                ema_number=entry.ema_number,
            )
        found.append(player)
    if entry.ema_number:
        player = directory.by_ema.get(entry.ema_number)
        if player is not None:
            found.append(player)
    if found and any(p is not found[0] for p in found):
        problems.append(Problem(E_CONFLICTING_IDS,
                                "the member number and the EMA number name different players",
                                row=row, field="ema_number"))
        return None, problems
    if found:
        player = found[0]
        if entry.ema_number and not player.ema_number:
            player.ema_number = entry.ema_number
            directory.by_ema[entry.ema_number] = player
            if player.pk is not None:
                player.save(update_fields=["ema_number"])
        return player, problems
    if entry.new and directory.confirm_names:
        return None, problems
    player = directory.by_name_and_country(entry)
    if (player is not None and directory.confirm_names and not entry.confirm
            and player.pk is not None and player.pk not in directory.registered):
        # a known player found by name and country only: never reused silently
        candidates = [{"id": p.pk, "name": str(p), "country": p.country,
                       "ema_number": p.ema_number}
                      for p in directory.namesakes(entry) if p.pk is not None]
        problems.append(Problem(E_NAME_MATCH, "a known player has this name and country",
                                row=row, field="name",
                                params={"name": entry.name, "candidates": candidates}))
        return None, problems
    return player, problems


def _split_keep(player: Player, entry: PlayerEntry) -> None:
    """The entry's first and last names go to a player who has none yet when together they
    are the player's Latin name ("Jan" / "de Vries" for "Jan de Vries": the EMA's sheet must
    not guess where the first name ends). A split the player has is never overwritten."""
    first, last = entry.first_name.strip(), entry.last_name.strip()
    if not (first and last) or player.first_name or player.last_name:
        return
    if f"{first} {last}".casefold() != " ".join(player.name_latin.split()).casefold():
        return
    player.first_name, player.last_name = first, last
    if player.pk is not None:
        player.save(update_fields=["first_name", "last_name"])


@transaction.atomic
def players_register(
    *, tournament: Tournament, user: Any, entries: Sequence[PlayerEntry],
    rows: Sequence[int] | None = None, earlier_problems: Sequence[Problem] = (),
    confirm_name_matches: bool = False, hold_member_numbers: bool = False,
) -> list[Any]:
    """Register players (matched to existing ones, never duplicated; guests created).
    Returns the registrations in the order given; an entry already registered returns its
    registration. Atomic: any problem -> :class:`ResultsError` listing all of them.

    ``rows``: the row number of each entry in the caller's list (default 1, 2, ...);
    ``earlier_problems``: what the caller found in rows it left out, so that every problem
    of the request is listed at once (nothing is stored when there is any).
    ``confirm_name_matches`` (the players endpoint): an entry found by name and country
    only, as a known player not yet registered here, is a problem listing the candidates
    unless the entry says ``confirm`` (that player) or ``new`` (another person).
    ``hold_member_numbers`` (the players endpoint and form): an entry naming a member number
    is not matched; once its own fields are checked it is kept as a
    :class:`PendingRegistration` (returned in its place; the same one for the same entry
    given again) for the organizer to confirm (``registrations_pending_confirm``), so that
    the answer is the same whether the number and the name belong together or not (issue
    37, item 2)."""
    tournament = _locked(tournament)
    if not states.allows("register", tournament.state):
        raise TournamentError(E_REGISTRATION_CLOSED, state=tournament.state)
    problems: list[Problem] = list(earlier_problems)
    registrations: list[Registration] = []
    registered = {reg.player_id: reg for reg in tournament.registrations.all()}
    next_number = max((reg.number for reg in registered.values()), default=0)
    team_sizes: dict[str, int] = {}
    for reg in registered.values():
        if reg.team:
            team_sizes[reg.team] = team_sizes.get(reg.team, 0) + 1
    given = entries
    ema_numbers = [ema_number_normalise(entry.ema_number) for entry in given]
    entries = [
        dataclasses.replace(entry, name=entry.name.strip(),
                            country=countries.alpha2(entry.country.strip()) or "",
                            ema_number=ema.number)
        for entry, ema in zip(given, ema_numbers, strict=True)
    ]
    held = [entry for entry in entries if entry.member_number is not None
            ] if hold_member_numbers else []
    if held:
        entries_to_match = [entry for entry in entries if entry.member_number is None]
        waiting = {_pending_key(p): p for p in tournament.pending_registrations.all()}
    else:
        entries_to_match, waiting = entries, {}
    pending: list[PendingRegistration] = []
    directory = _Directory(entries_to_match)
    directory.confirm_names = confirm_name_matches
    directory.registered = set(registered)
    new: dict[int, Registration] = {}  # id() of the player -> its registration in this call
    numbers = list(rows) if rows is not None else list(range(1, len(entries) + 1))
    for row, entry, as_given, ema in zip(numbers, entries, given, ema_numbers, strict=True):
        if not entry.name:
            problems.append(Problem(E_NAME_REQUIRED, "the name is required", row=row,
                                    field="name"))
            continue
        if not entry.country:
            problems.append(Problem(E_BAD_COUNTRY, "the country is an ISO 3166 alpha-2 code",
                                    row=row, field="country",
                                    params={"country": as_given.country}))
            continue
        if ema.error:
            problems.append(Problem(E_BAD_EMA_NUMBER, "an EMA number has 8 digits", row=row,
                                    field="ema_number", params={"number": as_given.ema_number}))
            continue
        if entry.team and not tournament.team:
            problems.append(Problem(E_NO_TEAM_COMPETITION, "this tournament has no teams",
                                    row=row, field="team"))
            continue
        if hold_member_numbers and entry.member_number is not None:
            # nothing of the members is read: the organizer confirms the row first
            held_row = PendingRegistration(
                tournament=tournament, created_by=user if getattr(user, "pk", None) else None,
                **{field: getattr(entry, field) for field in PENDING_FIELDS})
            held_row = waiting.setdefault(_pending_key(held_row), held_row)
            if held_row.pk is None and held_row not in pending:
                pending.append(held_row)
            registrations.append(held_row)
            continue
        player, found_problems = _match_player(entry, row, directory)
        problems.extend(found_problems)
        if found_problems:
            continue
        if player is None:
            player = directory.create(name_latin=entry.name, country=entry.country,
                                      ema_number=entry.ema_number,
                                      first_name=entry.first_name.strip(),
                                      last_name=entry.last_name.strip())
        _split_keep(player, entry)
        existing = registered.get(player.pk) if player.pk is not None else None
        existing = existing or new.get(id(player))
        if existing is not None:
            registrations.append(existing)
            continue
        if entry.team:
            team_sizes[entry.team] = team_sizes.get(entry.team, 0) + 1
            if team_sizes[entry.team] > TEAM_SIZE:
                problems.append(Problem(E_TEAM_FULL, "a team has four players", row=row,
                                        field="team", params={"team": entry.team}))
                continue
        next_number += 1
        registration = Registration(tournament=tournament, player=player, number=next_number,
                                    team=entry.team, substitute=entry.substitute)
        new[id(player)] = registration
        registrations.append(registration)
    if problems:
        transaction.set_rollback(True)
        raise ResultsError(sorted(problems, key=lambda p: p.row or 0))
    Player.objects.bulk_create(directory.created, batch_size=500)
    Registration.objects.bulk_create(new.values(), batch_size=500)
    PendingRegistration.objects.bulk_create(pending, batch_size=500)  # their ids set
    _audit(tournament, "tournaments.tournament.players", user, count=len(entries),
           **({"pending": len(pending)} if pending else {}))
    return registrations


PENDING_FIELDS = ("name", "country", "member_number", "date_of_birth", "ema_number", "team",
                  "substitute", "first_name", "last_name")


def _pending_key(row: PendingRegistration) -> tuple[Any, ...]:
    return tuple(getattr(row, field) for field in PENDING_FIELDS)


@transaction.atomic
def registrations_pending_confirm(
    *, tournament: Tournament, user: Any, pending: Sequence[PendingRegistration]
) -> list[Registration]:
    """The organizer confirms rows kept by member number: each is matched now (the member's
    name or date of birth must agree, as always) and registered, and leaves the waiting
    list. Atomic: any problem -> :class:`ResultsError`, each problem's ``row`` the id of
    the waiting row, and nothing changes (the rows keep waiting)."""
    pending = list(pending)
    if any(row.tournament_id != tournament.pk for row in pending):
        raise ValueError("a waiting row of another tournament")
    entries = [PlayerEntry(**{field: getattr(row, field) for field in PENDING_FIELDS})
               for row in pending]
    registrations = players_register(tournament=tournament, user=user, entries=entries,
                                     rows=[row.pk for row in pending])
    PendingRegistration.objects.filter(pk__in=[row.pk for row in pending]).delete()
    _audit(tournament, "tournaments.tournament.players", user,
           confirmed=[row.pk for row in pending])
    return registrations


@transaction.atomic
def registration_pending_remove(*, pending: PendingRegistration, user: Any) -> None:
    """The organizer drops a row kept by member number (a wrong number or name)."""
    _locked(pending.tournament)
    pending.delete()
    _audit(pending.tournament, "tournaments.tournament.players", user,
           pending_removed=pending.member_number)


@transaction.atomic
def registration_remove(*, registration: Registration, user: Any) -> None:
    """A player registered by mistake leaves the tournament, before the seating is drawn;
    once it is, the player is withdrawn instead (the draw and any results stay whole)."""
    tournament = _locked(registration.tournament)
    if not states.allows("register", tournament.state):
        raise TournamentError(E_REGISTRATION_CLOSED, state=tournament.state)
    player_id = registration.player_id
    if TableResult.objects.filter(tournament=tournament, player_id=player_id).exists():
        raise TournamentError(E_PLAYER_HAS_RESULTS)
    if SeatingAssignment.objects.filter(tournament=tournament).exists():
        raise TournamentError(E_SEATING_DRAWN)
    registration.delete()
    _audit(tournament, "tournaments.tournament.players", user, removed=player_id)
    # a player added by hand held a place: the waiting list moves up (decision 0716)
    waiting_list_move_up(tournament, by=user, today=selectors.today())


@transaction.atomic
def registration_withdraw(
    *, registration: Registration, user: Any, from_session: int, reason: str = ""
) -> Registration:
    """The player plays no session from ``from_session`` on (reason kept): the sessions
    before it stay theirs; results posted for the later sessions leave them out, and the
    seating of those sessions is redrawn with ``seating_draw(from_session=...)``. Refused
    while they have results in ``from_session`` or later."""
    tournament = _locked(registration.tournament)
    if not states.allows("register", tournament.state):
        raise TournamentError(E_REGISTRATION_CLOSED, state=tournament.state)
    if not 1 <= from_session <= tournament.sessions:
        raise TournamentError(E_WITHDRAW_SESSION, count=tournament.sessions)
    later = (
        TableResult.objects.filter(tournament=tournament, player_id=registration.player_id,
                                   session__gte=from_session)
        .order_by("session").values_list("session", flat=True).first()
    )
    if later is not None:
        raise TournamentError(E_WITHDRAW_AFTER_RESULTS, session=later)
    registration.withdrawn_from = from_session
    registration.withdrawal_reason = reason.strip()[:300]
    registration.save(update_fields=["withdrawn_from", "withdrawal_reason"])
    _audit(tournament, "tournaments.tournament.players", user,
           withdrawn=registration.player_id, from_session=from_session)
    return registration

"""Player identity (docs/decisions/0811-player-identity.md): merging two players found to be
one person (every result, registration, seat, hand, penalty and absence moves to the one
kept; the ratings are recomputed; undone while no newer merge involves either), and a
member's claim of a player ("this is me") that the membership officer decides."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Model, Q
from django.utils import timezone
from wagtail.log_actions import log

from tournaments.errors import TournamentError
from tournaments.models import (
    Absence,
    HandRecord,
    Penalty,
    Player,
    PlayerClaim,
    PlayerMerge,
    Registration,
    SeatingAssignment,
    TableResult,
    Tournament,
    TournamentResult,
)
from tournaments.signals import players_merged

# (model, field): every reference to a player that moves with a merge
_REFERENCES: tuple[tuple[type[Model], str], ...] = (
    (TableResult, "player"),
    (TournamentResult, "player"),
    (Registration, "player"),
    (SeatingAssignment, "player"),
    (HandRecord, "winner"),
    (HandRecord, "discarder"),
    (Penalty, "player"),
    (Penalty, "to_player"),
    (Absence, "player"),
)


def _key(model: type[Model], field: str) -> str:
    return f"{model._meta.label}.{field}"


def _rulesets(player_ids: list[int]) -> set[str]:
    return set(Tournament.objects.filter(registrations__player_id__in=player_ids)
               .values_list("ruleset", flat=True).distinct())


def _log(player: Player, action: str, user: Any, **data: Any) -> None:
    log(instance=player, action=action, user=user, title=f"player #{player.pk}",
        data={"player": player.pk, **data})


def _merge_refusal(merged: Player, kept: Player) -> None:
    """Refuse a merge: the same player, one already merged, both in one tournament (two
    people), both members."""
    if merged.pk == kept.pk:
        raise TournamentError("merge_same_player", field="into")
    if merged.merged_into_id is not None or kept.merged_into_id is not None:
        raise TournamentError("merge_merged", field="into")
    both = (Registration.objects.filter(player=kept)
            .filter(tournament__registrations__player=merged)
            .select_related("tournament").first())
    if both is not None:
        raise TournamentError("merge_same_tournament", tournament=both.tournament.name)
    if merged.member_id is not None and kept.member_id is not None:
        raise TournamentError("merge_two_members")


@dataclass(frozen=True)
class MergePreview:
    """What a merge would do: the rows that would move, by kind (``_REFERENCES``' keys),
    and what the kept player would take from the merged one (field -> value)."""

    merged: Player
    kept: Player
    moves: dict[str, int]
    taken: dict[str, Any]

    @property
    def rows(self) -> int:
        return sum(self.moves.values())


def player_merge_preview(*, player: Player, into: Player) -> MergePreview:
    """What merging ``player`` into ``into`` would move and take, writing nothing; the
    refusals of ``player_merge`` raised the same way."""
    _merge_refusal(player, into)
    moves = {}
    for model, field in _REFERENCES:
        count = model._default_manager.filter(**{field: player}).count()  # type: ignore[attr-defined]
        if count:
            moves[_key(model, field)] = count
    return MergePreview(player, into, moves, _taken(player, into))


def _taken(merged: Player, kept: Player) -> dict[str, Any]:
    """What the kept player takes from the merged one: what it has none of."""
    taken: dict[str, Any] = {}
    if merged.ema_number and not kept.ema_number:
        taken["ema_number"] = merged.ema_number
    if merged.member_id is not None and kept.member_id is None:
        taken["member"] = merged.member_id
    for name in ("first_name", "last_name", "name_native"):
        if getattr(merged, name) and not getattr(kept, name):
            taken[name] = getattr(merged, name)
    return taken


@transaction.atomic
def player_merge(*, player: Player, into: Player, user: Any) -> Player:
    """Merge ``player`` into ``into`` (the one kept), or refuse (``_merge_refusal``)."""
    merged = Player.objects.select_for_update().get(pk=player.pk)
    kept = Player.objects.select_for_update().get(pk=into.pk)
    _merge_refusal(merged, kept)
    moved: dict[str, Any] = {}
    for model, field in _REFERENCES:
        rows = model._default_manager.filter(**{field: merged})  # type: ignore[attr-defined]
        ids = list(rows.values_list("pk", flat=True))
        if ids:
            moved[_key(model, field)] = ids
            model._default_manager.filter(pk__in=ids).update(**{field: kept})  # type: ignore[attr-defined]
    taken = _taken(merged, kept)
    if "ema_number" in taken:
        Player.objects.filter(pk=merged.pk).update(ema_number="")
        kept.ema_number = merged.ema_number
    if "member" in taken:
        Player.objects.filter(pk=merged.pk).update(member=None)
        kept.member_id = taken["member"]
    for name in ("first_name", "last_name", "name_native"):
        if name in taken:
            setattr(kept, name, taken[name])
    kept.save()
    Player.objects.filter(pk=merged.pk).update(merged_into=kept)
    moved["taken"] = taken
    merge = PlayerMerge.objects.create(kept=kept, merged=merged, moved=moved, merged_by=user)
    _log(kept, "tournaments.player.merge", user, merged=merged.pk, merge=merge.pk,
         moved={k: len(v) for k, v in moved.items() if k != "taken"})
    players_merged.send(sender=Player, player=kept, rulesets=_rulesets([kept.pk]),
                        player_ids=[kept.pk, merged.pk])
    return kept


@transaction.atomic
def player_merge_undo(*, merge: PlayerMerge, user: Any) -> Player:
    """Undo a merge: the rows it moved go back, the merged player is itself again.
    Refused once a newer merge involves either player (it depends on this one)."""
    merge = PlayerMerge.objects.select_for_update().get(pk=merge.pk)
    if merge.undone_at is not None:
        raise TournamentError("merge_undone")
    ids = [merge.kept_id, merge.merged_id]
    newer = PlayerMerge.objects.filter(undone_at__isnull=True, merged_at__gte=merge.merged_at) \
        .exclude(pk=merge.pk)
    if newer.filter(kept_id__in=ids).exists() or newer.filter(merged_id__in=ids).exists():
        raise TournamentError("merge_undo_blocked")
    kept, merged = merge.kept, merge.merged
    references = {_key(model, field): (model, field) for model, field in _REFERENCES}
    for key, row_ids in merge.moved.items():
        if key in references:
            model, field = references[key]
            model._default_manager.filter(pk__in=row_ids, **{field: kept}).update(  # type: ignore[attr-defined]
                **{field: merged})
    taken = merge.moved.get("taken", {})
    if "ema_number" in taken:
        Player.objects.filter(pk=kept.pk).update(ema_number="")
    if "member" in taken:
        Player.objects.filter(pk=kept.pk).update(member=None)
    Player.objects.filter(pk=kept.pk).update(
        **{name: "" for name in ("first_name", "last_name", "name_native") if name in taken})
    merged.merged_into = None
    for name in ("ema_number", "first_name", "last_name", "name_native"):
        if name in taken:
            setattr(merged, name, taken[name])
    if "member" in taken:
        merged.member_id = taken["member"]
    merged.save()
    merge.undone_at = timezone.now()
    merge.save(update_fields=["undone_at"])
    _log(kept, "tournaments.player.unmerge", user, merged=merged.pk, merge=merge.pk)
    players_merged.send(sender=Player, player=kept,
                        rulesets=_rulesets([kept.pk, merged.pk]),
                        player_ids=[kept.pk, merged.pk])
    return merged


def merge_undoable(merges: list[PlayerMerge]) -> set[int]:
    """Which of these merges may be undone now: not undone, and no newer merge (not
    undone) involves either player (``player_merge_undo``'s rule); two queries."""
    open_ = [m for m in merges if m.undone_at is None]
    if not open_:
        return set()
    ids = {m.kept_id for m in open_} | {m.merged_id for m in open_}
    oldest = min(m.merged_at for m in open_)
    others = list(PlayerMerge.objects.filter(undone_at__isnull=True, merged_at__gte=oldest)
                  .filter(Q(kept_id__in=ids) | Q(merged_id__in=ids))
                  .values_list("pk", "kept_id", "merged_id", "merged_at"))
    undoable = set()
    for merge in open_:
        mine = {merge.kept_id, merge.merged_id}
        if not any(pk != merge.pk and at >= merge.merged_at and {kept, merged} & mine
                   for pk, kept, merged, at in others):
            undoable.add(merge.pk)
    return undoable


def player_kept(player: Player) -> Player:
    """The player a merged one now is (following merges of merges)."""
    seen = {player.pk}
    while player.merged_into_id is not None and player.merged_into_id not in seen:
        seen.add(player.merged_into_id)
        player = Player.objects.get(pk=player.merged_into_id)
    return player


@transaction.atomic
def player_claim(*, player: Player, user: Any) -> PlayerClaim:
    """A member says ``player`` is them; the membership officer decides. Refused for
    someone who is not a member, and for a player who already has a member."""
    member = getattr(user, "member", None) if getattr(user, "is_authenticated", False) \
        else None
    if member is None:
        raise TournamentError("claim_no_member")
    if player.member_id is not None or player.merged_into_id is not None:
        raise TournamentError("claim_taken")
    claim, _created = PlayerClaim.objects.get_or_create(
        player=player, member=member, state=PlayerClaim.State.PENDING)
    return claim


@transaction.atomic
def player_claim_decide(*, claim: PlayerClaim, user: Any, confirm: bool) -> PlayerClaim:
    """The membership officer confirms (the player becomes the member's; the member's own
    player, if any, is merged into it) or refuses a claim."""
    claim = PlayerClaim.objects.select_for_update().get(pk=claim.pk)
    if claim.state != PlayerClaim.State.PENDING:
        raise TournamentError("claim_decided")
    player = claim.player
    if confirm:
        if player.member_id is not None:
            raise TournamentError("claim_taken")
        own = Player.objects.filter(member=claim.member).first()
        if own is not None:
            player_merge(player=own, into=player, user=user)
            player.refresh_from_db()
        else:
            player.member = claim.member
            player.save(update_fields=["member"])
    claim.state = PlayerClaim.State.CONFIRMED if confirm else PlayerClaim.State.REFUSED
    claim.decided_by = user
    claim.decided_at = timezone.now()
    claim.save(update_fields=["state", "decided_by", "decided_at"])
    _log(player, "tournaments.player.claim", user, member=claim.member_id,
         confirmed=confirm)
    return claim

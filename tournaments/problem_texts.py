"""Translated messages for the stable codes of the scoring core, the importers and the
tournament services (the pure code never translates)."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from datetime import date
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, ngettext_lazy

from core.dates import date_display
from rulebook.scoring.standings import Problem

STATE_LABELS = {
    "draft": gettext_lazy("Draft"),
    "submitted": gettext_lazy("Submitted"),
    "accredited": gettext_lazy("Accredited"),
    "rejected": gettext_lazy("Rejected"),
    "results submitted": gettext_lazy("Results submitted"),
    "results confirmed": gettext_lazy("Results confirmed"),
}


def _templates() -> dict[str, str]:
    return {
        # results: tables and sessions
        "seat_count": _("A table has four seats, not %(count)s."),
        "unbalanced": _("The four seats' game points sum to %(total)s instead of zero."),
        "negative_penalty": _("A deducted penalty is a positive number of points."),
        "player_twice": _("Player %(player)s sits twice in this session."),
        "player_missing": _("Registered player %(player)s has no seat in this session."),
        "player_unknown": _("Player %(player)s is not registered for this tournament."),
        "table_twice": _("Table %(table)s is given twice."),
        "session_range": _("The tournament has sessions 1 to %(count)s."),
        "session_twice": _("This session is given twice."),
        "results_missing": _("This session has no results yet."),
        "not_at_table": _("Player %(player)s does not sit at this table."),
        "player_withdrawn": _(
            "Player %(player)s withdrew from session %(from_session)s on and cannot sit in "
            "this session."
        ),
        "player_absent": _(
            "Player %(player)s is recorded absent for this session and cannot sit in it."
        ),
        "table_unbalanced": _(
            "The game points of this table sum to %(total)s instead of zero: post it again "
            "corrected, or confirm it as recorded."
        ),
        "penalty_without_seat": _(
            "Player %(player)s has a penalty in this session but no seat at the table "
            "concerned in its results."
        ),
        # hands
        "bad_seat": _("This seat is not at the table."),
        "self_discard": _("The winner cannot be the discarder."),
        "no_value": _("A win needs its points, fans or tiles."),
        "unknown_fan": _("Unknown fan “%(fan)s”."),
        "ambiguous_fan": _(
            "Fan 57 is ambiguous: write 57A (two melded kongs) or 57B (one melded and one "
            "concealed kong)."
        ),
        "points_disagree": ngettext_lazy(
            "The hand is worth %(computed)s point, not %(stated)s.",
            "The hand is worth %(computed)s points, not %(stated)s.", "computed"),
        "not_enough_points": ngettext_lazy(
            "A win needs at least %(minimum)s point without flowers; this hand: %(points)s.",
            "A win needs at least %(minimum)s points without flowers; this hand: %(points)s.",
            "minimum"),
        "context_disagree": _("The win conditions contradict the winner and discarder."),
        "penalty_points": _(
            "A transferred penalty is a positive number of points divisible by 3."
        ),
        "game_points_disagree": ngettext_lazy(
            "The hands give %(computed)s game point for this seat, not %(stated)s.",
            "The hands give %(computed)s game points for this seat, not %(stated)s.",
            "computed"),
        # tiles (codes of the scoring core)
        "unknown_tile": _("The tiles contain an unknown tile."),
        "too_many_copies": _("The tiles contain a fifth copy of a tile."),
        "wrong_tile_count": _("A winning hand has fourteen tiles (kongs count as three)."),
        "malformed_meld": _("A set in the tiles is not written correctly."),
        "not_winning": _("The tiles do not make a complete hand."),
        "joker_not_allowed": _("Jokers are not used in these rules."),
        "joker_not_claimable": _("A joker cannot be claimed."),
        "bad_context": _("The win conditions are not valid for these tiles."),
        "empty_hand": _("The tiles are missing."),
        # parsing
        "required": _("This field is required."),
        "not_integer": _("A whole number is expected."),
        "not_list": _("A list is expected."),
        "not_object": _("An object is expected."),
        "bad_value": _("This value is not valid."),
        "bad_wind": _("A seat is E, S, W or N (the discarder: empty when self-drawn)."),
        "bad_kind": _("The kind of a row is seat, win, draw or penalty."),
        "seat_twice": _("This seat is given twice for the table."),
        "bad_header": _("The file lacks the columns: %(columns)s."),
        "field_too_long": ngettext_lazy(
            "A value is longer than %(limit)s character; the line cannot be read.",
            "A value is longer than %(limit)s characters; the line cannot be read.",
            "limit"),
        "hand_shape": _("A hand has a winner, or is a draw or a penalty."),
        "out_of_range": _("A whole number from %(lo)s to %(hi)s is expected."),
        "too_many": _("At most %(limit)s are accepted in one request."),
        "unknown_field": _("Unknown field “%(name)s”."),
        "draw_contradiction": _(
            "A drawn hand has no winner, discarder, points, fans, tiles or penalty."
        ),
        # players
        "member_unknown": _(
            "No member with the number %(number)s has this name or date of birth; check the "
            "member number and give the member's name or date of birth as the federation "
            "has it."
        ),
        "conflicting_ids": _("The member number and the EMA number name different players."),
        "merge_same_player": _("A player cannot be merged into itself."),
        "merge_merged": _("This player was already merged into another one."),
        "merge_same_tournament": _(
            "Both players played in the same tournament (%(tournament)s): they are two "
            "people."),
        "merge_two_members": _("Both players are members: merge the members first."),
        "merge_undo_blocked": _(
            "A newer merge involves these players: undo it first."),
        "merge_undone": _("This merge was already undone."),
        "claim_no_member": _("Only a member can claim a player."),
        "claim_taken": _("This player is already someone's."),
        "claim_decided": _("This claim was already decided."),
        "merge_into_required": _("Give the id of the player kept as “into”."),
        "claim_confirm_required": _("Give “confirm”: true or false."),
        "name_match": _(
            "Players with this name and country are already known (see the candidates): "
            "send \"confirm\": true to register the one found, \"new\": true for another "
            "person, or give an EMA or member number."),
        "name_required": _("The name is required."),
        "too_many_players_per_call": ngettext_lazy(
            "At most %(limit)s player in one request.",
            "At most %(limit)s players in one request.", "limit"),
        "pending_not_found": _("No row %(pending)s waits for your confirmation."),
        "bad_country": _("The country is a two-letter ISO 3166 code."),
        "no_team_competition": _("This tournament has no team competition."),
        "team_full": _("Team “%(team)s” already has four players."),
        # tournaments
        "illegal_transition": _("This is not possible while the tournament is “%(state)s”."),
        "too_few_sessions": ngettext_lazy(
            "A tournament has at least %(minimum)s session (3.5.4); this one: %(sessions)s.",
            "A tournament has at least %(minimum)s sessions (3.5.4); this one: %(sessions)s.",
            "minimum"),
        "too_few_players": ngettext_lazy(
            "A tournament has at least %(minimum)s player; this one: %(players)s.",
            "A tournament has at least %(minimum)s players; this one: %(players)s.",
            "minimum"),
        "reason_required": _("Give the reason."),
        "bad_decision": _("The decision is “accredit” or “reject”."),
        "registration_closed": _("The results are confirmed: players can no longer change."),
        "players_not_multiple_of_4": ngettext_lazy(
            "%(players)s player is registered: the number must be a multiple of 4 (add "
            "substitutes).",
            "%(players)s players are registered: the number must be a multiple of 4 (add "
            "substitutes).", "players"),
        "player_has_results": _("This player already has results."),
        "seating_drawn": _(
            "The seating is drawn: withdraw the player instead, from the first session."
        ),
        "withdraw_session": _("The session of the withdrawal is between 1 and %(count)s."),
        "seating_session": _("The seating is redrawn from a session between 1 and %(count)s."),
        "seating_publish": _("The seating is published up to a session between 0 and %(count)s."),
        "withdraw_after_results": _(
            "This player has results in session %(session)s: withdraw them from a later "
            "session, or post that session again without them first."
        ),
        "entries_closed": _("This tournament does not take entries."),
        "entries_not_open": _("Entries open on %(date)s."),
        "ema_number_asked": _(
            "This tournament counts in the EMA ranking: give your EMA number, or tick “I "
            "have no EMA number yet”."),
        "ema_number_taken": _(
            "The EMA number %(number)s already belongs to %(player)s (player %(id)s)."),
        "player_not_registered": _("This player is not registered in this tournament."),
        "corrections_closed": _(
            "The EMA results sheet was taken: ask an accreditation officer to correct the "
            "players now."),
        "entry_dates_order": _("Entries close on or after the day they open."),
        "entry_dates_after_start": _("Entries open and close before the tournament starts."),
        "change_after_accreditation": _(
            "Accredited tournaments keep these as accredited: %(fields)s. Change them only "
            "with “Send back to the accreditation officer”."),
        "members_only": _("Only members of the federation may enter this tournament."),
        "already_entered": _("You have already entered this tournament."),
        "entry_not_active": _("This entry is already withdrawn or refused."),
        "entry_not_holding": _("This entry does not hold a place."),
        "not_your_entry": _("This entry is not yours."),
        "nothing_to_pay": _("Nothing is left to pay for this entry."),
        "amount_not_positive": _("The amount must be positive."),
        "no_reduced_fee": _("This tournament has no reduced entry fee."),
        "reduced_fee_paid": _("The reduced fee is already (partly) paid: collect the "
                              "difference at the venue, or refuse the entry."),
        "bad_variant": _("Unknown variant switches: %(names)s."),
        "mers_weight": _("A MERS tournament needs its MERS weight, a number above 0."),
        "mers_weight_reason": _("A MERS weight other than the computed one needs a reason."),
        "bad_ema_number": _("“%(number)s” is not an EMA number (8 digits)."),
        "ema_ids_missing": _(
            "Every ranked member needs an EMA number before the results go to the EMA; "
            "missing: %(players)s."
        ),
        # penalties, late arrivals and absences
        "penalty_session": _("The session is between 1 and %(count)s."),
        "penalty_kind": _("A penalty is deducted or transferred."),
        "penalty_player": _(
            "Player %(player)s does not play session %(session)s (not registered, withdrawn, "
            "absent, or without a seat in its results)."
        ),
        "penalty_points_range": _("The points are a whole number from %(lo)s to %(hi)s."),
        "penalty_receiver": _(
            "A transferred penalty goes to another player of the same table."
        ),
        "penalty_not_given": _(
            "No such penalty given by the organizer: a penalty entered with the results is "
            "changed by posting the table again."
        ),
        "late_minutes": _("The minutes late are a whole number from 1 to 600."),
        "already_absent": _("This player is already recorded absent for this session."),
        "absent_after_results": _(
            "This player has results in session %(session)s: post it again without them "
            "first."
        ),
        "table_not_flagged": _("This table is not flagged."),
        # entry at the table
        "no_seating": _("Session %(session)s has no seating yet: draw the seating first."),
        "table_closed": _("This table's score sheet is closed."),
        "bad_choice": _("Choose to keep your results or to take the players'."),
        "table_not_held": _("No agreed sheet of this table is waiting for your choice."),
        "results_conflict": _(
            "Table %(table)s of session %(session)s was saved by someone else since you "
            "opened it (version %(version)s): compare both versions and choose."
        ),
        "bad_line": _("Check the line: %(field_label)s."),
        "too_many_lines": ngettext_lazy(
            "A score sheet holds at most %(limit)s hand.",
            "A score sheet holds at most %(limit)s hands.", "limit"),
        "sheet_changed": _(
            "The score sheet changed since you opened it: check it again, then agree."
        ),
        "bad_extra_minutes": _(
            "Extra minutes are given to a table of the session, from 0 to 60 minutes."
        ),
        # checks shown to the officer
        "planned_not_multiple_of_4": ngettext_lazy(
            "%(players)s planned player is not a multiple of 4: substitutes will be needed.",
            "%(players)s planned players is not a multiple of 4: substitutes will be needed.",
            "players"),
        "organizer_not_member": _("The organizer is not a member of the federation."),
        "organizer_status": _("The organizer's membership: %(status_label)s."),
        "no_club": _("No organizing club is given."),
        "club_members": ngettext_lazy(
            "%(club)s: %(active)s member with paid dues.",
            "%(club)s: %(active)s members with paid dues.", "active"),
        "clash": _("Other accredited tournaments on the same dates: %(names)s."),
    }


def _format(code: str, params: Mapping[str, Any], fallback: str) -> str:
    template = _templates().get(code)
    if template is None:
        return fallback or code
    values: dict[str, Any] = dict(params)
    if "state" in values:
        values["state"] = STATE_LABELS.get(values["state"], values["state"])
    if code == "entries_not_open" and isinstance(values.get("date"), str):
        with contextlib.suppress(ValueError):
            values["date"] = date_display(date.fromisoformat(values["date"]))
    if code == "change_after_accreditation" and isinstance(values.get("fields"), list):
        from tournaments.models import Tournament

        values["fields"] = ", ".join(
            str(Tournament._meta.get_field(name).verbose_name) for name in values["fields"])
    if code == "bad_line":
        values["field_label"] = {
            "kind": _("the kind of line"), "seat": _("the seat"),
            "from": _("the discarder"), "points": _("the points"),
            "reason": _("the reason"), "hand": _("the line number"),
            "tiles": _("the tiles"), "context": _("the win conditions"),
            "id": _("the line's identifier"),
        }.get(values.get("field"), values.get("field"))
    if "status" in values:
        values["status_label"] = {
            "active": _("active"), "grace": _("grace period"), "lapsed": _("lapsed"),
        }.get(values["status"], values["status"])
    try:
        return str(template % values)
    except (KeyError, TypeError, ValueError):
        return str(template)


def field_label(name: str) -> str:
    """A field (a CSV column, a key of the API's JSON) named in words."""
    labels = {
        "session": _("session"), "table": _("table"), "kind": _("kind"), "hand": _("hand"),
        "seat": _("seat"), "player": _("player"), "game_points": _("game points"),
        "penalty": _("penalty"), "from": _("discarder"), "points": _("points"),
        "fans": _("fans"), "tiles": _("tiles"), "context": _("win conditions"),
        "winner": _("winner"), "seats": _("seats"), "tables": _("tables"),
        "hands": _("hands"), "sessions": _("sessions"),
    }
    return str(labels.get(name, name.replace("_", " ")))


def problem_message(problem: Problem) -> str:
    return _format(problem.code, problem.params, problem.message)


def error_message(code: str, params: Mapping[str, Any] | None = None) -> str:
    if code == "players_not_multiple_of_4" and params and "players" in params:
        return seating_advice(int(params["players"]), int(params.get("substitutes") or 0))
    return _format(code, params or {}, code)


def seating_advice(players: int, substitutes: int = 0) -> str:
    """What to do when ``players`` (with ``substitutes`` free to fill a table) cannot sit at
    tables of four: register the substitutes still missing, or remove the players beyond the
    last full table. Empty when they can."""
    missing = -players % 4 - substitutes
    if players and missing <= 0:
        return ""
    extra = players % 4
    parts = [ngettext(
        "%(count)s player cannot be seated at tables of four.",
        "%(count)s players cannot be seated at tables of four.", players,
    ) % {"count": players}]
    if players:
        parts.append(ngettext(
            "Register %(count)s more substitute to fill the last table.",
            "Register %(count)s more substitutes to fill the last table.", missing,
        ) % {"count": missing})
        if extra:
            parts.append(ngettext(
                "Or remove %(count)s player before the draw.",
                "Or remove %(count)s players before the draw.", extra,
            ) % {"count": extra})
    return " ".join(parts)


def check_message(code: str, level: str, params: Mapping[str, Any]) -> str:
    if code == "clash" and level == "ok":
        return _("No other accredited tournament on these dates.")
    return _format(code, params, code)


def import_message(code: str, params: Mapping[str, Any]) -> str:
    """The words of an EMA register import's code (tournaments.services.player_import): its
    own, ``bad_ema_number``, else the shared ones (core.imports.issue_message)."""
    from core.imports import issue_message

    texts = {
        "ema_number_twice": _("EMA number %(number)s is also in row %(other)s."),
        "ema_number_padded": _(
            "“%(given)s” had lost its leading zero (a spreadsheet read it as a number): "
            "read as %(number)s."),
        "same_name_no_ema_number": _(
            "A player of the same name and country has no EMA number yet: the same person, "
            "or a new player?"),
    }
    if code in texts:
        try:
            return texts[code] % dict(params)
        except (KeyError, TypeError, ValueError):
            return texts[code]
    if code == "bad_ema_number":
        return error_message(code, {"number": params.get("number", params.get("value", ""))})
    return issue_message(code, params)

"""The scoring core's errors: a stable code, a stable reason with its parameters, a message.

Every error the core reports has

- a ``code``: the kind of error (``malformed_meld``, ``bad_context`` ...), the ``code`` of
  the command line's and the API's JSON (decision 0601);
- a ``reason``: exactly what is wrong (``pung_marker``: "a pung is claimed from 1, 2 or
  3"), one of :data:`REASONS`, with its ``params`` (``fifth_copy`` has ``tile="5s"``).
  The site words an error in the reader's language by its reason and params
  (``rulebook/error_texts.py``), never by its message;
- a ``message``: English for developers, made from the reason's template and the params.

The core raises :class:`NotationError`; a result carries a
:class:`~rulebook.scoring.result.ScoreError` with the same fields.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

# The codes (kinds of error). Stable: programs read them.
E_UNKNOWN_TILE = "unknown_tile"
E_TOO_MANY_COPIES = "too_many_copies"
E_WRONG_TILE_COUNT = "wrong_tile_count"
E_MALFORMED_MELD = "malformed_meld"
E_NOT_WINNING = "not_winning"
E_JOKER_NOT_ALLOWED = "joker_not_allowed"
E_JOKER_NOT_CLAIMABLE = "joker_not_claimable"
E_KONG_NOT_ALLOWED = "kong_not_allowed"
E_BAD_CONTEXT = "bad_context"
E_EMPTY = "empty_hand"
E_AMBIGUOUS_FAN = "ambiguous_fan"
E_UNKNOWN_RULES = "unknown_rules"
E_NOT_ENOUGH_POINTS = "not_enough_points"


@dataclass(frozen=True, slots=True)
class Reason:
    """What one reason is: the code of its kind and its English message, a
    :meth:`str.format` template of the error's params."""

    code: str
    message: str


#: Every reason the core gives, by its stable name.
REASONS: dict[str, Reason] = {
    # --- reading the tiles (tiles.py) -----------------------------------------------------
    "unknown_tile_name": Reason(E_UNKNOWN_TILE, "unknown tile {name!r}"),
    "suit_letter_alone": Reason(E_UNKNOWN_TILE, "suit letter {letter!r} without numbers"),
    "no_such_honour": Reason(E_UNKNOWN_TILE, "there is no honour {rank}z"),
    "unknown_character": Reason(E_UNKNOWN_TILE, "unknown tile character {char!r}"),
    "numbers_without_suit": Reason(
        E_UNKNOWN_TILE, "numbers without a suit letter (m, p, s or z)"
    ),
    "unknown_keyboard_tile": Reason(E_UNKNOWN_TILE, "unknown keyboard tile {char!r}"),
    "empty_hand": Reason(E_EMPTY, "empty hand"),
    # --- melds (hand.py) ------------------------------------------------------------------
    "unclosed_meld": Reason(E_MALFORMED_MELD, "'[' without ']'"),
    "unopened_meld": Reason(E_MALFORMED_MELD, "']' without '['"),
    "meld_after_tiles": Reason(E_MALFORMED_MELD, "melds come before the concealed tiles"),
    "meld_marker_digit": Reason(E_MALFORMED_MELD, "meld marker must be one digit"),
    "meld_of_bonus_tiles": Reason(E_MALFORMED_MELD, "melds hold playing tiles only"),
    "no_chow_or_pung": Reason(E_MALFORMED_MELD, "three tiles that make no chow or pung"),
    "chow_marker": Reason(E_MALFORMED_MELD, "the claimed tile of a chow is 1, 2 or 3"),
    "pung_marker": Reason(E_MALFORMED_MELD, "a pung is claimed from 1, 2 or 3"),
    "kong_marker": Reason(
        E_MALFORMED_MELD, "a kong marker is 1-3 (claimed) or 5-7 (promoted)"
    ),
    "not_a_meld": Reason(E_MALFORMED_MELD, "a meld is a chow, a pung or a kong"),
    "meld_of_jokers": Reason(
        E_MALFORMED_MELD, "a meld needs at least one natural tile (L529-531)"
    ),
    "joker_meld_order": Reason(
        E_MALFORMED_MELD,
        "a meld with a joker is a pung, or a chow written in rank order with each J in the "
        "place of the tile it stands for",
    ),
    "joker_claimed_in_chow": Reason(
        E_JOKER_NOT_CLAIMABLE, "the claimed tile of a chow can not be a joker (L526-528)"
    ),
    # --- the tiles of the hand (hand.py) --------------------------------------------------
    "no_concealed_tiles": Reason(E_WRONG_TILE_COUNT, "no concealed tiles (no winning tile)"),
    "too_many_melds": Reason(E_WRONG_TILE_COUNT, "at most four melds"),
    "concealed_tile_count": Reason(
        E_WRONG_TILE_COUNT, "{melds} meld(s) need {expected} concealed tiles, found {found}"
    ),
    "fifth_copy": Reason(E_TOO_MANY_COPIES, "a fifth {tile}"),
    "fifth_joker": Reason(E_TOO_MANY_COPIES, "a fifth joker"),
    "too_many_jokers": Reason(E_TOO_MANY_COPIES, "there are only 4 jokers"),
    "bonus_tile_twice": Reason(E_TOO_MANY_COPIES, "a second {tile}"),
    "jokers_not_used": Reason(E_JOKER_NOT_ALLOWED, "jokers are not used in this game"),
    # --- the win context (hand.py, entry.py) ----------------------------------------------
    "unknown_condition": Reason(E_BAD_CONTEXT, "unknown win condition {name!r}"),
    "condition_not_flag": Reason(E_BAD_CONTEXT, "{name} must be true or false"),
    "wind_letter": Reason(E_BAD_CONTEXT, "{name} must be one of E S W N"),
    "discarder_direction": Reason(E_BAD_CONTEXT, "from must be left, opposite or right"),
    "self_drawn_discarder": Reason(E_BAD_CONTEXT, "a self-drawn win has no discarder"),
    "kong_replacement_not_self_drawn": Reason(
        E_BAD_CONTEXT, "a win on a kong replacement is self-drawn"
    ),
    "robbing_kong_self_drawn": Reason(E_BAD_CONTEXT, "robbing a kong is a win on a claim"),
    "flowers_type": Reason(E_BAD_CONTEXT, "flowers must be a number or tile names"),
    "flowers_range": Reason(E_BAD_CONTEXT, "flowers must be 0-8"),
    "flower_name_type": Reason(E_BAD_CONTEXT, "flower names are strings"),
    "unknown_flower": Reason(E_BAD_CONTEXT, "unknown flower {name!r}"),
    "not_a_flower": Reason(E_BAD_CONTEXT, "{name!r} is not a flower or season"),
    "flower_given_twice": Reason(E_BAD_CONTEXT, "flower {tile!r} given twice"),
    "flowers_written_and_counted": Reason(
        E_BAD_CONTEXT, "flowers are written in the hand and given as a number"
    ),
    # --- MCR (entry.py, mcr/) -------------------------------------------------------------
    "jokers_not_in_mcr": Reason(E_JOKER_NOT_ALLOWED, "jokers are not used in MCR"),
    "flowers_in_sets": Reason(E_NOT_WINNING, "flowers cannot be part of the hand"),
    "not_a_complete_hand": Reason(E_NOT_WINNING, "the tiles do not make a complete hand"),
    "points_below_minimum": Reason(
        E_NOT_ENOUGH_POINTS, "{points} points without flowers; a win needs {minimum}"
    ),
    "waits_need_notation": Reason(E_BAD_CONTEXT, "waits take a hand of thirteen"),
    "fan_57_ambiguous": Reason(
        E_AMBIGUOUS_FAN, "fan 57 is 57A (two melded kongs) or 57B (melded + concealed)"
    ),
    # the MCR options (mcr/options.py)
    "options_not_a_list": Reason(
        E_BAD_CONTEXT, "options must be a list of NAME=VALUE strings or a mapping"
    ),
    "option_not_a_string": Reason(
        E_BAD_CONTEXT, "options are strings such as fan_57b_points=5"
    ),
    "unknown_option": Reason(E_BAD_CONTEXT, "unknown MCR option {name!r} (options: {known})"),
    "option_given_twice": Reason(E_BAD_CONTEXT, "option {name} given twice"),
    "option_not_a_flag": Reason(E_BAD_CONTEXT, "option {name} is true or false, not {value!r}"),
    "option_needs_a_number": Reason(
        E_BAD_CONTEXT, "option {name} needs a number ({allowed}), e.g. {name}={example}"
    ),
    "option_value_not_allowed": Reason(E_BAD_CONTEXT, "option {name} is {allowed}, not {value}"),
    # the house rules of HKOS and Red (hkos/evaluate.py)
    "house_options_not_a_list": Reason(E_BAD_CONTEXT, "options must be a list of names"),
    "house_option_not_a_string": Reason(E_BAD_CONTEXT, "options are strings"),
    "unknown_house_option": Reason(E_BAD_CONTEXT, "unknown option {name!r}"),
    "house_option_takes_no_value": Reason(E_BAD_CONTEXT, "option {name} takes no value"),
    "house_option_needs_a_number": Reason(
        E_BAD_CONTEXT, "option {name} needs a number, e.g. {name}={example}"
    ),
    # --- Hong Kong Old Style (hkos/evaluate.py) -------------------------------------------
    "liable_direction": Reason(E_BAD_CONTEXT, "liable must be left, opposite or right"),
    "hkos_four_players": Reason(E_BAD_CONTEXT, "Hong Kong Old Style is played by 4 players"),
    "hkos_flower_tiles_needed": Reason(
        E_BAD_CONTEXT, "HKOS needs the flower tiles (e.g. f1,s2), not a count"
    ),
    "kong_replacement_needs_kong": Reason(
        E_BAD_CONTEXT, "a kong replacement win is self-drawn and needs a kong"
    ),
    "double_fortune_conditions": Reason(
        E_BAD_CONTEXT, "double fortune is a self-drawn win after two kongs"
    ),
    "flower_replacement_conditions": Reason(
        E_BAD_CONTEXT, "a flower replacement win is self-drawn and needs a flower"
    ),
    "late_discard_self_drawn": Reason(
        E_BAD_CONTEXT, "the late-discard rule is for a win on a discard"
    ),
    "late_discard_and_liability": Reason(
        E_BAD_CONTEXT,
        "late discard and liability of another player together: no rule covers it",
    ),
    "heavenly_conditions": Reason(
        E_BAD_CONTEXT, "the heavenly blessing is East's self-drawn win on the deal"
    ),
    "heavenly_after_claim": Reason(
        E_BAD_CONTEXT, "no heavenly blessing after a kong or a claim (L1113-1114)"
    ),
    "earthly_conditions": Reason(
        E_BAD_CONTEXT, "the earthly blessing is a non-dealer's win on East's first discard"
    ),
    "earthly_not_from_east": Reason(
        E_BAD_CONTEXT, "East sits {east} of {seat}: the earthly blessing comes from East"
    ),
    "earthly_after_claim": Reason(
        E_BAD_CONTEXT, "the earthly blessing comes on the first discard, before any claim"
    ),
    "first_round_claim": Reason(
        E_BAD_CONTEXT, "the first go-round is interrupted by a claim (L1176-1180)"
    ),
    "liability_fans": Reason(
        E_BAD_CONTEXT, "liability only applies to fans 16, 18, 20, 21 and 22 (L698-722)"
    ),
    "no_hkos_hand": Reason(E_NOT_WINNING, "the tiles make no Hong Kong Old Style hand"),
    "doublings_below_minimum": Reason(
        E_NOT_ENOUGH_POINTS,
        "{doublings} doubling(s) without flowers; the house minimum is {minimum}",
    ),
    # --- Red Mahjong (red/evaluate.py) ----------------------------------------------------
    "red_players": Reason(E_BAD_CONTEXT, "Red Mahjong is played by 2, 3 or 4 players"),
    "red_seat_not_at_table": Reason(
        E_BAD_CONTEXT, "with {players} players the seats are {seats}"
    ),
    "nobody_sits_there": Reason(
        E_BAD_CONTEXT, "with {players} players nobody sits {direction} of {seat}"
    ),
    "hkos_rule": Reason(E_BAD_CONTEXT, "{name} is a Hong Kong Old Style rule"),
    "red_no_kong_win": Reason(E_BAD_CONTEXT, "Red Mahjong has no kongs (L435-437)"),
    "red_no_kongs": Reason(E_KONG_NOT_ALLOWED, "Red Mahjong has no kongs (L435-437)"),
    "too_many_flowers": Reason(E_BAD_CONTEXT, "there are 8 flowers and seasons"),
    "jokers_need_option": Reason(
        E_JOKER_NOT_ALLOWED, "jokers need the 148-tile set: --option jokers"
    ),
    "joker_discard_claimed": Reason(
        E_JOKER_NOT_CLAIMABLE, "a discarded joker can not be claimed (L526-528)"
    ),
    "no_red_hand": Reason(E_NOT_WINNING, "the tiles make no Red Mahjong hand"),
    "points_below_house_minimum": Reason(
        E_NOT_ENOUGH_POINTS, "{points} point(s) without flowers; the house minimum is {minimum}"
    ),
    # --- rulesets (entry.py) --------------------------------------------------------------
    "unknown_rules": Reason(E_UNKNOWN_RULES, "unknown rules {rules!r}"),
    "rules_not_available": Reason(E_UNKNOWN_RULES, "rules {rules!r} are not available"),
}


def code_and_message(reason: str, params: Mapping[str, object]) -> tuple[str, str]:
    """The code and the English message of ``reason`` with ``params``."""
    spec = REASONS[reason]
    return spec.code, spec.message.format_map(params)


class NotationError(ValueError):
    """A hand that cannot be read or is not allowed: ``NotationError("pung_marker", 7)``,
    ``NotationError("fifth_copy", 12, tile="5s")``.

    ``reason`` is one of :data:`REASONS` and ``params`` its values; ``code`` and
    ``message`` (English, for developers) follow from them; ``position`` is the 0-based
    character offset in the input (or ``None``).
    """

    def __init__(self, reason: str, position: int | None = None, **params: object) -> None:
        code, message = code_and_message(reason, params)
        super().__init__(message)
        self.code = code
        self.message = message
        self.position = position
        self.reason = reason
        self.params: Mapping[str, object] = params

    def as_dict(self) -> dict[str, object]:
        return {"code": self.code, "message": self.message, "position": self.position}


__all__ = [
    "E_AMBIGUOUS_FAN", "E_BAD_CONTEXT", "E_EMPTY", "E_JOKER_NOT_ALLOWED",
    "E_JOKER_NOT_CLAIMABLE", "E_KONG_NOT_ALLOWED", "E_MALFORMED_MELD", "E_NOT_ENOUGH_POINTS",
    "E_NOT_WINNING", "E_TOO_MANY_COPIES", "E_UNKNOWN_RULES", "E_UNKNOWN_TILE",
    "E_WRONG_TILE_COUNT", "REASONS", "NotationError", "Reason", "code_and_message",
]

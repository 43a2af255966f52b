"""The scoring core's errors in the reader's language.

The core (``rulebook.scoring``) reports an error by a stable code (the kind of error), a
stable reason with its params (exactly what is wrong; ``rulebook/scoring/errors.py``) and an
English developer message; this module is the one place that turns them into text for
people, by code and reason, never by the message. Errors name the tile or the meld at
fault, found from the error's ``position`` (a character offset in the notation): "the fifth
5 Bamboo", "meld 3: [567p,4] ...". (The calculator's other words: ``calculator_texts.py``.)
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext_lazy

from rulebook.scoring.result import ScoreError
from rulebook.scoring.tiles import HONOUR_LETTERS
from rulebook.tile_display import tile_label as display_label


def tile_label(token: str) -> str:
    """The name of a tile in the active language ("5 Bamboo"), from its notation token (the
    token itself when it names no tile)."""
    try:
        return display_label(token)
    except ValueError:  # (NotationError included)
        return token


# --- the place an error points at ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Place:
    """What an error's position points at in the notation."""

    position: int
    meld_number: int | None = None  # 1-based, when the position is inside a meld
    meld_text: str | None = None  # "[567p,4]"
    tile: str | None = None  # the tile token at the position, e.g. "5s"


def tile_at(text: str, position: int) -> str | None:
    """The token of the tile written at ``position`` ("5s" for the 5 of "456s")."""
    if not 0 <= position < len(text):
        return None
    ch = text[position]
    if ch in HONOUR_LETTERS:
        return ch
    if ch.isdigit():
        if position > 0 and text[position - 1] in "fs" and ch in "1234" and (
            position < 2 or not text[position - 2].isdigit()
        ):
            return None  # the number of a flower or season
        for later in text[position + 1:]:
            if later.isdigit():
                continue
            if later in "mps":
                return f"{ch}{later}"
            if later == "z" and ch in "1234567":
                return HONOUR_LETTERS[int(ch) - 1]
            return None
    return None


def place_of(text: str, position: int | None) -> Place | None:
    if position is None or not 0 <= position <= len(text):
        return None
    opened = text.rfind("[", 0, position + 1)
    closed = text.rfind("]", 0, position)
    meld_number = meld_text = None
    if opened != -1 and opened > closed:
        end = text.find("]", opened)
        meld_text = text[opened:end + 1] if end != -1 else text[opened:]
        meld_number = text.count("[", 0, opened + 1)
    return Place(position, meld_number, meld_text, tile_at(text, position))


# --- errors --------------------------------------------------------------------------------

CODE_TEXT = {
    "unknown_tile": gettext_lazy("This is not a tile of the notation."),
    "too_many_copies": gettext_lazy("There are only four copies of each tile."),
    "wrong_tile_count": gettext_lazy("The hand does not have the right number of tiles."),
    "malformed_meld": gettext_lazy("This meld is not a chow, a pung or a kong."),
    "not_winning": gettext_lazy("These tiles do not make a complete hand."),
    "joker_not_allowed": gettext_lazy("Jokers are not used in this game."),
    "joker_not_claimable": gettext_lazy("A joker cannot be the claimed tile of a chow."),
    "kong_not_allowed": gettext_lazy("Red Mahjong has no kongs."),
    "bad_context": gettext_lazy("These win conditions do not go together."),
    "empty_hand": gettext_lazy("Enter a hand."),
    "not_enough_points": gettext_lazy("The hand does not reach the minimum to win."),
    "ambiguous_fan": gettext_lazy("This fan number is ambiguous."),
    "unknown_rules": gettext_lazy("These rules are not known."),
    "bad_request": gettext_lazy("The question cannot be read."),
}

# What exactly is wrong, by the core's reason (``rulebook.scoring.errors.REASONS``), filled
# in with the error's params (a param ``tile`` is a tile's token, named in the reader's
# language). A message with a count takes the plural its number asks for (ngettext).
_OPTION_NOT_A_LIST = gettext_lazy(
    "Options are a list of names (NAME or NAME=VALUE) or a mapping of names to values.")
_OPTION_NOT_A_STRING = gettext_lazy("Each option is a name, or NAME=VALUE.")
_UNKNOWN_OPTION = gettext_lazy("“%(name)s” is not an option of these rules.")
_NEEDS_A_NUMBER = gettext_lazy("The option “%(name)s” takes a number, e.g. %(name)s=%(example)s.")
_TOO_MANY_JOKERS = gettext_lazy("There are only four jokers.")
_NOT_A_FLOWER = gettext_lazy("“%(name)s” is not a flower or season (f1-f4, s1-s4).")
_FLOWERS_TYPE = gettext_lazy("Flowers are a number or flower tiles (f1-f4, s1-s4).")
_EIGHT_FLOWERS = gettext_lazy("There are 0 to 8 flowers.")
_POINTS_SHORT = ngettext_lazy(
    "%(points)s point without flowers; a win needs %(minimum)s.",
    "%(points)s points without flowers; a win needs %(minimum)s.",
    "points")

REASON_TEXT: dict[str, Promise] = {
    # reading the tiles
    "unknown_tile_name": gettext_lazy("“%(name)s” is not a tile."),
    "suit_letter_alone": gettext_lazy(
        "The suit letter “%(letter)s” follows no number: write the numbers first (5s, 123m)."),
    "no_such_honour": gettext_lazy("There is no honour %(rank)sz: the honours are 1z to 7z."),
    "unknown_character": gettext_lazy("“%(char)s” is not a tile or a sign of the notation."),
    "numbers_without_suit": gettext_lazy(
        "Numbers without a suit letter: write m, p or s after them (5s, 123m)."),
    "unknown_keyboard_tile": gettext_lazy("“%(char)s” is not a tile of the book's tile font."),
    "empty_hand": CODE_TEXT["empty_hand"],
    # melds
    "unclosed_meld": gettext_lazy("A meld opened with [ is not closed with ]."),
    "unopened_meld": gettext_lazy("A ] closes no meld."),
    "meld_after_tiles": gettext_lazy("Melds are written before the concealed tiles."),
    "meld_marker_digit": gettext_lazy("After the comma a meld takes one digit."),
    "meld_of_bonus_tiles": gettext_lazy("Melds hold playing tiles only, no flowers."),
    "no_chow_or_pung": gettext_lazy("These three tiles make no chow and no pung."),
    "chow_marker": gettext_lazy(
        "The digit of a chow says which of its three tiles was claimed: 1, 2 or 3."),
    "pung_marker": gettext_lazy(
        "A pung is claimed from the left (1), opposite (2) or right (3)."),
    "kong_marker": gettext_lazy(
        "The digit of a kong is 1-3 (claimed) or 5-7 (added to a claimed pung)."),
    "not_a_meld": gettext_lazy("A meld is a chow, a pung or a kong."),
    "meld_of_jokers": gettext_lazy("A meld holds at least one tile that is not a joker."),
    "joker_meld_order": gettext_lazy(
        "A meld with a joker is a pung, or a chow written in rank order with each J in the "
        "place of the tile it stands for."),
    "joker_claimed_in_chow": CODE_TEXT["joker_not_claimable"],
    # the tiles of the hand
    "no_concealed_tiles": gettext_lazy(
        "There are no concealed tiles: the last concealed tile is the winning tile."),
    "too_many_melds": gettext_lazy("A hand has at most four melds."),
    "concealed_tile_count": ngettext_lazy(
        "Besides its melds the hand needs %(expected)s concealed tile, not %(found)s.",
        "Besides its melds the hand needs %(expected)s concealed tiles, not %(found)s.",
        "expected"),
    "fifth_copy": gettext_lazy("This is the fifth %(tile)s."),
    "fifth_joker": _TOO_MANY_JOKERS,
    "too_many_jokers": _TOO_MANY_JOKERS,
    "bonus_tile_twice": gettext_lazy(
        "%(tile)s is written twice: there is one tile of each flower and season."),
    "jokers_not_used": CODE_TEXT["joker_not_allowed"],
    # the win context
    "unknown_condition": gettext_lazy("“%(name)s” is not a win condition of these rules."),
    "condition_not_flag": gettext_lazy("This win condition is yes or no."),
    "wind_letter": gettext_lazy("The seat and prevalent winds are E, S, W or N."),
    "discarder_direction": gettext_lazy("The discarder is left, opposite or right."),
    "self_drawn_discarder": gettext_lazy("A self-drawn win has no discarder."),
    "kong_replacement_not_self_drawn": gettext_lazy(
        "A win on a kong replacement tile is self-drawn."),
    "robbing_kong_self_drawn": gettext_lazy(
        "Robbing a kong is a win on another player's tile, not self-drawn."),
    "flowers_type": _FLOWERS_TYPE,
    "flowers_range": _EIGHT_FLOWERS,
    "flower_name_type": _FLOWERS_TYPE,
    "unknown_flower": _NOT_A_FLOWER,
    "not_a_flower": _NOT_A_FLOWER,
    "flower_given_twice": gettext_lazy("The flower %(tile)s is given twice."),
    "flowers_written_and_counted": gettext_lazy(
        "Flowers are written in the hand and given as a number: choose one."),
    # MCR
    "jokers_not_in_mcr": gettext_lazy("Jokers are not used in MCR."),
    "flowers_in_sets": gettext_lazy("Flowers and seasons are not part of the hand's sets."),
    "not_a_complete_hand": CODE_TEXT["not_winning"],
    "points_below_minimum": _POINTS_SHORT,
    "waits_need_notation": gettext_lazy("Waits are found for a hand of thirteen."),
    "fan_57_ambiguous": gettext_lazy(
        "Fan 57 is ambiguous: write 57A (two melded kongs) or 57B (one melded and one "
        "concealed kong)."),
    "options_not_a_list": _OPTION_NOT_A_LIST,
    "option_not_a_string": _OPTION_NOT_A_STRING,
    "unknown_option": _UNKNOWN_OPTION,
    "option_given_twice": gettext_lazy("The option “%(name)s” is given twice."),
    "option_not_a_flag": gettext_lazy("The option “%(name)s” is yes or no."),
    "option_needs_a_number": _NEEDS_A_NUMBER,
    "option_value_not_allowed": gettext_lazy(
        "The option “%(name)s” does not take the value %(value)s."),
    # the house rules of HKOS and Red
    "house_options_not_a_list": _OPTION_NOT_A_LIST,
    "house_option_not_a_string": _OPTION_NOT_A_STRING,
    "unknown_house_option": _UNKNOWN_OPTION,
    "house_option_takes_no_value": gettext_lazy(
        "The option “%(name)s” is switched on by its name alone."),
    "house_option_needs_a_number": _NEEDS_A_NUMBER,
    # Hong Kong Old Style
    "liable_direction": gettext_lazy("The liable player is left, opposite or right."),
    "hkos_four_players": gettext_lazy("Hong Kong Old Style is played by 4 players."),
    "hkos_flower_tiles_needed": gettext_lazy(
        "Hong Kong Old Style needs the flower tiles themselves (add them to the hand), "
        "not a number."),
    "kong_replacement_needs_kong": gettext_lazy(
        "A win on a kong replacement tile is self-drawn and needs a kong."),
    "double_fortune_conditions": gettext_lazy(
        "Double fortune is a self-drawn win after two kongs."),
    "flower_replacement_conditions": gettext_lazy(
        "A win on a flower replacement tile is self-drawn and needs a flower."),
    "late_discard_self_drawn": gettext_lazy("The late-discard rule is for a win on a discard."),
    "late_discard_and_liability": gettext_lazy(
        "Late discard and the liability of another player together: no rule covers it."),
    "heavenly_conditions": gettext_lazy(
        "The heavenly blessing is East's self-drawn win on the deal."),
    "heavenly_after_claim": gettext_lazy(
        "There is no heavenly blessing after a kong or a claim."),
    "earthly_conditions": gettext_lazy(
        "The earthly blessing is a non-dealer's win on East's first discard."),
    "earthly_not_from_east": gettext_lazy("The earthly blessing comes from East's discard."),
    "earthly_after_claim": gettext_lazy(
        "The earthly blessing comes on the first discard, before any claim."),
    "first_round_claim": gettext_lazy("A claim interrupts the first go-round."),
    "liability_fans": gettext_lazy("Liability applies only to the fans 16, 18, 20, 21 and 22."),
    "no_hkos_hand": gettext_lazy("These tiles make no Hong Kong Old Style hand."),
    "doublings_below_minimum": ngettext_lazy(
        "%(doublings)s doubling without flowers; the house minimum is %(minimum)s.",
        "%(doublings)s doublings without flowers; the house minimum is %(minimum)s.",
        "doublings"),
    # Red Mahjong
    "red_players": gettext_lazy("Red Mahjong is played by 2, 3 or 4 players."),
    "red_seat_not_at_table": ngettext_lazy(
        "With %(players)s player the seats are %(seats)s: nobody sits at %(seat)s.",
        "With %(players)s players the seats are %(seats)s: nobody sits at %(seat)s.",
        "players"),
    "nobody_sits_there": ngettext_lazy(
        "With %(players)s player nobody sits there to discard.",
        "With %(players)s players nobody sits there to discard.",
        "players"),
    "hkos_rule": gettext_lazy("“%(name)s” is a rule of Hong Kong Old Style."),
    "red_no_kong_win": CODE_TEXT["kong_not_allowed"],
    "red_no_kongs": CODE_TEXT["kong_not_allowed"],
    "too_many_flowers": _EIGHT_FLOWERS,
    "jokers_need_option": gettext_lazy(
        "Jokers need the 148-tile set: switch on the option “jokers”."),
    "joker_discard_claimed": gettext_lazy("A discarded joker cannot be claimed."),
    "no_red_hand": gettext_lazy("These tiles make no Red Mahjong hand."),
    "points_below_house_minimum": _POINTS_SHORT,
    # rulesets
    "unknown_rules": gettext_lazy(
        "“%(rules)s” is not one of the calculator's rules (mcr, hkos, red)."),
    "rules_not_available": gettext_lazy("The rules “%(rules)s” are not available."),
}


def reason_text(error: ScoreError) -> str | None:
    """What exactly is wrong, in the active language (``None`` for a reason without
    words, which the test of every reason rules out)."""
    template = REASON_TEXT.get(error.reason)
    if template is None:
        return None
    params = dict(error.params)
    if isinstance(params.get("tile"), str):
        params["tile"] = tile_label(params["tile"])
    return str(template % params)


def _where(error: ScoreError, hand: str) -> str | None:
    """The tile or meld at fault, in words."""
    place = place_of(hand, error.position)
    if place is None:
        return None
    code = error.code
    if code == "too_many_copies" and place.tile:
        return _("This is the fifth %(tile)s.") % {"tile": tile_label(place.tile)}
    if place.meld_number is not None:
        return _("Meld %(number)s: %(meld)s.") % {
            "number": place.meld_number, "meld": place.meld_text}
    if code == "unknown_tile" and place.position < len(hand):
        return _("Character %(number)s: “%(char)s”.") % {
            "number": place.position + 1, "char": hand[place.position]}
    if place.tile:
        return _("At the %(tile)s.") % {"tile": tile_label(place.tile)}
    return None


@dataclass(frozen=True, slots=True)
class ErrorText:
    code: str
    title: str  # what is wrong, in general
    detail: str | None  # exactly what is wrong (the error's reason)
    where: str | None  # the tile or meld at fault
    position: int | None
    technical: str  # the core's own message (shown to those who want it)
    # the notation cut around the place at fault (for highlighting it)
    before: str = ""
    marked: str = ""
    after: str = ""


def error_text(error: ScoreError, hand: str = "") -> ErrorText:
    """The core's error for a reader of the active language."""
    title = str(CODE_TEXT.get(error.code, CODE_TEXT["bad_request"]))
    detail = reason_text(error)
    where = _where(error, hand)
    if detail in (title, where):  # said once is enough
        detail = None
    before = marked = after = ""
    place = place_of(hand, error.position)
    if place is not None:
        start, end = place.position, min(place.position + 1, len(hand))
        if place.meld_text and error.code == "malformed_meld":
            start = hand.rfind("[", 0, place.position + 1)
            end = start + len(place.meld_text)
        before, marked, after = hand[:start], hand[start:end] or " ", hand[end:]
    return ErrorText(error.code, title, detail, where, error.position, error.message,
                     before, marked, after)


__all__ = [
    "CODE_TEXT", "REASON_TEXT", "ErrorText", "Place", "error_text", "place_of", "reason_text",
    "tile_at", "tile_label",
]

"""The scoring core's errors in the reader's language.

The core (``rulebook.scoring``) answers with stable codes and English developer messages;
this module is the one place that turns its errors into text for people. Errors name the
tile or the meld at fault, found from the error's ``position`` (a character offset in the
notation): "the fifth 5 Bamboo", "meld 3: [567p,4] ...". (The calculator's other words:
``calculator_texts.py``.)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

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

# Exact core messages -> text. (The core's messages are for developers; these are for players.)
_EXACT: dict[str, object] = {
    # notation
    "numbers without a suit letter (m, p, s or z)": gettext_lazy(
        "Numbers without a suit letter: write m, p or s after them (5s, 123m)."),
    "no concealed tiles (no winning tile)": gettext_lazy(
        "There are no concealed tiles: the last concealed tile is the winning tile."),
    "at most four melds": gettext_lazy("A hand has at most four melds."),
    "meld marker must be one digit": gettext_lazy("After the comma a meld takes one digit."),
    "melds hold playing tiles only": gettext_lazy("Melds hold playing tiles only, no flowers."),
    "three tiles that make no chow or pung": gettext_lazy(
        "These three tiles make no chow and no pung."),
    "the claimed tile of a chow is 1, 2 or 3": gettext_lazy(
        "The digit of a chow says which of its three tiles was claimed: 1, 2 or 3."),
    "a pung is claimed from 1, 2 or 3": gettext_lazy(
        "A pung is claimed from the left (1), opposite (2) or right (3)."),
    "a kong marker is 1-3 (claimed) or 5-7 (promoted)": gettext_lazy(
        "The digit of a kong is 1-3 (claimed) or 5-7 (added to a claimed pung)."),
    "a meld is a chow, a pung or a kong": gettext_lazy("A meld is a chow, a pung or a kong."),
    "'[' without ']'": gettext_lazy("A meld opened with [ is not closed with ]."),
    "']' without '['": gettext_lazy("A ] closes no meld."),
    "melds come before the concealed tiles": gettext_lazy(
        "Melds are written before the concealed tiles."),
    "the tiles do not make a complete hand": CODE_TEXT["not_winning"],
    "flowers cannot be part of the hand": gettext_lazy(
        "Flowers and seasons are not part of the hand's sets."),
    "jokers are not used in MCR": gettext_lazy("Jokers are not used in MCR."),
    "jokers are not used in this game": CODE_TEXT["joker_not_allowed"],
    "jokers need the 148-tile set: --option jokers": gettext_lazy(
        "Jokers need the 148-tile set: switch on the option “jokers”."),
    "Red Mahjong has no kongs (L435-437)": CODE_TEXT["kong_not_allowed"],
    "empty hand": CODE_TEXT["empty_hand"],
    # win conditions
    "a kong replacement win is self-drawn": gettext_lazy(
        "A win on a kong replacement tile is self-drawn."),
    "a self-drawn win has no discarder": gettext_lazy(
        "A self-drawn win has no discarder."),
    "robbing a kong is a win on a claim": gettext_lazy(
        "Robbing a kong is a win on another player's tile, not self-drawn."),
    "robbing a kong is a win on another player's tile": gettext_lazy(
        "Robbing a kong is a win on another player's tile, not self-drawn."),
    "from must be left, opposite or right": gettext_lazy(
        "The discarder is left, opposite or right."),
    "liable must be left, opposite or right": gettext_lazy(
        "The liable player is left, opposite or right."),
    "flowers must be 0-8": gettext_lazy("There are 0 to 8 flowers."),
    "there are 8 flowers and seasons": gettext_lazy("There are 0 to 8 flowers."),
    "flowers must be a number or tile names": gettext_lazy(
        "Flowers are a number or flower tiles (f1-f4, s1-s4)."),
    "flowers are written in the hand and given as a number": gettext_lazy(
        "Flowers are written in the hand and given as a number: choose one."),
    "HKOS needs the flower tiles (e.g. f1,s2), not a count": gettext_lazy(
        "Hong Kong Old Style needs the flower tiles themselves (add them to the hand), "
        "not a number."),
    "Hong Kong Old Style is played by 4 players": gettext_lazy(
        "Hong Kong Old Style is played by 4 players."),
    "Red Mahjong is played by 2, 3 or 4 players": gettext_lazy(
        "Red Mahjong is played by 2, 3 or 4 players."),
    "a kong replacement win is self-drawn and needs a kong": gettext_lazy(
        "A win on a kong replacement tile is self-drawn and needs a kong."),
    "double fortune is a self-drawn win after two kongs": gettext_lazy(
        "Double fortune is a self-drawn win after two kongs."),
    "a flower replacement win is self-drawn and needs a flower": gettext_lazy(
        "A win on a flower replacement tile is self-drawn and needs a flower."),
    "the late-discard rule is for a win on a discard": gettext_lazy(
        "The late-discard rule is for a win on a discard."),
    "late discard and liability of another player together: no rule covers it": gettext_lazy(
        "Late discard and the liability of another player together: no rule covers it."),
    "the heavenly blessing is East's self-drawn win on the deal": gettext_lazy(
        "The heavenly blessing is East's self-drawn win on the deal."),
    "no heavenly blessing after a kong or a claim (L1113-1114)": gettext_lazy(
        "There is no heavenly blessing after a kong or a claim."),
    "the earthly blessing is a non-dealer's win on East's first discard": gettext_lazy(
        "The earthly blessing is a non-dealer's win on East's first discard."),
    "the earthly blessing comes on the first discard, before any claim": gettext_lazy(
        "The earthly blessing comes on the first discard, before any claim."),
    "the first go-round is interrupted by a claim (L1176-1180)": gettext_lazy(
        "A claim interrupts the first go-round."),
    "liability only applies to fans 16, 18, 20, 21 and 22 (L698-722)": gettext_lazy(
        "Liability applies only to the fans 16, 18, 20, 21 and 22."),
    "Red Mahjong has no kongs": CODE_TEXT["kong_not_allowed"],
    "waits take a hand of thirteen": gettext_lazy("Waits are found for a hand of thirteen."),
}


def _points_short(m: re.Match[str]) -> str:
    return _("%(points)s points without flowers; a win needs %(minimum)s.") % {
        "points": m.group(1), "minimum": m.group(2)}


def _doublings_short(m: re.Match[str]) -> str:
    return _("%(count)s doublings without flowers; the house minimum is %(minimum)s.") % {
        "count": m.group(1), "minimum": m.group(2)}


def _meld_count(m: re.Match[str]) -> str:
    return _("With %(melds)s melds the hand needs %(expected)s concealed tiles, "
             "not %(found)s.") % {
        "melds": m.group(1), "expected": m.group(2), "found": m.group(3)}


def _unknown_option(m: re.Match[str]) -> str:
    return _("“%(name)s” is not an option of these rules.") % {"name": m.group(1)}


def _option_value(m: re.Match[str]) -> str:
    return _("The option “%(name)s” does not take this value.") % {"name": m.group(1)}


def _seat_wind(m: re.Match[str]) -> str:
    return _("The seat and prevalent winds are E, S, W or N.")


def _flower_twice(m: re.Match[str]) -> str:
    return _("The flower %(tile)s is given twice.") % {"tile": tile_label(m.group(1))}


def _earthly_east(m: re.Match[str]) -> str:
    return _("The earthly blessing comes from East's discard.")


def _nobody_sits(m: re.Match[str]) -> str:
    return _("With %(players)s players nobody sits there to discard.") % {
        "players": m.group(1)}


def _condition_flag(m: re.Match[str]) -> str:
    return _("This win condition is yes or no.")


def _unknown_condition(m: re.Match[str]) -> str:
    return _("“%(name)s” is not a win condition of these rules.") % {"name": m.group(1)}


def _hkos_rule(m: re.Match[str]) -> str:
    return _("“%(name)s” is a rule of Hong Kong Old Style.") % {"name": m.group(1)}


def _unknown_flower(m: re.Match[str]) -> str:
    return _("“%(name)s” is not a flower or season (f1-f4, s1-s4).") % {"name": m.group(1)}


_PATTERNS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    (re.compile(r"^(\d+) points without flowers; a win needs (\d+)$"), _points_short),
    (re.compile(r"^(\d+) point\(s\) without flowers; the house minimum is (\d+)$"),
     _points_short),
    (re.compile(r"^(\d+) doubling\(s\) without flowers; the house minimum is (\d+)$"),
     _doublings_short),
    (re.compile(r"^(\d+) meld\(s\) need (\d+) concealed tiles, found (\d+)$"), _meld_count),
    (re.compile(r"^unknown (?:MCR )?option '([^']*)'"), _unknown_option),
    (re.compile(r"^option (\w+) (?:is|needs|takes|given)"), _option_value),
    (re.compile(r"^(?:seat|prevalent) must be one of E S W N$"), _seat_wind),
    (re.compile(r"^flower '?(\w+)'? given twice$"), _flower_twice),
    (re.compile(r"^East sits \w+ of \w: the earthly blessing comes from East$"), _earthly_east),
    (re.compile(r"^with (\d) players nobody sits"), _nobody_sits),
    (re.compile(r"^\w+ must be true or false$"), _condition_flag),
    (re.compile(r"^unknown win condition '([^']*)'$"), _unknown_condition),
    (re.compile(r"^(\w+) is a Hong Kong Old Style rule$"), _hkos_rule),
    (re.compile(r"^(?:unknown flower |)'([^']*)'(?: is not a flower or season)?$"),
     _unknown_flower),
)


def _detail(error: ScoreError) -> str | None:
    exact = _EXACT.get(error.message)
    if exact is not None:
        return str(exact)
    for pattern, render in _PATTERNS:
        m = pattern.match(error.message)
        if m:
            return render(m)
    return None


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
    detail: str | None  # the specific reason, when the core's message is known
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
    detail = _detail(error)
    if detail == title:
        detail = None
    before = marked = after = ""
    place = place_of(hand, error.position)
    if place is not None:
        start, end = place.position, min(place.position + 1, len(hand))
        if place.meld_text and error.code == "malformed_meld":
            start = hand.rfind("[", 0, place.position + 1)
            end = start + len(place.meld_text)
        before, marked, after = hand[:start], hand[start:end] or " ", hand[end:]
    return ErrorText(error.code, title, detail, _where(error, hand), error.position,
                     error.message, before, marked, after)


__all__ = ["CODE_TEXT", "ErrorText", "Place", "error_text", "place_of", "tile_at", "tile_label"]

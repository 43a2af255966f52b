"""The calculator's words in the reader's language: the names of the winds, seats, win
conditions and options of its form, and why a fan of its answer is not counted.

The core (``rulebook.scoring``) names these by stable keys; this module turns the keys into
text for people (the core's errors: ``error_texts.py``; the fans' names: ``fan_labels.py``;
the rulesets' names: ``rulesets.py``).
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

# --- exclusions ----------------------------------------------------------------------------

ACCOUNT_ONCE = "3.9.1.5"


def exclusion_text(name: str, by_name: str | None, implied: bool) -> str:
    """Why a fan that is present is not counted ("Pure Shifted Chows is not counted: Pure
    Straight implies it")."""
    if by_name is None:
        return _("%(fan)s is not counted: under the account-once principle (3.9.1.5) it "
                 "would bring in no set of its own.") % {"fan": name}
    if implied:
        return _("%(fan)s is not counted: %(by)s implies it.") % {"fan": name, "by": by_name}
    return _("%(fan)s is not counted: its sets are already used by %(by)s (3.9.1.5).") % {
        "fan": name, "by": by_name}


# --- the names of conditions, seats and options ------------------------------------------

WIND_NAMES = {
    "E": pgettext_lazy("wind", "East"),
    "S": pgettext_lazy("wind", "South"),
    "W": pgettext_lazy("wind", "West"),
    "N": pgettext_lazy("wind", "North"),
}
#: a seat's wind in one letter, as each language abbreviates its wind names (the payments)
WIND_LETTERS = {
    "E": pgettext_lazy("wind letter", "E"),
    "S": pgettext_lazy("wind letter", "S"),
    "W": pgettext_lazy("wind letter", "W"),
    "N": pgettext_lazy("wind letter", "N"),
}
SEAT_NAMES = {
    "self": pgettext_lazy("seat", "Winner"),
    "left": pgettext_lazy("seat", "Left"),
    "opposite": pgettext_lazy("seat", "Opposite"),
    "right": pgettext_lazy("seat", "Right"),
}
WIN_NAMES = {
    "self": gettext_lazy("Self-drawn"),
    "left": gettext_lazy("Discard from the left"),
    "opposite": gettext_lazy("Discard from opposite"),
    "right": gettext_lazy("Discard from the right"),
}
FLAG_NAMES = {
    "last_of_kind": gettext_lazy("Last tile of its kind"),
    "last_tile": gettext_lazy("Last tile of the wall (or its last discard)"),
    "kong_replacement": gettext_lazy("Win on a kong replacement tile"),
    "robbing_kong": gettext_lazy("Robbing the kong"),
    "late_discard": gettext_lazy("Late discard"),
    "heavenly": gettext_lazy("Heavenly blessing (East wins on the deal)"),
    "earthly": gettext_lazy("Earthly blessing (win on East's first discard)"),
    "first_round": gettext_lazy("In the first go-round"),
    "flower_replacement": gettext_lazy("Win on a flower replacement tile"),
    "double_fortune": gettext_lazy("Double fortune (after two kongs)"),
    "false_win": gettext_lazy("False win (penalty)"),
}
OPTION_NAMES = {
    # MCR (MCRConfig)
    "fan_57b_points": gettext_lazy("One Melded and one Concealed Kong is worth"),
    "fan_48_points": gettext_lazy("Two Concealed Kongs is worth"),
    "wait_fans_in_knitted_straight": gettext_lazy(
        "Edge and Closed Wait count inside a knitted straight"),
    "waits_include_fifth_copy": gettext_lazy(
        "A tile of which the hand holds all four copies still counts as a wait"),
    "all_green_excludes_half_flush": gettext_lazy("All Green excludes Half Flush"),
    "all_terminals_excludes_double_pung": gettext_lazy("All Terminals excludes Double Pung"),
    "concealed_fans_exclude_fully_concealed": gettext_lazy(
        "Fans of concealed hands exclude Fully Concealed Hand"),
    "minimum_points": gettext_lazy("Points needed to win (flowers not counted)"),
    # HKOS
    "additional": gettext_lazy("All additional hands (31-38)"),
    "replacement_no_self_drawn": gettext_lazy(
        "A replacement-tile win scores instead of self-drawn, not as well"),
    "flower_replacement": gettext_lazy("A win on a flower's replacement tile scores fan 10"),
    "big_dragons_all_pungs": gettext_lazy("Big Three Dragons needs a pung as its fourth set"),
    "min_doublings": gettext_lazy("Doublings needed to win"),
    # Red
    "jokers": gettext_lazy("Play with jokers (148 tiles)"),
    "chaotic_hand_3": gettext_lazy("The chaotic hand is worth 3 points instead of 12"),
    "min_points": gettext_lazy("Points needed to win"),
}


DEFAULT_WORD = pgettext_lazy("option value", "default")


def option_name(name: str) -> str:
    if name in OPTION_NAMES:
        return str(OPTION_NAMES[name])
    if name.startswith("fan") and name[3:].isdigit():
        return _("Additional hand %(number)s") % {"number": name[3:]}
    return name


__all__ = [
    "ACCOUNT_ONCE", "DEFAULT_WORD", "FLAG_NAMES", "OPTION_NAMES", "SEAT_NAMES", "WIND_LETTERS", "WIND_NAMES",
    "WIN_NAMES", "exclusion_text", "option_name",
]

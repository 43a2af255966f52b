"""Fast path of ``score()`` for the common MCR call.

``score(text, **context)`` with the MCR rules, the default configuration, a well-formed
hand of fourteen tiles (no flowers written in the hand, no jokers) and a plain context
(flags that are ``True``/``False``, ``from`` one of the three directions, seat and
prevalent wind as letters, ``flowers`` a number 0-8) is by far the most frequent call.
:func:`score_fast` handles exactly that call in one function: the notation is read by the
parser's fast reader, the context is checked with a few direct tests instead of the
general checks, the evaluator runs, and the result comes from the same
:func:`~.outcome.outcome` as the full path's (the minimum, the payments), without the
flower merge and the generic context builder. The win conditions that cannot go
together are those of :func:`~.outcome.win_flags_conflict`, as on the full path.

Anything else (another configuration, ``waits``, flowers written in the hand or given
by name, seats given as numbers, ``claimed_from``, any invalid input or context) gives
``None``, and :func:`rulebook.scoring.entry.score_mcr` then takes its full path, which is
the reference: the fast path must return a result equal to the full path's (checked by
``tests/rulebook/scoring/test_fast_path.py`` on generated hands).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..hand import Direction, Seat, _fast_parts, has_fifth_copy, new_context, new_hand
from ..result import ScoreResult
from .config import DEFAULT_CONFIG
from .evaluate import evaluate
from .outcome import not_winning, outcome, win_flags_conflict

# the context keys the fast path reads; any other key (valid or not) takes the full path
_FAST_KEYS = frozenset({
    "self_drawn", "from", "seat", "prevalent", "flowers",
    "last_of_kind", "last_tile", "kong_replacement", "robbing_kong",
})
_WINDS = frozenset({"E", "S", "W", "N"})
_DIRECTIONS = frozenset({"left", "opposite", "right"})
_MINIMUM = DEFAULT_CONFIG.minimum_points


def score_fast(text: str, context: Mapping[str, Any]) -> ScoreResult | None:
    """The result of ``score_mcr(text, **context)``, or ``None`` when the call is not the
    common case described in the module docstring (then the full path must be used)."""
    if not _FAST_KEYS.issuperset(context):
        return None
    get = context.get
    # flags: exactly True or False (as the full context check requires)
    self_drawn = get("self_drawn", False)
    last_of_kind = get("last_of_kind", False)
    last_tile = get("last_tile", False)
    kong_replacement = get("kong_replacement", False)
    robbing_kong = get("robbing_kong", False)
    for flag in (self_drawn, last_of_kind, last_tile, kong_replacement, robbing_kong):
        if flag is not True and flag is not False:
            return None
    direction: Direction | None = get("from")
    if direction is not None and (
        self_drawn or type(direction) is not str or direction not in _DIRECTIONS
    ):
        return None
    # the combinations that score_mcr rejects
    if win_flags_conflict(
        self_drawn=self_drawn, kong_replacement=kong_replacement, robbing_kong=robbing_kong
    ):
        return None
    seat: Seat = get("seat", "E")
    prevalent: Seat = get("prevalent", "E")
    # letters only (numbers, lower case and str subclasses take the full path); the type
    # test first, so that an unhashable value is not looked up in the set
    if type(seat) is not str or type(prevalent) is not str or not (
        seat in _WINDS and prevalent in _WINDS
    ):
        return None
    flowers = get("flowers", 0)
    if type(flowers) is not int or not 0 <= flowers <= 8:  # bool and lists excluded
        return None
    # the fifth-copy test is left to the evaluator, which counts every tile anyway
    parts = _fast_parts(text, 14, False)
    if parts is None:
        return None
    melds, tiles, bonus = parts
    if bonus:  # flowers written in the hand: merged with the context by the full path
        return None
    # the fast reader gives only playing tiles (no jokers, no flowers among the tiles)
    hand = new_hand(melds, tiles[:-1], tiles[-1], ())
    ctx = new_context(
        self_drawn, direction, seat, prevalent, flowers, (),
        last_of_kind, last_tile, kong_replacement, robbing_kong,
    )
    ev = evaluate(hand, ctx, DEFAULT_CONFIG)
    if ev is None:
        if has_fifth_copy(melds, tiles):  # an error of the notation: the full path says so
            return None
        return not_winning(text)
    return outcome(text, ev, minimum=_MINIMUM, self_drawn=self_drawn, discarder=direction)

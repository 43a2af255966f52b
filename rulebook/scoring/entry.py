"""``score()``: the one entry point, and the registry of rulesets it dispatches to."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from .arrange import waits_of
from .errors import NotationError
from .hand import KONG, Hand, context_from, parse_hand, parse_waiting
from .mcr.config import DEFAULT_CONFIG, MCRConfig
from .mcr.evaluate import evaluate
from .mcr.fast import score_fast
from .mcr.options import config_from_options
from .mcr.outcome import not_winning, outcome, win_flags_conflict
from .result import ScoreError, ScoreResult
from .tiles import JOKER, parse_tile, tile_name

Scorer = Callable[..., ScoreResult]

# Rules name -> scorer, or "module:function" imported on first use. A scorer takes
# ``(hand: str | Hand, **context)`` and returns a ScoreResult. Other rulesets add an entry.
RULESETS: dict[str, Scorer | str] = {
    "hkos": "rulebook.scoring.hkos:score",
    "red": "rulebook.scoring.red:score",
}


def register_rules(name: str, scorer: Scorer) -> None:
    RULESETS[name] = scorer


def _error(text: str, rules: str, err: NotationError) -> ScoreResult:
    return ScoreResult(hand=text, rules=rules, ok=False, total=0, error=ScoreError.raised(err))


def _flower_count(hand: Hand, context: dict[str, Any]) -> dict[str, Any]:
    """Merge flowers written in the hand with the ``flowers`` context value."""
    if not hand.bonus:
        return context
    given = context.get("flowers", 0)
    names = [tile_name(t) for t in hand.bonus]
    if isinstance(given, (list, tuple)):
        merged = [*names]
        for item in given:
            if item in merged:
                raise NotationError("flower_given_twice", tile=item)
            merged.append(item)
        return {**context, "flowers": tuple(merged)}
    if isinstance(given, int) and not isinstance(given, bool) and given:
        raise NotationError("flowers_written_and_counted")
    return {**context, "flowers": tuple(names)}


def score_mcr(
    hand: str | Hand,
    *,
    config: MCRConfig = DEFAULT_CONFIG,
    waits: bool = False,
    options: object = None,
    **context: Any,
) -> ScoreResult:
    """Score one MCR hand. Never raises for bad input: the result carries the error.

    ``options`` switches fields of ``config`` by name (:mod:`.mcr.options`).
    """
    if options is not None:
        try:
            config = config_from_options(options, config)
        except NotationError as err:
            return _error(hand if isinstance(hand, str) else hand.notation(), "mcr", err)
    # the one dispatch between the two paths: the common call (a notation string, the
    # default rules, a plain context) takes the fast path, anything else the full one
    if type(hand) is str and config is DEFAULT_CONFIG and not waits:
        fast = score_fast(hand, context)
        if fast is not None:
            return fast
    return score_mcr_full(hand, config=config, waits=waits, **context)


def score_mcr_full(
    hand: str | Hand,
    *,
    config: MCRConfig = DEFAULT_CONFIG,
    waits: bool = False,
    options: object = None,
    **context: Any,
) -> ScoreResult:
    """:func:`score_mcr` without its fast path (:mod:`.mcr.fast`): every input, the
    reference that the fast path is checked against."""
    rules = "mcr"
    text = hand if isinstance(hand, str) else hand.notation()
    try:
        if options is not None:
            config = config_from_options(options, config)
        if waits:
            if not isinstance(hand, str):
                raise NotationError("waits_need_notation")
            melds, tiles = parse_waiting(text, allow_joker=False)
            found = (
                waits_of(melds, tiles, config.waits_include_fifth_copy)
                if all(t < 34 for t in tiles) else []
            )
            return ScoreResult(
                hand=text, rules=rules, ok=True, total=0,
                waits=tuple(tile_name(t) for t in found),
            )
        if isinstance(hand, str):
            h = parse_hand(text, allow_joker=False)
        else:
            h = hand
            if any(m.jokers for m in h.melds):
                raise NotationError("jokers_not_in_mcr")
        # jokers and flowers are the tiles from 34 on (one test for the usual hand)
        if h.win_tile >= 34 or (h.concealed and max(h.concealed) >= 34):
            if JOKER in h.concealed or h.win_tile == JOKER:
                raise NotationError("jokers_not_in_mcr")
            raise NotationError("flowers_in_sets")
        ctx = context_from(_flower_count(h, context))  # never changes context
        conflict = win_flags_conflict(
            self_drawn=ctx.self_drawn, kong_replacement=ctx.kong_replacement,
            robbing_kong=ctx.robbing_kong,
        )
        if conflict:
            raise NotationError(conflict)
        ev = evaluate(h, ctx, config)
    except NotationError as err:
        return _error(text, rules, err)
    if ev is None:
        return not_winning(text)
    return outcome(
        text, ev, minimum=config.minimum_points, self_drawn=ctx.self_drawn,
        discarder=ctx.claimed_from,
    )


RULESETS["mcr"] = score_mcr


def score(hand: str | Hand, *, rules: str = "mcr", **context: Any) -> ScoreResult:
    """Score a hand under ``rules`` ("mcr"; "hkos" and "red" when their modules exist).

    Context keys are named like the command-line options: ``self_drawn``, ``from``
    (or ``claimed_from``), ``seat``, ``prevalent``, ``flowers``, ``last_of_kind``,
    ``last_tile``, ``kong_replacement``, ``robbing_kong``; ``waits=True`` lists the tiles
    that complete a hand of thirteen instead of scoring.
    """
    entry = RULESETS.get(rules)
    if callable(entry):  # a registered scorer (MCR: score_mcr picks its fast or full path)
        result: ScoreResult = entry(hand, **context)
        return result
    text = hand if isinstance(hand, str) else hand.notation()
    if entry is None:
        return ScoreResult(
            hand=text, rules=rules, ok=False, total=0,
            error=ScoreError.of("unknown_rules", rules=rules),
        )
    if isinstance(entry, str):
        module_name, _, attr = entry.partition(":")
        try:
            loaded = getattr(importlib.import_module(module_name), attr)
        except (ImportError, AttributeError):
            return ScoreResult(
                hand=text, rules=rules, ok=False, total=0,
                error=ScoreError.of("rules_not_available", rules=rules),
            )
        RULESETS[rules] = loaded
        entry = loaded
    loaded_result: ScoreResult = entry(hand, **context)
    return loaded_result


def waits(hand: str) -> list[str]:
    """Tiles that complete a hand of thirteen (raises :class:`NotationError`)."""
    melds, tiles = parse_waiting(hand, allow_joker=False)
    return [tile_name(t) for t in waits_of(melds, tiles)]


def resolve_fan_id(fan_id: str, hand: str | Hand | None = None) -> str:
    """Normalise a fan id; "57" alone is ambiguous unless the hand's kongs decide it.

    Raises :class:`NotationError` with code ``ambiguous_fan``.
    """
    fid = fan_id.strip().upper().replace("А", "A").replace("Б", "B")
    if fid != "57":
        return fid
    if hand is not None:
        h = parse_hand(hand) if isinstance(hand, str) else hand
        kongs = [m for m in h.melds if m.kind == KONG]
        melded = sum(1 for m in kongs if not m.concealed)
        if len(kongs) == 2 and melded == 2:
            return "57A"
        if len(kongs) == 2 and melded == 1:
            return "57B"
    raise NotationError("fan_57_ambiguous")


__all__ = ["RULESETS", "parse_tile", "register_rules", "resolve_fan_id", "score", "score_mcr",
           "score_mcr_full", "waits"]

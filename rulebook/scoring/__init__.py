"""Pure-Python mahjong scoring core (no Django): tiles, hands, arrangements, rulesets.

Public API::

    score(hand, *, rules="mcr", **context) -> ScoreResult
    waits(hand13) -> list[str]
    parse_hand(text) -> Hand;  arrangements(hand) -> list[Arrangement]
"""

from .arrange import Arrangement, TileSet, arrangements
from .entry import RULESETS, register_rules, resolve_fan_id, score, score_mcr, waits
from .errors import NotationError
from .hand import Hand, Meld, WinContext, make_context, parse_hand, parse_waiting
from .mcr.config import DEFAULT_CONFIG, MCRConfig
from .result import ExcludedFan, FanScore, ScoreError, ScoreResult

__all__ = [
    "DEFAULT_CONFIG",
    "RULESETS",
    "Arrangement",
    "ExcludedFan",
    "FanScore",
    "Hand",
    "MCRConfig",
    "Meld",
    "NotationError",
    "ScoreError",
    "ScoreResult",
    "TileSet",
    "WinContext",
    "arrangements",
    "make_context",
    "parse_hand",
    "parse_waiting",
    "register_rules",
    "resolve_fan_id",
    "score",
    "score_mcr",
    "waits",
]

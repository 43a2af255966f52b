"""Pure-Python mahjong scoring core (no Django): tiles, hands, arrangements, rulesets."""

from .hand import Hand, Meld, WinContext, make_context, parse_hand
from .tiles import NotationError

__all__ = ["Hand", "Meld", "NotationError", "WinContext", "make_context", "parse_hand"]

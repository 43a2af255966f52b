"""The MCR variant switches: :class:`MCRConfig` and the default configuration.

A module of its own, so that the evaluator (``evaluate.py``) and the steps it calls
(``arrangement_fans.py``, ``exclusions.py``) all read the configuration from here instead
of from one another. ``rulebook.scoring`` re-exports both names.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class MCRConfig:
    """Variant switches. Defaults follow the seeds (WMO 2006 text + fan table 004)."""

    fan_57b_points: int = 6  # One Melded and one Concealed Kong (004: 6; Chinese 2006: 5)
    fan_48_points: int = 8  # Two Concealed Kongs (004: 8; Chinese 2006: 6)
    wait_fans_in_knitted_straight: bool = False  # Edge/Closed inside the knitted tiles
    minimum_points: int = 8  # 3.9.1.1, flowers not counted
    all_green_excludes_half_flush: bool = False  # seed 3: may combine; Chinese: excludes
    # seed 4, 6, 7, 12, 19, 20, 34: these fans exclude Concealed Hand but "combine with
    # Fully Concealed when self-drawn"; the Chinese calculator counts Self-Drawn instead
    concealed_fans_exclude_fully_concealed: bool = False
    # a tile of which the hand holds all four copies is no real wait (seed 77-79: "waiting
    # for more than one tile"); the Chinese calculator counts it as a wait
    waits_include_fifth_copy: bool = False
    # seed 8: All Terminals "combines with Double Pung and Triple Pung"; the Chinese
    # calculator does not count Double Pung with it
    all_terminals_excludes_double_pung: bool = False


DEFAULT_CONFIG = MCRConfig()
assert not (
    DEFAULT_CONFIG.all_green_excludes_half_flush
    or DEFAULT_CONFIG.all_terminals_excludes_double_pung
    or DEFAULT_CONFIG.concealed_fans_exclude_fully_concealed
)  # evaluate() skips exclusions.apply_switches for the default

__all__ = ["DEFAULT_CONFIG", "MCRConfig"]

"""PURE: what an MCR fan excludes and why (from the core's table), and what it is often
combined with (from scored worked examples). No Django here."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from rulebook.scoring.mcr import table

# Why a fan is not counted together with another (see docs/scoring/mcr.md "Exclusions").
APPENDIX = "appendix"  # Appendix 1 says «Не совмещается с …» for this fan
IMPLIED = "implied"  # the fan necessarily contains the other one (3.9.1.5 (1))
READING = "reading"  # another reading of the same tiles, never in one arrangement (3.9.1.5 (2))


@dataclass(frozen=True)
class Exclusion:
    fan: str
    reason: str


def exclusions(code: str, appendix: Sequence[str] = ()) -> list[Exclusion]:
    """The fans not counted with `code`, in table order, each with its reason."""
    fan = table.FANS.get(code)
    if fan is None:
        return []
    found = [
        Exclusion(other, APPENDIX if other in appendix else IMPLIED) for other in fan.implies
    ]
    found += [Exclusion(other, READING) for other in fan.readings if other not in fan.implies]
    return found


def excluded_by(code: str) -> list[str]:
    """The fans that, when counted, keep `code` from being counted (table order)."""
    return [f.id for f in table.FANS.values() if code in f.implies or code in f.readings]


def set_level(code: str) -> str | None:
    """'chows' or 'pungs' when exclusions among this fan's family are decided per set."""
    if code in table.CHOW_COMBINATION_FANS:
        return "chows"
    if code in table.PUNG_COMBINATION_FANS:
        return "pungs"
    return None


@dataclass(frozen=True)
class Combined:
    examples: int  # worked examples whose result counts the fan
    fans: list[tuple[str, int]]  # (other fan, in how many of them), most frequent first


def often_combined(code: str, results: Iterable[Mapping[str, int]], limit: int = 8) -> Combined:
    """From the counted fans of scored hands: which other fans come with `code` most often."""
    counter: Counter[str] = Counter()
    examples = 0
    for counted in results:
        if code not in counted:
            continue
        examples += 1
        counter.update(fid for fid in counted if fid != code)
    order = table.FAN_ORDER
    ranked = sorted(counter.items(), key=lambda item: (-item[1], order.get(item[0], 999)))
    return Combined(examples=examples, fans=ranked[:limit])

"""Red Mahjong fan table, as data.

Source: ``../shared/seeds/003_*.txt`` ("Таблица фанов", lines 729-838;
"Система подсчёта очков", lines 664-690). Line numbers below refer to that
file; decisions on unclear passages are in ``docs/scoring/red.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Cap on the points of a hand (line 684: "предел в 300 очков").
POINT_CAP = 300

#: False win: the offender pays 9 points to every other player (line 596).
FALSE_WIN_PENALTY = 9

#: Footnote 12 (lines 835-838): by agreement the chaotic hand may be worth 3.
CHAOTIC_HAND_REDUCED = 3


@dataclass(frozen=True, slots=True)
class FanDef:
    """One row of the table.

    ``points`` is the value of one occurrence; a fan may occur several times
    (line 673: one set may take part in several fans, footnote 10 counts "pure
    straight" twice). ``external`` marks the flower fan, which the house minimum
    ignores (lines 677-682).
    """

    id: str
    key: str
    name_ru: str
    points: int
    external: bool = False
    line: int = 0


FANS: tuple[FanDef, ...] = (
    FanDef("1", "flower", "Цветок/сезон", 3, external=True, line=733),
    FanDef("2", "all_chows", "Все чоу", 3, line=738),
    FanDef("3", "mixed_double_chow", "Смешанное двойное чоу", 3, line=740),
    FanDef("4", "double_pung", "Двойной панг", 3, line=748),
    FanDef("5", "two_terminal_chows", "Два терминальных чоу", 3, line=753),
    FanDef("6", "honour_pung", "Панг благородных", 3, line=759),
    FanDef("7", "special_pair", "Особая пара", 3, line=764),
    FanDef("8", "all_pungs", "Все панги", 12, line=769),
    FanDef("9", "pure_double_chow", "Чистое двойное чоу", 12, line=774),
    FanDef("10", "pure_straight", "Чистый ряд", 12, line=779),
    FanDef("11", "chaotic_hand", "Хаотичная рука", 12, line=790),
    FanDef("12", "half_flush", "Полумасть", 12, line=800),
    FanDef("13", "all_types", "Все типы", 16, line=805),
    FanDef("14", "lower_five", "Пять нижних", 24, line=810),
    FanDef("15", "upper_five", "Пять верхних", 24, line=815),
    FanDef("16", "red_hand", "Красная рука", 32, line=820),
    FanDef("17", "big_three_dragons", "Большие три дракона", 64, line=825),
    FanDef("18", "full_flush", "Чистая масть", 64, line=830),
)

FANS_BY_ID: dict[str, FanDef] = {f.id: f for f in FANS}


def cap_points(points: int) -> int:
    """Points of a hand after the 300-point cap (lines 684-685)."""
    if points < 0:
        raise ValueError("points must be >= 0")
    return min(points, POINT_CAP)

"""Hong Kong Old Style fan table, as data.

Source: ``../shared/seeds/001_*.txt`` ("Таблица фанов", lines 894-1121;
"Дополнения", lines 1150-1234; "Таблица фан-лак", lines 1125-1146).
Line numbers below refer to that file. Decisions on unclear passages are
recorded in ``docs/scoring/hkos.md``.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Cap on the doublings that count for points (line 849: "предел в 10 удвоений").
DOUBLING_CAP = 10

#: The value of every limit hand (lines 1008-1121: each is worth 10 doublings).
LIMIT = 10

#: False win: the offender pays 16 points to every other player (line 695).
FALSE_WIN_PENALTY = 16


@dataclass(frozen=True, slots=True)
class FanDef:
    """One row of the table.

    ``key`` is a stable English name for i18n / display; ``name_ru`` the name
    in the seed; ``doublings`` the value of one occurrence; ``limit`` marks
    the limit hands (worth the cap by themselves); ``option`` names the house
    rule that switches an additional hand on (``None``: always scored);
    ``external`` marks the flower fans 1-3, which the house minimum ignores
    (lines 836-847 and footnote 15, lines 982-984).
    """

    id: str
    key: str
    name_ru: str
    doublings: int
    limit: bool = False
    option: str | None = None
    external: bool = False
    line: int = 0


FANS: tuple[FanDef, ...] = (
    FanDef("1", "no_flowers", "Без цветов и сезонов", 1, external=True, line=898),
    FanDef("2", "seat_flower", "Цветок/сезон места", 1, external=True, line=903),
    FanDef("3", "all_flowers", "Все цветы/все сезоны", 1, external=True, line=911),
    FanDef("4", "all_chows", "Все чоу", 1, line=919),
    FanDef("5", "dragon_pung", "Панг драконов", 1, line=921),
    FanDef("6", "wind_pung", "Ветер места/раунда", 1, line=923),
    FanDef("7", "self_drawn", "Победа со стены", 1, line=931),
    FanDef("8", "last_wall_tile", "Последняя кость со стены", 1, line=936),
    FanDef("9", "last_discard", "Последняя кость со сноса", 1, line=944),
    FanDef("10", "replacement_win", "Победа замещающей костью", 1, line=949),
    FanDef("11", "robbing_kong", "Ограбление конга", 1, line=958),
    FanDef("12", "little_three_dragons", "Малые три дракона", 2, line=966),
    FanDef("13", "all_pungs", "Все панги", 3, line=975),
    FanDef("14", "half_flush", "Полумасть", 3, line=977),
    FanDef("15", "seven_pairs", "Семь пар", 4, line=996),
    FanDef("16", "full_flush", "Чистая масть", 6, line=1003),
    FanDef("17", "four_concealed_pungs", "Четыре закрытых панга", LIMIT, True, line=1008),
    FanDef("18", "big_three_dragons", "Большие три дракона", LIMIT, True, line=1016),
    FanDef("19", "little_four_winds", "Малые четыре ветра", LIMIT, True, line=1021),
    FanDef("20", "big_four_winds", "Большие четыре ветра", LIMIT, True, line=1029),
    FanDef("21", "all_honours", "Все благородные", LIMIT, True, line=1034),
    FanDef("22", "all_terminals", "Все терминальные", LIMIT, True, line=1052),
    FanDef("23", "nine_gates", "Девять врат", LIMIT, True, line=1062),
    FanDef("24", "thirteen_orphans", "Тринадцать сирот", LIMIT, True, line=1071),
    FanDef("25", "four_kongs", "Четыре конга", LIMIT, True, line=1079),
    FanDef("26", "jade_dragon", "Нефритовый дракон", LIMIT, True, line=1081),
    FanDef("27", "ruby_dragon", "Рубиновый дракон", LIMIT, True, line=1092),
    FanDef("28", "pearl_dragon", "Жемчужный дракон", LIMIT, True, line=1101),
    FanDef("29", "heavenly_blessing", "Благословение Небес", LIMIT, True, line=1110),
    FanDef("30", "earthly_blessing", "Благословение Земли", LIMIT, True, line=1118),
    # Additional hands ("Дополнения", lines 1150-1234): off unless the option is given.
    FanDef("31", "concealed_hand", "Закрытая рука", 1, option="fan31", line=1158),
    FanDef("32", "single_wait", "Ценное ожидание", 1, option="fan32", line=1163),
    FanDef("33", "human_blessing", "Благословение Человека", 6, option="fan33", line=1173),
    FanDef("34", "peking_garden", "Пекинский сад", LIMIT, True, option="fan34", line=1184),
    FanDef("35", "snake_dragon", "Змея-дракон", LIMIT, True, option="fan35", line=1190),
    FanDef("36", "interlaced_pungs", "Переплетённые панги", LIMIT, True, option="fan36", line=1196),
    FanDef("37", "double_fortune", "Двойная удача", LIMIT, True, option="fan37", line=1217),
    FanDef(
        "38", "royal_interlaced_dragon", "Королевский переплетённый дракон", LIMIT, True,
        option="fan38", line=1225,
    ),
)

FANS_BY_ID: dict[str, FanDef] = {f.id: f for f in FANS}

#: Fans whose hands make a player liable for feeding them (lines 698-722).
LIABILITY_FANS: frozenset[str] = frozenset({"16", "18", "20", "21", "22"})

#: "Таблица фан-лак" (lines 1125-1143): doublings -> points of the hand.
#: Not 2**n: 4-6 doublings are all worth 16 and 7-9 all worth 32.
FAN_LAK: tuple[int, ...] = (1, 2, 4, 8, 16, 16, 16, 32, 32, 32, 64)


def doublings_to_points(doublings: int) -> int:
    """Points of a hand worth ``doublings`` (capped at :data:`DOUBLING_CAP`)."""
    if doublings < 0:
        raise ValueError("doublings must be >= 0")
    return FAN_LAK[min(doublings, DOUBLING_CAP)]

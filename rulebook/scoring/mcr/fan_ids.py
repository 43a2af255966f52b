"""The MCR fans by name: ``MIXED_TRIPLE_CHOW`` is fan 41 of the book.

The ids are the numbers of the fan table (Appendix 1; 57 is split into 57A and 57B, see
``table.py``). Code names fans by these constants, never by their numbers, the table
(``table.py``) included: this module is the one place where the numbers are written.
"""

from __future__ import annotations

from typing import Final

# 88
BIG_FOUR_WINDS: Final = "1"
BIG_THREE_DRAGONS: Final = "2"
ALL_GREEN: Final = "3"
NINE_GATES: Final = "4"
FOUR_KONGS: Final = "5"
SEVEN_SHIFTED_PAIRS: Final = "6"
THIRTEEN_ORPHANS: Final = "7"

# 64
ALL_TERMINALS: Final = "8"
LITTLE_FOUR_WINDS: Final = "9"
LITTLE_THREE_DRAGONS: Final = "10"
ALL_HONORS: Final = "11"
FOUR_CONCEALED_PUNGS: Final = "12"
PURE_TERMINAL_CHOWS: Final = "13"

# 48
QUADRUPLE_CHOW: Final = "14"
FOUR_PURE_SHIFTED_PUNGS: Final = "15"

# 32
FOUR_PURE_SHIFTED_CHOWS: Final = "16"
THREE_KONGS: Final = "17"
ALL_TERMINALS_AND_HONORS: Final = "18"

# 24
SEVEN_PAIRS: Final = "19"
GREATER_HONORS_AND_KNITTED_TILES: Final = "20"
ALL_EVEN_PUNGS: Final = "21"
FULL_FLUSH: Final = "22"
PURE_TRIPLE_CHOW: Final = "23"
PURE_SHIFTED_PUNGS: Final = "24"
UPPER_TILES: Final = "25"
MIDDLE_TILES: Final = "26"
LOWER_TILES: Final = "27"

# 16
PURE_STRAIGHT: Final = "28"
THREE_SUITED_TERMINAL_CHOWS: Final = "29"
PURE_SHIFTED_CHOWS: Final = "30"
ALL_FIVES: Final = "31"
TRIPLE_PUNG: Final = "32"
THREE_CONCEALED_PUNGS: Final = "33"

# 12
LESSER_HONORS_AND_KNITTED_TILES: Final = "34"
KNITTED_STRAIGHT: Final = "35"
UPPER_FOUR: Final = "36"
LOWER_FOUR: Final = "37"
BIG_THREE_WINDS: Final = "38"

# 8
MIXED_STRAIGHT: Final = "39"
REVERSIBLE_TILES: Final = "40"
MIXED_TRIPLE_CHOW: Final = "41"
MIXED_SHIFTED_PUNGS: Final = "42"
CHICKEN_HAND: Final = "43"
LAST_TILE_DRAW: Final = "44"
LAST_TILE_CLAIM: Final = "45"
OUT_WITH_REPLACEMENT_TILE: Final = "46"
ROBBING_THE_KONG: Final = "47"
TWO_CONCEALED_KONGS: Final = "48"

# 6
ALL_PUNGS: Final = "49"
HALF_FLUSH: Final = "50"
MIXED_SHIFTED_CHOWS: Final = "51"
ALL_TYPES: Final = "52"
MELDED_HAND: Final = "53"
TWO_DRAGON_PUNGS: Final = "54"
ONE_MELDED_AND_ONE_CONCEALED_KONG: Final = "57B"

# 4
OUTSIDE_HAND: Final = "55"
FULLY_CONCEALED_HAND: Final = "56"
TWO_MELDED_KONGS: Final = "57A"
LAST_TILE: Final = "58"

# 2
DRAGON_PUNG: Final = "59"
PREVALENT_WIND: Final = "60"
SEAT_WIND: Final = "61"
CONCEALED_HAND: Final = "62"
ALL_CHOWS: Final = "63"
TILE_HOG: Final = "64"
DOUBLE_PUNG: Final = "65"
TWO_CONCEALED_PUNGS: Final = "66"
CONCEALED_KONG: Final = "67"
ALL_SIMPLES: Final = "68"

# 1
PURE_DOUBLE_CHOW: Final = "69"
MIXED_DOUBLE_CHOW: Final = "70"
SHORT_STRAIGHT: Final = "71"
TWO_TERMINAL_CHOWS: Final = "72"
PUNG_OF_TERMINALS_OR_HONORS: Final = "73"
MELDED_KONG: Final = "74"
ONE_VOIDED_SUIT: Final = "75"
NO_HONORS: Final = "76"
EDGE_WAIT: Final = "77"
CLOSED_WAIT: Final = "78"
SINGLE_WAIT: Final = "79"
SELF_DRAWN: Final = "80"
FLOWER_TILES: Final = "81"

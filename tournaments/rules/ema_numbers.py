"""PURE: the one rule for an EMA number typed anywhere (entries, the players endpoint and
form, the results and players files, the EMA register import, the player admin).

An EMA number has 8 digits. A spreadsheet that read the column as a number dropped a
leading zero (Austria's ``01000001`` became ``1000001``): 7 digits are accepted and padded
back to 8, and the caller says so. Anything else (letters, fewer than 7 or more than 8
digits) is refused. Spaces around the number are ignored; an empty value is no number.
"""

from __future__ import annotations

from dataclasses import dataclass

LENGTH = 8

E_BAD_EMA_NUMBER = "bad_ema_number"


@dataclass(frozen=True)
class EmaNumber:
    number: str  # 8 digits, or "" when none was given
    padded: bool = False  # a dropped leading zero was put back
    error: str | None = None  # E_BAD_EMA_NUMBER when the text is no EMA number


def ema_number_normalise(text: str) -> EmaNumber:
    """The EMA number ``text`` stands for (module docstring)."""
    value = text.strip()
    if value.endswith(".0") and value[:-2].isdigit():
        value = value[:-2]  # a number cell written out as a decimal
    if not value:
        return EmaNumber("")
    if not (value.isascii() and value.isdigit()) or not LENGTH - 1 <= len(value) <= LENGTH:
        return EmaNumber("", error=E_BAD_EMA_NUMBER)
    return EmaNumber(value.zfill(LENGTH), padded=len(value) < LENGTH)

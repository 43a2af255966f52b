"""PURE: one row of the EMA player register read for an import (decision 0316): the EMA
number through the one rule (``tournaments.rules.ema_numbers``), the names, the country
as written (the service resolves it to its ISO code).

The fields and the header names each is known by, in the site's five languages: ``HEADERS``.
"""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.rules.ema_numbers import E_BAD_EMA_NUMBER, ema_number_normalise

HEADERS: dict[str, tuple[str, ...]] = {
    "ema_number": ("ema number", "ema id", "ema", "ema no", "ema nr", "ema #", "id", "number",
                   "номер ema", "ema номер", "ema 编号", "ema编号", "numéro ema", "n° ema",
                   "ema-nummer", "emanummer"),
    "last_name": ("last name", "surname", "family name", "lastname", "фамилия", "姓",
                  "nom", "nom de famille", "achternaam"),
    "first_name": ("first name", "given name", "firstname", "имя", "名", "prénom",
                   "voornaam"),
    "country": ("country", "nationality", "nation", "страна", "国家", "pays", "land"),
}
REQUIRED = ("ema_number", "last_name", "first_name")
MAX_LENGTH = {"last_name": 100, "first_name": 100, "country": 100}

E_REQUIRED = "required"
E_TOO_LONG = "too_long"


@dataclass(frozen=True)
class Problem:
    field: str
    code: str
    value: str = ""
    limit: int | None = None


@dataclass(frozen=True)
class RegisterRow:
    ema_number: str  # 8 digits
    padded: bool  # the register's 7 digits had lost a leading zero
    given_number: str
    last_name: str
    first_name: str
    country: str  # as written

    @property
    def name_latin(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()


def register_row_read(cells: dict[str, str]) -> tuple[RegisterRow | None, list[Problem]]:
    text = {name: cells.get(name, "").strip() for name in HEADERS}
    problems = [Problem(name, E_REQUIRED) for name in REQUIRED if not text[name]]
    for name, limit in MAX_LENGTH.items():
        if len(text[name]) > limit:
            problems.append(Problem(name, E_TOO_LONG, text[name][:20], limit))
    ema = ema_number_normalise(text["ema_number"])
    if text["ema_number"] and ema.error:
        problems.append(Problem("ema_number", E_BAD_EMA_NUMBER, text["ema_number"]))
    if problems:
        return None, problems
    return RegisterRow(ema.number, ema.padded, text["ema_number"], text["last_name"],
                       text["first_name"], text["country"]), []

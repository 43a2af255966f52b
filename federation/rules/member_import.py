"""PURE: one row of a federation's members spreadsheet read into a ``MemberRow`` (decision
0316), each problem a stable code with the field it concerns.

The fields and the header names each is known by, in the site's five languages (any case,
spaces and punctuation ignored): ``HEADERS``. Dates are written ``2024-03-31``,
``31.03.2024`` or ``31/03/2024``; paid years as ``2024, 2025``, ``2024;2025`` or
``2023-2025``; a member number may keep its leading zeros (``000123``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime

from core.rules.date_windows import is_plausible

HEADERS: dict[str, tuple[str, ...]] = {
    "name": ("name", "full name", "member", "имя", "фио", "ф.и.о.", "полное имя", "姓名",
             "名字", "nom", "nom complet", "naam", "volledige naam"),
    "name_latin": ("name latin", "latin name", "name (latin letters)", "имя латиницей",
                   "имя (латиница)", "拼音", "英文名", "nom latin", "naam latijn"),
    "email": ("email", "e-mail", "mail", "email address", "почта", "электронная почта",
              "эл. почта", "e-mail адрес", "电子邮件", "邮箱", "courriel", "adresse e-mail",
              "e-mailadres"),
    "date_of_birth": ("date of birth", "birth date", "birthday", "dob", "born",
                      "дата рождения", "出生日期", "生日", "date de naissance", "né le",
                      "geboortedatum"),
    "club": ("club", "клуб", "俱乐部", "vereniging"),
    "member_number": ("member number", "membership number", "number", "no", "member no",
                      "номер", "членский номер", "номер члена", "会员号", "会员编号", "numéro",
                      "numéro de membre", "n° de membre", "lidnummer", "nummer"),
    "country": ("country", "страна", "国家", "pays", "land"),
    "phone": ("phone", "telephone", "mobile", "телефон", "电话", "手机", "téléphone",
              "telefoon", "telefoonnummer"),
    "joined": ("joined", "joined on", "member since", "вступил", "дата вступления",
               "член с", "入会日期", "adhésion", "date d'adhésion", "lid sinds"),
    "paid_years": ("paid years", "paid", "dues paid", "оплаченные годы", "оплачено",
                   "взносы", "已缴年份", "缴费年份", "années payées", "cotisations payées",
                   "betaalde jaren", "betaald"),
}
REQUIRED = ("name",)
MAX_LENGTH = {"name": 200, "name_latin": 200, "email": 254, "club": 200, "country": 100,
              "phone": 50}
MAX_MEMBER_NUMBER = 2_147_483_647

E_REQUIRED = "required"
E_TOO_LONG = "too_long"
E_BAD_DATE = "bad_date"
E_BAD_EMAIL = "bad_email"
E_BAD_NUMBER = "bad_number"
E_BAD_YEARS = "bad_years"

EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s.]+$")
YEAR_RANGE_RE = re.compile(r"^(\d{4})-(\d{4})$")
DATE_FORMATS = ("%Y-%m-%d", "%d.%m.%Y", "%d/%m/%Y", "%Y/%m/%d")
EARLIEST_YEAR = 1900


@dataclass(frozen=True)
class Problem:
    field: str
    code: str
    value: str = ""
    limit: int | None = None


@dataclass(frozen=True)
class MemberRow:
    name: str
    name_latin: str = ""
    email: str = ""
    date_of_birth: date | None = None
    club: str = ""
    member_number: int | None = None
    country: str = ""
    phone: str = ""
    joined: date | None = None
    paid_years: tuple[int, ...] = field(default=())


def member_row_read(cells: dict[str, str], today: date
                    ) -> tuple[MemberRow | None, list[Problem]]:
    """The row (field -> cell text) as a MemberRow, or None and every problem."""
    problems: list[Problem] = []
    text = {name: cells.get(name, "").strip() for name in HEADERS}
    for name in REQUIRED:
        if not text[name]:
            problems.append(Problem(name, E_REQUIRED))
    for name, limit in MAX_LENGTH.items():
        if len(text[name]) > limit:
            problems.append(Problem(name, E_TOO_LONG, text[name][:20], limit))
    email = text["email"].lower()
    if email and not EMAIL_RE.match(email):
        problems.append(Problem("email", E_BAD_EMAIL, text["email"]))
    number = None
    if text["member_number"]:
        raw = text["member_number"].removesuffix(".0")
        if not (raw.isascii() and raw.isdigit()) or not 0 < int(raw) <= MAX_MEMBER_NUMBER:
            problems.append(Problem("member_number", E_BAD_NUMBER, text["member_number"]))
        else:
            number = int(raw)
    born = _date(text["date_of_birth"])
    if text["date_of_birth"] and (born is None or not is_plausible("birth", born, today)):
        problems.append(Problem("date_of_birth", E_BAD_DATE, text["date_of_birth"]))
    joined = _date(text["joined"])
    if text["joined"] and (joined is None or not date(EARLIEST_YEAR, 1, 1) <= joined <= today):
        problems.append(Problem("joined", E_BAD_DATE, text["joined"]))
    years = paid_years_read(text["paid_years"], today)
    if years is None:
        problems.append(Problem("paid_years", E_BAD_YEARS, text["paid_years"]))
    if problems:
        return None, problems
    return MemberRow(
        name=text["name"], name_latin=text["name_latin"], email=email, date_of_birth=born,
        club=text["club"], member_number=number, country=text["country"],
        phone=text["phone"], joined=joined, paid_years=years or (),
    ), []


def paid_years_read(text: str, today: date) -> tuple[int, ...] | None:
    """The years in ``2024, 2025``, ``2024;2025``, ``2023-2025`` (sorted, each once);
    None when the text is not such a list or names a year before 1900 or after next year."""
    years: set[int] = set()
    for part in re.split(r"[,;\s]+", re.sub(r"\s*[-–]\s*", "-", text.strip())):
        part = part.strip()
        if not part:
            continue
        span = YEAR_RANGE_RE.match(part)
        if span:
            first, last = int(span[1]), int(span[2])
            if last < first or last - first > 100:
                return None
            years.update(range(first, last + 1))
        elif part.isascii() and part.isdigit() and len(part) == 4:
            years.add(int(part))
        else:
            return None
    if any(not EARLIEST_YEAR <= year <= today.year + 1 for year in years):
        return None
    return tuple(sorted(years))


def _date(text: str) -> date | None:
    if not text:
        return None
    if len(text) == 10 and text[4] == "-":
        try:
            return date.fromisoformat(text)
        except ValueError:
            return None
    for pattern in DATE_FORMATS:
        try:
            return datetime.strptime(text, pattern).date()
        except ValueError:
            continue
    return None

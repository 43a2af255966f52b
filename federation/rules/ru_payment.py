"""PURE Russian bank details and the unified payment QR payload (GOST R 56042-2014).

The control digits of the payee's INN (tax number), the BIK (bank identifier) and the two
accounts (settlement and correspondent, keyed with the BIK, Bank of Russia rules of
1997 No. 515), the format of the KPP; and the ``ST00012`` text every Russian banking app reads
from a QR code: ``ST00012|Name=…|PersonalAcc=…|BankName=…|BIC=…|CorrespAcc=…|PayeeINN=…
|KPP=…|Sum=…|Purpose=…`` (format ``ST0001``, character set ``2`` = UTF-8; the five
required fields first, in the standard's order; ``Sum`` in kopecks).

No ORM, no HTTP, no translation: strings and Decimal in, stable codes out.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal

# the settings' keys (config/settings/base.py MEMBERSHIP_BANK_ACCOUNT_RUB), in display order
FIELDS = ("name", "inn", "kpp", "bik", "account", "corr_account", "bank_name")
REQUIRED = ("name", "inn", "bik", "account", "corr_account", "bank_name")

E_MISSING = "missing"
E_INN = "bad_inn"
E_KPP = "bad_kpp"
E_BIK = "bad_bik"
E_ACCOUNT = "bad_account"
E_CORR_ACCOUNT = "bad_corr_account"
E_SEPARATOR = "separator_in_value"
E_TOO_LONG = "too_long"
E_SUM = "bad_sum"

HEADER = "ST00012"  # format ST0001, encoding 2 (UTF-8)
SEPARATOR = "|"
# the standard's limits (characters) of the fields written
MAX_LENGTH = {"Name": 160, "BankName": 45, "Purpose": 210}
MAX_KOPECKS = 10**18 - 1  # Sum: up to 18 digits

_INN10_WEIGHTS = (2, 4, 10, 3, 5, 9, 4, 6, 8)
_INN12_WEIGHTS_11 = (7, 2, 4, 10, 3, 5, 9, 4, 6, 8)
_INN12_WEIGHTS_12 = (3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8)
_ACCOUNT_WEIGHTS = (7, 1, 3)


def _check_digit(digits: str, weights: tuple[int, ...]) -> int:
    return sum(int(d) * w for d, w in zip(digits, weights, strict=False)) % 11 % 10


def inn_is_valid(inn: str) -> bool:
    """A legal entity's 10-digit INN or a person's 12-digit one, with its control digits."""
    if re.fullmatch(r"\d{10}", inn):
        return _check_digit(inn, _INN10_WEIGHTS) == int(inn[9])
    if re.fullmatch(r"\d{12}", inn):
        return (_check_digit(inn, _INN12_WEIGHTS_11) == int(inn[10])
                and _check_digit(inn, _INN12_WEIGHTS_12) == int(inn[11]))
    return False


def kpp_is_valid(kpp: str) -> bool:
    """Nine characters: tax office (4 digits), reason (2 digits or capital letters), number."""
    return bool(re.fullmatch(r"\d{4}[0-9A-Z]{2}\d{3}", kpp))


def bik_is_valid(bik: str) -> bool:
    """A Russian bank's BIK: nine digits, country code 04."""
    return bool(re.fullmatch(r"04\d{7}", bik))


def _key_ok(prefix: str, account: str) -> bool:
    digits = prefix + account
    return sum(int(d) * _ACCOUNT_WEIGHTS[i % 3] % 10 for i, d in enumerate(digits)) % 10 == 0


def account_is_valid(account: str, bik: str) -> bool:
    """A 20-digit settlement account whose key digit matches the bank's BIK (its last three
    digits lead the keyed number)."""
    return bool(re.fullmatch(r"\d{20}", account)) and bik_is_valid(bik) and _key_ok(
        _prefix(bik, False), account)


def corr_account_is_valid(account: str, bik: str) -> bool:
    """The bank's correspondent account at the Bank of Russia (30101…): keyed with "0" and
    the BIK's fifth and sixth digits."""
    return (bool(re.fullmatch(r"30101\d{15}", account)) and bik_is_valid(bik)
            and _key_ok(_prefix(bik, True), account))


def _prefix(bik: str, corr: bool) -> str:
    return "0" + bik[4:6] if corr else bik[-3:]


def with_key(account: str, bik: str, *, corr: bool = False) -> str:
    """``account`` (20 digits) with its key digit (the ninth) set for ``bik``: for making
    test and demo accounts that a bank would accept."""
    base = account[:8] + "0" + account[9:]
    digits = _prefix(bik, corr) + base
    total = sum(int(d) * _ACCOUNT_WEIGHTS[i % 3] % 10 for i, d in enumerate(digits))
    return base[:8] + str(total % 10 * 3 % 10) + base[9:]


@dataclass(frozen=True)
class DetailError:
    field: str
    code: str


def check_details(details: Mapping[str, str]) -> list[DetailError]:
    """What is wrong with the federation's Russian bank details. All empty is not an error
    (roubles are not collected; the admin warns where they are); some but not all is."""
    values = {key: (details.get(key) or "").strip() for key in FIELDS}
    if not any(values.values()):
        return []
    errors = [DetailError(key, E_MISSING) for key in REQUIRED if not values[key]]
    for key, value in values.items():
        if SEPARATOR in value:
            errors.append(DetailError(key, E_SEPARATOR))
    bik = values["bik"]
    checks: tuple[tuple[str, bool, str], ...] = (
        ("inn", inn_is_valid(values["inn"]), E_INN),
        ("kpp", kpp_is_valid(values["kpp"]), E_KPP),
        ("bik", bik_is_valid(bik), E_BIK),
        ("account", account_is_valid(values["account"], bik), E_ACCOUNT),
        ("corr_account", corr_account_is_valid(values["corr_account"], bik), E_CORR_ACCOUNT),
    )
    for key, valid, code in checks:
        if values[key] and not valid:
            errors.append(DetailError(key, code))
    if len(values["name"]) > MAX_LENGTH["Name"]:
        errors.append(DetailError("name", E_TOO_LONG))
    if len(values["bank_name"]) > MAX_LENGTH["BankName"]:
        errors.append(DetailError("bank_name", E_TOO_LONG))
    return errors


def details_complete(details: Mapping[str, str]) -> bool:
    return all((details.get(key) or "").strip() for key in REQUIRED) and not check_details(
        details)


def kopecks(amount: Decimal) -> int:
    return int((amount * 100).to_integral_value())


def _clean(text: str) -> str:
    """A free text written into the payload: no separator, no line breaks."""
    return " ".join(text.replace(SEPARATOR, "/").split())


def payment_payload(details: Mapping[str, str], *, amount: Decimal, purpose: str) -> str:
    """The ``ST00012`` payload of a transfer of ``amount`` roubles to the federation.

    ``details`` must pass ``check_details`` and be complete (ValueError otherwise, naming
    the fields); ``purpose`` is cut to the standard's 210 characters (the caller puts the
    invoice number first, so that it survives)."""
    problems = check_details(details)
    missing = [key for key in REQUIRED if not (details.get(key) or "").strip()]
    if problems or missing:
        raise ValueError(", ".join(sorted({p.field for p in problems} | set(missing))))
    sum_kopecks = kopecks(amount)
    if amount != amount.quantize(Decimal("0.01")) or not 0 < sum_kopecks <= MAX_KOPECKS:
        raise ValueError(E_SUM)
    value = {key: (details.get(key) or "").strip() for key in FIELDS}
    fields = [
        ("Name", value["name"]),
        ("PersonalAcc", value["account"]),
        ("BankName", value["bank_name"]),
        ("BIC", value["bik"]),
        ("CorrespAcc", value["corr_account"]),
        ("PayeeINN", value["inn"]),
    ]
    if value["kpp"]:
        fields.append(("KPP", value["kpp"]))
    fields.append(("Sum", str(sum_kopecks)))
    fields.append(("Purpose", _clean(purpose)[: MAX_LENGTH["Purpose"]]))
    return SEPARATOR.join([HEADER, *(f"{key}={text}" for key, text in fields)])


def parse_payload(payload: str) -> dict[str, str]:
    """The fields of an ``ST0001x`` payload (what a banking app reads), for checks."""
    header, _, rest = payload.partition(SEPARATOR)
    if not re.fullmatch(r"ST0001[123]", header):
        raise ValueError(header[:10])
    fields: dict[str, str] = {}
    for part in rest.split(SEPARATOR):
        key, sep, value = part.partition("=")
        if not sep or key in fields:
            raise ValueError(part[:40])
        fields[key] = value
    return fields

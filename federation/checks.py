"""System checks of membership's settings, run at start (``manage.py check``, ``migrate``,
``runserver``): the federation's Russian bank details have the right control digits."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Error, register

from federation.rules import ru_payment

ENV_NAMES = {
    "name": "MEMBERSHIP_RU_PAYEE",
    "inn": "MEMBERSHIP_RU_INN",
    "kpp": "MEMBERSHIP_RU_KPP",
    "bik": "MEMBERSHIP_RU_BIK",
    "account": "MEMBERSHIP_RU_ACCOUNT",
    "corr_account": "MEMBERSHIP_RU_CORR_ACCOUNT",
    "bank_name": "MEMBERSHIP_RU_BANK_NAME",
}
PROBLEMS = {
    ru_payment.E_MISSING: "is missing (the other Russian bank details are set)",
    ru_payment.E_INN: "is not a valid INN (10 or 12 digits, control digits)",
    ru_payment.E_KPP: "is not a valid KPP (9 characters: 4 digits, 2 digits or capitals, "
                      "3 digits)",
    ru_payment.E_BIK: "is not a valid BIK of a Russian bank (9 digits starting 04)",
    ru_payment.E_ACCOUNT: "is not a valid account at this BIK (20 digits, key digit)",
    ru_payment.E_CORR_ACCOUNT: "is not this BIK's correspondent account (30101..., 20 "
                               "digits, key digit)",
    ru_payment.E_SEPARATOR: "contains '|', which the payment QR code cannot carry",
    ru_payment.E_TOO_LONG: "is longer than the payment QR code allows",
}


@register()
def rouble_bank_details(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    details = getattr(settings, "MEMBERSHIP_BANK_ACCOUNT_RUB", {})
    return [
        Error(
            f"{ENV_NAMES[problem.field]} {PROBLEMS[problem.code]}.",
            hint="Rouble invoices show these details and their payment QR code: copy them "
                 "from the bank's account statement.",
            id=f"federation.E10{list(PROBLEMS).index(problem.code)}",
        )
        for problem in ru_payment.check_details(details)
    ]

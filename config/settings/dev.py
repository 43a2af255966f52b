"""Local development: debug on, console email, a fixed insecure key unless one is given."""

from .base import *  # noqa: F403
from .base import env_list

DEBUG = True
SECRET_KEY = SECRET_KEY or "dev-only-insecure-key-do-not-use-in-production"  # noqa: F405
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]")

# Serve static files straight from the app directories (no collectstatic needed).
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True

# Online payment through django-payments' dummy provider (no network): the whole flow runs.
# (Stripe instead when STRIPE_API_KEY is set.)
if not set(PAYMENT_VARIANTS) - {"yookassa"}:  # noqa: F405
    PAYMENT_VARIANTS["dummy"] = ("payments.dummy.DummyProvider", {})  # noqa: F405
MEMBERSHIP_ONLINE_PAYMENT_VARIANT = next(v for v in PAYMENT_VARIANTS if v != "yookassa")  # noqa: F405

# The demo federation's bank account (issue 28): the IBAN registry's own sample account, so
# that invoices show an IBAN, a BIC and the EPC QR code ("GiroCode") in development. A real
# federation sets MEMBERSHIP_BANK_IBAN and MEMBERSHIP_BANK_BIC (production has no default).
MEMBERSHIP_BANK_ACCOUNT = {
    **MEMBERSHIP_BANK_ACCOUNT,  # noqa: F405
    "iban": MEMBERSHIP_BANK_ACCOUNT["iban"] or "NL91ABNA0417164300",  # noqa: F405
    "bic": MEMBERSHIP_BANK_ACCOUNT["bic"] or "ABNANL2A",  # noqa: F405
}
# The demo federation's Russian account (issue 42), for its membership year in roubles:
# a made-up payee and account at a real bank (Sberbank's BIK and correspondent account),
# every control digit right, so that rouble invoices show the payment QR in development.
# A real federation sets the MEMBERSHIP_RU_* variables (production has no default).
if not any(MEMBERSHIP_BANK_ACCOUNT_RUB.values()):  # noqa: F405
    MEMBERSHIP_BANK_ACCOUNT_RUB = {
        "name": "Федерация маджонга (демо)",
        "inn": "7709123453",
        "kpp": "770901001",
        "bik": "044525225",
        "account": "40703810800000001234",
        "corr_account": "30101810400000000225",
        "bank_name": "ПАО Сбербанк",
    }

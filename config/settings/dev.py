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
PAYMENT_VARIANTS = PAYMENT_VARIANTS or {"dummy": ("payments.dummy.DummyProvider", {})}  # noqa: F405
MEMBERSHIP_ONLINE_PAYMENT_VARIANT = next(iter(PAYMENT_VARIANTS))

# The demo federation's bank account (issue 28): the IBAN registry's own sample account, so
# that invoices show an IBAN, a BIC and the EPC QR code ("GiroCode") in development. A real
# federation sets MEMBERSHIP_BANK_IBAN and MEMBERSHIP_BANK_BIC (production has no default).
MEMBERSHIP_BANK_ACCOUNT = {
    **MEMBERSHIP_BANK_ACCOUNT,  # noqa: F405
    "iban": MEMBERSHIP_BANK_ACCOUNT["iban"] or "NL91ABNA0417164300",  # noqa: F405
    "bic": MEMBERSHIP_BANK_ACCOUNT["bic"] or "ABNANL2A",  # noqa: F405
}

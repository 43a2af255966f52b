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

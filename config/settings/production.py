"""Production: everything from the environment; refuses to start when it is incomplete."""

import os

from django.core.exceptions import ImproperlyConfigured

from config.monitoring import json_logging, sentry_init

from .base import *  # noqa: F403
from .base import (
    ALLOWED_HOSTS,
    DATABASES,
    SECRET_KEY,
    SENTRY_DSN,
    SENTRY_ENVIRONMENT,
    SENTRY_TRACES_SAMPLE_RATE,
    SITE_URL,
    env_bool,
)

DEBUG = False

# Each worker keeps its PostgreSQL connection between requests (issue 43: a new connection
# a request cost a few milliseconds on every page), checked before each request reuses it
# so that a connection the server dropped is replaced instead of failing the request.
# DATABASE_CONN_MAX_AGE=0 goes back to one connection a request (behind PgBouncer in
# transaction mode; docs/operations.md, "More capacity").
DATABASES["default"]["CONN_MAX_AGE"] = int(os.environ.get("DATABASE_CONN_MAX_AGE", "600"))
DATABASES["default"]["CONN_HEALTH_CHECKS"] = env_bool("DATABASE_CONN_HEALTH_CHECKS", True)
# behind PgBouncer in transaction mode, server-side cursors (QuerySet.iterator) must be off
DATABASES["default"]["DISABLE_SERVER_SIDE_CURSORS"] = env_bool(
    "DATABASE_DISABLE_SERVER_SIDE_CURSORS", False)

if not SECRET_KEY or len(SECRET_KEY) < 32:
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY must be set to a random string of at least 32 characters."
    )
if not ALLOWED_HOSTS:
    raise ImproperlyConfigured(
        "DJANGO_ALLOWED_HOSTS must list the host names this site is served on."
    )
# Mails are sent by workers with no request to take an address from: without SITE_URL their
# links would point at http://localhost/ (a dead one-click unsubscribe). config.checks says
# the same to `manage.py check --deploy` under any settings.
if not SITE_URL.startswith(("https://", "http://")):
    raise ImproperlyConfigured(
        "SITE_URL must be set to the site's public address, e.g. https://mahjong.example.org: "
        "every link sent by mail (sign-up, receipts, one-click unsubscribe) is built from it."
    )

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
# the container's health check speaks plain http to 127.0.0.1: it must see the real answer
# and so does a Prometheus scraping web:8000/metrics on the compose network
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^metrics$"]
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "3600"))
# Decisions for the domain's owner (README "Deployment checks"): off unless set.
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", False)
SECURE_CONTENT_TYPE_NOSNIFF = True
ACCOUNT_DEFAULT_HTTP_PROTOCOL = "https"
EMAIL_BACKEND = os.environ.get(
    "DJANGO_EMAIL_BACKEND", "django.core.mail.backends.smtp.EmailBackend"
)

# --- Monitoring (docs/operations.md) -------------------------------------------
# JSON logs on standard error (DJANGO_LOG_FORMAT=text: Django's plain lines).
if os.environ.get("DJANGO_LOG_FORMAT", "json") == "json":
    LOGGING = json_logging(os.environ.get("DJANGO_LOG_LEVEL", "WARNING"))
# Celery's worker and beat log through the same configuration instead of their own.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
if SENTRY_DSN:
    sentry_init(
        SENTRY_DSN,
        environment=SENTRY_ENVIRONMENT,
        traces_sample_rate=SENTRY_TRACES_SAMPLE_RATE,
    )

"""Settings shared by every environment.

Configuration comes from environment variables (see README "Configuration").
SQLite is used when DATABASE_URL is unset; PostgreSQL (psycopg 3) when it is set.
"""

from __future__ import annotations

import os
from datetime import date
from pathlib import Path
from typing import Any

import dj_database_url
from celery.schedules import crontab
from csp.constants import NONCE, NONE, SELF, UNSAFE_INLINE
from django.utils.translation import gettext_lazy as _

from core import site_url

BASE_DIR = Path(__file__).resolve().parent.parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
DEBUG = env_bool("DJANGO_DEBUG", False)
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")
# How many proxies of the site's own stand in front of it (each appends the address it saw
# to X-Forwarded-For): 0 when gunicorn is reached directly, 1 behind docker-compose's
# proxy. The client's address is the one the nearest trusted proxy saw; whatever a client
# writes in X-Forwarded-For itself is never believed. Used by the API rate limits
# (REST_FRAMEWORK["NUM_PROXIES"]) and the login rate limits (ALLAUTH_TRUSTED_PROXY_COUNT).
TRUSTED_PROXIES = int(os.environ.get("DJANGO_TRUSTED_PROXIES", "0"))
ALLAUTH_TRUSTED_PROXY_COUNT = TRUSTED_PROXIES

INSTALLED_APPS = [
    # our apps first so that their templates override allauth's and Wagtail's
    "core",  # the shared kernel: site-wide template tags, middleware, translation commands
    "config",  # the wiring: roles of every app after migrate, the demo federation
    "federation",
    "rulebook",
    "content",
    "tournaments",
    "ratings",
    # Wagtail
    "wagtail.contrib.forms",
    "wagtail.contrib.redirects",
    "wagtail.contrib.settings",
    "wagtail.contrib.simple_translation",
    "wagtail.contrib.routable_page",
    "wagtail.contrib.table_block",
    "wagtail.embeds",
    "wagtail.sites",
    "wagtail.users",
    "wagtail.snippets",
    "wagtail.documents",
    "wagtail.images",
    "wagtail.search",
    "wagtail.admin",
    "wagtail.locales",
    "wagtail",
    "modelcluster",
    "taggit",
    # online payments (membership dues)
    "payments",
    # accounts
    "allauth",
    "allauth.account",
    # API
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI's files, served by us (SPECTACULAR_SETTINGS)
    # ISO 3166 country codes and their names in every language (tournaments, players)
    "django_countries",
    "csp",  # {% script %} with the request's nonce
    # the task queue's schedules, in the database (decision 0907)
    "django_celery_beat",
    # Django
    "django.contrib.admin",  # needed by some third-party templates; not mounted in urls
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.sitemaps",
    "django.contrib.humanize",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Content-Security-Policy on every response, the admin's looser one under /admin/
    "core.csp.SiteCSPMiddleware",
    # /healthz answered before the host check: the container's check asks 127.0.0.1
    "core.health.HealthCheckMiddleware",
    # /metrics: Prometheus, for METRICS_ALLOWED_IPS or METRICS_TOKEN only, before the host check
    "config.metrics.MetricsMiddleware",
    # /api/: a body over API_MAX_BODY_BYTES refused at once (413), every error as JSON
    "core.api_errors.ApiErrorsMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # anonymous fan tables and fan pages from the cache, before sessions and page routing
    "content.middleware.RulebookCacheMiddleware",
    "core.site_url.SiteAddressMiddleware",  # links sent out: the request's address
    "django.contrib.sessions.middleware.SessionMiddleware",
    "core.middleware.LocaleMiddleware",  # Django's, API 404s left alone
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # a NUL in a parameter: 400 naming it; a page's body over PAGE_MAX_BODY_BYTES: 413
    # (before the views and the CSRF check, which runs with the view, read the body)
    "core.request_limits.RequestLimitsMiddleware",
    # signed-in visitors: the rulebook's cached rendering with their own account links
    "content.middleware.RulebookSignedInMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "core.middleware.AdminAccessMiddleware",
    "wagtail.contrib.redirects.middleware.RedirectMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],  # the site's own 403/404/500 pages
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "wagtail.contrib.settings.context_processors.settings",
            ],
            # the date filter writing the first of a month in French as « 1er » (decision 0549);
            # separators and parentheses in the page's language (decision 0552)
            "builtins": ["core.templatetags.dates", "core.templatetags.punctuation"],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DATABASE_CONN_MAX_AGE", "0")),
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "federation.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- Content-Security-Policy (decision 0905) ----------------------------------
# Enforced everywhere (development, tests, production): scripts and styles come from our own
# static files; an inline <script>/<style> that cannot be avoided carries the request's nonce
# (`{{ request.csp_nonce }}`), and the nonce is only sent when a page used it. No inline
# event handlers or style="" attributes in our templates.
_CSP_COMMON: dict[str, Any] = {
    "default-src": [SELF],
    "img-src": [SELF, "data:"],
    "font-src": [SELF],
    "connect-src": [SELF],
    "object-src": [NONE],
    "base-uri": [SELF],
    # online dues payment: our form redirects to Stripe's hosted checkout, or (roubles) to
    # YooKassa's confirmation page
    "form-action": [SELF, "https://checkout.stripe.com", "https://yoomoney.ru"],
    # the admin previews pages in an iframe of the site itself
    "frame-ancestors": [SELF],
}
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {**_CSP_COMMON, "script-src": [SELF, NONCE], "style-src": [SELF, NONCE]},
}
# The Wagtail admin (/admin/, core.csp): Wagtail 8 still writes inline scripts and styles.
# A nonce would switch 'unsafe-inline' off, so this policy has none.
CONTENT_SECURITY_POLICY_ADMIN = {
    "DIRECTIVES": {
        **_CSP_COMMON,
        "script-src": [SELF, UNSAFE_INLINE],
        "style-src": [SELF, UNSAFE_INLINE],
        "img-src": [SELF, "data:", "blob:"],
    },
}

# --- Languages -------------------------------------------------------------
# Russian is the federation's default; every public URL carries its language prefix.
LANGUAGE_CODE = "ru"
LANGUAGES = [
    ("ru", "Русский"),
    ("en", "English"),
    ("zh-hans", "简体中文"),
    ("fr", "Français"),
    ("nl", "Nederlands"),
]
WAGTAIL_I18N_ENABLED = True
WAGTAIL_CONTENT_LANGUAGES = LANGUAGES
LOCALE_PATHS = [BASE_DIR / "locale"]
# /sitemap.xml and its sections are kept this long in the cache (seconds)
SITEMAP_CACHE_SECONDS = int(os.environ.get("SITEMAP_CACHE_SECONDS", "3600"))
TIME_ZONE = os.environ.get("DJANGO_TIME_ZONE", "Europe/Moscow")
USE_I18N = True
USE_TZ = True

# --- Static and media ------------------------------------------------------
STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "static_collected"
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_URL = "/media/"
MEDIA_ROOT = Path(os.environ.get("DJANGO_MEDIA_ROOT", BASE_DIR / "media"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# --- Cache (allauth's login rate limits and the API throttles count in it) ---
# Every worker process must see the same counts: Redis when REDIS_URL is set (docker-compose
# sets it), else the database cache table (`manage.py createcachetable`, run by `make setup`
# and the container's start command). CACHE_BACKEND=locmem only for a single process (dev).
if os.environ.get("REDIS_URL"):
    CACHES = {
        "default": {
            # Django's Redis backend, one client per pool, answering as an empty cache while
            # Redis is away (core/cache.py)
            "BACKEND": "core.cache.FaultTolerantRedisCache",
            "LOCATION": os.environ["REDIS_URL"],
        }
    }
elif os.environ.get("CACHE_BACKEND") == "locmem":
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "django_cache",
        }
    }

# --- Task queue (Celery, decision 0907) --------------------------------------
# The worker (`celery -A config worker`) runs the jobs; beat (`celery -A config beat`) queues
# them on the schedules stored in the database (django-celery-beat, edited by superusers in
# the Wagtail admin under Settings > Scheduled tasks; the defaults are created after migrate
# by config.task_schedules). The broker is Redis; use a database number or a Redis of its
# own that never evicts (not the LRU cache's).
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "redis://127.0.0.1:6379/1")
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# a message a worker took but had not finished when it died goes back to the queue after
# this long (Redis); every job is idempotent, so running one twice is harmless
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
# A job that runs past its soft time limit gets SoftTimeLimitExceeded (its transaction rolls
# back); past the hard one its process is killed. Both stay below the visibility timeout, so
# that no job still running is handed to a second worker (checked: queue.E001).
CELERY_TASK_SOFT_TIME_LIMIT = int(os.environ.get("CELERY_TASK_SOFT_TIME_LIMIT", "3000"))
CELERY_TASK_TIME_LIMIT = int(os.environ.get("CELERY_TASK_TIME_LIMIT", "3300"))
# the re-rate after a tournament's results (decision 0822) has a tighter limit of its own
# (soft; the hard one is a minute later): a correction ten years back at 100,000 players
# takes a fraction of it (docs/benchmarks.md, "Re-rating at scale")
RATINGS_RERATE_TIME_LIMIT = int(os.environ.get("RATINGS_RERATE_TIME_LIMIT", "900"))
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_TASK_DEFAULT_QUEUE", "celery")
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_TASK_IGNORE_RESULT = True  # no result backend: the jobs write what they did
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1  # a long job does not hold queued ones behind it
CELERY_TIMEZONE = TIME_ZONE
CELERY_BEAT_SCHEDULER = "config.celery_beat:HeartbeatScheduler"
# /healthz reports the worker's and beat's last heartbeats (core.heartbeats) and says
# "degraded" when either is older than its limit (seconds). The worker runs a heartbeat job
# every minute (a default schedule); beat records each tick of its scheduler. A site that
# runs the jobs from cron instead sets HEALTH_TASK_QUEUE=false.
HEALTH_TASK_QUEUE = env_bool("HEALTH_TASK_QUEUE", True)
HEARTBEAT_WORKER_MAX_AGE = int(os.environ.get("HEARTBEAT_WORKER_MAX_AGE", "300"))
HEARTBEAT_BEAT_MAX_AGE = int(os.environ.get("HEARTBEAT_BEAT_MAX_AGE", "120"))

# --- Email -----------------------------------------------------------------
EMAIL_BACKEND = os.environ.get(
    "DJANGO_EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend"
)
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
# A mail server that does not answer holds a request this long at most; the mail is then
# queued for manage.py send_queued_mail (decision 0901).
EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT", "10"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "federation@example.org")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# --- Accounts (django-allauth) ---------------------------------------------
LOGIN_REDIRECT_URL = "/"
LOGIN_URL = "account_login"
ACCOUNT_LOGIN_METHODS = {"email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*", "password2*"]
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_CONFIRM_EMAIL_ON_GET = False
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = False
ACCOUNT_CHANGE_EMAIL = True
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
ACCOUNT_EMAIL_SUBJECT_PREFIX = ""
ACCOUNT_DEFAULT_HTTP_PROTOCOL = os.environ.get("ACCOUNT_DEFAULT_HTTP_PROTOCOL", "http")
ACCOUNT_RATE_LIMITS = {
    # failed logins: per IP and per account (the email tried)
    "login_failed": "10/m/ip,5/5m/key",
    "signup": "20/m/ip",
    "reset_password": "20/m/ip,5/m/key",
    "confirm_email": "1/3m/key",
    "change_email": "1/m/user",
}
ACCOUNT_ADAPTER = "federation.accounts.AccountAdapter"

# --- Wagtail ---------------------------------------------------------------
WAGTAIL_SITE_NAME = _("Mahjong Federation")
# The site's public address (SITE_URL) is the base of every link sent out; unset, links are
# built from the request being served (core.site_url). Wagtail's admin mails use
# WAGTAILADMIN_BASE_URL, which defaults to it (unset: the default Wagtail site's address).
SITE_URL = os.environ.get("SITE_URL", "").strip()
WAGTAILADMIN_BASE_URL = os.environ.get("WAGTAILADMIN_BASE_URL", "").strip() or SITE_URL
# One login for the whole site: the admin uses allauth's (rate-limited, verified) login.
WAGTAILADMIN_LOGIN_URL = "account_login"
# ... and allauth's password reset: Wagtail's own pages answer 404 (config/urls.py sends
# /admin/password_reset/ to allauth's)
WAGTAIL_PASSWORD_RESET_ENABLED = False
WAGTAIL_ENABLE_UPDATE_CHECK = False
# The admin shows Wagtail's own default avatar (or an uploaded one): by default it asks
# gravatar.com, which tells a third party every staff member's e-mail hash and address.
WAGTAIL_GRAVATAR_PROVIDER_URL = None
WAGTAILDOCS_EXTENSIONS = ["pdf", "docx", "odt", "txt", "csv", "xlsx"]

# --- Search ----------------------------------------------------------------
# The database backend is the embedded default. SEARCH_BACKEND=elasticsearch (with
# ELASTICSEARCH_URL) uses Elasticsearch 8 through elasticsearch-dsl; see content/search_backends.py and
# docs/decisions/0400-search-backends.md. "elasticsearch" without a URL refuses to start.
SEARCH_BACKEND = os.environ.get("SEARCH_BACKEND", "database")
ELASTICSEARCH_URL = os.environ.get("ELASTICSEARCH_URL", "")
ELASTICSEARCH_INDEX_PREFIX = os.environ.get("ELASTICSEARCH_INDEX_PREFIX", "mahjong")
ELASTICSEARCH_TIMEOUT = float(os.environ.get("ELASTICSEARCH_TIMEOUT", "5"))
WAGTAILSEARCH_BACKENDS = {"default": {"BACKEND": "wagtail.search.backends.database"}}

# --- API -------------------------------------------------------------------
# The largest body the API reads (bytes): a 413 saying so beyond it (core/api_errors.py).
API_MAX_BODY_BYTES = int(
    os.environ.get("API_MAX_BODY_BYTES", str(2_621_440)))

# The largest body a page reads (bytes): a 413 page saying so beyond it, before the CSRF
# check reads it (core/request_limits.py). An image for the admin (10 MB) fits.
PAGE_MAX_BODY_BYTES = int(os.environ.get("PAGE_MAX_BODY_BYTES", str(12_582_912)))

REST_FRAMEWORK = {
    # JSON nested too deep or not UTF-8: a 400 naming the body; every error as JSON
    "DEFAULT_PARSER_CLASSES": [
        "core.api_errors.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "EXCEPTION_HANDLER": "core.api_errors.exception_handler",
    # the client's address for the anonymous rate limit (TRUSTED_PROXIES above)
    "NUM_PROXIES": TRUSTED_PROXIES,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Tournament software and other clients: "Authorization: Token <key>" (DRF tokens;
        # a user finds theirs on /<lang>/accounts/api-token/, `manage.py api_token EMAIL`).
        # First, so that an anonymous write gets 401 with `WWW-Authenticate: Token`.
        "core.tokens.CachedTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    # Anonymous clients are counted per IP address, clients with a token per user, in the
    # shared cache (Redis when REDIS_URL is set), so every worker process sees the same count;
    # a batch uses one request of the budget per question (core/throttles.py).
    "DEFAULT_THROTTLE_CLASSES": [
        "core.throttles.WeightedAnonRateThrottle",
        "core.throttles.WeightedUserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "anon": os.environ.get("API_ANON_RATE", "60/min"),
        "user": os.environ.get("API_USER_RATE", "1000/min"),
    },
}
# Rows naming a member number that one organizer may send to the players endpoint
# (core.throttles.MemberLookupRateThrottle): a member number is no key to members' names.
API_MEMBER_LOOKUP_RATE = os.environ.get("API_MEMBER_LOOKUP_RATE", "1000/day")
SPECTACULAR_SETTINGS = {
    "TITLE": "Mahjong Federation API",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Only the public API (/api/v1/) is published; admin endpoints never are.
    "PREPROCESSING_HOOKS": ["core.api_schema.public_endpoints_only"],
    # /api/docs/ loads Swagger UI from the site's static files, not from a CDN
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

LOGGING: dict[str, Any] = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "WARNING")},
}

# --- Backups (manage.py backup and restore, config.backup_tasks; decision 0908) ----------
BACKUP_DIR = Path(os.environ.get("BACKUP_DIR", BASE_DIR / "backups"))
# after each backup: keep the newest of each of the last N days and of the last M weeks
BACKUP_KEEP_DAILY = int(os.environ.get("BACKUP_KEEP_DAILY", "7"))
BACKUP_KEEP_WEEKLY = int(os.environ.get("BACKUP_KEEP_WEEKLY", "4"))
# the backup task runs where pg_dump and the backups volume are: the `backups` queue's worker
CELERY_TASK_ROUTES = {"config.backup": {"queue": "backups"}}
# a backup every night (BACKUP_HOUR:15); beat writes it into its database schedule at start
CELERY_BEAT_SCHEDULE: dict[str, dict[str, Any]] = {
    "backup": {
        "task": "config.backup",
        "schedule": crontab(hour=os.environ.get("BACKUP_HOUR", "3"), minute="15"),
    },
}

# --- Monitoring (docs/operations.md, "What to watch") -------------------------
# Errors to Sentry when SENTRY_DSN is set (production settings; config.monitoring).
SENTRY_DSN = os.environ.get("SENTRY_DSN", "").strip()
SENTRY_ENVIRONMENT = os.environ.get("SENTRY_ENVIRONMENT", "production")
SENTRY_TRACES_SAMPLE_RATE = float(os.environ.get("SENTRY_TRACES_SAMPLE_RATE", "0"))
# Prometheus metrics at /metrics (config.metrics): readable from these addresses or networks
# (the client's address behind TRUSTED_PROXIES), or with "Authorization: Bearer METRICS_TOKEN".
METRICS_ALLOWED_IPS = env_list("METRICS_ALLOWED_IPS", "127.0.0.1,::1")
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "").strip()
# the Celery queues whose length /metrics reports
METRICS_QUEUES = env_list("METRICS_QUEUES", "celery,backups")

# --- Membership ------------------------------------------------------------
# Fees and membership years are data the treasurer edits in the admin; these are the rules.
# Approve applications automatically (True) or let a membership officer approve them (False).
MEMBERSHIP_AUTO_APPROVE = env_bool("MEMBERSHIP_AUTO_APPROVE", False)
# Default currency of a new membership year (ISO 4217); each year stores its own.
MEMBERSHIP_CURRENCY = os.environ.get("MEMBERSHIP_CURRENCY", "EUR")
# Days after the paid year ends during which a member is in "grace" (then "lapsed").
MEMBERSHIP_GRACE_DAYS = int(os.environ.get("MEMBERSHIP_GRACE_DAYS", "60"))
# Joining mid-year pays only the months left (the joining month included).
MEMBERSHIP_PRORATE = env_bool("MEMBERSHIP_PRORATE", True)
# send_dues_reminders: remind this many days before the paid membership ends (and once in grace).
MEMBERSHIP_REMINDER_DAYS = [int(d) for d in env_list("MEMBERSHIP_REMINDER_DAYS", "30,7")]
# Mailings to members: mails per batch of manage.py send_mailings (one SMTP connection each).
MAILING_BATCH_SIZE = int(os.environ.get("MAILING_BATCH_SIZE", "100"))
# A delivery is claimed (committed) before its mail is handed over; a claim older than this
# (seconds) belongs to a sender that died, and the mail is sent again with the same
# Message-ID (decision 0907). Longer than one mail can take (EMAIL_TIMEOUT and a retry).
MAILING_CLAIM_SECONDS = int(os.environ.get("MAILING_CLAIM_SECONDS", "600"))
# Junior below this age, senior from this age (on the first day of the membership year).
MEMBERSHIP_JUNIOR_MAX_AGE = 18
MEMBERSHIP_SENIOR_MIN_AGE = 65
# Days a member has to pay an invoice (its due date; never before the year starts).
MEMBERSHIP_PAYMENT_TERM_DAYS = int(os.environ.get("MEMBERSHIP_PAYMENT_TERM_DAYS", "30"))
# send_dues_reminders: remind of an unpaid invoice this many days before its due date (and
# once when it is overdue).
MEMBERSHIP_INVOICE_REMINDER_DAYS = int(os.environ.get("MEMBERSHIP_INVOICE_REMINDER_DAYS", "7"))
# The site's public address, for links in emails (e.g. https://mahjong.example.org); empty:
# the request's address (core.site_url.site_base_url).
MEMBERSHIP_SITE_URL = SITE_URL or WAGTAILADMIN_BASE_URL
# Payment providers offered to members (dotted paths to federation.payment_providers classes).
MEMBERSHIP_PAYMENT_PROVIDERS = [
    "federation.payment_providers.BankTransferProvider",
    "federation.online_payments.CardPaymentProvider",
]
# Online card payments (django-payments). STRIPE_API_KEY + STRIPE_WEBHOOK_SECRET select
# Stripe Checkout. Without them online payment is off, unless PAYMENT_DUMMY=True (the dev and
# test settings) selects the library's dummy provider: no network, a form to confirm or
# reject the payment; never in production.
PAYMENT_MODEL = "federation.OnlinePayment"
# Unset: the host of the site's address, from SITE_URL or the request (a callable).
PAYMENT_HOST = os.environ.get("PAYMENT_HOST", "").strip() or site_url.payment_host
PAYMENT_USES_SSL = env_bool("PAYMENT_USES_SSL", MEMBERSHIP_SITE_URL.startswith("https://"))
PAYMENT_VARIANTS: dict[str, tuple[str, dict[str, object]]] = {}
if os.environ.get("STRIPE_API_KEY"):
    PAYMENT_VARIANTS["stripe"] = (
        "payments.stripe.StripeProviderV3",
        {
            "api_key": os.environ["STRIPE_API_KEY"],
            "endpoint_secret": os.environ.get("STRIPE_WEBHOOK_SECRET", ""),
            "secure_endpoint": True,
        },
    )
elif env_bool("PAYMENT_DUMMY", False):
    PAYMENT_VARIANTS["dummy"] = ("payments.dummy.DummyProvider", {})
MEMBERSHIP_ONLINE_PAYMENT_VARIANT = next(iter(PAYMENT_VARIANTS), "")
# Online payment in roubles: YooKassa (YOOKASSA_SHOP_ID + YOOKASSA_SECRET_KEY; its
# notifications go to /payments/process/yookassa/, accepted from YooKassa's networks only).
# Stripe does not take roubles from Russian cards: with Stripe and no YooKassa, rouble
# invoices offer no online payment (decision 0321).
MEMBERSHIP_ONLINE_PAYMENT_VARIANT_BY_CURRENCY: dict[str, str] = {}
if os.environ.get("YOOKASSA_SHOP_ID"):
    PAYMENT_VARIANTS["yookassa"] = (
        "federation.yookassa_provider.YooKassaProvider",
        {
            "shop_id": os.environ["YOOKASSA_SHOP_ID"],
            "secret_key": os.environ.get("YOOKASSA_SECRET_KEY", ""),
            "api_url": os.environ.get("YOOKASSA_API_URL", "https://api.yookassa.ru/v3"),
            "check_ip": env_bool("YOOKASSA_CHECK_IP", True),
        },
    )
    MEMBERSHIP_ONLINE_PAYMENT_VARIANT_BY_CURRENCY["RUB"] = "yookassa"
    if MEMBERSHIP_ONLINE_PAYMENT_VARIANT == "yookassa":  # YooKassa alone: roubles only
        MEMBERSHIP_ONLINE_PAYMENT_VARIANT = ""
elif "stripe" in PAYMENT_VARIANTS:
    MEMBERSHIP_ONLINE_PAYMENT_VARIANT_BY_CURRENCY["RUB"] = ""
# Shown on invoices by the bank-transfer provider.
MEMBERSHIP_BANK_ACCOUNT = {
    "holder": os.environ.get("MEMBERSHIP_BANK_HOLDER", "Mahjong Federation"),
    "iban": os.environ.get("MEMBERSHIP_BANK_IBAN", ""),
    "bic": os.environ.get("MEMBERSHIP_BANK_BIC", ""),
}
# The federation's Russian bank details, for invoices in roubles and their payment QR code
# (GOST R 56042-2014). Checked at start (federation.checks: control digits of the INN and
# the accounts); the admin warns while they are missing and roubles are billed.
MEMBERSHIP_BANK_ACCOUNT_RUB = {
    "name": os.environ.get("MEMBERSHIP_RU_PAYEE", ""),
    "inn": os.environ.get("MEMBERSHIP_RU_INN", ""),
    "kpp": os.environ.get("MEMBERSHIP_RU_KPP", ""),
    "bik": os.environ.get("MEMBERSHIP_RU_BIK", ""),
    "account": os.environ.get("MEMBERSHIP_RU_ACCOUNT", ""),
    "corr_account": os.environ.get("MEMBERSHIP_RU_CORR_ACCOUNT", ""),
    "bank_name": os.environ.get("MEMBERSHIP_RU_BANK_NAME", ""),
}

# --- Tournaments -----------------------------------------------------------
# Fewest players of an accredited tournament: checked against the planned number at
# accreditation and against the registered players when the results are confirmed.
TOURNAMENT_MIN_PLAYERS = int(os.environ.get("TOURNAMENT_MIN_PLAYERS", "12"))
# Fewest sessions (MCR 3.5.4: at least six); a firm rule, enforced at submission.
TOURNAMENT_MIN_SESSIONS = 6

# Ratings (issue 12, docs/ratings.md): Glicko-2 system constant tau, the RD above which a
# rating is provisional, and the cap of the RD increase of inactive players.
RATINGS_TAU = float(os.environ.get("RATINGS_TAU", "0.5"))
RATINGS_PROVISIONAL_RD = float(os.environ.get("RATINGS_PROVISIONAL_RD", "110"))
RATINGS_MAX_RD = float(os.environ.get("RATINGS_MAX_RD", "350"))
# Re-rate after a tournament's results on the task queue, after the commit (decision 0822);
# off: inside the confirmation's transaction, as before (the test settings, where a test
# reads the new ratings right after confirming).
RATINGS_RERATE_ON_QUEUE = env_bool("RATINGS_RERATE_ON_QUEUE", True)
# When results, ratings or memberships change, the stored EMA and club rankings are kept
# and marked "being updated" until the queued job has stored them again (decision 0828);
# off: they are dropped and the next reader computes them (the test settings, where the
# queued jobs run only when a test runs them).
RANKINGS_KEPT_WHILE_UPDATING = env_bool("RANKINGS_KEPT_WHILE_UPDATING", True)

# The club ranking (decision 0808): a club's score is the mean of the ratings of its best
# CLUB_RANKING_PLAYERS listed players; clubs with fewer are shown unranked.
CLUB_RANKING_PLAYERS = int(os.environ.get("CLUB_RANKING_PLAYERS", "3"))

# The EMA ranking (MERS, decision 0806): the age window of a result, as (days, factor)
# steps: a result younger than `days` on the ranking's date counts with `factor`; older
# than the last step, not at all. Default: full weight for a year, half in the second.
EMA_AGE_STEPS = [
    (int(days), factor)
    for days, factor in (
        step.split(":") for step in os.environ.get("EMA_AGE_STEPS", "365:1,730:0.5").split(",")
    )
]
# How base ranks are counted and published (decision 0831): "down" (whole numbers, rounded
# down, as the EMA's own example: 75th of 100 -> 252), "half-up" or "exact".
EMA_BASE_RANK_ROUNDING = os.environ.get("EMA_BASE_RANK_ROUNDING", "down")
# The EMA's COVID freeze (decision 0831): results do not age from the first date (included)
# to the second (excluded), for the rulesets listed (MCR by default; empty: no freeze).
EMA_FREEZE = tuple(
    date.fromisoformat(day)
    for day in os.environ.get("EMA_FREEZE", "2020-04-01:2022-04-01").split(":")
)
EMA_FREEZE_RULESETS = tuple(
    r for r in os.environ.get("EMA_FREEZE_RULESETS", "mcr").split(",") if r.strip()
)

"""Settings for the test suite (pytest-django). DATABASE_URL selects PostgreSQL."""

from .base import *  # noqa: F403

DEBUG = False
SECRET_KEY = "test-only-key"
ALLOWED_HOSTS = ["*"]
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.InMemoryStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
SEARCH_BACKEND = "database"  # the integration tests switch to Elasticsearch per test
WAGTAILSEARCH_BACKENDS = {"default": {"BACKEND": "wagtail.search.backends.database"}}
LOGGING = {"version": 1, "disable_existing_loggers": False}

# Serve static files straight from the app directories (no collectstatic needed).
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True

# Online payment through django-payments' dummy provider (no network): the whole flow runs.
PAYMENT_VARIANTS = {"dummy": ("payments.dummy.DummyProvider", {})}
MEMBERSHIP_ONLINE_PAYMENT_VARIANT = "dummy"

# Tasks run in the process that queues them and nothing reaches a broker; the tests of the
# real worker (tests/worker_processes.py) start `celery worker` with their own settings.
CELERY_TASK_ALWAYS_EAGER = True
# re-rating in the confirmation's transaction (tests of the queued re-rate switch it on)
RATINGS_RERATE_ON_QUEUE = False
# stored rankings dropped when their data change (the tests of decision 0828 switch it on)
RANKINGS_KEPT_WHILE_UPDATING = False
CELERY_BROKER_URL = "memory://"
# No worker in the suite: /healthz reports the task queue only in the tests that start one.
HEALTH_TASK_QUEUE = False

"""Settings of the Celery worker and beat that the worker tests start (tests/worker_processes.py):
the test settings, with a real broker, a shared cache and mail written to files, each taken
from the environment the test gives the process."""

import os

from config.settings.test import *  # noqa: F403

CELERY_TASK_ALWAYS_EAGER = False
CELERY_BROKER_URL = os.environ["CELERY_BROKER_URL"]
CELERY_TASK_DEFAULT_QUEUE = os.environ["CELERY_TASK_DEFAULT_QUEUE"]
# the heartbeats are read by the test process: a cache both see
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": os.environ["WORKER_CACHE_URL"],
        "KEY_PREFIX": os.environ["WORKER_CACHE_PREFIX"],
    }
}
EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
EMAIL_FILE_PATH = os.environ["EMAIL_FILE_PATH"]
MAILING_CLAIM_SECONDS = int(os.environ.get("MAILING_CLAIM_SECONDS", "600"))
MAILING_BATCH_SIZE = int(os.environ.get("MAILING_BATCH_SIZE", "100"))

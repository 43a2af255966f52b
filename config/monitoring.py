"""Production's monitoring: errors to Sentry, logs as JSON (docs/operations.md).

Called from the production settings, so a web process, a Celery worker and the scheduler
each report their errors (the Django and Celery integrations) and write one JSON object a
line on standard output, which a log collector reads without a pattern.
"""

from __future__ import annotations

import os
from typing import Any

JSON_FORMAT = "%(asctime)s %(levelname)s %(name)s %(process)d %(message)s"


def json_logging(level: str) -> dict[str, Any]:
    """Every log record (Django's, Celery's, gunicorn's error log, ours) as one JSON object
    a line on standard error: time, level, logger, process, message and any extra fields."""
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {
            "json": {
                "()": "pythonjsonlogger.json.JsonFormatter",
                "fmt": JSON_FORMAT,
                "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
            }
        },
        "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "json"}},
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            # one line per task received and done: what a worker is doing
            "celery": {"level": "INFO", "propagate": True},
        },
    }


def sentry_init(dsn: str, *, environment: str, traces_sample_rate: float) -> None:
    """Unhandled errors of requests (Django) and of tasks (Celery) go to Sentry, without
    the visitors' personal data (no cookies, addresses or user names)."""
    import sentry_sdk
    from sentry_sdk.integrations.celery import CeleryIntegration
    from sentry_sdk.integrations.django import DjangoIntegration

    sentry_sdk.init(
        dsn=dsn,
        environment=environment,
        release=os.environ.get("SENTRY_RELEASE") or None,
        integrations=[DjangoIntegration(), CeleryIntegration()],
        send_default_pii=False,
        traces_sample_rate=traces_sample_rate,
    )

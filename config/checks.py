"""System checks of the deployment (``manage.py check --deploy``)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.checks import CheckMessage, Error, Tags, Warning, register

LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1", "0.0.0.0"}


@register(Tags.security, deploy=True)
def site_url_check(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """SITE_URL is the base of every link sent by mail: a worker sending a mailing has no
    request to take the address from, so without it the links point at localhost."""
    url = getattr(settings, "SITE_URL", "")
    hint = (
        "Set SITE_URL to the site's public address, e.g. https://mahjong.example.org "
        "(production settings refuse to start without it)."
    )
    if not url:
        return [
            Error(
                "SITE_URL is not set: links in mails (sign-up, receipts, one-click "
                "unsubscribe) would point at http://localhost/.",
                hint=hint,
                id="site.E001",
            )
        ]
    parts = urlsplit(url)
    if parts.scheme not in {"http", "https"} or not parts.hostname:
        return [Error(f"SITE_URL is not an http(s) address: {url!r}.", hint=hint, id="site.E002")]
    if parts.hostname in LOCAL_HOSTS:
        return [
            Warning(
                f"SITE_URL points at this machine ({url}): links in mails will not reach "
                "anyone else.",
                hint=hint,
                id="site.W003",
            )
        ]
    if parts.scheme != "https":
        return [
            Warning(
                f"SITE_URL is not https ({url}): links in mails go out unencrypted.",
                hint=hint,
                id="site.W004",
            )
        ]
    return []


@register()
def task_time_limits_check(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """The task queue's time limits: soft below hard, hard below the broker's visibility
    timeout (a job still running past that is handed to a second worker, which would run
    the same re-rate or mailing batch beside the first)."""
    from ratings.tasks import rerate

    soft = settings.CELERY_TASK_SOFT_TIME_LIMIT
    hard = settings.CELERY_TASK_TIME_LIMIT
    visibility = settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("visibility_timeout", 3600)
    problems = []
    if not 0 < soft < hard:
        problems.append(f"CELERY_TASK_SOFT_TIME_LIMIT ({soft} s) must be positive and below "
                        f"CELERY_TASK_TIME_LIMIT ({hard} s)")
    if hard >= visibility:
        problems.append(f"CELERY_TASK_TIME_LIMIT ({hard} s) must be below the broker's "
                        f"visibility timeout ({visibility} s)")
    if not 0 < rerate.soft_time_limit < rerate.time_limit < visibility:
        problems.append(f"RATINGS_RERATE_TIME_LIMIT ({rerate.soft_time_limit} s, killed at "
                        f"{rerate.time_limit} s) must be positive and below the broker's "
                        f"visibility timeout ({visibility} s)")
    return [Error(f"The task queue's time limits: {problem}.",
                  hint="Lower the time limit or raise CELERY_BROKER_TRANSPORT_OPTIONS"
                       "['visibility_timeout'].",
                  id="queue.E001") for problem in problems]

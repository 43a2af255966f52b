"""Prometheus metrics at ``/metrics`` (docs/operations.md, "What to watch").

Readable from the addresses in ``METRICS_ALLOWED_IPS`` (addresses or networks; the client's
address as the rate limits see it, behind ``TRUSTED_PROXIES`` proxies) or with
``Authorization: Bearer <METRICS_TOKEN>``; anyone else gets 403. Answered before the host
check (``MetricsMiddleware``), like ``/healthz``, so that a Prometheus on the compose network
may scrape ``web:8000/metrics``.

Every number is read from a store all processes share when the page is asked for, so any
gunicorn worker gives the same answer and a worker on another machine counts too:

- ``celery_queue_length{queue}``: tasks waiting in each queue (``METRICS_QUEUES``), the
  length of the broker's Redis lists (all priority steps);
- ``celery_task_failures_total{task}``: tasks that failed, counted in a hash in the broker by
  the ``task_failure`` signal handler below, in whichever worker the task failed;
- ``celery_broker_up``: 1 when the broker answered.
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
import os
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

import redis
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from core.client_address import client_address

logger = logging.getLogger(__name__)

METRICS_PATH = "/metrics"
# a hash in the broker: task name -> how many times it failed
FAILURES_KEY = "metrics:celery:task_failures"
# kombu's Redis transport keeps a queue's tasks of priority > 0 in lists of their own
PRIORITY_SEPARATOR = "\x06\x16"
PRIORITY_STEPS = (3, 6, 9)


def broker_url() -> str:
    return getattr(settings, "CELERY_BROKER_URL", "") or os.environ.get("CELERY_BROKER_URL", "")


@cache
def _client(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)


def broker_client() -> redis.Redis | None:
    """The broker's Redis, or None when the broker is not a Redis (nor configured)."""
    url = broker_url()
    if not url.startswith(("redis://", "rediss://", "unix://")):
        return None
    return _client(url)


def task_failure_counted(sender: Any = None, **kwargs: Any) -> None:
    """Celery's ``task_failure`` signal: one more failure of this task, in the broker.
    Connected by ``config.apps`` whenever Celery is installed; it runs in the worker."""
    client = broker_client()
    if client is None:
        return
    name = getattr(sender, "name", None) or str(sender)
    try:
        client.hincrby(FAILURES_KEY, name, 1)
    except redis.RedisError:
        logger.warning("could not count a failure of %s: the broker did not answer", name)


def connect_task_failure_signal() -> None:
    from celery.signals import task_failure

    task_failure.connect(task_failure_counted, weak=False, dispatch_uid="metrics_task_failure")


class QueueCollector(Collector):
    """The task queue's numbers, read from the broker at each scrape."""

    def collect(self) -> Iterator[Metric]:
        up = GaugeMetricFamily("celery_broker_up", "1 when the task queue's broker answered.")
        length = GaugeMetricFamily(
            "celery_queue_length", "Tasks waiting in a Celery queue.", labels=["queue"]
        )
        failures = CounterMetricFamily(
            "celery_task_failures", "Celery tasks that failed, by task.", labels=["task"]
        )
        client = broker_client()
        answered = False
        if client is not None:
            try:
                for queue in settings.METRICS_QUEUES:
                    names = [queue] + [f"{queue}{PRIORITY_SEPARATOR}{s}" for s in PRIORITY_STEPS]
                    length.add_metric([queue], sum(int(client.llen(n)) for n in names))
                for task, count in sorted(client.hgetall(FAILURES_KEY).items()):
                    failures.add_metric([task.decode()], int(count))
                answered = True
            except redis.RedisError:
                logger.warning("metrics: the task queue's broker did not answer")
        up.add_metric([], 1 if answered else 0)
        yield up
        if answered:
            yield length
            yield failures


def registry() -> CollectorRegistry:
    site = CollectorRegistry(auto_describe=False)
    site.register(QueueCollector())
    return site


def _address_allowed(address: str) -> bool:
    try:
        client = ipaddress.ip_address(address)
    except ValueError:
        return False
    for allowed in settings.METRICS_ALLOWED_IPS:
        try:
            if client in ipaddress.ip_network(allowed, strict=False):
                return True
        except ValueError:
            logger.warning("METRICS_ALLOWED_IPS: %r is not an address or network", allowed)
    return False


def _token_given(request: HttpRequest) -> bool:
    token = settings.METRICS_TOKEN
    scheme, _, given = request.META.get("HTTP_AUTHORIZATION", "").partition(" ")
    return bool(token) and scheme.lower() == "bearer" and hmac.compare_digest(
        given.strip().encode(), token.encode()
    )


def may_read_metrics(request: HttpRequest) -> bool:
    return _token_given(request) or _address_allowed(client_address(request))


def metrics(request: HttpRequest) -> HttpResponse:
    if request.method not in ("GET", "HEAD"):
        return HttpResponse(status=405, headers={"Allow": "GET, HEAD"})
    if not may_read_metrics(request):
        return HttpResponse("Forbidden\n", status=403, content_type="text/plain")
    response = HttpResponse(generate_latest(registry()), content_type=CONTENT_TYPE_LATEST)
    response["Cache-Control"] = "no-store"
    return response


class MetricsMiddleware:
    """Answers ``/metrics`` before the host check and the sessions (see the module)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info == METRICS_PATH:
            return metrics(request)
        return self.get_response(request)

"""/metrics (config.metrics): who may read it, and the numbers it gives (issue 36)."""

from __future__ import annotations

import uuid

import pytest
import redis
from django.test import Client, override_settings

from config import metrics

REDIS_URL = "redis://127.0.0.1:6379/14"
OUTSIDE = "203.0.113.5"


def _redis_up() -> bool:
    try:
        return bool(redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping())
    except redis.RedisError:
        return False


requires_redis = pytest.mark.skipif(not _redis_up(), reason="needs Redis on 127.0.0.1:6379")


def get(client: Client, **headers: str):
    return client.get("/metrics", **headers)


@override_settings(METRICS_ALLOWED_IPS=["127.0.0.1", "10.0.0.0/8"], METRICS_TOKEN="")
def test_the_allowed_addresses_and_networks_may_read():
    assert get(Client()).status_code == 200  # the test client comes from 127.0.0.1
    assert get(Client(REMOTE_ADDR="10.1.2.3")).status_code == 200
    assert get(Client(REMOTE_ADDR=OUTSIDE)).status_code == 403
    assert get(Client(REMOTE_ADDR="::1")).status_code == 403


@override_settings(METRICS_ALLOWED_IPS=[], METRICS_TOKEN="s3cret-token")
def test_a_bearer_token_may_read():
    client = Client(REMOTE_ADDR=OUTSIDE)
    assert get(client, HTTP_AUTHORIZATION="Bearer s3cret-token").status_code == 200
    assert get(client, HTTP_AUTHORIZATION="bearer s3cret-token").status_code == 200
    assert get(client, HTTP_AUTHORIZATION="Bearer s3cret-tokeN").status_code == 403
    assert get(client, HTTP_AUTHORIZATION="Token s3cret-token").status_code == 403
    assert get(client).status_code == 403


@override_settings(METRICS_ALLOWED_IPS=[], METRICS_TOKEN="")
def test_no_token_configured_means_no_token_is_accepted():
    client = Client(REMOTE_ADDR=OUTSIDE)
    assert get(client, HTTP_AUTHORIZATION="Bearer ").status_code == 403
    assert get(client, HTTP_AUTHORIZATION="Bearer").status_code == 403


@override_settings(METRICS_ALLOWED_IPS=["127.0.0.1"], METRICS_TOKEN="", TRUSTED_PROXIES=1)
def test_behind_the_proxy_the_clients_address_counts_not_the_proxys():
    # the proxy (on 127.0.0.1 here) sets X-Forwarded-For to the client's address
    proxy = Client(REMOTE_ADDR="127.0.0.1")
    assert get(proxy, HTTP_X_FORWARDED_FOR=OUTSIDE).status_code == 403
    # an address the client wrote itself, before the proxy's, is not believed
    assert get(proxy, HTTP_X_FORWARDED_FOR=f"127.0.0.1, {OUTSIDE}").status_code == 403
    # a scraper on the proxy's side of it (no X-Forwarded-For) is seen as it is
    assert get(proxy).status_code == 200


@override_settings(METRICS_ALLOWED_IPS=["127.0.0.1"], ALLOWED_HOSTS=["mahjong.example.org"])
def test_answered_before_the_host_check_and_never_written_to():
    client = Client()
    response = get(client, HTTP_HOST="web:8000")  # a scraper on the compose network
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    assert response["Cache-Control"] == "no-store"
    assert client.post("/metrics", HTTP_HOST="web:8000").status_code == 405


@override_settings(METRICS_ALLOWED_IPS=["127.0.0.1"], CELERY_BROKER_URL="redis://127.0.0.1:1/0")
def test_a_broker_that_does_not_answer_is_reported_not_raised():
    response = get(Client())
    assert response.status_code == 200
    assert "celery_broker_up 0.0" in response.content.decode()


@requires_redis
@override_settings(METRICS_ALLOWED_IPS=["127.0.0.1"], CELERY_BROKER_URL=REDIS_URL,
                   METRICS_QUEUES=["celery", "backups"])
def test_queue_length_and_task_failures_are_read_from_the_broker():
    from celery.signals import task_failure

    broker = redis.Redis.from_url(REDIS_URL)
    broker.delete("celery", "celery\x06\x163", "backups", metrics.FAILURES_KEY)
    try:
        broker.rpush("celery", "task-1", "task-2")
        broker.rpush("celery\x06\x163", "task-3")  # a task of priority 3

        class Task:
            name = f"federation.tasks.send_{uuid.uuid4().hex[:6]}"

        # what a worker's failing task sends; the receiver is connected by config.apps
        task_failure.send(sender=Task(), task_id="1", exception=RuntimeError("boom"))
        task_failure.send(sender=Task(), task_id="2", exception=RuntimeError("boom"))

        text = get(Client()).content.decode()
        for name in ("celery_broker_up", "celery_queue_length", "celery_task_failures_total"):
            assert f"# TYPE {name} " in text, name
        assert "celery_broker_up 1.0" in text
        assert 'celery_queue_length{queue="celery"} 3.0' in text
        assert 'celery_queue_length{queue="backups"} 0.0' in text
        assert f'celery_task_failures_total{{task="{Task.name}"}} 2.0' in text
    finally:
        broker.delete("celery", "celery\x06\x163", "backups", metrics.FAILURES_KEY)

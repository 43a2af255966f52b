"""Settings: production refuses to start without its secrets; SQLite is the default."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def import_settings(module: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL"))}
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
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "django.db.backends.postgresql"


def test_sqlite_is_the_default_database():
    result = import_settings("config.settings.dev")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "django.db.backends.sqlite3"

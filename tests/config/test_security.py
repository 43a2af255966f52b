"""Issue 13: the OpenAPI schema publishes only the public API; login rate limits are counted
in a store every worker process shares."""

import json
import os
import re
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
import yaml

from tests.services import requires_redis

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_schema_has_only_the_public_api(client):
    response = client.get("/api/schema/")
    assert response.status_code == 200
    schema = yaml.safe_load(response.content)
    paths = list(schema.get("paths") or {})
    assert all(path.startswith("/api/v1/") for path in paths), paths
    assert "/admin/" not in response.content.decode()


def test_schema_hook_keeps_v1_and_drops_the_rest():
    from core.api_schema import public_endpoints_only

    endpoints = [
        ("/api/v1/rulesets/", None, "GET", None),
        ("/admin/api/main/pages/", None, "GET", None),
        ("/api/v1x/", None, "GET", None),
    ]
    assert [e[0] for e in public_endpoints_only(endpoints)] == ["/api/v1/rulesets/"]


# One "worker": a separate Python process with the production settings, spending the failed
# login attempts allauth allows for one account ("5/5m/key").
WORKER = """
import django, json
django.setup()
from allauth.core import ratelimit
from django.test import RequestFactory
request = RequestFactory().post("/ru/accounts/login/", REMOTE_ADDR="{ip}")
allowed = sum(
    ratelimit.consume(request, action="login_failed", key="{key}") for _ in range(3)
)
print(json.dumps(allowed))
"""


def _worker(env: dict[str, str], key: str, ip: str = "203.0.113.7") -> int:
    result = subprocess.run(
        [sys.executable, "-c", WORKER.replace("{key}", key).replace("{ip}", ip)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def _production_env(tmp_path, **extra: str) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("REDIS_URL", "CACHE_BACKEND", "DATABASE_URL", "DJANGO_ALLOW_ASYNC_UNSAFE")
    }
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.production",
        DJANGO_SECRET_KEY="x" * 50,
        DJANGO_ALLOWED_HOSTS="testserver",
        SITE_URL="https://mahjong.example.org",
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
    )
    env.update(extra)
    return env


@requires_redis
def test_two_worker_processes_share_the_login_limit_in_redis(tmp_path):
    env = _production_env(tmp_path, REDIS_URL="redis://127.0.0.1:6379/15")
    key = f"someone-{uuid.uuid4().hex}@example.org"
    # a fresh address per run: allauth also limits failed logins per IP (10 a minute) in
    # this Redis, and two runs within a minute would otherwise share that budget
    ip = ".".join(["10", *(str(b) for b in uuid.uuid4().bytes[:3])])
    assert _worker(env, key, ip) == 3
    assert _worker(env, key, ip) == 2  # the second worker sees the first one's attempts


def test_two_worker_processes_share_the_login_limit_in_the_database(tmp_path):
    """Production without REDIS_URL: the database cache table."""
    env = _production_env(tmp_path)
    subprocess.run([sys.executable, "manage.py", "createcachetable"], cwd=ROOT, env=env, check=True)
    key = f"someone-{uuid.uuid4().hex}@example.org"
    assert _worker(env, key) == 3
    assert _worker(env, key) == 2


def test_a_per_process_cache_would_not_share_them(tmp_path):
    """What issue 13 found: with each process counting in its own memory, each allows 3."""
    env = _production_env(tmp_path, CACHE_BACKEND="locmem")
    key = f"someone-{uuid.uuid4().hex}@example.org"
    assert _worker(env, key) == 3
    assert _worker(env, key) == 3


def test_check_deploy_warns_only_of_what_the_readme_explains(tmp_path):
    import secrets  # a key Django does not call weak (W009)

    env = _production_env(tmp_path, DJANGO_SECRET_KEY=secrets.token_urlsafe(60))
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    output = result.stdout + result.stderr
    warnings = set(re.findall(r"\(([a-z_]+\.[A-Z]\d+)\)", output))
    assert warnings <= {"security.W005", "security.W021"}, output
    readme = (ROOT / "README.md").read_text()
    assert all(code in readme for code in warnings)

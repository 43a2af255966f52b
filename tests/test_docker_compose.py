"""docker-compose.yml: the three services, their healthchecks, and what `config` says of it."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]


def compose_command() -> list[str] | None:
    docker = shutil.which("docker")
    if docker and subprocess.run([docker, "compose", "version"], capture_output=True).returncode == 0:
        return [docker, "compose"]
    legacy = shutil.which("docker-compose")
    return [legacy] if legacy else None


def test_services_wait_for_healthy_database_and_search():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    assert set(services) == {"web", "db", "search", "cache"}
    assert services["web"]["depends_on"] == {
        "db": {"condition": "service_healthy"},
        "search": {"condition": "service_healthy"},
        "cache": {"condition": "service_healthy"},
    }
    # Issue 13: the workers share their login rate limits through Redis.
    assert services["web"]["environment"]["REDIS_URL"] == "redis://cache:6379/0"
    assert services["cache"]["image"].startswith("redis:")
    for name in ("web", "db", "search", "cache"):
        assert services[name]["healthcheck"]["test"], f"{name} has a healthcheck"
    assert services["search"]["image"].startswith("docker.elastic.co/elasticsearch/elasticsearch:8.")
    assert services["search"]["environment"]["discovery.type"] == "single-node"
    assert services["db"]["image"].startswith("postgres:")
    assert "gunicorn" in (ROOT / "Dockerfile").read_text()


def test_compose_config_accepts_the_file(tmp_path):
    command = compose_command()
    if command is None:
        pytest.skip("neither `docker compose` nor docker-compose is installed (CI installs it)")
    shutil.copy(ROOT / "docker-compose.yml", tmp_path / "docker-compose.yml")
    shutil.copy(ROOT / ".env.example", tmp_path / ".env")
    result = subprocess.run(
        [*command, "config", "-q"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "POSTGRES_PASSWORD": "secret"},
        check=False,
    )
    assert result.returncode == 0, result.stderr

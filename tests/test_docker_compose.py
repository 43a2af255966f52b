"""docker-compose.yml as a deployment: the services, what is published, the health checks,
the two Redis (a bounded cache, a broker never evicted), and what `config` says of it."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
SERVICES = {"proxy", "web", "worker", "beat", "db", "cache", "broker", "search", "backup"}


def compose_command() -> list[str] | None:
    docker = shutil.which("docker")
    if docker and subprocess.run([docker, "compose", "version"], capture_output=True).returncode == 0:
        return [docker, "compose"]
    legacy = shutil.which("docker-compose")
    return [legacy] if legacy else None


def services() -> dict[str, dict[str, Any]]:
    # YAML merge keys (`<<: *app`) are resolved by the loader, as compose does
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]


def option(command: list[str], name: str) -> str:
    return command[command.index(name) + 1]


def test_the_services_of_the_deployment():
    assert set(services()) == SERVICES


def test_only_the_proxy_is_published():
    compose = services()
    published = {name for name, service in compose.items() if service.get("ports")}
    assert published == {"proxy"}
    assert "ports" not in compose["web"]
    assert compose["web"]["expose"] == ["8000"]
    assert {port.split(":")[0] for port in compose["proxy"]["ports"]} == {"80", "443"}


def test_the_proxy_is_caddy_with_tls_for_the_site_domain():
    proxy = services()["proxy"]
    assert proxy["image"].startswith("caddy:")
    assert "./deploy/Caddyfile:/etc/caddy/Caddyfile:ro" in proxy["volumes"]
    assert "SITE_DOMAIN" in proxy["environment"]
    caddyfile = (ROOT / "deploy" / "Caddyfile").read_text()
    assert "{$SITE_DOMAIN" in caddyfile
    assert "reverse_proxy {" in caddyfile and "name web" in caddyfile and "port 8000" in caddyfile
    # the one proxy that sets X-Forwarded-For: replaced, never extended with a client's value
    assert "header_up X-Forwarded-For {remote_host}" in caddyfile
    assert "request_buffers" in caddyfile and "response_buffers" in caddyfile


def test_the_site_trusts_one_proxy_and_uses_both_redis():
    compose = services()
    for name in ("web", "worker", "beat", "backup"):
        environment = compose[name]["environment"]
        assert environment["DJANGO_TRUSTED_PROXIES"] == "1", name
        assert environment["REDIS_URL"] == "redis://cache:6379/0", name
        assert environment["CELERY_BROKER_URL"] == "redis://broker:6379/0", name


def test_every_service_has_a_healthcheck():
    for name, service in services().items():
        assert service.get("healthcheck", {}).get("test"), f"{name} has a healthcheck"


def test_the_site_waits_for_healthy_services():
    compose = services()
    for name in ("web", "worker", "beat"):
        assert compose[name]["depends_on"] == {
            "db": {"condition": "service_healthy"},
            "search": {"condition": "service_healthy"},
            "cache": {"condition": "service_healthy"},
            "broker": {"condition": "service_healthy"},
        }, name
    assert compose["proxy"]["depends_on"] == {"web": {"condition": "service_healthy"}}


def test_workers_and_scheduler_run_celery():
    compose = services()
    assert compose["worker"]["command"] == ["celery", "-A", "config", "worker", "-l", "info"]
    beat = compose["beat"]["command"]
    assert beat[:6] == ["celery", "-A", "config", "beat", "-l", "info"]
    # the scheduler comes from the settings: django-celery-beat's, with a heartbeat per tick
    assert "--scheduler" not in beat
    assert "heartbeat_check beat" in compose["beat"]["healthcheck"]["test"][1]
    backup = compose["backup"]["command"]
    assert backup[:4] == ["celery", "-A", "config", "worker"]
    assert option(backup, "-Q") == "backups"
    assert "backups:/backups" in compose["backup"]["volumes"]


def test_the_cache_is_bounded_and_evicts_least_recently_used_keys():
    command = services()["cache"]["command"]
    assert services()["cache"]["image"].startswith("redis:")
    assert option(command, "--maxmemory")  # e.g. 256mb
    assert option(command, "--maxmemory-policy") == "allkeys-lru"


def test_the_broker_never_evicts_and_keeps_its_queue_on_disk():
    broker = services()["broker"]
    command = broker["command"]
    assert broker["image"].startswith("redis:")
    assert option(command, "--maxmemory-policy") == "noeviction"
    assert option(command, "--appendonly") == "yes"
    assert any(volume.endswith(":/data") for volume in broker["volumes"])


def test_database_and_search_images():
    compose = services()
    assert compose["search"]["image"].startswith("docker.elastic.co/elasticsearch/elasticsearch:8.")
    assert compose["search"]["environment"]["discovery.type"] == "single-node"
    assert compose["db"]["image"].startswith("postgres:")


def test_the_image_installs_from_the_lock_with_hashes():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "gunicorn" in dockerfile
    assert "--require-hashes -r requirements/base.lock" in dockerfile
    # pg_dump of the server's major version, for the backups
    db_major = services()["db"]["image"].split(":")[1].split(".")[0]
    assert f"ARG PG_MAJOR={db_major}" in dockerfile


def test_compose_config_accepts_the_file(tmp_path):
    command = compose_command()
    if command is None:
        if os.environ.get("CI"):  # .ci/run installs docker-compose: the check must run there
            pytest.fail("CI has neither `docker compose` nor docker-compose")
        pytest.skip("neither `docker compose` nor docker-compose is installed (CI installs it)")
    shutil.copy(ROOT / "docker-compose.yml", tmp_path / "docker-compose.yml")
    shutil.copy(ROOT / ".env.example", tmp_path / ".env")
    result = subprocess.run(
        [*command, "config"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin:/usr/local/bin", "POSTGRES_PASSWORD": "secret"},
        check=False,
    )
    assert result.returncode == 0, result.stderr
    resolved = yaml.safe_load(result.stdout)["services"]
    assert set(resolved) == SERVICES
    assert "ports" not in resolved["web"]
    assert "--maxmemory" in resolved["cache"]["command"]

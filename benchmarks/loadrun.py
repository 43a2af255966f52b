"""What the load benchmarks share: gunicorn with the production settings, and ApacheBench.

    with loadrun.gunicorn(loadrun.production_env(API_ANON_RATE="1000000/s"), port) as base:
        row = loadrun.ab(base + "/healthz", requests=500, concurrency=4)

`production_env` is the environment of config.settings.production on 127.0.0.1 (a
benchmark-only secret key, no SSL redirect, errors only in the log); `gunicorn` collects
the static files, starts `gunicorn config.wsgi:application` (2 workers) and waits for
/healthz; `ab` runs Debian's ApacheBench (apache2-utils), GET or POST with a body, and
returns requests/s, p50/p95/p99 in milliseconds, failed and non-2xx answers.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def production_env(**overrides: str) -> dict[str, str]:
    """The environment of gunicorn under config.settings.production, served on 127.0.0.1."""
    env = dict(
        os.environ,
        DJANGO_SETTINGS_MODULE="config.settings.production",
        DJANGO_SECRET_KEY="benchmark-only-secret-key-0123456789abcdef-load",
        DJANGO_ALLOWED_HOSTS="127.0.0.1,localhost",
        SITE_URL="http://127.0.0.1",
        DJANGO_SECURE_SSL_REDIRECT="false",
        DJANGO_LOG_LEVEL="ERROR",
    )
    env.update(overrides)
    return env


def wait_until_up(url: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=30).read()
            return
        except OSError:
            time.sleep(0.3)
    raise SystemExit(f"gunicorn did not answer {url} within {timeout:.0f} s")


@contextmanager
def gunicorn(env: dict[str, str], port: int, workers: int = 2) -> Iterator[str]:
    """gunicorn on 127.0.0.1:PORT with ENV; yields its base URL, stops it afterwards."""
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
                   cwd=ROOT, env=env, check=True)
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi:application", "--bind",
         f"127.0.0.1:{port}", "--workers", str(workers), "--log-level", "warning"],
        cwd=ROOT, env=env,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(base + "/healthz")
        yield base
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)


def ab(url: str, requests: int, concurrency: int, body: bytes | None = None,
       content_type: str = "application/json") -> dict[str, str]:
    """ApacheBench's figures for URL: "Requests per second", "50"/"95"/"99"/"100" (ms),
    "Failed requests", "Non-2xx responses", "Document Length". With BODY: POSTs it."""
    command = ["ab", "-n", str(requests), "-c", str(concurrency)]
    with tempfile.NamedTemporaryFile(suffix=".body") as post:
        if body is not None:
            post.write(body)
            post.flush()
            command += ["-p", post.name, "-T", content_type]
        out = subprocess.run([*command, url], capture_output=True, text=True,
                             check=True).stdout
    wanted: dict[str, str] = {}
    for line in out.splitlines():
        m = re.match(r"\s+(50|95|99|100)%\s+(\d+)", line)
        if m:
            wanted[m.group(1)] = m.group(2)
        if line.startswith(("Requests per second", "Failed requests", "Non-2xx",
                            "Document Length")):
            wanted[line.split(":")[0]] = line.split(":")[1].strip().split()[0]
    return wanted


def failures(row: dict[str, str]) -> int:
    return int(row.get("Failed requests", 0)) + int(row.get("Non-2xx responses", 0))

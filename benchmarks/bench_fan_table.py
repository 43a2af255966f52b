"""Benchmark: the fan table page (and a fan page) under gunicorn, driven by ApacheBench.

    python benchmarks/bench_fan_table.py [--port 8140] [--requests 2000] [--concurrency 4]

Sets up a database with the content loaded (SQLite in /tmp unless DATABASE_URL is set),
collects static files, starts gunicorn with the production settings and 2 workers on the
port, warms it up and runs `ab` (apt-get install apache2-utils) against each URL. Prints
p50/p95/p99 and requests per second. The target (issue 9): p95 under 50 ms.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable
URLS = ["/en/rules/mcr/fans/", "/zh-hans/rules/mcr/fans/", "/fr/rules/mcr/fans/57a/"]


def environment(port: int) -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("DATABASE_URL", "sqlite:////tmp/bench_fan_table.sqlite3")
    env.update({
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "DJANGO_SECRET_KEY": "benchmark-only-secret-key-0123456789-abcdefghij",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SITE_URL": "http://127.0.0.1",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_LOG_LEVEL": "ERROR",
    })
    return env


def run(args: list[str], env: dict[str, str]) -> None:
    subprocess.run(args, cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL)


def wait_until_up(url: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.5)
    raise SystemExit(f"gunicorn did not answer {url} within {timeout:.0f} s")


def ab(url: str, requests: int, concurrency: int) -> dict[str, float]:
    out = subprocess.run(
        ["ab", "-q", "-n", str(requests), "-c", str(concurrency), url],
        capture_output=True, text=True, check=True,
    ).stdout
    failed = int(re.search(r"Failed requests:\s+(\d+)", out).group(1))
    non_2xx = re.search(r"Non-2xx responses:\s+(\d+)", out)
    percent = dict(re.findall(r"^\s+(\d+)%\s+(\d+)", out, re.M))
    return {
        "rps": float(re.search(r"Requests per second:\s+([\d.]+)", out).group(1)),
        "p50": float(percent["50"]),
        "p95": float(percent["95"]),
        "p99": float(percent["99"]),
        "failed": failed + (int(non_2xx.group(1)) if non_2xx else 0),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8140)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=4)
    parser.add_argument("--skip-setup", action="store_true", help="database already loaded")
    options = parser.parse_args()
    env = environment(options.port)
    if not options.skip_setup:
        print("setting up: migrate, load_content, collectstatic ...", flush=True)
        run([PYTHON, "manage.py", "migrate", "--noinput"], env)
        run([PYTHON, "manage.py", "load_content"], env)
        run([PYTHON, "manage.py", "collectstatic", "--noinput"], env)
    server = subprocess.Popen(
        [PYTHON, "-m", "gunicorn", "config.wsgi", "--workers", "2",
         "--bind", f"127.0.0.1:{options.port}", "--log-level", "warning"],
        cwd=ROOT, env=env, start_new_session=True,
    )
    try:
        base = f"http://127.0.0.1:{options.port}"
        wait_until_up(base + URLS[0])
        print(f"gunicorn, 2 workers, production settings, {env['DATABASE_URL'].split(':')[0]}; "
              f"ab -n {options.requests} -c {options.concurrency}")
        print(f"{'url':34} {'req/s':>8} {'p50 ms':>7} {'p95 ms':>7} {'p99 ms':>7} {'failed':>6}")
        worst = 0.0
        for path in URLS:
            ab(base + path, 100, options.concurrency)  # warm both workers' caches
            result = ab(base + path, options.requests, options.concurrency)
            worst = max(worst, result["p95"])
            print(f"{path:34} {result['rps']:8.1f} {result['p50']:7.0f} {result['p95']:7.0f} "
                  f"{result['p99']:7.0f} {result['failed']:6.0f}")
        print(f"worst p95: {worst:.0f} ms (target < 50 ms): {'met' if worst < 50 else 'NOT met'}")
        return 0 if worst < 50 else 1
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


if __name__ == "__main__":
    raise SystemExit(main())

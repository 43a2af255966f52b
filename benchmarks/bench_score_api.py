"""Throughput of the scoring API under gunicorn, against its own health check, same run.

    .venv/bin/python benchmarks/bench_score_api.py [--port 8230] [--seconds 10] [--rounds 2]

Starts gunicorn (2 workers, production settings: DJANGO_SETTINGS_MODULE=
config.settings.production, a 40-character DJANGO_SECRET_KEY, DJANGO_ALLOWED_HOSTS)
on the given port, with the database of DATABASE_URL (default: the PostgreSQL database
mahjong_calculator) and the rate-limit cache in Redis (REDIS_URL, default
redis://127.0.0.1:6379/11). A user with a DRF token is created (``manage.py api_token``);
API_USER_RATE is set to 1000000/s for the run so that the limit does not cut it, while the
throttle itself still runs on every request with a history of production's size. Requests carry X-Forwarded-Proto: https as
behind the TLS proxy.

Then, with wrk (4 connections, 2 threads), alternately for ``--rounds`` rounds:
``GET /healthz`` and ``POST /api/v1/score`` with a token, the bodies cycling through 400
questions (a realistic mix: 80 % MCR, 10 % HKOS, 10 % Red, generated hands with their
win conditions, about 3 % of them broken hands that answer 400). Prints requests/s of
both and their ratio (targets: >= 300 score requests/s, >= 70 % of healthz).

Last, the batch endpoint: 1,000 questions (MCR) posted ``--batch-rounds`` times (30),
each request between two runs of the core's own ``score()`` in this process on the same
1,000 questions as read from the same JSON (fresh strings, as any caller has them). Each
request's CPU time (the gunicorn workers' threads, from /proc/<pid>/task/*/schedstat, in
nanoseconds) is divided by the mean CPU time of the two core runs around it; the median
of these paired ratios is the result (target <= 1.20). CPU time, because the machine is
shared and waiting for a core would inflate wall times; paired, because the machine's
speed drifts during a run. Wall-time ratios are printed alongside.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from itertools import pairwise
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rulebook.scoring import score  # noqa: E402
from rulebook.scoring.generate import random_hands  # noqa: E402

PYTHON = str(ROOT / ".venv" / "bin" / "python")
EMAIL = "bench-score-api@example.org"


def questions(n: int, seed: int, mix: bool = True) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    for i, g in enumerate(random_hands(n, seed=seed)):
        ctx = dict(g.context)
        rules = "mcr"
        if mix and i % 10 == 8:
            rules = "hkos"
            ctx.pop("flowers", None)
        elif mix and i % 10 == 9:
            rules = "red"
            ctx.pop("kong_replacement", None)
            ctx.pop("robbing_kong", None)
        hand = g.text
        if mix and rng.random() < 0.03:
            hand = hand + "5s"  # a tile too many: a 400
        out.append({"rules": rules, "hand": hand, "context": ctx})
    return out


def _env(port: int) -> dict[str, str]:
    env = dict(os.environ)
    env.update({
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "DJANGO_SECRET_KEY": env.get("DJANGO_SECRET_KEY", "bench-" + "k" * 40),
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SITE_URL": "http://127.0.0.1",
        "DATABASE_URL": env.get(
            "DATABASE_URL", "postgres://postgres:postgres@127.0.0.1:5432/mahjong_calculator"),
        "REDIS_URL": env.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/11"),
        # a one-second window: the limit never cuts the run, and the throttle's history
        # (DRF keeps one timestamp per request, read and written on every request) stays
        # as short as production's 1000/min keeps it; a high per-minute rate let it grow
        # to tens of thousands of entries, milliseconds per request in Redis.
        "API_USER_RATE": "1000000/s",
        "DJANGO_LOG_LEVEL": "ERROR",
    })
    return env


def _token(env: dict[str, str]) -> str:
    subprocess.run([PYTHON, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env,
                   check=True)
    subprocess.run([PYTHON, "manage.py", "shell", "-c",
                    "from django.contrib.auth import get_user_model as g; "
                    f"g().objects.get_or_create(username='bench-score-api', email='{EMAIL}')"],
                   cwd=ROOT, env=env, check=True)
    out = subprocess.run([PYTHON, "manage.py", "api_token", EMAIL], cwd=ROOT, env=env,
                         check=True, capture_output=True, text=True)
    return out.stdout.strip().split()[-1]


def _wait(url: str) -> None:
    for _ in range(100):
        try:
            req = urllib.request.Request(url, headers={"X-Forwarded-Proto": "https"})
            with urllib.request.urlopen(req, timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit(f"the server did not answer {url}")


def _wrk(url: str, seconds: int, script: str | None, token: str | None) -> float:
    cmd = ["wrk", "-t2", "-c4", f"-d{seconds}s", "-H", "X-Forwarded-Proto: https"]
    if token:
        cmd += ["-H", f"Authorization: Token {token}"]
    if script:
        cmd += ["-s", script]
    out = subprocess.run([*cmd, url], check=True, capture_output=True, text=True).stdout
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    total = re.search(r"(\d+) requests in", out)
    rate = re.search(r"Requests/sec:\s+([\d.]+)", out)
    assert rate and total, out
    if non2xx and "score" not in url:
        raise SystemExit(f"health check failed: {out}")
    bad = int(non2xx.group(1)) if non2xx else 0
    if "score" in url and bad > int(total.group(1)) * 0.15:
        raise SystemExit(f"too many non-2xx answers (limits? errors?): {out}")
    return float(rate.group(1))


def _lua(bodies: list[str], path: Path) -> None:
    items = ",\n".join("[==[" + b + "]==]" for b in bodies)
    path.write_text(
        'wrk.method = "POST"\n'
        'wrk.headers["Content-Type"] = "application/json"\n'
        f"local bodies = {{\n{items}\n}}\n"
        "local i = 0\n"
        "request = function()\n"
        "  i = i % #bodies + 1\n"
        "  return wrk.format(nil, nil, nil, bodies[i])\n"
        "end\n",
        encoding="utf-8",
    )


def _workers(master: int) -> list[int]:
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    return [int(pid) for pid in children]


def _cpu_ns(pids: list[int]) -> int:
    """CPU time of the processes' threads in nanoseconds (/proc/<pid>/task/*/schedstat:
    precise, where /proc/<pid>/stat counts 10 ms clock ticks)."""
    total = 0
    for pid in pids:
        for task in Path(f"/proc/{pid}/task").iterdir():
            total += int((task / "schedstat").read_text().split()[0])
    return total


def _post(url: str, body: bytes, token: str) -> tuple[float, Any]:
    req = urllib.request.Request(url, data=body, method="POST", headers={
        "Content-Type": "application/json", "Authorization": f"Token {token}",
        "X-Forwarded-Proto": "https"})
    start = time.perf_counter()
    with urllib.request.urlopen(req, timeout=60) as r:
        data = r.read()
    return time.perf_counter() - start, json.loads(data)


def _single_requests(base: str, token: str, args: argparse.Namespace) -> None:
    """Single score requests against the health check, same server, alternately."""
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "score.lua"
        _lua([json.dumps(q) for q in questions(400, seed=7)], script)
        # warm-up: both paths, every body once
        _wrk(base + "/healthz", 2, None, None)
        _wrk(base + "/api/v1/score", 3, str(script), token)
        health, scores = [], []
        for _ in range(args.rounds):
            health.append(_wrk(base + "/healthz", args.seconds, None, None))
            scores.append(_wrk(base + "/api/v1/score", args.seconds, str(script), token))
    h, s = statistics.mean(health), statistics.mean(scores)
    print(f"GET /healthz          {' '.join(f'{x:8.1f}' for x in health)}  mean {h:8.1f} req/s")
    print(f"POST /api/v1/score    {' '.join(f'{x:8.1f}' for x in scores)}  mean {s:8.1f} req/s")
    print(f"score / healthz       {s / h:.2f}  (targets: score >= 300 req/s, ratio >= 0.70)")



def _batch(base: str, token: str, master: int, args: argparse.Namespace) -> None:
    """The batch endpoint's CPU per hand against the core's, paired request by request."""
    batch = questions(1000, seed=11, mix=False)
    body = json.dumps({"questions": batch}).encode()
    for _ in range(4):  # warm-up of both workers' tables (each process has its own)
        _post(base + "/api/v1/score/batch", body, token)
    workers = _workers(master)
    if args.pin_cpu is not None:
        for pid in [os.getpid(), *workers]:
            os.sched_setaffinity(pid, {args.pin_cpu})

    def core_run() -> tuple[float, float]:
        fresh = json.loads(body)["questions"]  # the questions as a program reads them
        start, cpu = time.perf_counter(), time.process_time()
        for q in fresh:
            score(q["hand"], rules=q["rules"], **q["context"])
        return time.perf_counter() - start, time.process_time() - cpu

    def api_run() -> tuple[float, float]:
        before = _cpu_ns(workers)
        elapsed, answer = _post(base + "/api/v1/score/batch", body, token)
        assert len(answer["results"]) == len(batch)
        return elapsed, (_cpu_ns(workers) - before) / 1e9

    core_run()
    # core, request, core, request, ..., core: each request against the mean of the
    # core runs just before and just after it, so a machine that slows down or speeds
    # up over the run (it is shared) moves both sides of each ratio alike
    cores = [core_run()]
    apis = []
    for _ in range(args.batch_rounds):
        apis.append(api_run())
        cores.append(core_run())
    n = len(batch)
    around = list(pairwise(cores))  # the core runs around request i
    wall = [a[0] / ((c0[0] + c1[0]) / 2) for a, (c0, c1) in zip(apis, around, strict=True)]
    cpu = [a[1] / ((c0[1] + c1[1]) / 2) for a, (c0, c1) in zip(apis, around, strict=True)]

    def per_hand(runs: list[tuple[float, float]], i: int) -> str:
        return " ".join(f"{r[i] / n * 1e6:5.1f}" for r in runs)

    med = statistics.median
    pinned = "" if args.pin_cpu is None else f", both sides on CPU {args.pin_cpu}"
    print(f"core score() CPU      {per_hand(cores, 1)}  median "
          f"{med(c[1] for c in cores) / n * 1e6:5.1f} us/hand")
    print(f"POST /score/batch CPU {per_hand(apis, 1)}  median "
          f"{med(a[1] for a in apis) / n * 1e6:5.1f} us/hand "
          "(1,000 hands a request; CPU of the gunicorn workers)")
    print(f"batch / core, paired  CPU {' '.join(f'{x:.2f}' for x in cpu)}")
    print(f"                      wall {' '.join(f'{x:.2f}' for x in wall)}")
    print(f"batch / core          median {med(cpu):.3f} CPU, {med(wall):.3f} wall "
          f"(target <= 1.20){pinned}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=8230)
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--batch-rounds", type=int, default=30)
    parser.add_argument("--only", choices=["single", "batch"])
    parser.add_argument("--pin-cpu", type=int, metavar="N",
                        help="batch comparison with this process and the gunicorn workers "
                             "on CPU N: both sides share its caches and speed")
    args = parser.parse_args()
    if not shutil.which("wrk"):
        raise SystemExit("wrk is needed: apt-get install -y wrk")
    env = _env(args.port)
    token = _token(env)
    base = f"http://127.0.0.1:{args.port}"
    server = subprocess.Popen(
        [str(ROOT / ".venv" / "bin" / "gunicorn"), "config.wsgi", "--bind",
         f"127.0.0.1:{args.port}", "--workers", "2", "--log-level", "warning"],
        cwd=ROOT, env=env, start_new_session=True,
    )
    try:
        _wait(base + "/healthz")
        if args.only in (None, "single"):
            _single_requests(base, token, args)
        if args.only in (None, "batch"):
            _batch(base, token, server.pid, args)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=20)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""A real Celery worker (and beat) in a process of its own, for the tests of the task queue
(decision 0907). They need the Redis at 127.0.0.1:6379 (CI starts it; skipped without).

Each test gets its own queue name and cache key prefix on Redis database 11, so tests
running at the same time (xdist) never take each other's tasks or heartbeats. The worker
uses the test database:

- PostgreSQL: the test database itself (the tests are ``transactional_db``: what they
  write is committed, what the worker writes is seen);
- SQLite: the test database lives in memory, which another process cannot open. The test
  writes its data, then ``TaskQueue.share_database()`` copies the database into a file
  (SQLite's backup API, milliseconds) that the worker and beat open; from then on the test
  reads what they did from that file (``TaskQueue.query``), not through the ORM.

Mail goes through Django's file-based backend into a folder of the test
(``TaskQueue.mails``): one file per connection, messages separated by a line of dashes.
"""

from __future__ import annotations

import email
import os
import signal
import sqlite3
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from email.message import Message
from pathlib import Path
from typing import Any

import pytest
import redis
from celery import Celery
from django.db import connection

from tests.services import REDIS_HOST, REDIS_PORT

ROOT = Path(__file__).resolve().parent.parent
REDIS_DB = 11
REDIS_URL = f"redis://{REDIS_HOST}:{REDIS_PORT}/{REDIS_DB}"
SEPARATOR = b"-" * 79


def wait_for(condition: Callable[[], Any], timeout: float, what: str,
             every: float = 0.05) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"waited {timeout} s for {what}")


class TaskQueue:
    """The broker, cache and mail folder of one test, and its worker and beat processes."""

    def __init__(self, tmp_path: Path) -> None:
        self.tmp_path = tmp_path
        self.name = f"test-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.mail_dir = tmp_path / "mail"
        self.mail_dir.mkdir()
        self.sqlite_file: Path | None = None
        self.processes: list[subprocess.Popen[bytes]] = []
        self.redis = redis.Redis.from_url(REDIS_URL)
        self.publisher = Celery("publisher", broker=REDIS_URL)
        self.extra_env: dict[str, str] = {}

    # --- the database the processes use -------------------------------------------------

    @property
    def on_sqlite(self) -> bool:
        return connection.vendor == "sqlite"

    def share_database(self) -> None:
        """Make what the test wrote so far visible to the processes (SQLite: copy it into
        the file they open; PostgreSQL: it is already committed)."""
        if not self.on_sqlite:
            return
        self.sqlite_file = self.tmp_path / "db.sqlite3"
        connection.ensure_connection()
        target = sqlite3.connect(self.sqlite_file)
        connection.connection.backup(target)
        target.close()

    def database_url(self) -> str:
        if self.on_sqlite:
            assert self.sqlite_file is not None, "call share_database() first"
            return f"sqlite:///{self.sqlite_file}"
        s = connection.settings_dict
        return (f"postgres://{s['USER']}:{s['PASSWORD']}@{s['HOST'] or '127.0.0.1'}:"
                f"{s['PORT'] or 5432}/{s['NAME']}")

    def query(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Rows of ``sql`` in the database the processes write to."""
        if self.on_sqlite:
            assert self.sqlite_file is not None
            with sqlite3.connect(self.sqlite_file, timeout=10) as db:
                return db.execute(sql, params).fetchall()
        with connection.cursor() as cursor:
            cursor.execute(sql.replace("?", "%s"), params)
            return cursor.fetchall()

    # --- processes ----------------------------------------------------------------------

    def env(self) -> dict[str, str]:
        keep = {k: v for k, v in os.environ.items()
                if not k.startswith(("DJANGO_", "DATABASE_URL", "CELERY_", "PYTEST"))}
        return {
            **keep,
            # tests/worker_settings.py as a module of its own (a package installed in the
            # virtualenv is called "tests" too)
            "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")]),
            "DJANGO_SETTINGS_MODULE": "worker_settings",
            "DATABASE_URL": self.database_url(),
            "CELERY_BROKER_URL": REDIS_URL,
            "CELERY_TASK_DEFAULT_QUEUE": self.name,
            "WORKER_CACHE_URL": REDIS_URL,
            "WORKER_CACHE_PREFIX": self.name,
            "EMAIL_FILE_PATH": str(self.mail_dir),
            **self.extra_env,
        }

    def _start(self, arguments: list[str], log: str) -> subprocess.Popen[bytes]:
        output = (self.tmp_path / log).open("ab")
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", *arguments],
            cwd=ROOT, env=self.env(), stdout=output, stderr=subprocess.STDOUT,
            start_new_session=True)
        self.processes.append(process)
        return process

    def start_worker(self) -> subprocess.Popen[bytes]:
        """A worker of one process (solo pool: a SIGKILL stops the task it runs), ready when
        it returns (its first heartbeat is in the cache)."""
        self.redis.delete(self.cache_key("core:heartbeat:worker"))
        process = self._start(
            ["worker", "--pool=solo", "--concurrency=1", "-Q", self.name, "-n",
             f"{self.name}@%h", "--without-gossip", "--without-mingle", "--without-heartbeat",
             "-l", "INFO"], "worker.log")
        wait_for(lambda: self.redis.exists(self.cache_key("core:heartbeat:worker"))
                 or process.poll() is not None, 45, "the worker to start")
        assert process.poll() is None, self.log("worker.log")
        return process

    def start_beat(self, scheduler: str | None = None) -> subprocess.Popen[bytes]:
        """Beat, with the settings' scheduler (``CELERY_BEAT_SCHEDULER``) or ``scheduler``."""
        return self._start(["beat", "--max-interval", "1", "--pidfile=",
                            "-s", str(self.tmp_path / "beat-schedule"), "-l", "INFO",
                            *(["--scheduler", scheduler] if scheduler else [])], "beat.log")

    def stop(self, process: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
        if process.poll() is None:
            os.killpg(process.pid, sig)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=10)

    def log(self, name: str) -> str:
        path = self.tmp_path / name
        return path.read_text(errors="replace")[-4000:] if path.exists() else ""

    def close(self) -> None:
        for process in self.processes:
            self.stop(process, signal.SIGKILL)
        self.redis.delete(self.name)
        for key in self.redis.scan_iter(f"{self.name}:*"):
            self.redis.delete(key)
        self.redis.close()
        self.publisher.close()

    # --- tasks, cache, mail -------------------------------------------------------------

    def send(self, task: str, **kwargs: Any) -> None:
        """Queue ``task`` by name, as beat would."""
        self.publisher.send_task(task, kwargs=kwargs, queue=self.name)

    def cache_key(self, key: str) -> str:
        """The Redis key of a cache key of the processes (Django's prefix:version:key)."""
        return f"{self.name}:1:{key}"

    def mails(self) -> list[Message]:
        """Every message the processes handed to the file-based backend so far."""
        messages = []
        for path in sorted(self.mail_dir.iterdir()):
            for chunk in path.read_bytes().split(SEPARATOR):
                if chunk.strip():
                    messages.append(email.message_from_bytes(chunk.strip(b"\n") + b"\n"))
        return messages


@pytest.fixture
def task_queue(transactional_db: None, tmp_path: Path) -> Iterator[TaskQueue]:
    """A queue of the test's own on the local Redis; its processes are stopped (and the
    queue emptied) before the test database is flushed."""
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping()
    except redis.RedisError:
        pytest.skip(f"needs Redis at {REDIS_HOST}:{REDIS_PORT}")
    queue = TaskQueue(tmp_path)
    yield queue
    queue.close()

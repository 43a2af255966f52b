"""Issue 22, the proof by fault injection: real services that the tests start and stop
themselves, on ports chosen free.

- Redis: a private ``redis-server`` is the site's cache (``FaultTolerantRedisCache``), then
  it is killed mid-run. Pages, the API and login keep working; ``/healthz`` says degraded.
- SMTP: the mail server refuses (nothing listens on its port). Sign-up and a membership
  application succeed, their mails wait in the outbox; a small SMTP sink (Python's own
  socket server) is started on that port and ``send_queued_mail`` delivers them to it.
- PostgreSQL: the connection is terminated (``pg_terminate_backend`` from another
  connection) in the middle of an import: the request fails, nothing of it is written;
  with the database unreachable ``/healthz`` answers 503. Skipped on SQLite (no server).

Run: ``.venv/bin/python -m pytest -p no:xdist -q tests/config/test_faults.py`` (with
``DATABASE_URL`` for the PostgreSQL part).
"""

from __future__ import annotations

import shutil
import socket
import socketserver
import subprocess
import threading
import time
from datetime import timedelta

import psycopg
import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from core import throttles
from federation.models import Member, MembershipType, OutgoingMail
from tests.factories import DEFAULT_PASSWORD, UserFactory
from tournaments.models import Player, Registration

HAND = {"hand": "123m456p789s123s5s5s"}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_for_port(port: int, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on port {port}")


# --- Redis stopped mid-run ------------------------------------------------------------------


@pytest.fixture
def private_redis():
    executable = shutil.which("redis-server")
    if executable is None:
        pytest.skip("needs redis-server (the Debian package redis-server)")
    port = free_port()
    process = subprocess.Popen(
        [executable, "--bind", "127.0.0.1", "--port", str(port), "--save", "",
         "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait_for_port(port)
        yield process, port
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=5)


@pytest.fixture(autouse=True)
def _fresh_local_counts():
    throttles.local_cache.clear()
    yield
    throttles.local_cache.clear()


def _site_answers(client, user) -> None:
    assert client.get("/en/").status_code == 200
    assert client.get("/api/v1/fans").status_code == 200
    response = client.post("/api/v1/score", HAND, content_type="application/json")
    assert response.status_code == 200 and response.json()["total"] > 0
    client.logout()
    login = client.post("/en/accounts/login/", {"login": user.email,
                                                "password": DEFAULT_PASSWORD})
    assert login.status_code == 302 and client.session["_auth_user_id"] == str(user.pk)
    assert client.get("/en/members/me/").status_code in (200, 302)  # a page of the account


def test_redis_killed_mid_run_the_site_keeps_answering(client, site_content, private_redis,
                                                       settings, db):
    process, port = private_redis
    settings.CACHES = {"default": {"BACKEND": "core.cache.FaultTolerantRedisCache",
                                   "LOCATION": f"redis://127.0.0.1:{port}/0",
                                   "KEY_PREFIX": "faults"}}
    user = UserFactory(email="player@example.org")
    _site_answers(client, user)
    assert client.get("/healthz").json() == {"status": "ok", "database": "ok", "cache": "ok"}

    process.kill()  # Redis stops mid-run
    process.wait(timeout=5)
    _site_answers(client, user)
    health = client.get("/healthz")
    assert health.status_code == 200
    assert health.json() == {"status": "degraded", "database": "ok", "cache": "down"}


# --- SMTP refusing, then back ---------------------------------------------------------------


class _SinkHandler(socketserver.StreamRequestHandler):
    """Just enough SMTP (RFC 5321) to take mail: EHLO, MAIL, RCPT, DATA, RSET, NOOP, QUIT."""

    def _reply(self, line: bytes) -> None:
        self.wfile.write(line + b"\r\n")

    def handle(self) -> None:
        self._reply(b"220 sink ready")
        recipients: list[str] = []
        while line := self.rfile.readline():
            command = line[:4].upper()
            if command in (b"EHLO", b"HELO"):
                self._reply(b"250 sink")
            elif command == b"RCPT":
                recipients.append(line.split(b":", 1)[1].strip().strip(b"<>").decode())
                self._reply(b"250 OK")
            elif command == b"DATA":
                self._reply(b"354 end with .")
                body = []
                while (data := self.rfile.readline()) not in (b".\r\n", b".\n", b""):
                    body.append(data[1:] if data.startswith(b"..") else data)
                self.server.received.append((recipients, b"".join(body)))  # type: ignore[attr-defined]
                recipients = []
                self._reply(b"250 OK queued")
            elif command == b"QUIT":
                self._reply(b"221 bye")
                return
            else:  # MAIL, RSET, NOOP
                self._reply(b"250 OK")


class SmtpSink(socketserver.ThreadingTCPServer):
    allow_reuse_address = True
    daemon_threads = True

    def __init__(self, port: int) -> None:
        super().__init__(("127.0.0.1", port), _SinkHandler)
        self.received: list[tuple[list[str], bytes]] = []
        threading.Thread(target=self.serve_forever, daemon=True).start()


@pytest.fixture
def smtp_port(settings):
    port = free_port()  # nothing listens: the mail server refuses
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = port
    settings.EMAIL_TIMEOUT = 2
    sinks: list[SmtpSink] = []
    yield port, sinks
    for sink in sinks:
        sink.shutdown()
        sink.server_close()


def test_smtp_refusing_sign_up_and_application_succeed_and_mail_follows(
        client, smtp_port, db, django_capture_on_commit_callbacks):
    port, sinks = smtp_port
    with django_capture_on_commit_callbacks(execute=True):
        signup = client.post("/en/accounts/signup/", {
            "email": "new@example.org", "password1": "a-Long-pass-2025",
            "password2": "a-Long-pass-2025"})
    assert signup.status_code == 302
    assert get_user_model().objects.filter(email="new@example.org").exists()

    applicant = UserFactory(email="applicant@example.org")
    client.force_login(applicant)
    with django_capture_on_commit_callbacks(execute=True):
        application = client.post("/en/members/apply/", {
            "name_native": "Pyotr", "name_latin": "Pyotr", "country": "RU",
            "membership_type": MembershipType.objects.get_or_create(kind="regular")[0].pk,
            "email": applicant.email, "language": "en"})
    assert application.status_code == 302
    assert Member.objects.filter(user=applicant).exists()

    queued = OutgoingMail.objects.order_by("pk")
    assert [row.to for row in queued] == ["new@example.org", "applicant@example.org"]
    assert all(row.state == OutgoingMail.State.PENDING for row in queued)

    sink = SmtpSink(port)  # the mail server is back
    sinks.append(sink)
    OutgoingMail.objects.update(next_attempt_at=timezone.now() - timedelta(seconds=1))
    call_command("send_queued_mail")
    assert sorted(r[0][0] for r in sink.received) == ["applicant@example.org",
                                                      "new@example.org"]
    signup_mail = next(body for to, body in sink.received if to == ["new@example.org"])
    assert b"/accounts/confirm-email/" in signup_mail
    assert set(OutgoingMail.objects.values_list("state", flat=True)) == {"sent"}


# --- PostgreSQL cut during an import --------------------------------------------------------


@pytest.fixture
def postgres(transactional_db):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL): SQLite has no server to cut")
    yield
    connection.close()


def _terminate(pid: int) -> None:
    params = connection.get_connection_params()
    for key in ("cursor_factory", "context", "prepare_threshold"):
        params.pop(key, None)
    with psycopg.connect(**params, autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])


def test_postgres_cut_during_an_import_writes_nothing(postgres, make_tournament, organizer):
    from rest_framework.authtoken.models import Token

    t = make_tournament("draft")
    players_before = Player.objects.count()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    writes = []

    def cut_after_some_writes(execute, sql, params, many, context):
        if sql.lstrip().upper().startswith("INSERT"):
            writes.append(sql)
            # half-way through the import: the new players are written, the server goes
            # away before their registrations
            if 'INTO "tournaments_registration"' in sql:
                _terminate(pid)
        return execute(sql, params, many, context)

    api = APIClient(raise_request_exception=False)
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=organizer)[0].key}")
    rows = [{"name": f"Player {i:02d}", "country": "NL"} for i in range(1, 21)]
    with connection.execute_wrapper(cut_after_some_writes):
        response = api.post(f"/api/v1/tournaments/{t.pk}/players", rows, format="json")
    assert 'INTO "tournaments_player"' in writes[0] and len(writes) >= 2
    assert response.status_code == 500
    assert response.json()["code"] == "server_error"  # JSON, not a half-written import
    connection.close()  # the next query connects again
    assert not Registration.objects.filter(tournament=t).exists()
    assert Player.objects.count() == players_before

    port = connection.settings_dict["PORT"]
    connection.settings_dict["PORT"] = str(free_port())  # the database unreachable
    connection.close()
    try:
        response = api.get("/healthz")
    finally:
        connection.settings_dict["PORT"] = port
        connection.close()
    assert response.status_code == 503
    assert response.json()["database"] == "down"
    # back again: the import goes through whole
    assert api.post(f"/api/v1/tournaments/{t.pk}/players", rows,
                    format="json").status_code in (200, 201)
    assert Registration.objects.filter(tournament=t).count() == 20

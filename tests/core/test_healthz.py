"""`GET /healthz` with a database connection kept between requests (DATABASE_CONN_MAX_AGE).

A kept connection proves nothing by existing: the check pings it, drops it when it does
not answer, and connects again; so a database that went away answers 503, and a
connection cut by the server is replaced. PostgreSQL only: SQLite has no server.
"""

from __future__ import annotations

import psycopg
import pytest
from django.db import connection


def _cut_server_side() -> None:
    """Terminate the backend of Django's open connection, as a restart of the server
    or an idle timeout would."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    params.pop("prepare_threshold", None)
    with psycopg.connect(**params, autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])


@pytest.fixture
def postgres(transactional_db):  # type: ignore[no-untyped-def]
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (DATABASE_URL)")
    yield
    connection.close()


def test_a_cut_connection_is_replaced(client, postgres) -> None:
    _cut_server_side()
    response = client.get("/healthz")
    assert response.status_code == 200 and response.json() == {"status": "ok", "database": "ok", "cache": "ok"}
    with connection.cursor() as cursor:  # the connection the check left open works
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


def test_a_database_gone_away_answers_503(client, postgres) -> None:
    _cut_server_side()
    port = connection.settings_dict["PORT"]
    connection.settings_dict["PORT"] = "1"  # nothing listens there: the database is away
    try:
        response = client.get("/healthz")
    finally:
        connection.settings_dict["PORT"] = port
        connection.close()
    assert response.status_code == 503
    assert response.json() == {"status": "unavailable", "database": "down", "cache": "ok"}

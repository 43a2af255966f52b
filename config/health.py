"""`GET /healthz`: is this process able to answer and reach its database?

Used by the docker-compose healthcheck and by load balancers. It is outside the language
prefix and carries no session or CSRF work, so it measures the server itself.

Without persistent connections (``DATABASE_CONN_MAX_AGE`` 0, the default) each check
connects, which proves the database reachable. A connection kept from an earlier request
(``DATABASE_CONN_MAX_AGE`` > 0) proves nothing by existing: it is pinged first, and one
that does not answer is dropped and the check connects again.
"""

from __future__ import annotations

from django.db import connection
from django.db.utils import DatabaseError
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe


@never_cache
@require_safe
def healthz(request):
    try:
        if connection.connection is not None and not connection.is_usable():
            connection.close()
        connection.ensure_connection()
    except DatabaseError:
        return JsonResponse({"status": "unavailable", "database": "unreachable"}, status=503)
    return JsonResponse({"status": "ok"})

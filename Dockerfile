# Production image: gunicorn serving Django + Wagtail, static files through WhiteNoise; the
# same image runs the Celery worker, the scheduler (beat) and the backups (docker-compose.yml).
FROM python:3.11-slim-bookworm

# pg_dump and pg_restore of the database server's major version (the `db` service's image),
# from the PostgreSQL project's Debian repository: Debian 12's own client is version 15,
# which refuses to dump a newer server.
ARG PG_MAJOR=16

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DJANGO_SETTINGS_MODULE=config.settings.production

RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates curl gettext fonts-dejavu-core \
 && install -d /usr/share/postgresql-common/pgdg \
 && curl -fsSL -o /usr/share/postgresql-common/pgdg/apt.postgresql.org.asc \
      https://www.postgresql.org/media/keys/ACCC4CF8.asc \
 && echo "deb [signed-by=/usr/share/postgresql-common/pgdg/apt.postgresql.org.asc] https://apt.postgresql.org/pub/repos/apt bookworm-pgdg main" \
      > /etc/apt/sources.list.d/pgdg.list \
 && apt-get update \
 && apt-get install -y --no-install-recommends "postgresql-client-${PG_MAJOR}" \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY requirements/ requirements/
# Every package at the version and with the hash of the lock (make lock); nothing floats.
RUN pip install --no-cache-dir --require-hashes -r requirements/base.lock

COPY . .
# collectstatic and compilemessages need settings but no secrets or database.
RUN DJANGO_SECRET_KEY=build-only-key-build-only-key-build-only DJANGO_ALLOWED_HOSTS=build \
    SITE_URL=https://build.invalid \
    python manage.py collectstatic --noinput \
 && python manage.py compile_translations

RUN useradd --create-home federation \
 && mkdir -p /app/media /backups \
 && chown federation /app/media /backups
USER federation
EXPOSE 8000
# The web service: migrations (docs/operations.md: a release's migrations keep the previous
# release working), the rulebook, the search index, then gunicorn (the access log is the
# proxy's, in JSON). Worker, beat and backup give their own command.
CMD ["sh", "-c", "python manage.py migrate --noinput && python manage.py load_content && python manage.py search_index && gunicorn config.wsgi --bind 0.0.0.0:8000 --workers ${GUNICORN_WORKERS:-3}"]

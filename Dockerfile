# Production image: gunicorn serving Django + Wagtail, static files through WhiteNoise.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DJANGO_SETTINGS_MODULE=config.settings.production

RUN apt-get update \
 && apt-get install -y --no-install-recommends gettext curl fonts-dejavu-core \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY requirements/ requirements/
RUN pip install --no-cache-dir -r requirements/base.txt

COPY . .
# collectstatic and compilemessages need settings but no secrets or database.
RUN DJANGO_SECRET_KEY=build-only-key-build-only-key-build-only DJANGO_ALLOWED_HOSTS=build \
    python manage.py collectstatic --noinput \
 && python manage.py compile_translations

RUN useradd --create-home federation && mkdir -p /app/media && chown federation /app/media
USER federation
EXPOSE 8000
CMD ["sh", "-c", "python manage.py migrate --noinput && python manage.py load_content && python manage.py search_index && gunicorn config.wsgi --bind 0.0.0.0:8000 --workers ${GUNICORN_WORKERS:-3} --access-logfile -"]

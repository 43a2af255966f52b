"""WSGI entry point (gunicorn federation.wsgi). Production settings unless told otherwise."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "federation.settings.production")

application = get_wsgi_application()

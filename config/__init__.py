"""The wiring: settings, urls, roles of every app, the demo federation and the task queue.

The Celery application is loaded with Django so that every app's ``@shared_task`` belongs
to it (config/celery.py)."""

from config.celery import app as celery_app

__all__ = ["celery_app"]

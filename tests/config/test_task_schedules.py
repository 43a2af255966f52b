"""The task queue's default schedules and their page in the Wagtail admin (decision 0907):
created after migrate for jobs the worker knows, never overwritten, editable by superusers
only."""

from __future__ import annotations

import pytest
from django_celery_beat.models import PeriodicTask

from config import celery_app
from config.task_schedules import DEFAULT_SCHEDULES, task_schedules_setup
from core.heartbeats import WORKER, heartbeat_last

pytestmark = pytest.mark.django_db


def test_every_job_has_a_default_schedule_for_a_task_the_worker_knows() -> None:
    celery_app.loader.import_default_modules()  # each app's tasks.py, as the worker does
    scheduled = {t.name: t for t in PeriodicTask.objects.all()}
    for default in DEFAULT_SCHEDULES:
        task = scheduled[default.name]
        assert task.task == default.task and task.task in celery_app.tasks
        assert task.enabled == default.enabled
        assert (task.interval is None) == (default.every_seconds is None)
    jobs = {d.task for d in DEFAULT_SCHEDULES}
    assert {"federation.issue_dues_invoices", "federation.send_dues_reminders",
            "federation.send_mailings", "federation.send_queued_mail",
            "tournaments.release_unpaid_entries", "ratings.publish_rating_lists",
            "ratings.recompute", "ratings.store_rankings", "config.worker_heartbeat"} == jobs


def test_a_schedule_the_administrator_changed_is_kept() -> None:
    task = PeriodicTask.objects.get(task="federation.send_dues_reminders")
    task.enabled = False
    task.save()
    assert task_schedules_setup() == []
    task.refresh_from_db()
    assert task.enabled is False
    PeriodicTask.objects.filter(task="ratings.recompute").delete()
    assert task_schedules_setup() == ["Full ratings recompute"]


def test_the_heartbeat_job_records_the_worker(settings) -> None:
    assert heartbeat_last(WORKER) is None
    celery_app.tasks["config.worker_heartbeat"].delay()
    assert heartbeat_last(WORKER) is not None


def test_only_superusers_see_and_edit_the_schedules(client, django_user_model) -> None:
    from django.contrib.auth.models import Permission

    staff = django_user_model.objects.create_user(username="staff", email="staff@example.org",
                                                  password="x", is_staff=True)
    staff.user_permissions.set(Permission.objects.filter(
        content_type__app_label__in=["wagtailadmin", "django_celery_beat"]))
    client.force_login(staff)
    assert client.get("/admin/periodic_tasks/").status_code in (302, 403)
    assert b"/admin/periodic_tasks/" not in client.get("/admin/").content

    admin = django_user_model.objects.create_superuser(
        username="root", email="root@example.org", password="x")
    client.force_login(admin)
    page = client.get("/admin/periodic_tasks/")
    assert page.status_code == 200 and "Mailings" in page.content.decode()
    task = PeriodicTask.objects.get(task="federation.send_mailings")
    edit = client.get(f"/admin/periodic_tasks/edit/{task.pk}/")
    assert edit.status_code == 200
    form = {"name": task.name, "task": task.task, "enabled": "", "interval": task.interval_id,
            "crontab": "", "kwargs": "{}", "description": task.description,
            "start_time": "", "expires": ""}
    response = client.post(f"/admin/periodic_tasks/edit/{task.pk}/", form)
    assert response.status_code == 302, response.content.decode()[-3000:]
    task.refresh_from_db()
    assert task.enabled is False
    assert client.get("/admin/crontab_schedules/").status_code == 200
    assert client.get("/admin/interval_schedules/").status_code == 200

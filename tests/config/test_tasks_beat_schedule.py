"""Beat queues a job on a schedule stored in the database and a real worker runs it
(decision 0907): a queued mail goes out through the schedule, with no command run by hand.
Also: beat records its heartbeat, even when started with django-celery-beat's own scheduler.
SQLite and PostgreSQL
(tests/worker_processes.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.mail import EmailMessage
from django.utils import timezone
from django_celery_beat.models import IntervalSchedule, PeriodicTask

from federation.models import OutgoingMail
from tests.worker_processes import TaskQueue, wait_for

pytestmark = pytest.mark.worker


def test_beat_fires_a_scheduled_job_that_the_worker_runs(task_queue: TaskQueue) -> None:
    message = EmailMessage("Receipt", "Thank you.", "federation@example.org",
                           ["member@example.org"])
    row = OutgoingMail.objects.create(
        to="member@example.org", subject="Receipt", from_email="federation@example.org",
        recipients=["member@example.org"], message=message.message().as_bytes(),
        next_attempt_at=timezone.now() - timedelta(minutes=1))
    PeriodicTask.objects.update(enabled=False)  # only the schedule under test
    every_second, _ = IntervalSchedule.objects.get_or_create(
        every=1, period=IntervalSchedule.SECONDS)
    job = PeriodicTask.objects.create(name="Queued mail, every second",
                                      task="federation.send_queued_mail",
                                      interval=every_second)
    task_queue.share_database()
    task_queue.start_worker()
    # django-celery-beat's own scheduler, as docker-compose.yml names it: beat's heartbeat
    # comes from each job it queues (config/celery.py)
    task_queue.start_beat("django_celery_beat.schedulers:DatabaseScheduler")

    wait_for(lambda: task_queue.query("SELECT state FROM federation_outgoingmail WHERE id = ?",
                                      (row.pk,)) == [("sent",)], 40, "the queued mail sent")
    assert [m["To"] for m in task_queue.mails()] == ["member@example.org"]
    # beat writes its run counts back when it syncs with the database, a moment after
    # queueing (later on a loaded machine)
    def runs() -> int:
        return task_queue.query(
            "SELECT total_run_count FROM django_celery_beat_periodictask WHERE id = ?",
            (job.pk,))[0][0]

    wait_for(lambda: runs() >= 1, 40, "beat's run count written back")
    key = task_queue.cache_key("core:heartbeat:beat")
    first = task_queue.redis.get(key)
    assert first is not None
    # renewed at each job beat queues (every second here), not only at its start
    wait_for(lambda: task_queue.redis.get(key) != first, 10, "a newer beat heartbeat")

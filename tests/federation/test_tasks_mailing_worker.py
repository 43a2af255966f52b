"""A mailing to 500 members sent by a real Celery worker, and the same mailing with the
worker killed (SIGKILL) half-way and started again: every member has exactly one mail
(decision 0907). Each delivery is claimed before its mail is handed over; the one claimed
when the worker died is sent again once its claim expired, with the same Message-ID, so a
receiving system sees one message. SQLite and PostgreSQL (tests/worker_processes.py)."""

from __future__ import annotations

import signal
from collections import defaultdict

import pytest

from federation.models import (
    Mailing,
    MailingDelivery,
    MailingTranslation,
    MailKind,
    Member,
    MembershipType,
)
from tests.worker_processes import TaskQueue, wait_for

pytestmark = pytest.mark.worker

MEMBERS = 500


def queue_mailing(members: int) -> tuple[Mailing, list[str]]:
    """A mailing being sent to ``members`` members (as mailing_send leaves it)."""
    regular, _ = MembershipType.objects.get_or_create(kind="regular", defaults={"name": "Regular"})
    people = Member.objects.bulk_create(
        Member(name_native=f"Игрок {i}", name_latin=f"Player {i}", email=f"p{i:04d}@example.org",
               language="en" if i % 2 else "ru", membership_type=regular,
               application=Member.Application.APPROVED)
        for i in range(members))
    mailing = Mailing.objects.create(kind=MailKind.NEWS, audience=Mailing.Audience.GOOD_STANDING,
                                     state=Mailing.State.SENDING)
    MailingTranslation.objects.bulk_create([
        MailingTranslation(mailing=mailing, language="ru", subject="Новости", body="Весной."),
        MailingTranslation(mailing=mailing, language="en", subject="News", body="In spring."),
    ])
    MailingDelivery.objects.bulk_create(
        MailingDelivery(mailing=mailing, member=m, email=m.email, language=m.language)
        for m in people)
    return mailing, [m.email for m in people]


def delivery_states(queue: TaskQueue) -> dict[str, int]:
    return dict(queue.query(
        "SELECT state, COUNT(*) FROM federation_mailingdelivery GROUP BY state"))


def copies_by_recipient(queue: TaskQueue) -> dict[str, list[str]]:
    """Each recipient's copies, by their Message-ID."""
    found: dict[str, list[str]] = defaultdict(list)
    for message in queue.mails():
        found[message["To"]].append(message["Message-ID"])
    return found


def test_the_worker_sends_a_mailing_to_500_members(task_queue: TaskQueue) -> None:
    mailing, addresses = queue_mailing(MEMBERS)
    task_queue.share_database()
    task_queue.extra_env["MAILING_BATCH_SIZE"] = "50"
    task_queue.start_worker()
    task_queue.send("federation.send_mailings")
    wait_for(lambda: delivery_states(task_queue) == {"sent": MEMBERS}, 50,
             "every delivery sent", every=0.2)
    copies = copies_by_recipient(task_queue)
    assert sorted(copies) == sorted(addresses)
    assert all(len(ids) == 1 for ids in copies.values())
    assert len({ids[0] for ids in copies.values()}) == MEMBERS  # one Message-ID each
    assert task_queue.query("SELECT state FROM federation_mailing WHERE id = ?",
                            (mailing.pk,)) == [("sent",)]


def test_a_worker_killed_half_way_and_started_again_sends_each_member_one_mail(
    task_queue: TaskQueue,
) -> None:
    mailing, addresses = queue_mailing(MEMBERS)
    task_queue.share_database()
    task_queue.extra_env.update(MAILING_BATCH_SIZE="20", MAILING_CLAIM_SECONDS="3")
    worker = task_queue.start_worker()
    task_queue.send("federation.send_mailings")
    wait_for(lambda: delivery_states(task_queue).get("sent", 0) >= MEMBERS // 2, 50,
             "half of the mailing sent", every=0.02)
    task_queue.stop(worker, signal.SIGKILL)  # no goodbye: the task dies where it is
    at_kill = delivery_states(task_queue)
    assert 0 < at_kill.get("pending", 0) < MEMBERS and at_kill.get("sending", 0) <= 1, at_kill
    in_flight = {email for (email,) in task_queue.query(
        "SELECT email FROM federation_mailingdelivery WHERE state = 'sending'")}

    task_queue.start_worker()
    task_queue.send("federation.send_mailings")  # the next run of the schedule
    wait_for(lambda: delivery_states(task_queue).get("pending", 0) == 0, 50,
             "the rest sent", every=0.2)
    # a delivery claimed when the worker died waits for its claim to expire, then goes again
    task_queue.send("federation.send_mailings")
    wait_for(lambda: delivery_states(task_queue) == {"sent": MEMBERS}, 30,
             "every delivery sent", every=0.2)

    copies = copies_by_recipient(task_queue)
    assert sorted(copies) == sorted(addresses)  # nobody skipped
    # nobody has two different mails; only the one being handed over at the kill may have
    # been handed over twice, as the same message (the same Message-ID)
    assert all(len(set(ids)) == 1 for ids in copies.values())
    twice = {to for to, ids in copies.items() if len(ids) > 1}
    assert twice <= in_flight and all(len(copies[to]) == 2 for to in twice)
    ids = task_queue.query("SELECT id FROM federation_mailingdelivery ORDER BY id")
    expected = {f"<mailing-{mailing.pk}.delivery-{pk}@localhost>" for (pk,) in ids}
    assert {ids[0] for ids in copies.values()} == expected

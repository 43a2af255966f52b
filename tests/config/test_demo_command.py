"""The demo federation's command and its refusal of a site in use (each test loads on its
own, outside tests/federation/test_demo.py's shared load)."""

from __future__ import annotations

from datetime import date

import pytest
from django.core import mail
from django.core.management import CommandError, call_command

from config import demo

pytestmark = pytest.mark.django_db

TODAY = date(2026, 11, 20)


def test_the_demo_is_for_an_empty_site(db, django_user_model) -> None:
    from tests.tournaments.confirmed_results import confirmed_tournament, players

    confirmed_tournament(players(4), date(2026, 1, 10), sessions=6)
    with pytest.raises(demo.DemoError, match="only into an empty site"):
        demo.demo_federation_load(today=TODAY)
    assert not django_user_model.objects.filter(email=demo.ORGANIZER).exists()


@pytest.mark.django_db(transaction=True)  # committed: the mail is sent on commit
def test_the_command_needs_debug_and_keeps_the_mail_in_memory(settings, capsys) -> None:
    settings.DEBUG = False
    with pytest.raises(CommandError, match="DEBUG"):
        call_command("load_demo")
    settings.DEBUG = True
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    call_command("load_demo")
    out = capsys.readouterr().out
    assert "Demo federation loaded" in out and "treasurer@example.org / mahjong-demo" in out
    assert "Subject:" not in out  # no message printed to the console
    call_command("load_demo")
    assert "already loaded" in capsys.readouterr().out
    # the applications and approvals were mailed, into memory, to example.org addresses
    assert len(mail.outbox) >= len(demo.MEMBERS)
    assert all(m.to[0].endswith("@example.org") for m in mail.outbox)

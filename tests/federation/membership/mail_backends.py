"""Mail backends for the mailing tests: one that stops the process on the Nth message (a
crash or a deploy half-way), one that refuses some addresses (the server's refusal)."""

from __future__ import annotations

from smtplib import SMTPRecipientsRefused

from django.core.mail.backends.locmem import EmailBackend


class Interrupted(BaseException):
    """What stops a run: not an error the sender may catch."""


class InterruptingBackend(EmailBackend):
    stop_at: int | None = None  # stop when asked for this message (1-based), then never
    handed_over = 0

    def send_messages(self, messages):
        sent = 0
        for message in messages:
            if InterruptingBackend.stop_at is not None and (
                InterruptingBackend.handed_over + 1 == InterruptingBackend.stop_at
            ):
                InterruptingBackend.stop_at = None
                raise Interrupted
            sent += super().send_messages([message])
            InterruptingBackend.handed_over += 1
        return sent


class RefusingBackend(EmailBackend):
    refused: set[str] = set()

    def send_messages(self, messages):
        for message in messages:
            if set(message.to) & RefusingBackend.refused:
                raise SMTPRecipientsRefused({message.to[0]: (550, b"No such user")})
        return super().send_messages(messages)


class DyingBackend(EmailBackend):
    """A mail server that goes away at the Nth message (and stays away until told)."""

    die_at: int | None = None
    handed_over = 0

    def send_messages(self, messages):
        from smtplib import SMTPServerDisconnected

        sent = 0
        for message in messages:
            if DyingBackend.die_at is not None and DyingBackend.handed_over + 1 >= \
                    DyingBackend.die_at:
                raise SMTPServerDisconnected("Connection unexpectedly closed")
            sent += super().send_messages([message])
            DyingBackend.handed_over += 1
        return sent

"""The signed unsubscribe link of every mailing (decision 0315): the token says who and which
kind of mail (and which mailing it came in), so the one-click unsubscribe page
(``federation.member_mail_views``) needs no login. The salt never changes: a link in an old
mail still works.
"""

from __future__ import annotations

from django.core import signing

from federation.models import MailKind, Member

UNSUBSCRIBE_SALT = "federation.mail.unsubscribe"


def unsubscribe_token(member: Member, kind: str, mailing_id: int | None = None) -> str:
    return signing.dumps({"m": member.public_id.hex, "k": kind, "g": mailing_id},
                         salt=UNSUBSCRIBE_SALT, compress=True)


def unsubscribe_token_read(token: str) -> tuple[Member, str, int | None] | None:
    """The member, kind of mail and mailing of a valid unsubscribe token, else None. Tokens
    do not expire: a link in an old mail still works."""
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or data.get("k") not in MailKind.values:
        return None
    member = Member.objects.filter(public_id=data.get("m"), anonymised_at__isnull=True).first()
    mailing_id = data.get("g") if isinstance(data.get("g"), int) else None
    return (member, data["k"], mailing_id) if member else None

"""Who a mailing reaches and why (decision 0315): its audience, minus the members who do not
want its kind of mail or have no address, and the line that tells a member why they receive
it; each member's choices of mail (the consent the audiences honour); how far the sending of
a mailing has got (its progress). Reads only: the writes are in ``federation.services``
(``federation/services/mailings.py``); the signed unsubscribe links are in
``federation.unsubscribe_tokens``.

An audience other apps know about (the entrants of a tournament) is registered here by that
app (``audience_register``), so that membership never imports the apps above it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from federation import selectors
from federation.models import (
    MAIL_KIND_DEFAULTS,
    Club,
    MailConsent,
    Mailing,
    MailKind,
    Member,
)
from federation.rules.dues import Status
from federation.rules.standing import GOOD_STANDING


@dataclass(frozen=True)
class ExternalAudience:
    """An audience another app defines: its choices (id, label) for the editor, the members
    it holds for one id, and the name of that id for the reason line; and the accounts
    without membership it holds (``guest_user_ids``: a tournament's paying guests)."""

    choices: Callable[[], list[tuple[int, str]]]
    member_ids: Callable[[int], Iterable[int]]
    name: Callable[[int], str | None]
    guest_user_ids: Callable[[int], Iterable[int]] | None = None


_EXTERNAL: dict[str, ExternalAudience] = {}


def audience_register(audience: str, source: ExternalAudience) -> None:
    _EXTERNAL[audience] = source


def external_audience(audience: str) -> ExternalAudience | None:
    return _EXTERNAL.get(audience)


def _candidates() -> QuerySet[Member]:
    """Members who can receive mail at all: approved, not erased, with an address."""
    return (
        Member.objects.filter(application=Member.Application.APPROVED, anonymised_at__isnull=True)
        .exclude(Q(email="") & (Q(user__isnull=True) | Q(user__email="")))
        .select_related("user", "membership_type")
    )


def member_address(member: Member) -> str:
    return member.email or (member.user.email if member.user else "")


def _consenting(queryset: QuerySet[Member], kind: str, country: str = "") -> QuerySet[Member]:
    said_no = MailConsent.objects.filter(kind=kind, granted=False).values("member_id")
    said_yes = MailConsent.objects.filter(kind=kind, granted=True)
    if country:
        said_yes = said_yes.filter(country=country)
    if MAIL_KIND_DEFAULTS[kind] and not country:
        return queryset.exclude(pk__in=said_no)
    return queryset.filter(pk__in=said_yes.values("member_id"))


def _with_status(queryset: QuerySet[Member], statuses: frozenset[str]) -> list[Member]:
    members = list(queryset)
    computed = selectors.member_statuses(members)
    return [m for m in members if computed[m.pk] in statuses]


def mailing_recipients(mailing: Mailing) -> list[Member]:
    """The members a mailing reaches now: its audience, minus those who do not want its kind
    of mail or have no address."""
    country = mailing.country if mailing.audience == Mailing.Audience.FOLLOWERS else ""
    queryset = _consenting(_candidates(), mailing.kind, country).order_by("pk")
    audience = mailing.audience
    if audience == Mailing.Audience.GOOD_STANDING:
        return _with_status(queryset, GOOD_STANDING)
    if audience == Mailing.Audience.LAPSED:
        return _with_status(queryset, frozenset({Status.LAPSED}))
    if audience == Mailing.Audience.CLUB:
        return _with_status(queryset.filter(club_id=mailing.club_id), GOOD_STANDING)
    if audience == Mailing.Audience.FOLLOWERS:
        return list(queryset)
    source = external_audience(audience)
    if source is None or mailing.tournament_id is None:
        return []
    return list(queryset.filter(pk__in=list(source.member_ids(mailing.tournament_id))))


def mailing_guests(mailing: Mailing) -> list[Any]:
    """The accounts without membership a mailing reaches (decision 0728): only an audience
    of another app names any (a tournament's paying guests), each once, with an address, and
    none who is a member (members are reached as members, with their choices of mail)."""
    from django.contrib.auth import get_user_model

    source = external_audience(mailing.audience)
    if source is None or source.guest_user_ids is None or mailing.tournament_id is None:
        return []
    ids = list(source.guest_user_ids(mailing.tournament_id))
    return list(get_user_model().objects.filter(pk__in=ids, is_active=True)
                .exclude(email="").exclude(member__application=Member.Application.APPROVED)
                .order_by("pk"))


def mailing_recipient_count(mailing: Mailing) -> int:
    """How many people a mailing reaches now: its members and its guests."""
    return len(mailing_recipients(mailing)) + len(mailing_guests(mailing))


def audience_description(mailing: Mailing) -> str:
    """Why a member receives this mailing, in the active language (the mail's last lines)."""
    audience = mailing.audience
    if audience == Mailing.Audience.GOOD_STANDING:
        return _("You receive this mail as a member of the federation in good standing.")
    if audience == Mailing.Audience.LAPSED:
        return _("You receive this mail because your membership of the federation has lapsed.")
    if audience == Mailing.Audience.CLUB:
        club = Club.objects.filter(pk=mailing.club_id).first()
        return _("You receive this mail as a member of the club %(club)s.") % {
            "club": club.name if club else "—"
        }
    if audience == Mailing.Audience.FOLLOWERS:
        from django_countries import countries

        return _(
            "You receive this mail because you follow the tournaments in %(country)s."
        ) % {"country": countries.name(mailing.country) or mailing.country}
    source = external_audience(audience)
    name = source.name(mailing.tournament_id) if source and mailing.tournament_id else None
    return _("You receive this mail because you entered the tournament %(tournament)s.") % {
        "tournament": name or "—"
    }


@dataclass(frozen=True)
class KindChoice:
    kind: str
    label: str
    granted: bool
    country: str
    since: Any  # datetime of the last change, None: never chosen (the default)


def member_mail_choices(member: Member) -> list[KindChoice]:
    rows = {c.kind: c for c in member.mail_consents.all()}
    return [
        KindChoice(
            kind=kind.value,
            label=str(kind.label),
            granted=rows[kind].granted if kind in rows else MAIL_KIND_DEFAULTS[kind],
            country=rows[kind].country if kind in rows else _default_country(member),
            since=rows[kind].updated_at if kind in rows else None,
        )
        for kind in MailKind
    ]


def _default_country(member: Member) -> str:
    code = (member.country or "").strip().upper()
    return code if len(code) == 2 else ""


@dataclass(frozen=True)
class Progress:
    pending: int
    sent: int
    failed: int

    @property
    def total(self) -> int:
        return self.pending + self.sent + self.failed


def mailing_progress(mailing: Mailing) -> Progress:
    from django.db.models import Count

    counts = dict(
        mailing.deliveries.values_list("state").annotate(n=Count("pk")).values_list("state", "n")
    )
    return Progress(pending=counts.get("pending", 0) + counts.get("sending", 0),
                    sent=counts.get("sent", 0),
                    failed=counts.get("failed", 0))

"""The member's side of mail: choosing which mails they receive (/<lang>/members/me/mail/)
and the one-click unsubscribe link of every mailing (/<lang>/members/unsubscribe/<token>/).

The unsubscribe link needs no login: the signed token says who and which kind of mail. A
GET shows a page with a button (mail scanners follow links; they must not unsubscribe
anyone); a POST, from that button or from the mail program's one-click button (RFC 8058),
unsubscribes. It carries no CSRF token, so the view is exempt: the token is the proof.
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods
from django_countries import countries

from core.errors import errors_on_form
from federation import mailing_audiences, selectors, services, unsubscribe_tokens
from federation.models import ConsentEvent, MailKind


class MailChoicesForm(forms.Form):
    news = forms.BooleanField(label=MailKind.NEWS.label, required=False)
    tournaments = forms.BooleanField(
        label=gettext_lazy("Tell me when a tournament in my country opens for entries"),
        required=False,
    )
    country = forms.ChoiceField(label=gettext_lazy("Country"), required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["country"].choices = [("", "—"), *list(countries)]

    def clean(self):
        data = super().clean()
        if data.get("tournaments") and not data.get("country"):
            self.add_error("country", _("Choose the country whose tournaments you follow."))
        return data


@login_required
@require_http_methods(["GET", "POST"])
def mail_preferences(request):
    member = selectors.member_for_user(request.user)
    if member is None or member.anonymised_at:
        return redirect("membership:apply")
    choices = {c.kind: c for c in mailing_audiences.member_mail_choices(member)}
    initial = {
        "news": choices[MailKind.NEWS].granted,
        "tournaments": choices[MailKind.TOURNAMENTS].granted,
        "country": choices[MailKind.TOURNAMENTS].country,
    }
    form = MailChoicesForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        with errors_on_form(form, None) as outcome:
            services.mail_consent_set(member=member, kind=MailKind.NEWS, granted=data["news"],
                                      source=ConsentEvent.Source.MEMBER_PAGE)
            services.mail_consent_set(member=member, kind=MailKind.TOURNAMENTS,
                                      granted=data["tournaments"], country=data["country"],
                                      source=ConsentEvent.Source.MEMBER_PAGE)
        if outcome.ok:
            messages.success(request, _("Your choice of mails has been saved."))
            return redirect("membership:mail_preferences")
    return render(request, "federation/mail_preferences.html", {
        "form": form,
        "member": member,
        "choices": list(choices.values()),
        "events": member.consent_events.all()[:20],
    })


@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request, token: str):
    found = unsubscribe_tokens.unsubscribe_token_read(token)
    if found is None:
        return render(request, "federation/unsubscribe.html", {"invalid": True}, status=400)
    member, kind, _mailing_id = found
    kind_label = MailKind(kind).label
    if request.method == "POST":
        services.mail_unsubscribe(token=token)
        return render(request, "federation/unsubscribe.html",
                      {"done": True, "kind_label": kind_label})
    return render(request, "federation/unsubscribe.html",
                  {"kind_label": kind_label, "email": _masked(mailing_audiences.member_address(member))})


def _masked(address: str) -> str:
    """The address as a hint only (a forwarded mail's reader learns no one's address)."""
    local, _at, domain = address.partition("@")
    return f"{local[:1]}…@{domain}" if domain else "…"

"""The editors' mailing screens in the Wagtail admin (/admin/mailings/): the list, writing
(texts per language, kind of mail, audience), the preview in each language with the number
of recipients, a test to oneself, sending, and the progress with failures. Everything needs
``federation.send_mailing`` (the editors' group has it)."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods

from core.errors import errors_as_messages, errors_on_form
from federation import emails, mailing_audiences, services
from federation.models import Club, Mailing, MailingDelivery, MailKind

PERMISSION = "federation.send_mailing"
FAILURES_SHOWN = 50
EDITOR_AUDIENCES = [
    (value, label) for value, label in Mailing.Audience.choices
    if value != Mailing.Audience.FOLLOWERS
]


def _header(*trail: tuple[str, str]) -> dict:
    """Wagtail's slim header: breadcrumbs from the admin's home to this page."""
    items = [{"url": reverse("wagtailadmin_home"), "label": _("Dashboard")},
             {"url": reverse("mailing_index"), "label": _("Mailings")}]
    items += [{"url": url, "label": label} for url, label in trail]
    return {"breadcrumbs_items": items, "header_icon": "mail",
            "header_title": items[-1]["label"]}


def _require(request) -> None:
    if not request.user.has_perm(PERMISSION):
        raise PermissionDenied


class MailingForm(forms.Form):
    kind = forms.ChoiceField(label=gettext_lazy("Kind of mail"), choices=MailKind.choices,
                             help_text=gettext_lazy("Only members who want this kind of mail "
                                                    "receive it."))
    audience = forms.ChoiceField(label=gettext_lazy("Audience"), choices=EDITOR_AUDIENCES)
    club = forms.ModelChoiceField(label=gettext_lazy("Club"), queryset=Club.objects.all(),
                                  required=False)
    tournament = forms.TypedChoiceField(label=gettext_lazy("Tournament"), coerce=int,
                                        required=False, empty_value=None)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        source = mailing_audiences.external_audience(Mailing.Audience.TOURNAMENT)
        self.fields["tournament"].choices = [("", "—"), *(source.choices() if source else [])]
        for code, name in settings.LANGUAGES:
            required = code == settings.LANGUAGE_CODE
            self.fields[f"subject_{code}"] = forms.CharField(
                label=_("Subject (%(language)s)") % {"language": name}, max_length=200,
                required=required)
            self.fields[f"body_{code}"] = forms.CharField(
                label=_("Text (%(language)s)") % {"language": name}, required=required,
                widget=forms.Textarea(attrs={"rows": 8}),
                help_text=_("Members who read %(language)s get the default language's text "
                            "when this is empty.") % {"language": name} if not required else "")

    def clean(self):
        data = super().clean()
        if data.get("audience") == Mailing.Audience.CLUB and not data.get("club"):
            self.add_error("club", _("Choose the club."))
        if data.get("audience") == Mailing.Audience.TOURNAMENT and not data.get("tournament"):
            self.add_error("tournament", _("Choose the tournament."))
        for code, _name in settings.LANGUAGES:
            subject, body = data.get(f"subject_{code}"), data.get(f"body_{code}")
            if bool(subject) != bool(body):
                field = f"body_{code}" if subject else f"subject_{code}"
                self.add_error(field, _("Write both the subject and the text, or neither."))
        return data

    def texts(self) -> dict[str, tuple[str, str]]:
        data = self.cleaned_data
        return {code: (data.get(f"subject_{code}") or "", data.get(f"body_{code}") or "")
                for code, _name in settings.LANGUAGES}

    def service_kwargs(self) -> dict:
        data = self.cleaned_data
        return {"kind": data["kind"], "audience": data["audience"], "club": data.get("club"),
                "tournament_id": data.get("tournament"), "texts": self.texts()}


def _initial(mailing: Mailing) -> dict:
    initial = {"kind": mailing.kind, "audience": mailing.audience, "club": mailing.club_id,
               "tournament": mailing.tournament_id}
    for text in mailing.translations.all():
        initial[f"subject_{text.language}"] = text.subject
        initial[f"body_{text.language}"] = text.body
    return initial


def mailing_index(request):
    _require(request)
    rows = (
        Mailing.objects.select_related("queued_by")
        .prefetch_related("translations")
        .annotate(
            n_pending=Count("deliveries", filter=Q(deliveries__state="pending")),
            n_sent=Count("deliveries", filter=Q(deliveries__state="sent")),
            n_failed=Count("deliveries", filter=Q(deliveries__state="failed")),
        )[:200]
    )
    return render(request, "federation/admin/mailing_index.html",
                  {"mailings": rows, **_header()})


@require_http_methods(["GET", "POST"])
def mailing_new(request):
    _require(request)
    initial = {}
    texts = request.session.pop("mailing_from_post", None) if request.method == "GET" else None
    if texts:  # a news post's translations, handed over by the content app
        for code, (subject, body) in texts.items():
            initial[f"subject_{code}"], initial[f"body_{code}"] = subject, body
    form = MailingForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        with errors_on_form(form, None) as outcome:
            mailing = services.mailing_create(user=request.user, **form.service_kwargs())
        if outcome.ok:
            return redirect("mailing_detail", pk=mailing.pk)
    return render(request, "federation/admin/mailing_form.html",
                  {"form": form, "mailing": None, **_header(("", _("Write a mailing")))})


def _get(pk) -> Mailing:
    if not str(pk).isdigit():
        raise Http404
    return get_object_or_404(Mailing.objects.prefetch_related("translations"), pk=pk)


@require_http_methods(["GET", "POST"])
def mailing_edit(request, pk):
    _require(request)
    mailing = _get(pk)
    if mailing.state != Mailing.State.DRAFT:
        return redirect("mailing_detail", pk=mailing.pk)
    form = MailingForm(request.POST or None, initial=_initial(mailing))
    if request.method == "POST" and form.is_valid():
        with errors_on_form(form, None) as outcome:
            services.mailing_update(mailing=mailing, user=request.user, **form.service_kwargs())
        if outcome.ok:
            return redirect("mailing_detail", pk=mailing.pk)
    return render(request, "federation/admin/mailing_form.html", {
        "form": form, "mailing": mailing,
        **_header((reverse("mailing_detail", args=[mailing.pk]), str(mailing)),
                  ("", _("Edit the mailing")))})


@require_http_methods(["GET", "POST"])
def mailing_detail(request, pk):
    _require(request)
    mailing = _get(pk)
    languages = dict(settings.LANGUAGES)
    language = request.GET.get("lang") or request.POST.get("lang") or settings.LANGUAGE_CODE
    if language not in languages:
        language = settings.LANGUAGE_CODE
    if request.method == "POST":
        action = request.POST.get("action")
        with errors_as_messages(request):
            if action == "test":
                address = services.mailing_test_send(mailing=mailing, user=request.user,
                                                     language=language)
                messages.success(request, _("A test in %(language)s was sent to %(email)s.")
                                 % {"language": languages[language], "email": address})
            elif action == "send":
                count = services.mailing_send(mailing=mailing, user=request.user)
                messages.success(request, ngettext(
                    "The mailing is on its way to %(count)s member.",
                    "The mailing is on its way to %(count)s members.", count) % {"count": count})
            elif action == "retry":
                count = services.mailing_retry_failed(mailing=mailing, user=request.user)
                messages.success(request, ngettext(
                    "%(count)s failed mail will be sent again.",
                    "%(count)s failed mails will be sent again.", count) % {"count": count})
            else:
                raise Http404
        return redirect(f"{request.path}?lang={language}")
    preview = emails.mailing_message(mailing, None, language, request.user.email or "-",
                                     preview=True)
    text = mailing.translations.filter(language=language).first()
    draft = mailing.state == Mailing.State.DRAFT
    return render(request, "federation/admin/mailing_detail.html", {
        "mailing": mailing,
        "language": language,
        "languages": settings.LANGUAGES,
        "translated": {t.language for t in mailing.translations.all()},
        "fallback": text is None,
        "preview": preview,
        "subject": preview.subject,
        "recipients": mailing_audiences.mailing_recipient_count(mailing) if draft else None,
        "progress": mailing_audiences.mailing_progress(mailing),
        **_header(("", str(mailing))),
        "failures": mailing.deliveries.filter(state=MailingDelivery.State.FAILED)
        .select_related("member", "guest")[:FAILURES_SHOWN],
    })


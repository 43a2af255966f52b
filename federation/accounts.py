"""django-allauth adapter: the account's language, where to go after logging in and out,
and emails that name the federation (WAGTAIL_SITE_NAME), not the host, sent through the
outbox (``federation.outbox``) after the commit."""

from __future__ import annotations

from dataclasses import dataclass

from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings
from django.utils import translation

from federation import outbox


@dataclass(frozen=True)
class FederationSite:
    """Stands in for django.contrib.sites' Site in allauth's email templates."""

    name: str
    domain: str


def _current_language() -> str:
    language = translation.get_language() or settings.LANGUAGE_CODE
    return language if language in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


class AccountAdapter(DefaultAccountAdapter):
    def save_user(self, request, user, form, commit=True):
        user.language = _current_language()
        return super().save_user(request, user, form, commit=commit)

    def get_login_redirect_url(self, request):
        # Logged in on /ru/...: stay in Russian (a bare "/" would pick the browser's language).
        url = super().get_login_redirect_url(request)
        return f"/{_current_language()}/" if url == "/" else url

    def get_logout_redirect_url(self, request):
        url = super().get_logout_redirect_url(request)
        return f"/{_current_language()}/" if url == "/" else url

    def send_mail(self, template_prefix, email, context):
        from allauth.core import context as allauth_context

        request = allauth_context.request
        domain = request.get_host() if request is not None else ""
        context = {
            "request": request,
            "email": email,
            **context,
            "current_site": FederationSite(str(settings.WAGTAIL_SITE_NAME), domain),
        }
        # Written now, in the request's language; sent after the commit of what caused it
        # (the new account), and queued when the mail server fails (decision 0901).
        message = self.render_mail(template_prefix, email, context)
        outbox.after_commit(lambda: outbox.deliver(message))

"""django-allauth adapter: the account's language, where to go after logging in and out,
and emails that name the federation (WAGTAIL_SITE_NAME), not the host."""

from __future__ import annotations

from dataclasses import dataclass

from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings
from django.utils import translation


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
            **context,
            "current_site": FederationSite(str(settings.WAGTAIL_SITE_NAME), domain),
        }
        return super().send_mail(template_prefix, email, context)

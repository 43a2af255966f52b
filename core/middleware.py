"""A signed-in person without admin access who opens /admin/ is told so once (403), instead
of Wagtail sending them to the login page, which sends them back to /admin/ (a loop).

Also: the site's LocaleMiddleware (Django's, except that API 404s are not redirected and
the API speaks English to a client that states no language).
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.middleware.locale import LocaleMiddleware as DjangoLocaleMiddleware
from django.template.response import TemplateResponse
from django.utils import translation
from django.utils.translation import gettext as _

ADMIN_PREFIX = "/admin/"
API_PREFIX = "/api/"
API_DEFAULT_LANGUAGE = "en"
ALWAYS_OPEN = ("/admin/login/", "/admin/logout/", "/admin/password_reset/")


class AdminAccessMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if (
            request.path.startswith(ADMIN_PREFIX)
            and not request.path.startswith(ALWAYS_OPEN)
            and user is not None
            and user.is_authenticated
            and not user.has_perm("wagtailadmin.access_admin")
        ):
            # /admin/ has no language prefix: speak the language the person last read the
            # site in (the cookie LocaleMiddleware keeps), else the account's language.
            with translation.override(browsing_language(request) or getattr(user, "language", None)
                                      or settings.LANGUAGE_CODE):
                response = TemplateResponse(
                    request,
                    "403.html",
                    {"reason": _("Your account has no access to the administration.")},
                    status=403,
                )
                return response.render()
        return self.get_response(request)


class LocaleMiddleware(DjangoLocaleMiddleware):
    """Django's LocaleMiddleware, except that an API (or payment webhook) 404 stays a 404.

    Django redirects a 404 outside the language prefix to the prefixed path when that path
    resolves, and Wagtail's catch-all page route resolves every path: without this an API
    client asking for a tournament it may not see would get a redirect to an HTML page.
    """

    def process_request(self, request):
        # an API client that states no language (no Accept-Language, no language cookie) is
        # answered in English, the API's language, not in the site's default (issue 41)
        if (
            request.path_info.startswith(API_PREFIX)
            and not request.META.get("HTTP_ACCEPT_LANGUAGE")
            and not browsing_language(request)
        ):
            translation.activate(API_DEFAULT_LANGUAGE)
            request.LANGUAGE_CODE = translation.get_language()
            return
        super().process_request(request)

    def process_response(self, request, response):
        # the API and the payment providers' webhooks (/payments/) are machines' URLs
        if request.path_info.startswith(("/api/", "/payments/")):
            return response
        remember_language(request, response)
        return super().process_response(request, response)


def browsing_language(request: HttpRequest) -> str | None:
    """The language of the last page with a language prefix the person read (its cookie)."""
    value = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
    return value if value and translation.check_for_language(value) else None


def remember_language(request: HttpRequest, response: HttpResponse) -> None:
    """A page under a language prefix (/ru/...) remembers its language in Django's language
    cookie, so that the pages without one (the admin's "no access", the sign-in redirects)
    speak the language the person was reading, not their browser's default."""
    language = translation.get_language_from_path(request.path_info)
    if (
        language
        and response.status_code < 400
        and request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) != language
    ):
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME, language,
            max_age=settings.LANGUAGE_COOKIE_AGE or 365 * 24 * 3600,
            path=settings.LANGUAGE_COOKIE_PATH, domain=settings.LANGUAGE_COOKIE_DOMAIN,
            secure=settings.LANGUAGE_COOKIE_SECURE or settings.SESSION_COOKIE_SECURE,
            httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE or "Lax",
        )

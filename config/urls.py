"""URL map: admin, API, sitemap outside the language prefix; every public page inside it."""

from django.conf import settings
from django.conf.urls.i18n import i18n_patterns
from django.contrib.sitemaps import views as sitemap_views
from django.urls import include, path
from django.views.decorators.cache import cache_page
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from wagtail import urls as wagtail_urls
from wagtail.admin import urls as wagtailadmin_urls
from wagtail.documents import urls as wagtaildocs_urls

from content import views as content_views
from content.sitemaps import language_sitemaps
from core.health import healthz
from federation import account_views, online_payments
from rulebook import calculator_views as rulebook_calculator_views

SITEMAPS = language_sitemaps()

urlpatterns = [
    # One login and one password reset for the site and the admin (decision 0002): Wagtail's
    # own forms lead to allauth's, with its rate limits and e-mail confirmation
    path("admin/login/", account_views.admin_login),
    path("admin/password_reset/", account_views.admin_password_reset),
    path("admin/", include(wagtailadmin_urls)),
    path("documents/", include(wagtaildocs_urls)),
    # an index of one section a language, each cached (issue 43)
    path("sitemap.xml", cache_page(settings.SITEMAP_CACHE_SECONDS)(sitemap_views.index),
         {"sitemaps": SITEMAPS, "sitemap_url_name": "sitemap-section"}),
    path("sitemap-<section>.xml", cache_page(settings.SITEMAP_CACHE_SECONDS)(
        sitemap_views.sitemap), {"sitemaps": SITEMAPS}, name="sitemap-section"),
    path("healthz", healthz, name="healthz"),
    path("api/v1/", include("config.api_urls")),
    # django-payments: providers' webhooks (Stripe's, signature checked, answered 400 if bad)
    path("payments/process/stripe/", online_payments.stripe_webhook, name="stripe_webhook"),
    path("payments/", include("payments.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # Swagger UI with its start-up script from a URL of its own (no inline script: CSP)
    path(
        "api/docs/",
        SpectacularSwaggerSplitView.as_view(
            url_name="api-schema", template_name="core/swagger_ui.html"
        ),
        name="api-docs",
    ),
    path("i18n/", include("django.conf.urls.i18n")),
]

urlpatterns += i18n_patterns(
    path("accounts/api-token/", account_views.api_token, name="api_token"),
    path("accounts/", include("allauth.urls")),
    path("search/", content_views.search, name="search"),
    path("members/", include("federation.member_urls")),
    path("calculator/", rulebook_calculator_views.calculator, name="calculator"),
    path("tournaments/", include("tournaments.urls")),
    path("ratings/", include("ratings.urls")),
    path("clubs/", include("ratings.club_urls")),
    path("", include(wagtail_urls)),
    prefix_default_language=True,
)

if settings.DEBUG:
    from django.conf.urls.static import static

    urlpatterns = static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT) + urlpatterns

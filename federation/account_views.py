"""The signed-in user's account pages that are not allauth's own: the API token; and the
doors of Wagtail's own login and password reset, which lead to allauth's (decision 0002)."""

from __future__ import annotations

from urllib.parse import urlencode

from allauth.account.decorators import verified_email_required
from django.contrib import messages
from django.http import HttpRequest, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from core.tokens import api_token_get_or_create, api_token_renew


@verified_email_required
@require_http_methods(["GET", "POST"])
def api_token(request):
    """The user's API token. Only for an account whose e-mail address is confirmed (the
    others are mailed the confirmation again and told so, allauth's page)."""
    if request.method == "POST":
        api_token_renew(user=request.user)
        messages.success(request, _("A new API token was created; the old one no longer works."))
        return redirect("api_token")
    token = api_token_get_or_create(user=request.user)
    return render(request, "federation/api_token.html", {"token": token})


def admin_login(request: HttpRequest) -> HttpResponseRedirect:
    """``/admin/login/``: Wagtail's own form would take passwords without the site's rate
    limits and without the e-mail confirmation; the one login is allauth's, and back to
    the admin (or to ``next``) afterwards. A password posted here signs nobody in."""
    next_url = request.GET.get("next") or reverse("wagtailadmin_home")
    return HttpResponseRedirect(f"{reverse('account_login')}?{urlencode({'next': next_url})}")


def admin_password_reset(request: HttpRequest) -> HttpResponseRedirect:
    """``/admin/password_reset/``: the one password reset is allauth's (rate-limited)."""
    return HttpResponseRedirect(reverse("account_reset_password"))

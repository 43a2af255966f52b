"""The signed-in user's account pages that are not allauth's own: the API token."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from core.tokens import api_token_get_or_create, api_token_renew


@never_cache  # the token is a password: no browser or proxy keeps the page
@login_required
@require_http_methods(["GET", "POST"])
def api_token(request):
    if request.method == "POST":
        api_token_renew(user=request.user)
        messages.success(request, _("A new API token was created; the old one no longer works."))
        return redirect("api_token")
    token = api_token_get_or_create(user=request.user)
    return render(request, "federation/api_token.html", {"token": token})

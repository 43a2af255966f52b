"""API tokens: the account page, the management command, token authentication, /healthz."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from rest_framework.authtoken.models import Token

pytestmark = pytest.mark.django_db


@pytest.fixture
def user(django_user_model):
    from allauth.account.models import EmailAddress

    user = django_user_model.objects.create_user(
        username="organizer", email="organizer@example.org", password="secret-pass-123"
    )
    # the token page is for confirmed addresses (tests/config/test_one_login.py)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


def test_api_token_command_creates_then_repeats_the_same_key(user):
    first, second = StringIO(), StringIO()
    call_command("api_token", "Organizer@Example.org", stdout=first)
    call_command("api_token", "organizer@example.org", stdout=second)
    key = first.getvalue().strip()
    assert key == Token.objects.get(user=user).key
    assert second.getvalue().strip() == key


def test_api_token_command_unknown_email_is_an_error(db):
    with pytest.raises(CommandError, match=r"nobody@example\.org"):
        call_command("api_token", "nobody@example.org")


def test_token_page_needs_login(client):
    response = client.get("/en/accounts/api-token/")
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


def test_token_page_shows_and_renews_the_users_token(client, user):
    client.force_login(user)
    page = client.get("/en/accounts/api-token/")
    key = Token.objects.get(user=user).key
    assert page.status_code == 200
    assert key in page.content.decode()
    renewed = client.post("/en/accounts/api-token/", follow=True)
    new_key = Token.objects.get(user=user).key
    assert new_key != key
    assert new_key in renewed.content.decode()


def test_token_page_is_translated(client, user):
    client.force_login(user)
    assert "API-токен" in client.get("/ru/accounts/api-token/").content.decode()


def test_healthz_answers_ok_without_language_prefix(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "cache": "ok"}
    assert client.post("/healthz").status_code == 405


def test_cached_token_authentication_forgets_a_renewed_token(client, user):
    import json

    from core.tokens import api_token_get_or_create, api_token_renew

    old = api_token_get_or_create(user=user).key
    body = json.dumps({"hand": "123m456p789s123s5s5s"})

    def status(key):
        return client.post("/api/v1/score", body, content_type="application/json",
                           HTTP_AUTHORIZATION=f"Token {key}").status_code

    assert status(old) == 200
    assert status(old) == 200  # from the cache now
    new = api_token_renew(user=user).key
    assert status(old) == 401
    assert status(new) == 200
    user.is_active = False
    user.save()
    assert status(new) == 401

"""Accounts through django-allauth: sign-up with verification, login, logout, reset, email."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.utils import translation
from django.utils.translation import gettext

from tests.factories import DEFAULT_PASSWORD, StaffUserFactory, UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-enough-pass-phrase"


@pytest.fixture
def client(client, django_capture_on_commit_callbacks):
    """Mail goes out after the commit (decision 0901); a test's requests run inside the
    test's transaction, so each POST runs its commit callbacks as a real commit would."""
    post = client.post

    def post_and_commit(*args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return post(*args, **kwargs)

    client.post = post_and_commit
    return client


def sign_up(client, email="new@example.org", language="en"):
    return client.post(
        f"/{language}/accounts/signup/",
        {"email": email, "password1": PASSWORD, "password2": PASSWORD},
    )


def log_in(client, email, password=PASSWORD, language="en"):
    return client.post(f"/{language}/accounts/login/", {"login": email, "password": password})


def link_in(message) -> str:
    match = re.search(r"https?://[^/\s]+(/\S+)", message.body)
    assert match, message.body
    return match.group(1)


def test_sign_up_sends_a_verification_email_and_blocks_login_until_verified(client):
    response = sign_up(client)
    assert response.status_code == 302
    assert response["Location"] == "/en/accounts/confirm-email/"
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["new@example.org"]
    confirm_path = link_in(mail.outbox[0])
    assert confirm_path.startswith("/en/accounts/confirm-email/")

    user = get_user_model().objects.get(email="new@example.org")
    assert user.language == "en"
    client.logout()
    response = log_in(client, "new@example.org")
    # Not verified: allauth stops at the "verify your email" page, no session is opened.
    assert response.status_code == 302
    assert response["Location"] == "/en/accounts/confirm-email/"
    assert "_auth_user_id" not in client.session

    client.post(confirm_path)
    response = log_in(client, "new@example.org")
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(user.pk)


def test_verification_email_is_in_the_language_of_the_sign_up(client):
    sign_up(client, email="ru@example.org", language="ru")
    sign_up(client, email="fr@example.org", language="fr")
    subjects = {message.to[0]: message.subject for message in mail.outbox}
    for language in ("ru", "fr"):
        with translation.override(language):
            expected = gettext("Please Confirm Your Email Address")
        assert subjects[f"{language}@example.org"] == expected
    assert subjects["ru@example.org"] != subjects["fr@example.org"]
    assert get_user_model().objects.get(email="ru@example.org").language == "ru"


def test_verified_user_logs_in_and_out(client):
    user = UserFactory(email="player@example.org")
    response = log_in(client, user.email, DEFAULT_PASSWORD)
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(user.pk)
    response = client.post("/en/accounts/logout/")
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


def test_wrong_password_is_refused(client):
    UserFactory(email="player@example.org")
    response = log_in(client, "player@example.org", "wrong-password")
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session


def test_failed_logins_are_rate_limited(client):
    UserFactory(email="target@example.org")
    too_many = "Too many failed login attempts. Try again later."
    for attempt in range(5):
        response = log_in(client, "target@example.org", f"guess-{attempt}")
        assert response.status_code == 200
        assert too_many not in response.content.decode()
    # After five failures on one account within 5 minutes even the right password is refused.
    response = log_in(client, "target@example.org", DEFAULT_PASSWORD)
    assert too_many in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_password_reset_mail_arrives_and_resets(client):
    user = UserFactory(email="forgetful@example.org", language="nl")
    response = client.post("/nl/accounts/password/reset/", {"email": user.email})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == [user.email]
    reset_path = link_in(message)
    assert reset_path.startswith("/nl/accounts/password/reset/key/")

    response = client.get(reset_path, follow=True)
    form_path = response.redirect_chain[-1][0] if response.redirect_chain else reset_path
    response = client.post(form_path, {"password1": "brand-new-pass-99", "password2": "brand-new-pass-99"})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("brand-new-pass-99")


def test_change_email_requires_verifying_the_new_address(client):
    user = UserFactory(email="old@example.org")
    client.force_login(user)
    response = client.post(
        "/en/accounts/email/", {"action_add": "", "email": "new-address@example.org"}
    )
    assert response.status_code == 302
    assert mail.outbox[-1].to == ["new-address@example.org"]
    user.refresh_from_db()
    assert user.email == "old@example.org"  # unchanged until the new address is confirmed
    client.post(link_in(mail.outbox[-1]))
    user.refresh_from_db()
    assert user.email == "new-address@example.org"


def test_admin_redirects_anonymous_users_to_login(client):
    response = client.get("/admin/")
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]
    assert "next=/admin/" in response["Location"]


def test_admin_refuses_non_staff(client):
    # Issue 13: no redirect to the login page (which sent a signed-in user back: a loop).
    client.force_login(UserFactory())
    response = client.get("/admin/")
    assert response.status_code == 403
    assert "Нет доступа" in response.content.decode()  # the account's language (default ru)


def test_admin_opens_for_staff(client, site_content):
    client.force_login(StaffUserFactory())
    response = client.get("/admin/")
    assert response.status_code == 200
